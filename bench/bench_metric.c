/* A metric's PAPI_read against its raw events' (issue 27: a metric costs
 * at most 1.1x the instructions of its events): one event set of
 * `hswep_metric::DRAM_BW` (or its `:int` form), or of the two raw events
 * it is made of, `hswep_unc_imc::UNC_M_CAS_COUNT:RD` and `:WR` (each summed
 * over the 8 iMC channels of both sockets: 32 counters either way), read
 * `--reads` times on the simulator (e5-2699v3-2s, stream.scn) after 100
 * warm-up reads.  bench/run.sh runs it under callgrind, collecting
 * PAPI_read only, and subtracts the simulator's register accesses.
 * Usage: bench_metric raw|metric|int [--reads N] [--freeze 0|1] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include "papi.h"
#pragma GCC diagnostic pop

#include "sim/uncore_sim.h"

int main(int argc, char **argv)
{
	static const char *const raw[] = {"hswep_unc_imc::UNC_M_CAS_COUNT:RD",
					  "hswep_unc_imc::UNC_M_CAS_COUNT:WR"};
	static const char *const metric[] = {"hswep_metric::DRAM_BW"};
	static const char *const metric_int[] = {"hswep_metric::DRAM_BW:int"};
	const char *const *names = NULL;
	unsigned n = 0, reads = 1000;
	int freeze = 1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "raw") == 0)
			names = raw, n = 2;
		else if (strcmp(argv[i], "metric") == 0)
			names = metric, n = 1;
		else if (strcmp(argv[i], "int") == 0)
			names = metric_int, n = 1;
		else if (strcmp(argv[i], "--reads") == 0 && i + 1 < argc)
			reads = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--freeze") == 0 && i + 1 < argc)
			freeze = atoi(argv[++i]);
		else
			names = NULL, n = 0, i = argc;
	}
	if (!names) {
		fprintf(stderr, "usage: bench_metric raw|metric|int [--reads N] [--freeze 0|1]\n");
		return 2;
	}
	char path[64];
	struct uncore_sim *sim;
	snprintf(path, sizeof(path), "/dev/shm/bench-metric-%d", (int)getpid());
	if (uncore_sim_create("e5-2699v3-2s", path, &sim) < 0) {
		fprintf(stderr, "bench_metric: cannot create the simulator in %s\n", path);
		return 1;
	}
	setenv("PAPI_INTEL_UNCORE_BACKEND", "sim", 1);
	setenv("PAPI_INTEL_UNCORE_SIM", path, 1);
	setenv("PAPI_INTEL_UNCORE_READ_FREEZE", freeze ? "1" : "0", 1);
	setenv("PAPI_INTEL_UNCORE_POLL", "off", 1); /* 48-bit counters: no poller needed */
	unsetenv("PAPI_INTEL_UNCORE_SIM_SCENARIO");
	unsetenv("PAPI_INTEL_UNCORE_SIM_LOG");
	int es = PAPI_NULL, rc = PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT
					 ? PAPI_create_eventset(&es)
					 : PAPI_ENOINIT;
	for (unsigned i = 0; rc == PAPI_OK && i < n; i++)
		rc = PAPI_add_named_event(es, names[i]);
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	long long v[2];
	for (unsigned i = 0; rc == PAPI_OK && i < 100 + reads; i++) {
		uncore_sim_advance(sim, 1000000); /* every read a new interval */
		rc = PAPI_read(es, v);
	}
	if (rc == PAPI_OK)
		rc = PAPI_stop(es, v);
	if (rc != PAPI_OK)
		fprintf(stderr, "bench_metric: %s\n", PAPI_strerror(rc));
	else
		printf("%u reads of %s%s\n", reads, names[0], n > 1 ? " and its sibling" : "");
	PAPI_shutdown();
	uncore_sim_destroy(sim);
	return rc == PAPI_OK ? 0 : 1;
}
