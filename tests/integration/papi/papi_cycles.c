/* Event-set life cycles through PAPI on the simulator, for the memory run
 * (tests/integration/test_memory.sh runs it under valgrind): `cycles` times
 * create, add (events and a metric), start, read, stop, cleanup, destroy,
 * with exact counts checked on every cycle, and a set whose add failed
 * destroyed without cleanup, so that memory lost per cycle
 * shows as growth between a short and a long run.
 *
 *   papi_cycles <cycles> */
#include "itest.h"

#include <papi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct itest_sim s;
	int cycles = argc > 1 ? atoi(argv[1]) : 10;
	int bad = 0;
	if (itest_sim_create("e5-2699v3-2s", &s) < 0)
		return 1;
	if (itest_papi_init() < 0 || itest_load(&s, "hswep-clocks.scn") < 0) {
		itest_sim_destroy(&s);
		return 1;
	}
	const char *names[] = {"hswep_unc_r3qpi0::UNC_R3_CLOCKTICKS:socket=0",
			       "hswep_unc_imc0::UNC_M_DCLOCKTICKS:socket=1",
			       "hswep_unc_imc::MEM_BW_WRITES"};
	enum { NNAMES = sizeof(names) / sizeof(names[0]) };
	for (int c = 0; c < cycles && !bad; c++) {
		int es = PAPI_NULL;
		long long v[NNAMES] = {0};
		int rc = PAPI_create_eventset(&es);
		for (int i = 0; i < NNAMES && rc == PAPI_OK; i++)
			rc = PAPI_add_named_event(es, names[i]);
		if (rc == PAPI_OK)
			rc = PAPI_start(es);
		if (rc == PAPI_OK) {
			uncore_sim_advance(s.sim, 1000000); /* 1 ms */
			rc = PAPI_read(es, v);
		}
		if (rc == PAPI_OK)
			rc = PAPI_stop(es, v);
		uint64_t want0 = itest_cycles(1000000, s.topo.clock_hz[HSWEP_CLK_UCLK]);
		if (rc == PAPI_OK && (uint64_t)v[0] != want0) {
			printf("FAIL cycle %d: R3QPI clockticks %lld, want %llu\n", c, v[0],
			       (unsigned long long)want0);
			bad = 1;
		}
		if (rc != PAPI_OK) {
			printf("FAIL cycle %d: %s\n", c, PAPI_strerror(rc));
			bad = 1;
		}
		if (PAPI_cleanup_eventset(es) != PAPI_OK || PAPI_destroy_eventset(&es) != PAPI_OK) {
			printf("FAIL cycle %d: cleanup or destroy failed\n", c);
			bad = 1;
		}
		/* A set whose only add failed, destroyed without a cleanup (PAPI
		 * calls the component with no events and frees its state). */
		es = PAPI_NULL;
		if (PAPI_create_eventset(&es) != PAPI_OK ||
		    PAPI_add_named_event(es, "hswep_unc_r3qpi0::UNC_R3_NO_SUCH_EVENT") == PAPI_OK ||
		    PAPI_destroy_eventset(&es) != PAPI_OK) {
			printf("FAIL cycle %d: a refused add and destroy\n", c);
			bad = 1;
		}
	}
	if (!bad)
		printf("PASS %d create/add/start/read/stop/cleanup/destroy cycles, exact counts\n",
		       cycles);
	PAPI_shutdown();
	itest_sim_destroy(&s);
	return bad;
}
