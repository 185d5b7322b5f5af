/* Another process that owns a socket: the unit tests of socket ownership
 * need a real second holder of the lock, since the lock is per process. */
#ifndef UNCORE_TEST_LOCK_OWNER_H
#define UNCORE_TEST_LOCK_OWNER_H

#include <sys/types.h>

/* Fork a child named `comm` (what the refusal message must quote) that
 * takes `socket` in the lock directory `dir`, says so, and waits to be
 * killed.  Its PID once it holds the socket; -1 when it could not (the
 * child is reaped): the caller fails its test case. */
pid_t test_spawn_lock_owner(const char *dir, unsigned socket, const char *comm);

/* Kill and reap a child of test_spawn_lock_owner: the kernel drops its
 * lock with it. */
void test_kill_lock_owner(pid_t pid);

#endif
