/* Rates and amounts right for every way a tool reads (issue 27, items 1-3),
 * on the simulator's virtual clock: stream.scn (per node 1.6e9 read CAS/s
 * and 8e8 write CAS/s, so DRAM_BW is 153.6 GB/s = 153600 MB/s, half of it
 * per socket), then idle.scn (no DRAM traffic).
 *
 *   papi_rates hl OUTPUT_DIRECTORY   PAPI's high-level API, two regions
 *                                    (1 s of stream, 1 s idle); the JSON is
 *                                    checked by tests/integration/test_rates.sh
 *   papi_rates tau                   a TAU-like client: read, reset and
 *                                    accumulate, 5 samples of 1 s of stream
 *                                    and one idle; PAPI_accum; reads
 *                                    subtracted; each value exact
 *
 * The backend is the component's choice (test_rates.sh runs both). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "itest.h"
#include "papi.h"

#define SEC 1000000000ull /* ns */

/* Per node and second of stream.scn: 8 channels x 2 sockets. */
#define RD_PER_S  1600000000ll
#define WR_PER_S  800000000ll
#define BW_MBS    ((RD_PER_S + WR_PER_S) * 64 / 1000000) /* 153600 */
#define BW_S0_MBS (BW_MBS / 2)

static int failures;

static void check_ll(const char *what, long long got, long long want)
{
	if (got == want)
		printf("PASS %s = %lld\n", what, got);
	else {
		printf("FAIL %s = %lld, want %lld\n", what, got, want);
		failures++;
	}
}

static void check_d(const char *what, double got, double want)
{
	if (fabs(got - want) <= 1e-9 * fabs(want))
		printf("PASS %s = %.6f\n", what, got);
	else {
		printf("FAIL %s = %.6f, want %.6f\n", what, got, want);
		failures++;
	}
}

static int load(struct itest_sim *sim, const char *scn)
{
	if (itest_load(sim, scn) != 0) {
		printf("FAIL loading %s\n", scn);
		failures++;
		return -1;
	}
	return 0;
}

/* The high-level API: the JSON holds each region's values. */
static int run_hl(struct itest_sim *sim, const char *outdir)
{
	/* An "=instant" in the middle: the events after it are counts again
	 * (the spreading of PAPI 7.0, papi-patches/70); DRAM_BW:int without
	 * "=instant" is an instant because the component says it is absolute. */
	setenv("PAPI_EVENTS",
	       "hswep_unc_imc::UNC_M_CAS_COUNT:RD,hswep_metric::DRAM_BW:int,"
	       "hswep_metric::DRAM_BW:socket0:int=instant,hswep_unc_imc::UNC_M_CAS_COUNT:WR,"
	       "PAPI_UNC_DRAM_RD_BYTES,hswep_metric::DRAM_BW:amount:int,"
	       "hswep_metric::DRAM_BW:socket=1:int,hswep_metric::DRAM_BW:socket1:amount:int",
	       1);
	setenv("PAPI_OUTPUT_DIRECTORY", outdir, 1);
	if (load(sim, "stream.scn") != 0)
		return 1;
	int rc = PAPI_hl_region_begin("stream");
	if (rc == PAPI_OK)
		rc = uncore_sim_advance(sim->sim, SEC) == 0 ? PAPI_OK : PAPI_ESYS;
	if (rc == PAPI_OK)
		rc = PAPI_hl_region_end("stream");
	if (rc == PAPI_OK && load(sim, "idle.scn") != 0)
		rc = PAPI_ESYS;
	if (rc == PAPI_OK)
		rc = PAPI_hl_region_begin("idle");
	if (rc == PAPI_OK)
		rc = uncore_sim_advance(sim->sim, SEC) == 0 ? PAPI_OK : PAPI_ESYS;
	if (rc == PAPI_OK)
		rc = PAPI_hl_region_end("idle");
	if (rc == PAPI_OK)
		rc = PAPI_hl_stop();
	printf("%s two high-level regions over 1 s of simulated time each (%s)\n",
	       rc == PAPI_OK ? "PASS" : "FAIL", PAPI_strerror(rc));
	return rc == PAPI_OK ? 0 : 1;
}

