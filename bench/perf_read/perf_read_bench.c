/* PAPI_read cost through PAPI, one configuration per run: N events over M
 * kernel PMU instances read by the intel_uncore perf backend, or the same
 * kernel (software) events read by PAPI's perf_event component.  Prints one
 * line: ns per PAPI_read (median over batches), read() system calls per
 * PAPI_read (from /proc/self/io syscr), and the counts as a sanity check.
 *
 *   perf_read_bench ours|perf_event|alone|both N M [reads]
 *
 * ours: msr::tsc when M >= 2, power::energy-psys when M = 3, and software
 * events for the rest (the kernel PMUs of this machine).  perf_event:
 * perf::<software event> (M = 1: PAPI puts them in one group, attached to
 * this thread).  alone: no PAPI; the same N software events opened each on
 * its own for CPU 0 and read one read() per event, the way PAPI's
 * perf_event_uncore reads uncore events (the reference for what grouping
 * saves).  both: ours and perf_event (M = 1) in one process, their batches
 * taking turns, so that the machine's load and the process weigh on both
 * alike (the side-by-side figure of make bench); one line per reader.  Run
 * by bench/perf_read/run.sh and bench/run.sh. */
#include <linux/perf_event.h>
#include <papi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BATCH 100

static const char *const sw_ours[] = {"software::cpu-clock",      "software::task-clock",
				      "software::page-faults",    "software::context-switches",
				      "software::cpu-migrations", "software::minor-faults",
				      "software::major-faults",   "software::cgroup-switches"};
static const char *const sw_papi[] = {
    "perf::CPU-CLOCK",      "perf::TASK-CLOCK",   "perf::PAGE-FAULTS",  "perf::CONTEXT-SWITCHES",
    "perf::CPU-MIGRATIONS", "perf::MINOR-FAULTS", "perf::MAJOR-FAULTS", "perf::CGROUP-SWITCHES"};
/* The other PMU instances of this machine's kernel: one event each (msr's
 * other event, smi, traps to the hypervisor on every read). */
