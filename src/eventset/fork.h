/* fork(2) with counters in use (issue 29).  A child of a multi-threaded
 * process has only the thread that forked: a lock another thread held at
 * that moment would stay held for ever in the child (the hub's lock, a set's
 * poller lock), and the child would inherit the parent's socket locks and
 * programmed boxes as if they were its own.
 *
 * The handlers (pthread_atfork, registered once by uncore_fork_init) take
 * every lock of the live hubs and pollers before the fork (so no data they
 * guard is half-changed), release them in the parent, and in the child:
 * free the locks, forget the pollers' threads (gone), and turn every hub
 * into a forked one: its counters stay with the parent, which still counts
 * (the child never touches them: no register is written, no socket lock
 * dropped), each of its sockets reads 0 in the child, described as
 * "counted by PID <parent> (...)", and no backend call is made from it
 * again.  A child that wants counters of its own calls PAPI_shutdown and
 * PAPI_library_init: the new component counts on the sockets no other
 * process holds (the one-process-per-socket rule, README "MPI jobs and
 * threads").
 *
 * PAPI's own API gate (papi-patches/70-...) registers its handlers after
 * these, so that before a fork it waits, first, until no thread is inside
 * PAPI. */
#ifndef UNCORE_EVENTSET_FORK_H
#define UNCORE_EVENTSET_FORK_H

/* Register the handlers (once per process; later calls do nothing). */
void uncore_fork_init(void);

/* What the handlers do to one live object: take its locks before the fork,
 * release them after it in the parent, and make it the child's. */
struct uncore_fork_ops {
	void (*lock)(void *x);
	void (*unlock)(void *x);
	void (*child)(void *x);
};

/* The live objects, in two rings locked in the read path's order: the
 * pollers (a set's poller lock), then the hubs (the hub's lock); released
 * in the reverse order, and made the child's hubs first (share.c, poller.c
 * add and remove theirs). */
enum uncore_fork_ring { UNCORE_FORK_POLLERS, UNCORE_FORK_HUBS, UNCORE_FORK_RINGS };
void uncore_fork_add(enum uncore_fork_ring ring, void *x, const struct uncore_fork_ops *ops);
void uncore_fork_remove(enum uncore_fork_ring ring, void *x);

#endif
