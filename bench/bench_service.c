/* PAPI_read of the DRAM bandwidth set (hswep_unc_imc::UNC_M_CAS_COUNT:RD
 * and :WR: the 8 iMC channels of both sockets of a Haswell-EP, 32 counters)
 * through uncored, the node service (a snapshot read: loads from the
 * shared memory the service publishes, no system call), against the same
 * set read through the perf backend (bench/README.md section 10).
 *
 *   bench_service service READS   through uncored (PAPI_INTEL_UNCORE_SERVICE
 *                                 names its socket): time per PAPI_read
 *   bench_service perf READS      the perf backend over the simulated perf
 *                                 kernel (PAPI_INTEL_UNCORE_BACKEND=sim,
 *                                 PAPI_INTEL_UNCORE_SIM_KERNEL=perf): time
 *                                 per PAPI_read, the kernel answered in
 *                                 process, and the read() calls each makes
 *   bench_service read-cost READS one real read() of a perf event group of
 *                                 two software events on this machine
 *
 * Prints "median_ns p10_ns p90_ns" (and, for perf, " reads_per_read").
 * `bench_service service 0 N` only starts and stops, with the same memory
 * and sorting as a run of N reads: strace's baseline (bench/run.sh counts
 * the system calls of that run and of `service N`; the difference is the
 * reads'). */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include "papi.h"
#pragma GCC diagnostic pop

#include "bind/component.h"
#include "bind/settings.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"

static const char *const SET[] = {"hswep_unc_imc::UNC_M_CAS_COUNT:RD",
				  "hswep_unc_imc::UNC_M_CAS_COUNT:WR"};
#define NSET 2

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void report(double *t, long n)
{
	if (n <= 0) {
		printf("0 0 0");
		return;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	printf("%.0f %.0f %.0f", t[n / 2], t[n / 10], t[n * 9 / 10]);
}

/* READS PAPI_reads of the set, each timed (after 100 warm-up reads). */
static int papi_reads(long reads, double *t)
{
	int es = PAPI_NULL;
	long long v[NSET];
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || PAPI_create_eventset(&es) != PAPI_OK)
		return -1;
	for (int i = 0; i < NSET; i++)
		if (PAPI_add_named_event(es, SET[i]) != PAPI_OK) {
			fprintf(stderr, "bench_service: cannot add %s\n", SET[i]);
			return -1;
		}
	if (PAPI_start(es) != PAPI_OK)
		return -1;
	for (long i = 0; reads && i < 100; i++)
		if (PAPI_read(es, v) != PAPI_OK)
			return -1;
	for (long i = 0; i < reads; i++) {
		double a = now_ns();
		if (PAPI_read(es, v) != PAPI_OK)
			return -1;
		t[i] = now_ns() - a;
	}
	if (PAPI_stop(es, v) != PAPI_OK)
		return -1;
	PAPI_shutdown();
	return 0;
}

/* The read() calls one read of the set makes through the perf backend
 * (the simulated kernel counts them as the real one would see them): our
 * library's own event set on the component's backend, its stats. */
static double perf_reads_per_read(void)
{
	static struct uncore_settings st;
	struct uncore_component *comp;
	struct uncore_set *set;
	struct uncore_backend_stats a, b;
	uint64_t v[NSET];
	unsigned idx;
	if (uncore_settings_read(&st) < 0 || uncore_component_open(&st, &comp) < 0)
		return -1;
	if (uncore_set_create(comp->be, &set) < 0)
		return -1;
	for (int i = 0; i < NSET; i++)
		if (uncore_set_add(set, SET[i], &idx) < 0)
			return -1;
	if (uncore_set_start(set) < 0 || !comp->be->ops->stats || comp->be->ops->stats(comp->be, &a) < 0)
		return -1;
	for (int i = 0; i < 100; i++)
		uncore_set_read(set, v);
	comp->be->ops->stats(comp->be, &b);
	uncore_set_stop(set, NULL);
	uncore_set_destroy(set);
	uncore_component_close(comp);
	return (double)(b.syscalls - a.syscalls) / 100;
}

/* One real read() of a perf group of two software events (this machine's
 * kernel): what each of the perf backend's read() calls costs at least. */
static int read_cost(long reads, double *t)
{
	struct perf_event_attr at;
	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	at.type = PERF_TYPE_SOFTWARE;
	at.config = PERF_COUNT_SW_CPU_CLOCK;
	at.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	int lead = (int)syscall(SYS_perf_event_open, &at, 0, -1, -1, 0);
	at.config = PERF_COUNT_SW_TASK_CLOCK;
	int other = lead >= 0 ? (int)syscall(SYS_perf_event_open, &at, 0, -1, lead, 0) : -1;
	if (lead < 0 || other < 0) {
		perror("bench_service: perf_event_open");
		return -1;
	}
	uint64_t buf[8];
	for (long i = 0; i < reads; i++) {
		double a = now_ns();
		if (read(lead, buf, sizeof(buf)) <= 0)
			return -1;
		t[i] = now_ns() - a;
	}
	close(other);
	close(lead);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: bench_service service|perf|read-cost READS [ALLOC]\n");
		return 2;
	}
	long reads = atol(argv[2]), alloc = argc == 4 ? atol(argv[3]) : reads;
	if (reads < 0 || alloc < reads)
		return 2;
	/* The array is touched and sorted whole before anything is counted:
	 * its allocation and qsort's system calls (mmap, sysinfo) are the same
	 * in the baseline run. */
	double *t = calloc(alloc > 0 ? (size_t)alloc : 1, sizeof(double));
	if (!t)
		return 2;
	qsort(t, (size_t)alloc, sizeof(*t), cmp_double);
	int rc;
	if (strcmp(argv[1], "read-cost") == 0)
		rc = read_cost(reads, t);
	else if (strcmp(argv[1], "service") == 0 || strcmp(argv[1], "perf") == 0)
		rc = papi_reads(reads, t);
	else {
		fprintf(stderr, "bench_service: unknown mode %s\n", argv[1]);
		return 2;
	}
	if (rc < 0) {
		fprintf(stderr, "bench_service: %s failed\n", argv[1]);
		return 1;
	}
	report(t, reads);
	if (strcmp(argv[1], "perf") == 0)
		printf(" %.1f", perf_reads_per_read());
	printf("\n");
	free(t);
	return 0;
}
