/* The counters a process's event sets share.  A backend counts one plan at
 * a time; a process has any number of event sets (one per thread, PAPI's
 * high-level API, tools inside MPI ranks), all running at once.  The share
 * ("hub") owns the process's one backend and programs it with the union of
 * the events of every programmed set, identical encodings counted once;
 * each set talks to its own view, a backend (backend.h) whose read returns
 * the hub's 64-bit totals for the set's counters, so the set's folding of
 * a start value makes its counts exactly its own interval.
 *
 * Several processes on one node (the policy, README "MPI jobs and
 * threads"): within a measurement group (an MPI job, bind/group.h) the
 * first process to count on a socket holds it (the socket lock of
 * backend/direct/socket_lock.h: the group's on the perf backend, the
 * node's on the direct backend) until its last set stops; the other
 * processes' events read 0 on that socket, so a sum over the group's
 * processes counts each socket once.  A socket whose holder exited
 * (or crashed: the kernel drops the lock) is taken at the next start or
 * within a second of reading by a process that is counting.
 *
 * Thread-safe: every call on the hub or on any view is serialised by the
 * hub's mutex.  A start whose events cannot be placed next to the other
 * running sets' fails with UNCORE_ECONFLICT naming the events in the way. */
#ifndef UNCORE_EVENTSET_SHARE_H
#define UNCORE_EVENTSET_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "eventset/clock.h"

struct uncore_share;

struct uncore_share_config {
	/* Socket ownership between processes: lock directory (NULL: the
	 * default of socket_lock.h), or none at all (a private simulator). */
	const char *lock_dir;
	int no_socket_lock;
};

/* A hub over `be`, which it owns from now on (destroyed with the hub's
 * last reference).  One reference, the caller's. */
int uncore_share_create(struct uncore_backend *be, const struct uncore_share_config *cfg,
			struct uncore_share **out);

/* The wrap guard's clock (README "Nothing lost": every reading of the
 * counters is timed, one later than a counter's wrap period after the
 * previous noted, eventset.h's uncore_set_notices): the simulator's on the
 * simulator; the host's until set.  Before the first start. */
void uncore_share_set_clock(struct uncore_share *hub, const struct uncore_clock *clock);

/* The process's measurement group (bind/group.h), before the first start:
 * its key, recorded in the locks the hub takes (NULL: none), and, where the
 * kernel arbitrates between groups (perf), its lock tag: the first process
 * of the group on a socket counts it, and other groups count too.  tag
 * NULL: one process of the node programs each socket (direct), and a
 * process of another group is told who, and that uncored lets groups
 * share.  Without this call: the node's lock, no group recorded. */
int uncore_share_set_group(struct uncore_share *hub, const char *group, const char *tag);

/* Drop a reference (NULL ignored): the last one destroys the hub and its
 * backend.  Views hold a reference each, so a hub outlives its creator's
 * release (PAPI_shutdown) until the last event set is gone. */
void uncore_share_release(struct uncore_share *hub);

/* A new view for one event set (its own backend to give uncore_set_create);
 * destroyed by its ops->destroy. */
int uncore_share_view(struct uncore_share *hub, struct uncore_backend **out);

/* Whether `b` is a view of a hub. */
static inline int uncore_share_is_view(const struct uncore_backend *b)
{
	return b && b->is_share_view;
}

/* The read path's prepared sums over the totals of a view's slots
 * (uncore_share_view_sum): out[i] = off[i] + total(slot[i]) for i < n, then
 * out[more_dst[j]] += total(more_slot[j]) for j < nmore; a slot past the
 * plan's is 0.  The caller fills n, nmore, off, slot, more_slot, more_dst
 * and sets stale when it changes the slots; uncore_share_view_sum keeps
 * src and more_src (n and nmore entries the caller allocates) pointing at
 * the totals, looked up again when they move (the caller that sets stale
 * clears in_order too). */
struct uncore_share_sums {
	unsigned n, nmore;
	const uint64_t *off;
	const unsigned *slot, *more_slot, *more_dst;
	const uint64_t **src, **more_src;
	unsigned layout;
	int stale;
	/* As of layout: the sums are the hub's totals in slot order, one each
	 * (src[i] is the total of the hub's slot i, nothing more, no other
	 * total fed by a slot): a read folds and sums in one pass.
	 * SUMS_IN_ORDER_WIDE: every counter 64 bits wide besides (perf), the
	 * fold needs no mask.  0: the general read. */
	int in_order;
};
#define SUMS_IN_ORDER      1
#define SUMS_IN_ORDER_WIDE 2

/* A read of a running view that, instead of its slots' totals, writes the
 * prepared sums of them into `out`, under the hub's lock: the one pass over
 * a set's values of PAPI_read.  Returns what the view's read would (the
 * counters that could be read are folded all the same). */
int uncore_share_view_sum(struct uncore_backend *view, struct uncore_share_sums *sums,
			  uint64_t *out);

/* The reads of n views of one hub (ops->read of each: a running view's
 * slot totals, a stopped one's snapshot) from one reading of the counters,
 * so that their values are of one instant and the registers are read once,
 * not once a view (the service's sample, service/server.c).  0, or the
 * first error: the reading's (every view's counters that could be read
 * are given all the same, backend.h), or UNCORE_ESTATE for a view not
 * programmed, or UNCORE_EINVAL when the views are not of one hub (nothing
 * read). */
int uncore_share_read_views(struct uncore_backend *const *views, uint64_t *const *raws,
			    unsigned n);

/* The sockets the running sets count on that another process holds, as of
 * the last start: "socket 0 counted by PID 1234 (cmd), reads 0 here; ...",
 * a holder of another measurement group on the direct backend with its
 * user and group and what would let both count in brackets after its
 * clause ("... reads 0 here [user alice, measurement group ...]": the
 * description drops them, bind/description.h); "" when this process
 * counts every socket it uses (or no socket lock is used). */
int uncore_share_holders(struct uncore_share *hub, char *buf, size_t len);

/* The sockets of which uncore_share_holders would say another process holds
 * them, as a mask (bit s: socket s): 0 exactly when it would say "".  One
 * look under the hub's lock, no text: a start that finds 0, as the last one
 * did, need not describe anything again. */
uint32_t uncore_share_held_elsewhere(struct uncore_share *hub);

/* Socket s counted by this process (1), by another (0, and `who` names
 * it when not NULL), or not used by any running set (-1). */
int uncore_share_socket_state(struct uncore_share *hub, unsigned s, char *who, size_t wlen);

#endif
