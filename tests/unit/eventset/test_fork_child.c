/* fork(2) while a set counts with its poller running (eventset/fork.h): the
 * child's copy of the hub keeps the totals it had at the fork, reads 0 for
 * anything started after it, says which process counts each socket, and
 * lets go of everything without touching the parent's counting: the
 * parent's socket locks stay held and its counts go on exactly, including
 * the simulated time that passed while the child ran (the simulator's state
 * is shared memory, as a real machine's registers are).
 *
 * Counts from hswep-clocks.scn: the UBox counts one a UCLK cycle on each of
 * the two sockets.  The child ends with exit(), not _exit(), so that its
 * work is measured by `make coverage` too. */
#include "backend/direct/socket_lock.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "eventset/poller.h"
#include "eventset/share.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "support/lock_owner.h"
#include "support/sim_set.h"
#include "support/view_set.h"
#include "support/tmpdir.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#define MS    1000000ull
#define UBOX  "hswep_unc_ubo::UNC_U_CLOCKTICKS"
static const char *const ubox[] = {UBOX};

/* What the child checks; its verdict is its exit status. */
static void in_child(const char *dir, struct sim_set *e, struct uncore_backend *be,
		     struct uncore_share *hub, struct view_set *a, pthread_mutex_t *mu,
		     struct uncore_poller *poller, uint64_t at_fork)
{
	char who[200] = "", holders[400] = "", want[64];
	uint64_t v = 0;
	struct view_set b;

	char log[600];
	snprintf(want, sizeof(want), "counted by PID %d", (int)getppid());
	/* Every register access of the child from here on is logged: there
	 * must be none (the parent is waiting, its poller is not due). */
	snprintf(log, sizeof(log), "%s/child-accesses.log", dir);
	CHECK_EQ_INT(uncore_sim_set_log(e->sim, log), 0);
	/* The poller's lock was free at the fork (the handlers held it): a
	 * lock that stayed held would hang here, and the runner's timeout
	 * would fail the test. */
	pthread_mutex_lock(mu);
	CHECK_EQ_INT(uncore_sim_advance(e->sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_read(a->set, &v), 0);
	pthread_mutex_unlock(mu);
	CHECK_EQ_U64(v, at_fork); /* the totals stop where they were */
	for (unsigned s = 0; s < 2; s++) {
		CHECK_EQ_INT(uncore_share_socket_state(hub, s, who, sizeof(who)), 0);
		CHECK_CONTAINS(who, want);
		CHECK_CONTAINS(who, "parent"); /* not only "counted by": why */
	}
	CHECK_EQ_INT(uncore_share_holders(hub, holders, sizeof(holders)), 0);
	CHECK_CONTAINS(holders, want);

	/* A set of the child's own reads 0 on every socket: they are the
	 * parent's. */
	CHECK_EQ_INT(view_set_open(hub, ubox, 1, &b), 0);
	CHECK_EQ_INT(uncore_set_start(b.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e->sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(b.set, &v), 0);
	CHECK_EQ_U64(v, 0);
	for (unsigned s = 0; s < 2; s++) { /* still the parent's, not a stranger's */
		CHECK_EQ_INT(uncore_share_socket_state(hub, s, who, sizeof(who)), 0);
		CHECK_CONTAINS(who, "parent");
	}
	CHECK_EQ_INT(uncore_set_stop(a->set, &v), 0);
	CHECK_EQ_U64(v, at_fork);

	/* Letting go: no join of the parent's poller thread (not here), no
	 * socket lock dropped, no backend destroyed. */
	uncore_poller_stop(poller);
	view_set_close(&b);
	view_set_close(a);
	uncore_share_release(hub);
	struct stat sb;
	CHECK(stat(log, &sb) != 0 || sb.st_size == 0);
	CHECK_EQ_INT(uncore_sim_set_log(e->sim, NULL), 0);
	sim_set_close(e);
	/* The child's copy of the backend is the parent's counting, left as it
	 * is (share.c): never destroyed here, so never freed; anything else
	 * the child leaves behind is a leak. */
#ifdef __SANITIZE_ADDRESS__
	__lsan_ignore_object(be);
#else
	(void)be;
#endif
	fflush(NULL);
	exit(harness_case_failed ? 1 : 0);
}

TEST(a_forked_child_keeps_its_totals_and_leaves_the_parent_counting)
{
	const char *dir = test_mkdtemp("fork");
	REQUIRE(dir);
	struct sim_set e;
	struct uncore_share *hub = NULL;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", "hswep-clocks.scn", NULL) == 0);
	uncore_set_destroy(e.set);
	e.set = NULL;
	struct uncore_share_config cfg = {dir, 0};
	struct uncore_backend *be = e.be;
	REQUIRE(uncore_share_create(be, &cfg, &hub) == 0);
	e.be = NULL;
	const uint64_t per_ms = e.topo.clock_hz[0] / 1000;
	REQUIRE(per_ms > 0);

	struct view_set a;
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct uncore_poller *poller = NULL;
	uint64_t v = 0;
	REQUIRE(view_set_open(hub, ubox, 1, &a) == 0);
	REQUIRE(uncore_set_start(a.set) == 0);
	/* A poller not due for an hour: it is there to be forked, not to
	 * read.  Not under AddressSanitizer: GCC 12's sanitizer runtime has no
	 * fork handlers, so a fork while another thread is inside it (the
	 * poller's thread starting) can leave the child's leak check waiting
	 * for ever on an allocator lock; there the child, with no other
	 * thread in the parent, is checked for leaks instead. */
#ifndef __SANITIZE_ADDRESS__
	REQUIRE(uncore_poller_start(a.set, &mu, 3600000 * MS, &poller) == 0);
#endif
	pthread_mutex_lock(&mu);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, &v), 0);
	pthread_mutex_unlock(&mu);
	CHECK_EQ_U64(v, 2 * per_ms); /* both sockets, 1 ms */
	CHECK_EQ_INT(uncore_share_socket_state(hub, 0, NULL, 0), 1);
	CHECK_EQ_INT(uncore_share_socket_state(hub, 1, NULL, 0), 1);

