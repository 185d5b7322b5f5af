/* Issue 15's acceptance case through PAPI with the default settings (no
 * PAPI_INTEL_UNCORE_POLL, no PAPI_INTEL_UNCORE_READ_FREEZE): R3QPI
 * RxR_OCCUPANCY_VN1 counting 32 per uncore clock (its Max. Inc/Cyc) for 15
 * minutes of simulated time, its 44-bit counter wrapping four times, with
 * no PAPI_read between PAPI_start and PAPI_stop: the total is exact.  The
 * simulated clock runs 300 times as fast as the wall clock, so the run
 * takes three seconds; the component's poller keeps the simulated time. */
#include "itest.h"

#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void)
{
	struct itest_sim s;
	long long v = 0;
	unsetenv("PAPI_INTEL_UNCORE_POLL");
	unsetenv("PAPI_INTEL_UNCORE_READ_FREEZE");
	if (itest_sim_create("e5-2699v3-2s", &s) < 0)
		return 1;
	if (itest_papi_init() < 0 ||
	    uncore_sim_load_scenario_text(
		s.sim, "stream r3qpi[0] ev=0x13 umask=0x01 inc=32 socket=0\n", "r3qpi-vn1") < 0) {
		itest_sim_destroy(&s);
		return 1;
	}
	int es = PAPI_NULL, rc = PAPI_create_eventset(&es);
	if (rc == PAPI_OK)
		rc = PAPI_add_named_event(
		    es, "hswep_unc_r3qpi0::UNC_R3_RXR_OCCUPANCY_VN1:HOM:socket=0");
	uint64_t t0 = itest_now(&s);
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	if (rc != PAPI_OK) {
		printf("FAIL setting up: %s\n", PAPI_strerror(rc));
		itest_sim_destroy(&s);
		return 1;
	}
	uncore_sim_set_clock_rate(s.sim, UNCORE_SIM_CLOCK_WALL, 300);
	while (itest_now(&s) - t0 < 900ull * 1000000000ull) {
		struct timespec ts = {0, 20000000};
		nanosleep(&ts, NULL);
	}
	/* Simulated time stops, then the set does: the span is exact. */
	uncore_sim_set_clock(s.sim, UNCORE_SIM_CLOCK_VIRTUAL);
	uint64_t t1 = itest_now(&s);
	rc = PAPI_stop(es, &v);
	uint64_t hz = s.topo.clock_hz[HSWEP_CLK_UCLK];
	uint64_t want = 32 * (itest_cycles(t1, hz) - itest_cycles(t0, hz));
	printf("  %.1f s simulated, %lld counted, %llu expected, 2^44 = %llu\n", (t1 - t0) / 1e9, v,
	       (unsigned long long)want, 1ull << 44);
	if (rc == PAPI_OK && (uint64_t)v == want && want > (4ull << 44))
		printf(
		    "PASS R3QPI RxR_OCCUPANCY_VN1, 32 per cycle, 15 min unread, default settings: "
		    "exact across four 44-bit wraps\n");
	else
		printf(
		    "FAIL R3QPI RxR_OCCUPANCY_VN1 15 min unread: %s, %lld counted, %llu expected\n",
		    PAPI_strerror(rc), v, (unsigned long long)want);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	itest_sim_destroy(&s);
	return 0;
}
