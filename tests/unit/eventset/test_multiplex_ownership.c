/* A multiplexed metric changes its setting at every read: the change must
 * reprogram the boxes of a socket the set already owns, never give the
 * socket back and take it again (another process could take it in
 * between) nor rebuild the allowlists (backend.h, acquire).  Counted on the
 * simulator through the direct backend with socket locks on, alone and
 * behind the counters a process shares (share.h, the component's path):
 * lock acquisitions (socket_lock.h) and allowlist builds (allowlist.h)
 * happen at start only, the socket stays held across every change, the
 * register accesses per read stay the same from one cycle of settings to
 * the next, and the metric is still exact. */
#include "access/allowlist.h"
#include "backend/direct/direct.h"
#include "backend/direct/socket_hold.h"
#include "backend/direct/socket_lock.h"
#include "common/uncore_error.h"
#include "eventset/share.h"
#include "harness.h"
#include "support/sim_texts.h"
#include "sim_set.h"
#include "tmpdir.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* test_set_metrics.c's constant writebacks: the three Wb{I,S,E} packet
 * filters of QPI port 0 of socket 0 take turns (2.9.5 DRS_WB_FROM_QPI),
 * 60 M packets/s in all, 64 bytes each. */
static const char wb_constant[] = SIM_TEXT_QPI_WRITEBACKS;

static const char *const names[] = {"hswep_unc_qpi::DRS_WB_FROM_QPI",
				    "hswep_unc_qpi::UNC_Q_CLOCKTICKS:socket=0"};

struct fixture {
	struct sim_set e; /* its machine and scenario; its own backend unused */
	const char *lock_dir;
	struct uncore_backend *be;     /* direct, socket locks on */
	struct uncore_share *hub;      /* with `shared` */
	struct uncore_backend *counts; /* what the set counts through */
	struct uncore_set *set;
};

static int fixture_open(struct fixture *f, int shared)
{
	memset(f, 0, sizeof(*f));
	int rc = sim_set_open(&f->e, "e5-2699v3-2s", NULL, wb_constant);
	f->lock_dir = test_mkdtemp("mpxlock");
	if (rc < 0 || !f->lock_dir)
		return -1;
	struct uncore_direct_config cfg = {.io = uncore_sim_regio(f->e.sim),
					   .read_freeze = 1,
					   .lock_dir = f->lock_dir,
					   .origin = "SIMULATED"};
	rc = uncore_direct_open_hswep(&cfg, &f->be);
	f->counts = f->be;
	if (rc == 0 && shared) {
		struct uncore_share_config sc = {.lock_dir = f->lock_dir};
		rc = uncore_share_create(f->be, &sc, &f->hub);
		if (rc == 0)
			rc = uncore_share_view(f->hub, &f->counts);
		else
			f->be->ops->destroy(f->be);
	}
	if (rc == 0)
		rc = uncore_set_create(f->counts, &f->set);
	if (rc == 0)
		uncore_set_clock(f->set, uncore_set_get_clock(f->e.set));
	if (rc == 0)
		rc = uncore_set_assign(f->set, names, 2);
	if (rc < 0)
		fprintf(stderr, "  fixture: %s: %s\n", uncore_strerror(rc), uncore_error_detail());
	return rc;
}

static void fixture_close(struct fixture *f)
{
	uncore_set_destroy(f->set);
	if (f->hub) {
		f->counts->ops->destroy(f->counts);
		uncore_share_release(f->hub);
	} else if (f->be) {
		f->be->ops->destroy(f->be);
	}
	sim_set_close(&f->e);
	if (f->lock_dir)
		test_rmtree(f->lock_dir);
}

/* Register accesses of the direct backend so far. */
static uint64_t accesses(const struct fixture *f)
{
	struct uncore_backend_stats st;
	if (f->be->ops->stats(f->be, &st) < 0)
		return 0;
	return st.reads + st.writes;
}

