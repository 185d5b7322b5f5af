/* The shared counters' lock (share.c, share_view.c): every read through
 * shared counters takes it, so its uncontended lock and unlock are one
 * atomic instruction each, not glibc's general mutex (whose pair cost ~55
 * instructions per PAPI_read, issue 14).  A mutex on one futex word with
 * three states — 0 free, 1 held, 2 held and a thread may sleep on it —
 * after U. Drepper, "Futexes Are Tricky" (2011), section 6; the unlock
 * exchanges the word to 0 and wakes one sleeper when it was 2.
 * Process-private, like the hub it guards; not recursive. */
#ifndef UNCORE_EVENTSET_HUB_LOCK_H
#define UNCORE_EVENTSET_HUB_LOCK_H

#include <stdatomic.h>

struct hub_lock {
	atomic_int state;
};

static inline void hub_lock_init(struct hub_lock *l)
{
	atomic_init(&l->state, 0);
}

/* The contended paths (hub_lock.c), out of line. */
void hub_lock_wait(struct hub_lock *l);
void hub_lock_wake(struct hub_lock *l);

static inline void hub_lock(struct hub_lock *l)
{
	int expected = 0;
	if (!atomic_compare_exchange_strong_explicit(&l->state, &expected, 1, memory_order_acquire,
						     memory_order_relaxed))
		hub_lock_wait(l);
}

static inline void hub_unlock(struct hub_lock *l)
{
	if (atomic_exchange_explicit(&l->state, 0, memory_order_release) == 2)
		hub_lock_wake(l);
}

#endif
