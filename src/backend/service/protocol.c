/* Checks of uncored's messages (protocol.h): sizes and fields before any
 * use, so that a hostile client's bytes are refused, never trusted. */
#include "backend/service/protocol.h"

#include <stdio.h>
#include <string.h>

#include "common/uncore_error.h"

static const char *op_name(uint32_t op)
{
	switch (op) {
	case UNCORED_HELLO: return "HELLO";
	case UNCORED_ADD: return "ADD";
	case UNCORED_REMOVE: return "REMOVE";
	case UNCORED_SAMPLE: return "SAMPLE";
	case UNCORED_STATUS: return "STATUS";
	default: return NULL;
	}
}

int uncored_request_check(const void *msg, size_t len, struct uncored_request *out)
{
	struct uncored_request r;
	if (len != sizeof(r))
		return uncore_fail(UNCORE_EINVAL, "uncored: a request of %zu bytes (want %zu)", len,
				   sizeof(r));
	memcpy(&r, msg, sizeof(r));
	if (r.magic != UNCORED_MAGIC || r.version != UNCORED_VERSION)
		return uncore_fail(UNCORE_EINVAL,
				   "uncored: not a request of protocol version %u (magic 0x%08x, "
				   "version %u)",
				   UNCORED_VERSION, r.magic, r.version);
	if (!op_name(r.op))
		return uncore_fail(UNCORE_EINVAL, "uncored: unknown operation %u", r.op);
	if (!memchr(r.name, '\0', sizeof(r.name)))
		return uncore_fail(UNCORE_EINVAL, "uncored: an event name of %zu bytes or more",
				   sizeof(r.name));
	*out = r;
	return 0;
}

size_t uncored_reply_size(uint32_t op, uint32_t n)
{
	size_t head = sizeof(struct uncored_reply);
	switch (op) {
	case UNCORED_HELLO: return head + sizeof(struct uncored_hello);
	case UNCORED_ADD:
		return head + offsetof(struct uncored_add_reply, slot) +
		       (n <= UNCORED_EVENT_MAX_SLOTS ? n : 0) * sizeof(struct uncored_slot);
	case UNCORED_STATUS: return head + sizeof(struct uncored_status);
	default: return head;
	}
}

int uncored_reply_check(const void *msg, size_t len, uint32_t op)
{
	struct uncored_reply h;
	if (len < sizeof(h))
		return uncore_fail(UNCORE_EIO, "uncored: a reply of %zu bytes", len);
	memcpy(&h, msg, sizeof(h));
	if (h.magic != UNCORED_MAGIC || h.op != op)
		return uncore_fail(UNCORE_EIO, "uncored: a reply to another request (op %u, want %u)",
				   h.op, op);
	if (h.status < 0) {
		h.detail[sizeof(h.detail) - 1] = '\0';
		return uncore_fail(h.status, "%s", h.detail);
	}
	if ((op == UNCORED_ADD && h.n > UNCORED_EVENT_MAX_SLOTS) || len != uncored_reply_size(op, h.n))
		return uncore_fail(UNCORE_EIO, "uncored: a %s reply of %zu bytes", op_name(op), len);
	return 0;
}
