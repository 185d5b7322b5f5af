/* Metrics through PAPI on a simulated two-socket Haswell-EP in virtual
 * time: a whole node's DRAM bandwidth is one event (PAPI_add_named_event),
 * next to raw events and a per-socket variant; the values are doubles
 * (PAPI_DATATYPE_FP64, bits in PAPI's long long) with their units; a
 * multiplexed metric is exact when read at whole periods; a metric the
 * machine lacks is refused.  With PAPI_INTEL_UNCORE_SIM_KERNEL=perf the same
 * through the perf backend, with the kernel's msr::tsc beside the metrics.
 * Usage: metrics_papi_check SCENARIO_DIR.  Prints PASS/FAIL lines. */
#include "papi.h"
#include "common/uncore_error.h"
#include "platform/hswep/hswep_boxes.h"
#include "sim/uncore_sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", what);
	failures += !ok;
}

static int setup_failed(const char *what, int rc)
{
	printf("FAIL setup: %s", what);
	if (rc)
		printf(": %s: %s", uncore_error_name(rc), uncore_error_detail());
	printf(" (no metric was checked)\n");
	return 1;
}

static double as_double(long long v)
{
	double d;
	memcpy(&d, &v, sizeof(d));
	return d;
}

static int near(double got, double want)
{
	return fabs(got - want) <= fabs(want) * 1e-12;
}

