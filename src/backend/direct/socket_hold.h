/* Process-wide, reference-counted ownership of sockets (on top of
 * backend/direct/socket_lock.h).  The lock module refuses a second acquire by the
 * same process, as it must for two processes; inside one process several
 * backends (or one backend programmed again) may need the same socket, so
 * the first hold of (directory, socket) takes the lock and the last release
 * gives it back.  Thread-safe.  A child made by fork() while sockets are
 * held shares its parent's locks (flock belongs to the open file): the fork
 * handlers (eventset/fork.h) make the child's copies orphans, which hold
 * nothing (the child's next acquire of such a socket is refused, the parent
 * named) and whose last release only closes the child's descriptor. */
#ifndef UNCORE_DIRECT_SOCKET_HOLD_H
#define UNCORE_DIRECT_SOCKET_HOLD_H

#include <stddef.h>

struct uncore_socket_hold;

/* Hold socket `socket` in lock directory `dir` (NULL: the default
 * directory of socket_lock.h).  0, or the lock's error: UNCORE_EBUSY with a
 * detail naming the other owner's PID and command. */
int uncore_socket_hold_acquire(const char *dir, unsigned socket, struct uncore_socket_hold **out);

/* The same for a group's lock (socket_lock.h, uncore_socket_lock_acquire_as):
 * held per (directory, socket, tag); `group` is recorded by the first.  On
 * UNCORE_EBUSY, who holds it into who[0..wlen) as data
 * (uncore_socket_lock_acquire_who; who NULL: not wanted). */
int uncore_socket_hold_acquire_as(const char *dir, unsigned socket, const char *tag,
				  const char *group, struct uncore_socket_hold **out, char *who,
				  size_t wlen);

/* 1 the first time it is asked of a hold whose acquire took the lock over
 * from a holder that ended without releasing it (socket_lock.h,
 * uncore_socket_lock_stale: what it left enabled is there to clear,
 * backend/direct/idle.h), else 0. */
int uncore_socket_hold_take_stale(struct uncore_socket_hold *hold);

/* Drop one reference (NULL is ignored); the last one releases the lock. */
void uncore_socket_hold_release(struct uncore_socket_hold *hold);

/* fork handlers (eventset/fork.c): the registry's mutex taken before a
 * fork and given back after it; in the child every hold is an orphan. */
void uncore_socket_hold_fork_prepare(void);
void uncore_socket_hold_fork_parent(void);
void uncore_socket_hold_fork_child(void);

/* 1 when this process holds the node's lock of (dir, socket) (tag NULL:
 * the direct backend's), else 0: what a backend whose sockets its owner
 * holds checks before it writes (backend.h, sockets_held_by_owner). */
int uncore_socket_hold_node_held(const char *dir, unsigned socket);

/* References currently held on (dir, socket) by this process (the node's
 * lock and every group's), for tests. */
unsigned uncore_socket_hold_count(const char *dir, unsigned socket);

#endif
