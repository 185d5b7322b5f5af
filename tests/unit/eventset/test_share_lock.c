/* The shared counters' lock (eventset/hub_lock.h): mutual exclusion under
 * contention (threads adding to one plain counter lose no addition), a
 * waiter sleeps marking the lock contended and the unlock wakes it, and
 * the lock is left free; the socket holds lose no reference under their
 * mutex.  Also built with ThreadSanitizer (its name has
 * "share"), which checks the ordering the lock gives. */
#include "backend/direct/socket_hold.h"
#include "eventset/hub_lock.h"
#include "harness.h"
#include "support/tmpdir.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#define THREADS 4
#define ROUNDS  100000

static struct hub_lock lock;
static unsigned long counter; /* guarded by lock, not atomic */
static atomic_int hold_failures;

static void *add(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		hub_lock(&lock);
		counter++;
		if (i % 1024 == 0)
			sched_yield(); /* held across a yield: others contend */
		hub_unlock(&lock);
	}
	return NULL;
}

TEST(threads_lose_no_addition_under_the_lock)
{
	pthread_t th[THREADS];
	hub_lock_init(&lock);
	counter = 0;
	for (int i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&th[i], NULL, add, NULL) == 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ_U64(counter, (unsigned long)THREADS * ROUNDS);
	CHECK_EQ_INT(atomic_load(&lock.state), 0);
}

static atomic_int waiter_in;

static void *take_once(void *arg)
{
	(void)arg;
	hub_lock(&lock);
	atomic_store(&waiter_in, 1);
	hub_unlock(&lock);
	return NULL;
}

TEST(a_waiter_marks_the_lock_contended_and_the_unlock_wakes_it)
{
	pthread_t th;
	hub_lock_init(&lock);
	atomic_store(&waiter_in, 0);
	hub_lock(&lock);
	CHECK_EQ_INT(atomic_load(&lock.state), 1);
	REQUIRE(pthread_create(&th, NULL, take_once, NULL) == 0);
	/* The waiter sets 2 before it sleeps (at most 10 s to get there). */
	for (int i = 0; i < 10000 && atomic_load(&lock.state) != 2; i++)
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	CHECK_EQ_INT(atomic_load(&lock.state), 2);
	CHECK_EQ_INT(atomic_load(&waiter_in), 0); /* still excluded */
	hub_unlock(&lock);
	pthread_join(th, NULL);
	CHECK_EQ_INT(atomic_load(&waiter_in), 1);
	CHECK_EQ_INT(atomic_load(&lock.state), 0);
}

/* The socket holds several hubs of one process share (backend/direct/
 * socket_hold.c): threads taking and dropping holds of one socket at once
 * lose no reference under the holds' mutex, and the last drop gives the
 * socket's lock back (the lock refuses a second take by this process while
 * it is held, so a leaked lock would refuse the take below). */
static const char *holds_dir;

static void *hold_loop(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000; i++) {
		struct uncore_socket_hold *h = NULL;
		if (uncore_socket_hold_acquire(holds_dir, 0, &h) == 0)
			uncore_socket_hold_release(h);
		else
			atomic_fetch_add(&hold_failures, 1);
	}
	return NULL;
}

TEST(socket_holds_count_every_reference_under_contention)
{
	pthread_t th[THREADS];
	holds_dir = test_mkdtemp("holds-mutex");
	REQUIRE(holds_dir);
	struct uncore_socket_hold *mine = NULL;
	REQUIRE(uncore_socket_hold_acquire(holds_dir, 0, &mine) == 0);
	atomic_store(&hold_failures, 0);
	for (int i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&th[i], NULL, hold_loop, NULL) == 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ_INT(atomic_load(&hold_failures), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(holds_dir, 0), 1);
	uncore_socket_hold_release(mine);
	CHECK_EQ_INT(uncore_socket_hold_count(holds_dir, 0), 0);
	/* Without a hold, the threads each take the lock afresh. */
	for (int i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&th[i], NULL, hold_loop, NULL) == 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ_INT(atomic_load(&hold_failures), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(holds_dir, 0), 0);
	mine = NULL;
	CHECK_EQ_INT(uncore_socket_hold_acquire(holds_dir, 0, &mine), 0);
	uncore_socket_hold_release(mine);
	test_rmtree(holds_dir);
}

int main(void)
{
	RUN(threads_lose_no_addition_under_the_lock);
	RUN(socket_holds_count_every_reference_under_contention);
	RUN(a_waiter_marks_the_lock_contended_and_the_unlock_wakes_it);
	return harness_done();
}
