/* One process per socket across processes (eventset/share.h): a hub whose
 * socket 1 another process holds counts socket 0 only, says who holds
 * socket 1, reads 0 there, and takes socket 1 at its next start once the
 * holder is gone; when the last set stops, every socket is free for another
 * process.  Counts from hswep-clocks.scn: the UBox counts one a UCLK cycle
 * on each socket, UCLK as the model's topology gives it. */
#include "backend/direct/idle.h"
#include "backend/direct/socket_hold.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "eventset/share.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "support/lock_owner.h"
#include "support/sim_set.h"
#include "support/view_set.h"
#include "support/tmpdir.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MS 1000000ull

static const char *const ubox_clockticks[] = {"hswep_unc_ubo::UNC_U_CLOCKTICKS"};

TEST(a_socket_held_elsewhere_reads_zero_until_it_is_free)
{
	const char *dir = test_mkdtemp("holds");
	REQUIRE(dir);
	pid_t child = test_spawn_lock_owner(dir, 1, "other-owner");
	REQUIRE(child > 0);
	struct sim_set e;
	struct uncore_share *hub = NULL;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", "hswep-clocks.scn", NULL) == 0);
	uncore_set_destroy(e.set);
	e.set = NULL;
	struct uncore_share_config cfg = {dir, 0};
	REQUIRE(uncore_share_create(e.be, &cfg, &hub) == 0);
	e.be = NULL;
	const uint64_t per_ms = e.topo.clock_hz[0] / 1000;

	struct view_set a, b;
	uint64_t va = 0, vb = 0;
	CHECK_EQ_INT(view_set_open(hub, ubox_clockticks, 1, &a), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_read(a.set, &va), 0);
	CHECK_EQ_U64(va, per_ms); /* socket 0 only */
	char who[200] = "", holders[400] = "";
	CHECK_EQ_INT(uncore_share_socket_state(hub, 0, who, sizeof(who)), 1);
	CHECK_EQ_INT(uncore_share_socket_state(hub, 1, who, sizeof(who)), 0);
	CHECK_CONTAINS(who, "other-owner");
	CHECK_EQ_INT(uncore_share_socket_state(hub, 2, NULL, 0), -1); /* no such socket used */
	CHECK_EQ_INT(uncore_share_holders(hub, holders, sizeof(holders)), 0);
	CHECK_CONTAINS(holders, "socket 1 counted by");
	CHECK_CONTAINS(holders, "reads 0 here");
	CHECK_EQ_U64(uncore_share_held_elsewhere(hub), 1u << 1);
	/* Too small a buffer for the description: an error, not a cut. */
	CHECK_EQ_INT(uncore_share_holders(hub, holders, 8), UNCORE_ENOSPACE);

	test_kill_lock_owner(child);
	/* The next start looks for freed sockets at once; the killed holder
	 * gave socket 1 no release, so what it left is put idle, once (the
	 * hub is the sockets' one owner and has the backend do it). */
	unsigned long idled = direct_idle_sockets();
	CHECK_EQ_INT(view_set_open(hub, ubox_clockticks, 1, &b), 0);
	CHECK_EQ_INT(uncore_set_start(b.set), 0);
	CHECK_EQ_INT(uncore_share_socket_state(hub, 1, NULL, 0), 1);
	CHECK_EQ_U64(direct_idle_sockets() - idled, 1);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 1), 1);
	CHECK_EQ_INT(uncore_share_holders(hub, holders, sizeof(holders)), 0);
	CHECK_EQ_STR(holders, "");
	CHECK_EQ_U64(uncore_share_held_elsewhere(hub), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(b.set, &vb), 0);
	CHECK_EQ_U64(vb, 2 * per_ms); /* both sockets */
	CHECK_EQ_INT(uncore_set_stop(a.set, &va), 0);
	/* A: socket 0 for 2 ms, socket 1 for the last 1 ms. */
	CHECK_EQ_U64(va, 3 * per_ms);
	view_set_close(&a);
	view_set_close(&b);
	uncore_share_release(hub);
	/* Nothing of ours holds a socket any more: another process takes both. */
	for (unsigned s = 0; s < 2; s++) {
		pid_t other = test_spawn_lock_owner(dir, s, "next-owner");
		CHECK(other > 0);
		if (other > 0)
			test_kill_lock_owner(other);
	}
	sim_set_close(&e);
	test_rmtree(dir);
}

/* A set that keeps counting takes a freed socket on its own: a read at
 * least a second after the last look (share.c RETRY_NS) looks again. */
TEST(a_counting_set_takes_a_freed_socket_when_it_reads)
{
	const char *dir = test_mkdtemp("holds2");
	REQUIRE(dir);
	pid_t child = test_spawn_lock_owner(dir, 1, "other-owner");
	REQUIRE(child > 0);
	struct sim_set e;
	struct uncore_share *hub = NULL;
	REQUIRE(sim_set_open(&e, "e5-2699v3-2s", "hswep-clocks.scn", NULL) == 0);
	uncore_set_destroy(e.set);
	e.set = NULL;
	struct uncore_share_config cfg = {dir, 0};
	REQUIRE(uncore_share_create(e.be, &cfg, &hub) == 0);
	e.be = NULL;
	const uint64_t per_ms = e.topo.clock_hz[0] / 1000;
	struct view_set a;
	uint64_t va = 0;
	CHECK_EQ_INT(view_set_open(hub, ubox_clockticks, 1, &a), 0);
	CHECK_EQ_INT(uncore_set_start(a.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1 * MS), 0);
	test_kill_lock_owner(child);
	const struct timespec pause = {1, 100000000};
	nanosleep(&pause, NULL);
	CHECK_EQ_INT(uncore_set_read(a.set, &va), 0); /* takes socket 1 */
	CHECK_EQ_U64(va, per_ms);
	CHECK_EQ_INT(uncore_share_socket_state(hub, 1, NULL, 0), 1);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, 1 * MS), 0);
	CHECK_EQ_INT(uncore_set_stop(a.set, &va), 0);
	CHECK_EQ_U64(va, 3 * per_ms); /* socket 0 for 2 ms, socket 1 for 1 ms */
	view_set_close(&a);
	uncore_share_release(hub);
	sim_set_close(&e);
	test_rmtree(dir);
}

int main(void)
{
	RUN(a_socket_held_elsewhere_reads_zero_until_it_is_free);
	RUN(a_counting_set_takes_a_freed_socket_when_it_reads);
	return harness_done();
}