static const char *const other_ours[] = {"msr::tsc", "power::energy-psys"};

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static long syscr(void)
{
	char line[128];
	long v = -1;
	FILE *f = fopen("/proc/self/io", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "syscr: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The software event ids of sw_ours (perf_event_open(2), perf_sw_ids). */
static const unsigned sw_ids[] = {0, 1, 2, 3, 4, 5, 6, 11};

/* An event set of n events for one reader (ours: m PMU instances). */
static int add_set(int ours, int n, int m, int *es)
{
	*es = PAPI_NULL;
	if (PAPI_create_eventset(es) != PAPI_OK)
		return 1;
	for (int i = 0; i < n; i++) {
		const char *name = !ours       ? sw_papi[i]
				   : i < m - 1 ? other_ours[i]
					       : sw_ours[i - (m - 1)];
		int rc = PAPI_add_named_event(*es, name);
		if (rc != PAPI_OK) {
			fprintf(stderr, "cannot add %s: %s\n", name, PAPI_strerror(rc));
			return 1;
		}
	}
	return 0;
}

/* Readers 0 (perf_event) and 1 (ours), N events each, started together;
 * batches of BATCH reads alternate between them. */
static int both(int n, int reads)
{
	int es[2];
	long long v[2][8];
	if (add_set(0, n, 1, &es[0]) || add_set(1, n, 1, &es[1]))
		return 1;
	if (PAPI_start(es[0]) != PAPI_OK || PAPI_start(es[1]) != PAPI_OK) {
		fprintf(stderr, "cannot start both readers\n");
		return 1;
	}
	for (int i = 0; i < 1000; i++) /* warm up */
		for (int r = 0; r < 2; r++)
			PAPI_read(es[r], v[r]);
	int nb = reads / BATCH;
	double *per[2] = {malloc(nb * sizeof(double)), malloc(nb * sizeof(double))};
	if (!per[0] || !per[1])
		return 1;
	for (int b = 0; b < nb; b++)
		for (int r = 0; r < 2; r++) {
			double t0 = now_ns();
			for (int i = 0; i < BATCH; i++)
				PAPI_read(es[r], v[r]);
			per[r][b] = (now_ns() - t0) / BATCH;
		}
	for (int r = 0; r < 2; r++) {
		PAPI_stop(es[r], v[r]);
		qsort(per[r], nb, sizeof(double), cmp_double);
		printf("%-10s N=%d M=1  %8.0f ns/read (median of %d batches of %d, taking turns; "
		       "p10 %.0f, p90 %.0f)  first=%lld\n",
		       r ? "ours" : "perf_event", n, per[r][nb / 2], nb, BATCH, per[r][nb / 10],
		       per[r][nb * 9 / 10], v[r][0]);
		free(per[r]);
	}
	PAPI_shutdown();
	return 0;
}

static int alone(int n, int reads, double *per, int nb, long *c0, long *c1)
{
	int fd[8];
	uint64_t v;
	for (int i = 0; i < n; i++) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = sw_ids[i];
		fd[i] = (int)syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
		if (fd[i] < 0) {
			perror("perf_event_open");
			return 1;
		}
	}
	for (int i = 0; i < 1000; i++)
		for (int k = 0; k < n; k++)
			if (read(fd[k], &v, sizeof(v)) != sizeof(v))
				return 1;
	*c0 = syscr();
	for (int b = 0; b < nb; b++) {
		double t0 = now_ns();
		for (int i = 0; i < BATCH; i++)
			for (int k = 0; k < n; k++)
				if (read(fd[k], &v, sizeof(v)) != sizeof(v))
					return 1;
		per[b] = (now_ns() - t0) / BATCH;
	}
	*c1 = syscr();
	(void)reads;
	for (int k = 0; k < n; k++)
		close(fd[k]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: %s ours|perf_event|alone|both N M [reads]\n", argv[0]);
		return 2;
	}
	int ours = strcmp(argv[1], "ours") == 0, two = strcmp(argv[1], "both") == 0;
	int n = atoi(argv[2]), m = atoi(argv[3]);
	int reads = argc > 4 ? atoi(argv[4]) : 20000;
	if (n < 1 || n > 8 || m < 1 || m > 3 || (!ours && m != 1) || n < m || reads < BATCH) {
		fprintf(stderr, "N in 1..8, M in 1..3 (perf_event: 1), N >= M, reads >= %d\n",
			BATCH);
		return 2;
	}
	if (strcmp(argv[1], "alone") == 0) {
		int nb = reads / BATCH;
		double *per = malloc(nb * sizeof(*per));
		long c0, c1;
		if (alone(n, reads, per, nb, &c0, &c1))
			return 1;
		qsort(per, nb, sizeof(*per), cmp_double);
		printf("%-10s N=%d M=%d  %8.0f ns/read (median of %d batches of %d; p10 %.0f, p90 "
		       "%.0f)  "
		       "%.2f read()/PAPI_read\n",
		       argv[1], n, m, per[nb / 2], nb, BATCH, per[nb / 10], per[nb * 9 / 10],
		       (double)(c1 - c0 - 1) / (nb * BATCH));
		free(per);
		return 0;
	}
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 1;
	if (two)
		return both(n, reads);
	int es;
	if (add_set(ours, n, m, &es))
		return 1;
	long long v[8];
	if (PAPI_start(es) != PAPI_OK)
		return 1;
	for (int i = 0; i < 1000; i++) /* warm up */
		PAPI_read(es, v);
	int nb = reads / BATCH;
	double *per = malloc(nb * sizeof(*per));
	long c0 = syscr();
	for (int b = 0; b < nb; b++) {
		double t0 = now_ns();
		for (int i = 0; i < BATCH; i++)
			PAPI_read(es, v);
		per[b] = (now_ns() - t0) / BATCH;
	}
	long c1 = syscr();
	PAPI_stop(es, v);
	qsort(per, nb, sizeof(*per), cmp_double);
	/* the second /proc/self/io read itself counts one read() */
	printf("%-10s N=%d M=%d  %8.0f ns/read (median of %d batches of %d; p10 %.0f, p90 %.0f)  "
	       "%.2f read()/PAPI_read  first=%lld\n",
	       argv[1], n, m, per[nb / 2], nb, BATCH, per[nb / 10], per[nb * 9 / 10],
	       (double)(c1 - c0 - 1) / (nb * BATCH), v[0]);
	free(per);
	PAPI_shutdown();
	return 0;
}
