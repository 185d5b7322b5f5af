/* PAPI_overflow and PAPI_profil on uncore events (README "MPI jobs and
 * threads", HPCToolkit): uncore counters deliver no overflow interrupt, so
 * the component refuses sampling with PAPI_ENOSUPP instead of accepting it
 * and never calling the handler, PAPI's software emulation
 * (PAPI_OVERFLOW_FORCE_SW) included; the set still counts exactly afterwards.
 * Counts: UBox
 * clockticks of both sockets (hswep-clocks.scn), exact from the uncore
 * clock. */
#include "itest.h"
#include "platform/hswep/hswep_boxes.h"

#include <papi.h>
#include <stdio.h>

static int failures, calls;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", what);
	failures += !ok;
}

static void handler(int es, void *address, long long vector, void *context)
{
	(void)es;
	(void)address;
	(void)vector;
	(void)context;
	calls++;
}

int main(void)
{
	static const char name[] = "hswep_unc_ubo::UNC_U_CLOCKTICKS";
	struct itest_sim s;
	int es = PAPI_NULL, code = 0, rc;
	long long v = 0;
	unsigned short buf[64];
	if (itest_sim_create("e5-2699v3-2s", &s) < 0)
		return 1;
	if (itest_papi_init() < 0 || itest_load(&s, "hswep-clocks.scn") < 0 ||
	    PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, name) != PAPI_OK ||
	    PAPI_event_name_to_code(name, &code) != PAPI_OK) {
		printf("FAIL cannot set up %s\n", name);
		itest_sim_destroy(&s);
		return 1;
	}
	rc = PAPI_overflow(es, code, 1000000, 0, handler);
	printf("   PAPI_overflow: %d (%s)\n", rc, PAPI_strerror(rc));
	check(rc == PAPI_ENOSUPP, "PAPI_overflow on an uncore event is refused with PAPI_ENOSUPP");
	rc = PAPI_profil(buf, sizeof(buf), 0, 65536, es, code, 1000000, PAPI_PROFIL_POSIX);
	printf("   PAPI_profil: %d (%s)\n", rc, PAPI_strerror(rc));
	check(rc != PAPI_OK, "PAPI_profil on an uncore event is refused");
	/* PAPI's software emulation (a timer signal whose handler reads the
	 * counters) is refused too (papi-patches/60-...): before, accepted and
	 * the handler never called. */
	rc = PAPI_overflow(es, code, 1000000, PAPI_OVERFLOW_FORCE_SW, handler);
	printf("   PAPI_overflow, PAPI_OVERFLOW_FORCE_SW: %d (%s)\n", rc, PAPI_strerror(rc));
	check(rc == PAPI_ENOSUPP,
	      "PAPI_overflow with PAPI_OVERFLOW_FORCE_SW is refused with PAPI_ENOSUPP");
	rc = PAPI_profil(buf, sizeof(buf), 0, 65536, es, code, 1000000,
			 PAPI_PROFIL_POSIX | PAPI_PROFIL_FORCE_SW);
	printf("   PAPI_profil, PAPI_PROFIL_FORCE_SW: %d (%s)\n", rc, PAPI_strerror(rc));
	check(rc == PAPI_ENOSUPP,
	      "PAPI_profil with PAPI_PROFIL_FORCE_SW is refused with PAPI_ENOSUPP (the refused "
	      "PAPI_profil before it left nothing recorded: papi-patches/60-...)");
	rc = PAPI_profil(buf, sizeof(buf), 0, 65536, es, code, 1000000, PAPI_PROFIL_POSIX);
	check(rc == PAPI_ENOSUPP, "PAPI_profil again: refused the same way (before: a write "
				  "into the buffer the first refusal freed)");

	uint64_t t0 = itest_now(&s), hz = s.topo.clock_hz[HSWEP_CLK_UCLK];
	rc = PAPI_start(es);
	if (rc == PAPI_OK && uncore_sim_advance(s.sim, 2000000) == 0)
		rc = PAPI_stop(es, &v);
	uint64_t want = s.topo.sockets * (itest_cycles(itest_now(&s), hz) - itest_cycles(t0, hz));
	printf("   counted %lld, want %llu\n", v, (unsigned long long)want);
	check(rc == PAPI_OK && (uint64_t)v == want,
	      "after the refused PAPI_overflow the set counts exactly (2 ms of UBox clockticks)");
	check(calls == 0, "no overflow handler was called");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	itest_sim_destroy(&s);
	return failures ? 1 : 0;
}
