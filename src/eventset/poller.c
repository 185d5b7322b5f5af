/* The background poller (see poller.h). */
#include "eventset/poller.h"

#include "common/uncore_error.h"
#include "eventset/fork.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NS_PER_S      1000000000ull
#define CLOCK_LOOK_NS 1000000ull /* how often a non-host clock is looked at */

struct uncore_poller {
	struct uncore_set *set;
	pthread_mutex_t *lock;
	uint64_t period_ns;
	pthread_t thread;
	pthread_mutex_t wake_lock;
	pthread_cond_t wake;
	int stopping;
	uint64_t reads;
	uint64_t *scratch;
	int orphan; /* in a fork child: its thread is the parent's */
};

static void deadline_after(struct timespec *ts, uint64_t ns)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	uint64_t t = (uint64_t)ts->tv_nsec + ns % NS_PER_S;
	ts->tv_sec += (time_t)(ns / NS_PER_S + t / NS_PER_S);
	ts->tv_nsec = (long)(t % NS_PER_S);
}

/* One read under the owner's lock. */
static void poll_once(struct uncore_poller *p)
{
	pthread_mutex_lock(p->lock);
	if (uncore_set_running(p->set))
		uncore_set_poll(p->set, p->scratch); /* folds every counter */
	pthread_mutex_unlock(p->lock);
}

/* A set timed by another clock than CLOCK_MONOTONIC (the simulator's,
 * whose time may run faster than the wall clock's): look at that clock
 * every millisecond and read when a period of *its* time has passed. */
static void poll_loop_clock(struct uncore_poller *p, const struct uncore_clock *clock)
{
	uint64_t due = 0, now = 0;
	if (uncore_clock_now(clock, &due) < 0)
		uncore_error_clear();
	due += p->period_ns;
	pthread_mutex_lock(&p->wake_lock);
	while (!p->stopping) {
		struct timespec ts;
		deadline_after(&ts, CLOCK_LOOK_NS);
		int rc = 0;
		while (!p->stopping && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&p->wake, &p->wake_lock, &ts);
		if (p->stopping)
			break;
		if (uncore_clock_now(clock, &now) < 0) {
			uncore_error_clear();
			continue;
		}
		if (now < due)
			continue;
		pthread_mutex_unlock(&p->wake_lock);
		poll_once(p);
		pthread_mutex_lock(&p->wake_lock);
		p->reads++;
		due = now + p->period_ns;
	}
	pthread_mutex_unlock(&p->wake_lock);
}

static void *poll_loop(void *arg)
{
	struct uncore_poller *p = arg;
	const struct uncore_clock *clock = uncore_set_get_clock(p->set);
	if (clock->now_ns) {
		poll_loop_clock(p, clock);
		return NULL;
	}
	pthread_mutex_lock(&p->wake_lock);
	while (!p->stopping) {
		struct timespec ts;
		deadline_after(&ts, p->period_ns);
		int rc = 0;
		while (!p->stopping && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&p->wake, &p->wake_lock, &ts);
		if (p->stopping)
			break;
		pthread_mutex_unlock(&p->wake_lock);
		poll_once(p);
		pthread_mutex_lock(&p->wake_lock);
		p->reads++;
	}
	pthread_mutex_unlock(&p->wake_lock);
	return NULL;
}

/* fork (fork.h): a read in progress ends first; in the child the thread
 * is gone, its locks free. */
static void poller_fork_lock(void *x)
{
	struct uncore_poller *p = x;
	pthread_mutex_lock(p->lock);
	pthread_mutex_lock(&p->wake_lock);
}

static void poller_fork_unlock(void *x)
{
	struct uncore_poller *p = x;
	pthread_mutex_unlock(&p->wake_lock);
	pthread_mutex_unlock(p->lock);
}

static void poller_fork_child(void *x)
{
	struct uncore_poller *p = x;
	pthread_condattr_t ca;
	p->orphan = 1;
	pthread_mutex_init(&p->wake_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(p->lock, NULL);
}

static const struct uncore_fork_ops poller_fork_ops = {
    .lock = poller_fork_lock, .unlock = poller_fork_unlock, .child = poller_fork_child};

int uncore_poller_start(struct uncore_set *set, pthread_mutex_t *lock, uint64_t period_ns,
			struct uncore_poller **out)
{
	struct uncore_poller *p;
	pthread_condattr_t ca;
	int rc;

	if (!set || !lock || period_ns == 0)
		return uncore_fail(UNCORE_EINVAL, "poller: no set, lock or period");
	p = calloc(1, sizeof(*p));
	if (!p)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the poller");
	p->scratch = calloc(uncore_set_count(set) ? uncore_set_count(set) : 1, sizeof(uint64_t));
	if (!p->scratch) {
		free(p);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the poller");
	}
	p->set = set;
	p->lock = lock;
	p->period_ns = period_ns;
	pthread_mutex_init(&p->wake_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	rc = pthread_create(&p->thread, NULL, poll_loop, p);
	if (rc != 0) {
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->wake_lock);
		free(p->scratch);
		free(p);
		return uncore_fail(uncore_error_from_errno(rc),
				   "cannot start the poller thread: %s", strerror(rc));
	}
	uncore_fork_add(UNCORE_FORK_POLLERS, p, &poller_fork_ops);
	*out = p;
	return 0;
}

void uncore_poller_stop(struct uncore_poller *p)
{
	if (!p)
		return;
	uncore_fork_remove(UNCORE_FORK_POLLERS, p);
	pthread_mutex_lock(&p->wake_lock);
	p->stopping = 1;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->wake_lock);
	if (!p->orphan)
		pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->wake_lock);
	free(p->scratch);
	free(p);
}

uint64_t uncore_poller_reads(const struct uncore_poller *p)
{
	return p->reads;
}

int uncore_poller_period(const struct uncore_set *set, const char *env, uint64_t *period_ns)
{
	*period_ns = 0;
	if (env && strcmp(env, "off") == 0)
		return 0;
	if (env && *env && strcmp(env, "auto") != 0) {
		char *end;
		unsigned long long ms = strtoull(env, &end, 10);
		if (*end || ms == 0 || ms > 86400000ull)
			return uncore_fail(
			    UNCORE_EINVAL,
			    "PAPI_INTEL_UNCORE_POLL=%s: give auto, off, or a period in "
			    "milliseconds (1 to 86400000)",
			    env);
		*period_ns = ms * 1000000ull;
		return 0;
	}
	uint64_t safe;
	int rc = uncore_set_max_read_interval(set, &safe);
	if (rc < 0)
		return rc;
	/* Whenever a counter can wrap at all: nobody knows when the owner's
	 * next read comes (a day-long region read once at the end). */
	if (safe != UINT64_MAX)
		*period_ns = safe;
	return 0;
}