int main(int argc, char **argv)
{
	char path[] = "/dev/shm/papi-uncore-metrics-XXXXXX", scen[600];
	struct uncore_sim *sim;
	int fd, es = PAPI_NULL, rc;

	/* A setup failure is a named failure, never a silent exit: the
	 * runner counts FAIL lines and the exit status. */
	if (argc < 2)
		return setup_failed("usage: metrics_papi_check SCENARIO_DIR", 0);
	fd = mkstemp(path);
	if (fd < 0)
		return setup_failed("mkstemp in /dev/shm", 0);
	close(fd);
	unlink(path);
	if ((rc = uncore_sim_create("e5-2699v3-2s", path, &sim)) != 0)
		return setup_failed("uncore_sim_create e5-2699v3-2s", rc);
	snprintf(scen, sizeof(scen), "%s/stream.scn", argv[1]);
	if ((rc = uncore_sim_load_scenario(sim, scen)) != 0) {
		setup_failed(scen, rc);
		uncore_sim_destroy(sim); /* nothing left in /dev/shm */
		return 1;
	}
	setenv("PAPI_INTEL_UNCORE_BACKEND", "sim", 1);
	setenv("PAPI_INTEL_UNCORE_SIM", path, 1);

	rc = PAPI_library_init(PAPI_VER_CURRENT);
	check(rc == PAPI_VER_CURRENT, "PAPI_library_init");
	check(PAPI_create_eventset(&es) == PAPI_OK, "PAPI_create_eventset");
	const char *kernel = getenv("PAPI_INTEL_UNCORE_SIM_KERNEL");
	int perf = kernel && strcmp(kernel, "perf") == 0;
	const char *names[] = {"hswep_metric::DRAM_BW", "hswep_metric::DRAM_READ_BW:socket=1",
			       "hswep_unc_imc::UNC_M_CAS_COUNT:RD", "hswep_unc_imc::MEM_BW_WRITES",
			       "msr::tsc:socket=0"};
	int nnames = perf ? 5 : 4;
	for (int i = 0; i < nnames; i++) {
		char what[160];
		snprintf(what, sizeof(what), "PAPI_add_named_event %s", names[i]);
		check(PAPI_add_named_event(es, names[i]) == PAPI_OK, what);
	}
	PAPI_event_info_t info;
	int code;
	check(PAPI_event_name_to_code("hswep_metric::DRAM_BW", &code) == PAPI_OK &&
		  PAPI_get_event_info(code, &info) == PAPI_OK &&
		  info.data_type == PAPI_DATATYPE_FP64 && strcmp(info.units, "GB/s") == 0,
	      "DRAM_BW is FP64 in GB/s");
	check(PAPI_event_name_to_code("hswep_unc_imc::UNC_M_CAS_COUNT:RD", &code) == PAPI_OK &&
		  PAPI_get_event_info(code, &info) == PAPI_OK &&
		  info.data_type == PAPI_DATATYPE_UINT64,
	      "raw events stay UINT64");

	long long v[5];
	check(PAPI_start(es) == PAPI_OK, "PAPI_start");
	uncore_sim_advance(sim, 1000000000ull);
	check(PAPI_stop(es, v) == PAPI_OK, "PAPI_stop");
	/* stream.scn: 8 channels per socket, 100 M read and 50 M write CAS per
	 * channel per second, 64 bytes each (2.6.6, 1.7.1). */
	double gb = 1e9; /* metrics/hswep.metrics: const GB = 10^9 */
	double node = 16 * (100e6 + 50e6) * 64 / gb, rd1 = 8 * 100e6 * 64 / gb;
	char what[200];
	snprintf(what, sizeof(what), "node DRAM bandwidth %.6f GB/s (want %.6f)", as_double(v[0]),
		 node);
	check(near(as_double(v[0]), node), what);
	snprintf(what, sizeof(what), "socket 1 read bandwidth %.6f GB/s (want %.6f)",
		 as_double(v[1]), rd1);
	check(near(as_double(v[1]), rd1), what);
	check(v[2] == 1600000000LL, "raw CAS_COUNT.RD beside the metrics");
	check(near(as_double(v[3]), 16 * 50e6 * 64), "MEM_BW_WRITES in bytes");
	if (perf) {
		struct uncore_sim_topology topo;
		check(uncore_sim_topology(sim, &topo) == 0 &&
			  v[4] == (long long)topo.clock_hz[HSWEP_CLK_TSC],
		      "the kernel's msr::tsc beside the metrics: one second of the model's TSC");
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	/* Terms spread over CBos (two LLC state filters): exact with a single
	 * start/stop. llc.scn: 4 M of 40 M data-read lookups per CBo miss. */
	snprintf(scen, sizeof(scen), "%s/llc.scn", argv[1]);
	check(uncore_sim_load_scenario(sim, scen) == 0, "load llc.scn");
	es = PAPI_NULL;
	PAPI_create_eventset(&es);
	check(PAPI_add_named_event(es, "hswep_metric::LLC_MISS_RATIO") == PAPI_OK,
	      "PAPI_add_named_event LLC_MISS_RATIO");
	check(PAPI_start(es) == PAPI_OK, "PAPI_start");
	uncore_sim_advance(sim, 100000000ull);
	check(PAPI_stop(es, v) == PAPI_OK, "PAPI_stop");
	snprintf(what, sizeof(what), "LLC miss ratio %.9f (want 0.1)", as_double(v[0]));
	check(fabs(as_double(v[0]) - 0.1) < 1e-12, what);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	/* Time-multiplexed QPI packet filters switch at every PAPI_read. */
	char text[1024];
	snprintf(text, sizeof(text),
		 "include %s/hswep-clocks.scn\ninclude %s/hswep-shapes.scn\n"
		 "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x4 rate=30M/s\n"
		 "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x5 rate=20M/s\n"
		 "stream qpi[0] socket=0 ev=0x38 ext=1 dir=rx mc=0xe popc=0x6 rate=10M/s\n",
		 argv[1], argv[1]);
	check(uncore_sim_load_scenario_text(sim, text, "wb.scn") == 0,
	      "load the writeback scenario");
	es = PAPI_NULL;
	PAPI_create_eventset(&es);
	check(PAPI_add_named_event(es, "hswep_unc_qpi::DRS_WB_FROM_QPI") == PAPI_OK,
	      "PAPI_add_named_event DRS_WB_FROM_QPI");
	check(PAPI_start(es) == PAPI_OK, "PAPI_start");
	for (int i = 0; i < 6; i++) {
		uncore_sim_advance(sim, 10000000ull);
		PAPI_read(es, v);
	}
	check(PAPI_stop(es, v) == PAPI_OK, "PAPI_stop");
	snprintf(what, sizeof(what), "multiplexed writeback bytes %.1f (want %.1f)",
		 as_double(v[0]), 60e6 * 0.06 * 64);
	check(fabs(as_double(v[0]) - 60e6 * 0.06 * 64) < 1, what);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	/* A metric the machine lacks is refused at add time. */
	es = PAPI_NULL;
	PAPI_create_eventset(&es);
	check(PAPI_add_named_event(es, "hswep_metric::DRAM_BW:socket=3") != PAPI_OK,
	      "DRAM_BW:socket=3 refused on a two-socket machine");
	check(PAPI_add_named_event(es, "skl_metric::DRAM_BW") != PAPI_OK,
	      "a Skylake metric refused on Haswell-EP");
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	uncore_sim_destroy(sim);
	return failures ? 1 : 0;
}