static void settings_change_without_ownership_churn(int shared)
{
	struct fixture f;
	REQUIRE(fixture_open(&f, shared) == 0);
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(f.set, 0, &info), 0);
	CHECK_EQ_INT(info.nsettings, 3);
	unsigned holds_idle = uncore_socket_hold_count(f.lock_dir, 1);
	unsigned long locks0 = uncore_socket_lock_acquisitions();
	unsigned long wraps0 = uncore_allowlist_wraps();

	CHECK_EQ_INT(uncore_set_start(f.set), 0);
	/* Ownership taken once: the lock of each socket (the metric is the
	 * whole node's), the two allowlists. */
	unsigned long locks = uncore_socket_lock_acquisitions() - locks0;
	unsigned long wraps = uncore_allowlist_wraps() - wraps0;
	CHECK_EQ_U64(locks, 2);
	CHECK_EQ_U64(wraps, 2);
	unsigned holds = uncore_socket_hold_count(f.lock_dir, 1);
	/* One owner: one hold of the socket, the shared counters' when they
	 * are there (the backend takes none of its own), else the backend's. */
	CHECK_EQ_INT(holds, holds_idle + 1);

	uint64_t v[2], per_read[9];
	for (unsigned r = 0; r < 9; r++) {
		uint64_t before = accesses(&f);
		CHECK_EQ_INT(uncore_sim_advance(f.e.sim, NS_PER_S / 100), 0);
		CHECK_EQ_INT(uncore_set_read(f.set, v), 0);
		per_read[r] = accesses(&f) - before;
		/* Every read changed the setting: reprogrammed, still owned. */
		CHECK_EQ_U64(uncore_socket_lock_acquisitions() - locks0, locks);
		CHECK_EQ_U64(uncore_allowlist_wraps() - wraps0, wraps);
		CHECK_EQ_INT(uncore_socket_hold_count(f.lock_dir, 1), holds);
	}
	/* The same accesses in each cycle of the three settings: nothing
	 * accumulates from one change to the next. */
	for (unsigned r = 3; r < 9; r++) {
		if (per_read[r] != per_read[r - 3])
			fprintf(stderr, "  read %u: %llu accesses, read %u: %llu\n", r,
				(unsigned long long)per_read[r], r - 3,
				(unsigned long long)per_read[r - 3]);
		CHECK_EQ_U64(per_read[r], per_read[r - 3]);
	}
	/* 90 ms at 60 M writebacks/s of 64 bytes; the raw event beside it at
	 * QFCLK 1.2 GHz on both links of socket 0 all along. */
	CHECK_NEAR(uncore_set_value_double(&info, v[0]), 60e6 * 0.09 * 64, 1e-3);
	CHECK_EQ_U64(v[1], 1200000000ull * 9 / 100 * 2);

	CHECK_EQ_INT(uncore_set_stop(f.set, v), 0);
	/* Stopped: the socket is free again for other processes. */
	CHECK_EQ_INT(uncore_socket_hold_count(f.lock_dir, 0), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(f.lock_dir, 1), holds_idle);
	fixture_close(&f);
}

TEST(direct_backend_reprograms_a_held_socket)
{
	settings_change_without_ownership_churn(0);
}

TEST(shared_counters_reprogram_a_held_socket)
{
	settings_change_without_ownership_churn(1);
}

/* A plan beyond what was acquired is taken when programmed (and kept);
 * release gives everything back, and the backend can be acquired again. */
TEST(program_beyond_the_claim_extends_it_and_release_frees_all)
{
	struct fixture f;
	REQUIRE(fixture_open(&f, 0) == 0);
	const struct uncore_plan *plan = uncore_set_plan(f.set);
	REQUIRE(plan != NULL);
	unsigned long wraps0 = uncore_allowlist_wraps();
	CHECK_EQ_INT(f.be->ops->acquire(f.be, NULL, 0), 0);
	CHECK_EQ_U64(uncore_allowlist_wraps() - wraps0, 0); /* nothing to own */
	CHECK_EQ_INT(uncore_socket_hold_count(f.lock_dir, 0), 0);
	CHECK_EQ_INT(f.be->ops->program(f.be, plan), 0);
	CHECK_EQ_U64(uncore_allowlist_wraps() - wraps0, 2);
	CHECK_EQ_INT(uncore_socket_hold_count(f.lock_dir, 0), 1);
	CHECK_EQ_INT(f.be->ops->unprogram(f.be), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(f.lock_dir, 0), 1); /* acquired: kept */
	CHECK_EQ_INT(f.be->ops->program(f.be, plan), 0);
	CHECK_EQ_U64(uncore_allowlist_wraps() - wraps0, 2);
	CHECK_EQ_INT(f.be->ops->release(f.be), 0); /* unprograms too */
	CHECK_EQ_INT(uncore_socket_hold_count(f.lock_dir, 0), 0);
	/* Without acquire: program takes, unprogram gives back. */
	CHECK_EQ_INT(f.be->ops->program(f.be, plan), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(f.lock_dir, 0), 1);
	CHECK_EQ_INT(f.be->ops->unprogram(f.be), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(f.lock_dir, 0), 0);
	fixture_close(&f);
}

int main(void)
{
	RUN(direct_backend_reprograms_a_held_socket);
	RUN(shared_counters_reprogram_a_held_socket);
	RUN(program_beyond_the_claim_extends_it_and_release_frees_all);
	return harness_done();
}
