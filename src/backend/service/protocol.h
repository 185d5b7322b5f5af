/* uncored's wire protocol (README "uncored, the node service"): one
 * request and one reply per message on a SOCK_SEQPACKET Unix socket, each
 * a fixed header and a payload whose size the header's operation fixes.
 * Every message the service receives goes through uncored_request_check
 * first: a malformed or oversized one is an error reply, never a crash
 * (tests/fuzz). */
#ifndef UNCORE_SERVICE_PROTOCOL_H
#define UNCORE_SERVICE_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "plan/machine.h"

#define UNCORED_MAGIC   0x31444355u /* "UCD1" */
#define UNCORED_VERSION 2u /* 2: the snapshot says when its sample was read */
/* Where clients look unless PAPI_INTEL_UNCORE_SERVICE says otherwise. */
#define UNCORED_DEFAULT_SOCKET "/run/uncored/uncored.sock"
#define UNCORED_NAME_MAX       256
/* The service samples every event at least this often while any is
 * counted: how old a client's plain read (a snapshot read) may be.  An
 * interval's start and end take a fresh sample (UNCORED_SAMPLE). */
#define UNCORED_SAMPLE_PERIOD_MS 100
/* (a multiple of 8 with the reply's 16 header bytes: every payload after a
 * reply is 8-byte aligned in an aligned buffer; tests/fuzz found it was not) */
#define UNCORED_DETAIL_MAX     304
/* Per client: events, and box instances over all its events. */
#define UNCORED_CLIENT_MAX_EVENTS 256
#define UNCORED_EVENT_MAX_SLOTS   2048
/* The largest message either side sends (a HELLO reply: the machine). */
#define UNCORED_MSG_MAX (sizeof(struct uncored_reply) + sizeof(struct uncored_hello))

enum uncored_op {
	UNCORED_HELLO = 1,  /* name: the client's measurement group ("" alone);
			     * reply: the machine; the snapshot's descriptor beside it */
	UNCORED_ADD = 2,    /* name: an event; reply: its id and where its totals are */
	UNCORED_REMOVE = 3, /* id: an event this client added */
	UNCORED_SAMPLE = 4, /* a fresh sample of every event into the snapshot */
	UNCORED_STATUS = 5, /* reply: clients, events, box instances counted */
};

struct uncored_request {
	uint32_t magic, version, op, id;
	char name[UNCORED_NAME_MAX]; /* ADD: NUL-terminated */
};

/* Every reply starts so; status 0 or a negative library code (common/
 * uncore_error.h) with its detail. */
struct uncored_reply {
	uint32_t magic, op;
	int32_t status;
	uint32_t n; /* payload entries (ADD: slots) */
	char detail[UNCORED_DETAIL_MAX];
};
_Static_assert(sizeof(struct uncored_reply) % 8 == 0, "a reply's payload is 8-byte aligned");

/* HELLO's payload: the machine as the service found it, its platform by
 * name (the tables are the client's own), and where the counts come from. */
struct uncored_hello {
	char platform[32];
	char origin[200];
	uint32_t snapshot_values; /* values in the snapshot */
	struct uncore_machine machine; /* plat: NULL, named above */
};

/* ADD's payload: one per box instance of the event. */
struct uncored_slot {
	uint16_t socket;
	uint8_t box, instance;
	uint32_t index; /* of its 64-bit total in the snapshot, or UNCORED_INDEX_NONE */
};
/* A slot another client of the same measurement group counts: it reads 0
 * (the ADD reply's detail names who counts the socket). */
#define UNCORED_INDEX_NONE UINT32_MAX

struct uncored_add_reply {
	uint32_t id;
	uint32_t pad;
	struct uncored_slot slot[UNCORED_EVENT_MAX_SLOTS];
};

struct uncored_status {
	uint32_t clients, events, slots;
	uint32_t pad;
	uint64_t samples;
};

/* A received message: 0 and *out when it is a well-formed request (size,
 * magic, version, a known operation, a terminated name), else
 * UNCORE_EINVAL with the detail saying what is wrong. */
int uncored_request_check(const void *msg, size_t len, struct uncored_request *out);

/* A reply's payload size for operation `op` with `n` entries. */
size_t uncored_reply_size(uint32_t op, uint32_t n);

/* A received reply to `op`: 0, or UNCORE_EIO (malformed), or the
 * status it carries (its detail set as the error's). */
int uncored_reply_check(const void *msg, size_t len, uint32_t op);

#endif