	fflush(NULL); /* the child's exit flushes its copy of our buffers */
	/* fork through a pointer: gcc --coverage replaces a direct call with
	 * one that zeroes the child's counts after the fork handlers ran, and
	 * the handlers are what this test is about. */
	pid_t (*volatile fork_fn)(void) = fork;
	pid_t pid = fork_fn();
	REQUIRE(pid >= 0);
	if (pid == 0)
		in_child(dir, &e, be, hub, &a, &mu, poller, v);
	int st = 0;
	CHECK_EQ_INT(waitpid(pid, &st, 0), pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	/* The child let go of its copies of the socket holds without
	 * dropping them: the locks are still ours, recorded as ours, and no
	 * other process takes a socket. */
	char me[40];
	snprintf(me, sizeof(me), "PID %d", (int)getpid());
	for (unsigned s = 0; s < 2; s++) {
		struct uncore_socket_lock *l = NULL;
		CHECK_EQ_INT(uncore_socket_lock_acquire(dir, s, &l), UNCORE_EBUSY);
		CHECK_CONTAINS(uncore_error_detail(), me);
		uncore_error_clear();
		if (l)
			uncore_socket_lock_release(l);
		pid_t other = test_spawn_lock_owner(dir, s, "fork-intruder");
		CHECK_EQ_INT(other, -1);
		if (other > 0)
			test_kill_lock_owner(other);
	}
	/* The parent counted all along: 1 ms before the fork, the 2 ms the
	 * child advanced, 1 ms after, on both sockets. */
	pthread_mutex_lock(&mu);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, &v), 0);
	pthread_mutex_unlock(&mu);
	CHECK_EQ_U64(v, 2 * 4 * per_ms);
	uncore_poller_stop(poller);
	CHECK_EQ_INT(uncore_set_stop(a.set, &v), 0);
	CHECK_EQ_U64(v, 2 * 4 * per_ms);
	view_set_close(&a);
	uncore_share_release(hub);
	sim_set_close(&e);
	test_rmtree(dir);
}

int main(void)
{
	RUN(a_forked_child_keeps_its_totals_and_leaves_the_parent_counting);
	return harness_done();
}
