/* The contended paths of the hub's lock (hub_lock.h). */
#include "eventset/hub_lock.h"

#include <linux/futex.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Contended: mark the word 2 and sleep until it was free; the thread that
 * takes it this way leaves 2, so its unlock wakes the next sleeper (a
 * spurious wake-up costs one futex call, never a lost one). */
void hub_lock_wait(struct hub_lock *l)
{
	while (atomic_exchange_explicit(&l->state, 2, memory_order_acquire) != 0)
		syscall(SYS_futex, &l->state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
}

void hub_lock_wake(struct hub_lock *l)
{
	syscall(SYS_futex, &l->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