enum { RD, WR, PRESET, BW, BW_INT, BW_S1_INT, BW_AMOUNT, BW_S0_AMOUNT, NEV };

static const char *const names[NEV] = {
    "hswep_unc_imc::UNC_M_CAS_COUNT:RD",
    "hswep_unc_imc::UNC_M_CAS_COUNT:WR",
    "PAPI_UNC_DRAM_RD_BYTES",
    "hswep_metric::DRAM_BW",
    "hswep_metric::DRAM_BW:int",
    "hswep_metric::DRAM_BW:socket=1:int",
    "hswep_metric::DRAM_BW:amount:int",
    "hswep_metric::DRAM_BW:socket=0:amount",
};

static double as_double(long long v)
{
	double d;
	memcpy(&d, &v, sizeof(d));
	return d;
}

/* What each entry should read over `s` seconds of stream (`idle`: 0). */
static void check_sample(const char *label, const long long *v, int is_running_sum,
			 long long seconds, int idle)
{
	char what[160];
	long long k = idle ? 0 : 1;
	/* Running sums cover the `seconds`; rates their interval. */
	long long n = is_running_sum ? seconds * k : k;
#define W(x) (snprintf(what, sizeof(what), "%s: %s", label, names[x]), what)
	check_ll(W(RD), v[RD], n * RD_PER_S);
	check_ll(W(WR), v[WR], n * WR_PER_S);
	check_ll(W(PRESET), v[PRESET], n * RD_PER_S * 64);
	check_d(W(BW), as_double(v[BW]), (double)(k * BW_MBS) / 1e3);
	check_ll(W(BW_INT), v[BW_INT], k * BW_MBS);
	check_ll(W(BW_S1_INT), v[BW_S1_INT], k * BW_S0_MBS);
	check_ll(W(BW_AMOUNT), v[BW_AMOUNT], n * BW_MBS * 1000000);
	check_d(W(BW_S0_AMOUNT), as_double(v[BW_S0_AMOUNT]), (double)(n * BW_S0_MBS) / 1e3);
#undef W
}

/* v - prev for the running sums (the FP64 amount as doubles). */
static void subtract(long long *v, const long long *prev, const int *absolute)
{
	for (int i = 0; i < NEV; i++) {
		if (absolute[i])
			continue;
		if (i == BW_S0_AMOUNT) {
			double d = as_double(v[i]) - as_double(prev[i]);
			memcpy(&v[i], &d, sizeof(d));
		} else {
			v[i] -= prev[i];
		}
	}
}

/* A TAU-like client: values of running sums are added up sample by sample,
 * absolute ones (PAPI_VALUETYPE_ABSOLUTE: the interval since the previous
 * read) are each sample's own and are never added. */
