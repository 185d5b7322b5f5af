/* The wrap guard through PAPI (issue 27; README "Nothing lost"), on the
 * virtual clock of a simulated Skylake client (model i7-6700k, skl-stream:
 * 100 M DRAM data reads per second on the IMC's free-running 32-bit
 * counter; our fastest rate for it 1.1e9/s, so it can wrap every
 * 2^32 * 1e9 / 1.1e9 = 3,904,515,723 ns).  No read for less than that: no
 * notice, the count exact.  No read for exactly that: one notice, "may have
 * lost 1 wraps".  No read for 100 s (a process stopped): PAPI_read still
 * returns PAPI_OK and the values, and intel_uncore_notices says "may have
 * lost 25 wraps of skl_unc_imc::DRAM_DATA_READS" (100 s over the period,
 * rounded down); the count lacks the two wraps 100 s of 1e8/s really made,
 * as the hardware's would.  A new PAPI_start clears the notices. */
#include "itest.h"

#include "bind/notices.h"

#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE   100000000ull /* skl-stream.scn: DRAM data reads per second */
#define SEC    1000000000ull
#define PERIOD 3904515723ull /* 2^32 * 1e9 / 1.1e9, rounded down */

static int failures;

static void check(int ok, const char *what, long long got, long long want)
{
	printf("%s %s: %lld (want %lld)\n", ok ? "PASS" : "FAIL", what, got, want);
	failures += !ok;
}

int main(void)
{
	struct itest_sim s;
	long long v = 0, truth = 0;
	char said[400] = "";
	unsetenv("PAPI_INTEL_UNCORE_POLL"); /* the default poller: it reads too */
	if (itest_sim_create("i7-6700k", &s) < 0 || itest_load(&s, "skl-stream.scn") < 0 ||
	    itest_papi_init() < 0)
		return 1;
	int es = PAPI_NULL, rc = PAPI_create_eventset(&es);
	if (rc == PAPI_OK)
		rc = PAPI_add_named_event(es, "skl_unc_imc::DRAM_DATA_READS");
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	if (rc != PAPI_OK) {
		printf("FAIL setting up: %s\n", PAPI_strerror(rc));
		itest_sim_destroy(&s);
		return 1;
	}
	/* span: simulated ns without a read; want: notices after the read. */
	static const struct {
		uint64_t span;
		int notices;
		const char *words;
	} steps[] = {
	    {SEC, 0, NULL},
	    {PERIOD - 1, 0, NULL},
	    {PERIOD, 1, "may have lost 1 wraps of skl_unc_imc::DRAM_DATA_READS on socket 0"},
	    {SEC, 1, NULL},
	    {100 * SEC, 2, "may have lost 25 wraps of skl_unc_imc::DRAM_DATA_READS on socket 0"},
	};
	for (unsigned i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		char what[200];
		uncore_sim_advance(s.sim, steps[i].span);
		truth += (long long)(steps[i].span * RATE / SEC);
		rc = PAPI_read(es, &v);
		snprintf(what, sizeof(what), "step %u (%llu ns unread): PAPI_read returns PAPI_OK", i,
			 (unsigned long long)steps[i].span);
		check(rc == PAPI_OK, what, rc, PAPI_OK);
		int n = intel_uncore_notices(es, said, sizeof(said));
		snprintf(what, sizeof(what), "step %u: notices since start", i);
		check(n == steps[i].notices, what, n, steps[i].notices);
		if (steps[i].words) {
			int has = strstr(said, steps[i].words) != NULL;
			printf("%s step %u: the notice says \"%s\" (%s)\n", has ? "PASS" : "FAIL", i,
			       steps[i].words, said);
			failures += !has;
		}
		/* Exact while no wrap could be lost; after the 100 s, the
		 * counter's two real wraps are missing, as on hardware. */
		long long want = i < 4 ? truth : truth - 2 * (1ll << 32);
		snprintf(what, sizeof(what), "step %u: DRAM_DATA_READS", i);
		check(v == want, what, v, want);
	}
	rc = PAPI_stop(es, &v);
	check(rc == PAPI_OK, "PAPI_stop", rc, PAPI_OK);
	check(intel_uncore_notices(es, NULL, 0) == 2, "notices after stop", intel_uncore_notices(es, NULL, 0), 2);
	rc = PAPI_start(es);
	uncore_sim_advance(s.sim, SEC);
	if (rc == PAPI_OK)
		rc = PAPI_read(es, &v);
	check(rc == PAPI_OK && v == (long long)RATE, "a new start counts exactly", v, (long long)RATE);
	check(intel_uncore_notices(es, NULL, 0) == 0, "a new start has no notice",
	      intel_uncore_notices(es, NULL, 0), 0);
	PAPI_stop(es, &v);
	check(intel_uncore_notices(PAPI_NULL, NULL, 0) == -1, "no event set: -1",
	      intel_uncore_notices(PAPI_NULL, NULL, 0), -1);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	itest_sim_destroy(&s);
	return failures ? 1 : 0;
}
