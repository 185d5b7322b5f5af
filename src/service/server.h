/* uncored's service logic, apart from its sockets (utils/uncored): the
 * clients, the events each asked for, and the snapshot they are published
 * in.  Every event is validated and counted as the component does: a name
 * resolved through the tables, an event set of its own on the component's
 * shared counters (eventset/share.h: the union of every client's events is
 * programmed, identical encodings once, every write through the backend's
 * allowlist).  Single-threaded: the daemon's loop calls it. */
#ifndef UNCORE_SERVICE_SERVER_H
#define UNCORE_SERVICE_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "eventset/clock.h"
#include "eventset/share.h"
#include "backend/service/protocol.h"
#include "backend/service/snapshot.h"
#include "service/policy.h"

struct uncored_server;
struct uncored_client;

/* What the service counts through (the component's, bind/component.h;
 * none owned): its shared counters, their backend, its clock, and where
 * the counts come from ("SIMULATED uncore: ..."). */
struct uncored_server_config {
	struct uncore_share *share;
	const struct uncore_backend *be;
	const struct uncore_clock *clock;
	const char *origin;
	/* Who may count what (service/policy.h; NULL: the default policy). */
	const struct uncored_policy *policy;
};

/* A service as `cfg` says, its snapshot in `snap` (uncored_snapshot_size()
 * bytes, the daemon's shared memory). */
int uncored_server_create(const struct uncored_server_config *cfg, struct uncored_snapshot *snap,
			  struct uncored_server **out);
void uncored_server_destroy(struct uncored_server *srv);

/* A connected client; freeing one stops and frees every event it added
 * (a client that exits or is killed frees what it held). */
int uncored_client_new(struct uncored_server *srv, struct uncored_client **out);

/* Who a client is, as the kernel says (SO_PEERCRED) and /proc/PID/comm:
 * its measurement group is its user's (a group key another user sends
 * names another group), and the notes about who counts a socket name it.
 * A client whose peer is never set is uid 0, PID 0. */
#define UNCORED_PEER_MAX_GROUPS 32
struct uncored_peer {
	uint32_t uid, gid;
	int32_t pid;
	char comm[32];
	/* Its supplementary groups (the policy's group: rules), beside gid. */
	unsigned ngroups;
	uint32_t groups[UNCORED_PEER_MAX_GROUPS];
};
void uncored_client_set_peer(struct uncored_client *cl, const struct uncored_peer *peer);
void uncored_client_free(struct uncored_server *srv, struct uncored_client *cl);

/* Measurement groups (README "MPI jobs and threads") through the service:
 * a client's HELLO names its group (bind/group.h; empty: the client
 * alone).  Within a group (one user's, one key) the first client to count
 * on a socket counts it while any event of its own counts there; another
 * client of the group gets its slots on that socket at UNCORED_INDEX_NONE
 * (reads 0) and the ADD reply's detail says who counts it.  Clients of
 * other groups count independently: the service programs each encoding
 * once and every client reads the same totals. */

/* One received message of `cl`: the reply to send in `reply` (room for
 * UNCORED_MSG_MAX bytes), its size in *rlen.  *send_snapshot: the reply
 * goes with the snapshot's descriptor (HELLO).  A malformed message gets
 * an error reply like any refused request. */
void uncored_server_handle(struct uncored_server *srv, struct uncored_client *cl, const void *msg,
			   size_t len, void *reply, size_t *rlen, int *send_snapshot);

/* Read every event and publish the totals (a fresh sample). */
int uncored_server_sample(struct uncored_server *srv);

/* How often the counters must be sampled so that none wraps unseen (ns;
 * UINT64_MAX: no event). */
uint64_t uncored_server_poll_ns(const struct uncored_server *srv);

void uncored_server_status(const struct uncored_server *srv, struct uncored_status *out);

#endif
