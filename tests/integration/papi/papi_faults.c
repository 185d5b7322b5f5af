/* Faults through PAPI on the simulator (issue 15), as an application sees
 * them: a device that vanished while counting is PAPI_ESYS, not "Event
 * does not exist"; a box freeze failing in PAPI_stop loses no count (the
 * retried stop returns the exact totals); an unfreeze failing on socket 0
 * after a read leaves socket 1 counting.  Counts: R3QPI clockticks of both
 * sockets (hswep-clocks.scn), exact from the uncore clock. */
#include "itest.h"
#include "platform/hswep/hswep_regs.h"

#include <errno.h>
#include <papi.h>
#include <stdio.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", what);
	failures += !ok;
}

static const char *const names[] = {"hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:socket=0",
				    "hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:socket=1"};

static int make_set(void)
{
	int es = PAPI_NULL;
	if (PAPI_create_eventset(&es) != PAPI_OK)
		return PAPI_NULL;
	for (int i = 0; i < 2; i++)
		if (PAPI_add_named_event(es, names[i]) != PAPI_OK)
			printf("  cannot add %s\n", names[i]);
	return es;
}

static void drop_set(int es)
{
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* Socket 0's R3QPI link 0 device. */
static int64_t r3qpi0_bdf(struct itest_sim *s)
{
	struct uncore_reg r;
	hswep_reg(hswep_box(HSWEP_BOX_R3QPI), 0, HSWEP_REG_CTR, 0, 0, s->topo.bus[0], &r);
	return r.bdf;
}

int main(void)
{
	struct itest_sim s;
	long long v[2];
	if (itest_sim_create("e5-2699v3-2s", &s) < 0)
		return 1;
	if (itest_papi_init() < 0 || itest_load(&s, "hswep-clocks.scn") < 0) {
		itest_sim_destroy(&s);
		return 1;
	}
	uint64_t uclk = s.topo.clock_hz[HSWEP_CLK_UCLK];

	/* 1. The device vanishes between start and read. */
	int es = make_set();
	uint64_t g0 = itest_now(&s);
	check(PAPI_start(es) == PAPI_OK, "start");
	struct uncore_sim_fault gone = {.space = UNCORE_SPACE_PCI,
					.op = UNCORE_SIM_OP_ANY,
					.socket = -1,
					.bdf = r3qpi0_bdf(&s),
					.addr = -1,
					.nth = 1,
					.count = 0,
					.error = ENODEV};
	uncore_sim_inject_fault(s.sim, &gone);
	uncore_sim_advance(s.sim, 1000000);
	int rc = PAPI_read(es, v);
	printf("  PAPI_read with the device gone: %s\n", PAPI_strerror(rc));
	check(rc == PAPI_ESYS,
	      "a vanished device makes PAPI_read fail with PAPI_ESYS, not PAPI_ENOEVNT");
	/* Reported once: the stop (whose own read meets the fault again) ends
	 * the set, socket 1's count whole; a persistent fault never traps it. */
	rc = PAPI_stop(es, v);
	uint64_t whole = itest_cycles(g0 + 1000000, uclk) - itest_cycles(g0, uclk);
	printf("  PAPI_stop with the device still gone: %s, socket 1 %lld (want %llu)\n",
	       PAPI_strerror(rc), v[1], (unsigned long long)whole);
	check(rc == PAPI_OK && (uint64_t)v[1] == whole,
	      "after the reported fault PAPI_stop ends the set, socket 1 exact");
	uncore_sim_clear_faults(s.sim);
	drop_set(es);

	/* 2. A box freeze fails in PAPI_stop (once). */
	es = make_set();
	uint64_t t0 = itest_now(&s);
	check(PAPI_start(es) == PAPI_OK, "start");
	uncore_sim_advance(s.sim, 2000000);
	uint64_t t1 = itest_now(&s);
	struct uncore_sim_fault freeze = {.space = UNCORE_SPACE_PCI,
					  .op = UNCORE_SIM_OP_WRITE,
					  .socket = -1,
					  .bdf = r3qpi0_bdf(&s),
					  .addr = -1,
					  .nth = 1,
					  .count = 1,
					  .error = EIO};
	uncore_sim_inject_fault(s.sim, &freeze);
	rc = PAPI_stop(es, v);
	check(rc != PAPI_OK, "PAPI_stop reports the failed freeze");
	rc = PAPI_stop(es, v);
	uint64_t want = itest_cycles(t1, uclk) - itest_cycles(t0, uclk);
	printf("  retried PAPI_stop: %s, %lld and %lld (want %llu)\n", PAPI_strerror(rc), v[0],
	       v[1], (unsigned long long)want);
	check(rc == PAPI_OK && (uint64_t)v[0] == want && (uint64_t)v[1] == want,
	      "the retried PAPI_stop returns every count");
	uncore_sim_clear_faults(s.sim);
	drop_set(es);

	/* 3. The unfreeze after a read fails on socket 0 (once). */
	es = make_set();
	t0 = itest_now(&s);
	check(PAPI_start(es) == PAPI_OK, "start");
	uncore_sim_advance(s.sim, 1000000);
	struct uncore_sim_fault unfreeze = {.space = UNCORE_SPACE_MSR,
					    .op = UNCORE_SIM_OP_WRITE,
					    .socket = 0,
					    .bdf = -1,
					    .addr = HSWEP_U_MSR_PMON_GLOBAL_CTL,
					    .nth = 2,
					    .count = 1,
					    .error = EIO};
	uncore_sim_inject_fault(s.sim, &unfreeze);
	check(PAPI_read(es, v) != PAPI_OK, "PAPI_read reports the failed unfreeze");
	uncore_sim_advance(s.sim, 1000000);
	check(PAPI_read(es, v) == PAPI_OK, "the next PAPI_read unfreezes socket 0");
	uncore_sim_advance(s.sim, 1000000);
	t1 = itest_now(&s);
	rc = PAPI_stop(es, v);
	want = itest_cycles(t1, uclk) - itest_cycles(t0, uclk);
	printf("  after the failed unfreeze: socket 0 %lld, socket 1 %lld (whole run %llu)\n", v[0],
	       v[1], (unsigned long long)want);
	check(rc == PAPI_OK && (uint64_t)v[1] == want, "socket 1 lost nothing");
	check((uint64_t)v[0] < want,
	      "socket 0 lost the span it stayed frozen (reported by the read)");
	drop_set(es);

	PAPI_shutdown();
	itest_sim_destroy(&s);
	return failures ? 1 : 0;
}
