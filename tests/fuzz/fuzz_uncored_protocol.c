/* Fuzz target: uncored's protocol as a hostile client speaks it
 * (src/service/server.c, src/backend/service/protocol.c): the input is a
 * sequence of messages, each a 16-bit little-endian length and that many
 * bytes (a length of 0xffff: the client hangs up and another connects),
 * handled by a service on a private simulated node.  Every message gets a
 * reply that fits UNCORED_MSG_MAX and passes the client's own check of
 * its operation, or an error with its reason; the service never crashes
 * and, once the clients are gone, holds nothing. */
#include <stdio.h>

#include "bind/component.h"
#include "common/uncore_error.h"
#include "fuzz.h"
#include "service/server.h"

static struct uncore_settings settings;
static struct uncore_component *comp;
static struct uncored_snapshot *snap;
static _Alignas(uint64_t) char reply[UNCORED_MSG_MAX];

static void setup(void)
{
	if (uncore_settings_read(&settings) < 0)
		abort();
	snprintf(settings.backend, sizeof(settings.backend), "sim");
	snprintf(settings.sim, sizeof(settings.sim), "e5-2699v3-2s");
	snprintf(settings.service, sizeof(settings.service), "none");
	settings.sim_kernel[0] = settings.sim_scenario[0] = settings.sim_log[0] = '\0';
	if (uncore_component_open(&settings, &comp) < 0 || !(snap = calloc(1, uncored_snapshot_size())))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!comp)
		setup();
	struct uncored_server *srv;
	struct uncored_client *cl;
	const struct uncored_server_config cfg = {comp->share, comp->be, &comp->clock, comp->origin, NULL};
	if (uncored_server_create(&cfg, snap, &srv) < 0 || uncored_client_new(srv, &cl) < 0)
		abort();
	const struct uncored_peer peer = {1000, 1000, 4242, "fuzz", 0, {0}};
	uncored_client_set_peer(cl, &peer);
	size_t at = 0;
	while (at + 2 <= size) {
		size_t len = (size_t)data[at] | (size_t)data[at + 1] << 8;
		at += 2;
		if (len == 0xffff) {
			uncored_client_free(srv, cl);
			if (uncored_client_new(srv, &cl) < 0)
				abort();
			uncored_client_set_peer(cl, &peer);
			continue;
		}
		if (len > size - at)
			len = size - at;
		/* A copy of exactly len bytes: a read past it is ASan's to catch. */
		uint8_t *msg = malloc(len ? len : 1);
		if (!msg)
			abort();
		memcpy(msg, data + at, len);
		at += len;
		size_t rlen = 0;
		int with_fd = 0;
		uncored_server_handle(srv, cl, msg, len, reply, &rlen, &with_fd);
		free(msg);
		const struct uncored_reply *h = (const struct uncored_reply *)reply;
		if (rlen < sizeof(*h) || rlen > UNCORED_MSG_MAX || h->magic != UNCORED_MAGIC)
			abort();
		if (h->status < 0) {
			if (!memchr(h->detail, '\0', sizeof(h->detail)) || !h->detail[0])
				abort(); /* a refusal says why */
		} else if (uncored_reply_check(reply, rlen, h->op) < 0) {
			abort(); /* a reply the client would take for malformed */
		}
		uncore_error_clear();
	}
	uncored_client_free(srv, cl);
	struct uncored_status st;
	uncored_server_status(srv, &st);
	if (st.clients || st.events || st.slots)
		abort(); /* a client gone leaves nothing */
	uncored_server_destroy(srv);
	return 0;
}