static int run_tau(struct itest_sim *sim)
{
	int es = PAPI_NULL, absolute[NEV];
	long long v[NEV], acc[NEV], prev[NEV];
	char label[96];

	if (itest_papi_init() < 0 || PAPI_create_eventset(&es) != PAPI_OK) {
		printf("FAIL PAPI set-up\n");
		return 1;
	}
	for (int i = 0; i < NEV; i++) {
		PAPI_event_info_t info;
		int code, rc = PAPI_add_named_event(es, names[i]);
		if (rc != PAPI_OK || PAPI_event_name_to_code(names[i], &code) != PAPI_OK ||
		    PAPI_get_event_info(code, &info) != PAPI_OK) {
			printf("FAIL adding %s: %s\n", names[i], PAPI_strerror(rc));
			return 1;
		}
		absolute[i] = info.value_type == PAPI_VALUETYPE_ABSOLUTE;
	}
	/* What the component says each entry is. */
	for (int i = 0; i < NEV; i++) {
		int want = i == BW || i == BW_INT || i == BW_S1_INT;
		char what[160];
		snprintf(what, sizeof(what), "%s is %s", names[i],
			 want ? "PAPI_VALUETYPE_ABSOLUTE" : "PAPI_VALUETYPE_RUNNING_SUM");
		check_ll(what, absolute[i], want);
	}
	if (load(sim, "stream.scn") != 0 || PAPI_start(es) != PAPI_OK) {
		printf("FAIL PAPI_start\n");
		return 1;
	}
	/* Read, then reset: five samples of 1 s. */
	memset(acc, 0, sizeof(acc));
	for (int s = 0; s < 5; s++) {
		uncore_sim_advance(sim->sim, SEC);
		if (PAPI_read(es, v) != PAPI_OK || PAPI_reset(es) != PAPI_OK) {
			printf("FAIL PAPI_read/PAPI_reset of sample %d\n", s);
			return 1;
		}
		snprintf(label, sizeof(label), "read+reset sample %d of 1 s", s + 1);
		check_sample(label, v, 0, 1, 0);
		for (int i = 0; i < NEV; i++)
			if (!absolute[i])
				acc[i] += v[i];
	}
	/* The accumulated running sums: 5 s of stream. */
	check_ll("read+reset, 5 samples accumulated: CAS reads", acc[RD], 5 * RD_PER_S);
	check_ll("read+reset, 5 samples accumulated: PAPI_UNC_DRAM_RD_BYTES", acc[PRESET],
		 5 * RD_PER_S * 64);
	check_ll("read+reset, 5 samples accumulated: DRAM_BW:amount:int (bytes)", acc[BW_AMOUNT],
		 5 * BW_MBS * 1000000);
	/* PAPI_accum: read, add, reset. */
	memset(acc, 0, sizeof(acc));
	for (int s = 0; s < 3; s++) {
		uncore_sim_advance(sim->sim, SEC);
		if (PAPI_accum(es, acc) != PAPI_OK) {
			printf("FAIL PAPI_accum %d\n", s);
			return 1;
		}
	}
	check_ll("PAPI_accum x3: CAS reads", acc[RD], 3 * RD_PER_S);
	check_ll("PAPI_accum x3: DRAM_BW:amount:int (bytes)", acc[BW_AMOUNT],
		 3 * BW_MBS * 1000000);
	if (PAPI_reset(es) != PAPI_OK || PAPI_read(es, prev) != PAPI_OK) {
		printf("FAIL PAPI_reset\n");
		return 1;
	}
	/* Reads without reset (a timer's start and stop): running sums are
	 * subtracted, absolute values are the interval's. */
	uncore_sim_advance(sim->sim, 2 * SEC);
	if (PAPI_read(es, v) != PAPI_OK) {
		printf("FAIL PAPI_read\n");
		return 1;
	}
	subtract(v, prev, absolute);
	check_sample("two reads 2 s apart, subtracted", v, 1, 2, 0);
	memcpy(prev, v, sizeof(v));
	if (PAPI_read(es, prev) != PAPI_OK || load(sim, "idle.scn") != 0) {
		printf("FAIL PAPI_read\n");
		return 1;
	}
	uncore_sim_advance(sim->sim, SEC);
	if (PAPI_read(es, v) != PAPI_OK) {
		printf("FAIL PAPI_read\n");
		return 1;
	}
	subtract(v, prev, absolute);
	check_sample("idle 1 s after 7 s of stream", v, 1, 1, 1);
	/* The interval since the last read also ends at PAPI_stop. */
	if (load(sim, "stream.scn") != 0)
		return 1;
	uncore_sim_advance(sim->sim, SEC);
	if (PAPI_stop(es, v) != PAPI_OK) {
		printf("FAIL PAPI_stop\n");
		return 1;
	}
	check_ll("PAPI_stop after 1 s of stream: DRAM_BW:int", v[BW_INT], BW_MBS);
	check_ll("PAPI_stop after 1 s of stream: DRAM_BW:socket=1:int", v[BW_S1_INT], BW_S0_MBS);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct itest_sim sim;
	int rc;
	if (argc < 2 || (strcmp(argv[1], "hl") == 0 && argc < 3)) {
		printf("FAIL usage: papi_rates hl OUTPUT_DIRECTORY | papi_rates tau\n");
		return 2;
	}
	if (itest_sim_create("e5-2699v3-2s", &sim) != 0) {
		printf("FAIL setup\n");
		return 1;
	}
	rc = strcmp(argv[1], "hl") == 0 ? run_hl(&sim, argv[2]) : run_tau(&sim);
	itest_sim_destroy(&sim);
	return rc;
}
