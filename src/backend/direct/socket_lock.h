/* Ownership of a socket's uncore PMON boxes across processes.  Programming
 * the boxes directly (MSR/PCI) from two processes at once corrupts both
 * measurements, and the global freeze/unfreeze in U_MSR_PMON_GLOBAL_CTL
 * (HSX PMON 2.1.2 a, f) acts on every box of the socket, so the unit of
 * ownership is the whole socket, not a box kind.
 *
 * A lock is flock(LOCK_EX) on DIR/socket<N>.lock: the kernel drops it when
 * the owner exits or crashes, so no stale lock survives a kill -9.  The
 * owner writes "PID comm" into the file so that the next process can be
 * told who has the socket.  The lock is held by the open file description:
 * a child forked by the owner shares it until it exits or closes it (the
 * descriptor is close-on-exec), and a second acquire in the same process
 * is refused like any other. */
#ifndef UNCORE_DIRECT_SOCKET_LOCK_H
#define UNCORE_DIRECT_SOCKET_LOCK_H

#include <stddef.h>

/* The environment variable that overrides the lock directory (read by
 * bind/settings.c), named in messages. */
#define UNCORE_LOCK_DIR_ENV "PAPI_INTEL_UNCORE_LOCK_DIR"

struct uncore_socket_lock;

/* The lock directory: `lock_dir` ($PAPI_INTEL_UNCORE_LOCK_DIR) when set,
 * else /run/lock/papi-uncore (shared by all users: the only choice that
 * coordinates processes of different users), else, when /run/lock is not
 * writable, runtime_dir/papi-uncore ($XDG_RUNTIME_DIR), else
 * /tmp/papi-uncore.  The fallbacks only coordinate the processes that see
 * the same directory.  NULL or "": unset. */
int uncore_socket_lock_default_dir(const char *lock_dir, const char *runtime_dir, char *buf,
				   size_t len);

/* Take socket `socket` for this process (dir NULL: the default directory
 * with neither variable set, created world-writable and sticky if missing).  0, or UNCORE_EBUSY
 * with a detail naming the owner's PID and command, or another negative code when the lock file
 * cannot be used. */
int uncore_socket_lock_acquire(const char *dir, unsigned socket, struct uncore_socket_lock **out);

/* The same for one measurement group (bind/group.h): `tag` NULL takes the
 * node's lock, socket<N>.lock (the direct backend: one process programs
 * a socket's registers); else the group's, socket<N>.<tag>.lock (the perf
 * backend: the kernel arbitrates between groups, the group counts each
 * socket once; the file is removed by its last holder, so that the files
 * of finished jobs do not pile up).  `group` (NULL: none) is recorded beside the PID, with the
 * user, so that others can be told who counts (uncore_socket_lock_owner). */
int uncore_socket_lock_acquire_as(const char *dir, unsigned socket, const char *tag,
				  const char *group, struct uncore_socket_lock **out);

/* uncore_socket_lock_acquire_as, and on UNCORE_EBUSY who holds the lock as
 * data - what the error's detail names: "PID 4242 (a.out)" - into
 * who[0..wlen) ("" on any other outcome; who NULL: not wanted), so that a
 * caller that reports the owner need not parse the message. */
int uncore_socket_lock_acquire_who(const char *dir, unsigned socket, const char *tag,
				   const char *group, struct uncore_socket_lock **out, char *who,
				   size_t wlen);

/* Who holds a lock, as recorded: pid 0 when nobody (or unknown); uid -1
 * and group "" when not recorded; comm "" when the process is gone. */
struct uncore_lock_owner {
	long pid;
	long uid;
	char comm[32];
	char group[160];
};
int uncore_socket_lock_owner(const char *dir, unsigned socket, const char *tag,
			     struct uncore_lock_owner *out);

/* When the node's lock of `socket` (the direct backend's) is held by a
 * process of a measurement group other than `group`: 1, and into `buf`
 * who ("PID 4242 (a.out)") and, into `note`, "user alice, measurement
 * group openmpi:37: on the direct backend one group programs a socket;
 * uncored, the node service, lets groups share it".  0 otherwise (free,
 * this group's, or no group recorded). */
int uncore_socket_lock_foreign(const char *dir, unsigned socket, const char *group, char *who,
			       size_t wlen, char *note, size_t nlen);

/* Give the socket back (NULL is ignored). */
void uncore_socket_lock_release(struct uncore_socket_lock *lock);

/* Locks taken so far by this process, for tests (ownership is taken once
 * per event set, not at every reprogramming). */
unsigned long uncore_socket_lock_acquisitions(void);

/* 1 when the lock was taken over from a holder that ended without
 * releasing it (killed: its owner record was still there), else 0. */
int uncore_socket_lock_stale(const struct uncore_socket_lock *lock);

/* The lock file's path, for messages. */
const char *uncore_socket_lock_path(const struct uncore_socket_lock *lock);

/* A child of fork's copy of a lock its parent holds: closed without
 * clearing the owner record or dropping the flock, which stay the
 * parent's (its descriptor refers to the same open file). */
void uncore_socket_lock_forget(struct uncore_socket_lock *lock);

#endif
