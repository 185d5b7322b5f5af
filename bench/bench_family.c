/* The cost of reading one event summed over a whole PMU family through the
 * perf backend, by family size, side by side in one run: the 128 CHAs of a
 * Granite Rapids socket pair (256 PMU instances), the 56 of a Sapphire
 * Rapids and the 18 CBos of the Haswell-EP simulator behind its simulated
 * perf kernel.  Each configuration runs in its own child process (the
 * backend is chosen at PAPI_library_init); each reports the median
 * PAPI_read time and the time per PMU instance.  The backend makes one
 * read() per PMU instance (one group each: tests/unit/simkernel/
 * test_shape_kernel.c counts them); the simulated kernel answers them in
 * process, so the time is our library's and PAPI's, not the kernel's.
 *
 *   bench_family [READS]     READS reads a configuration (default 20001)
 *   bench_family --only K READS   configuration K alone, in this process
 *                                 (callgrind: bench/xeon_sp.sh) */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* papi.h declares some functions without prototypes (PAPI_hl_stop()). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include "papi.h"
#pragma GCC diagnostic pop

struct config {
	const char *label;
	const char *kernel; /* PAPI_INTEL_UNCORE_SIM_KERNEL */
	const char *event;
	unsigned instances; /* PMU instances the event is opened on, both sockets */
};

static const struct config configs[] = {
	{"Granite Rapids, uncore_cha (128 a socket)", "gnr", "uncore_cha::event=0x1", 256},
	{"Granite Rapids, gnr_unc_cha socket 0 (128)", "gnr", "gnr_unc_cha::UNC_CHA_CLOCKTICKS:socket=0",
	 128},
	{"Sapphire Rapids, uncore_cha (56 a socket)", "spr", "uncore_cha::event=0x1", 112},
	{"Haswell-EP, hswep_unc_cbo (18 a socket)", "perf", "hswep_unc_cbo::UNC_C_CLOCKTICKS", 36},
};
#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* In the child: set up, read, print one table row. */
static int run(const struct config *c, int reads)
{
	int set = PAPI_NULL, rc;
	long long v[1];
	setenv("PAPI_INTEL_UNCORE_BACKEND", "sim", 1);
	setenv("PAPI_INTEL_UNCORE_SIM_KERNEL", c->kernel, 1);
	setenv("PAPI_INTEL_UNCORE_SIM_SCENARIO", "stream", 1);
	if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT ||
	    (rc = PAPI_create_eventset(&set)) != PAPI_OK ||
	    (rc = PAPI_add_named_event(set, c->event)) != PAPI_OK || (rc = PAPI_start(set)) != PAPI_OK) {
		printf("| %s | %s: %s |\n", c->label, c->event, PAPI_strerror(rc));
		return 1;
	}
	double *t = calloc((size_t)reads, sizeof(*t));
	if (!t)
		return 1;
	for (int i = 0; i < 100; i++)
		PAPI_read(set, v);
	for (int i = 0; i < reads; i++) {
		double t0 = now_ns();
		PAPI_read(set, v);
		t[i] = now_ns() - t0;
	}
	qsort(t, (size_t)reads, sizeof(*t), cmp_double);
	double med = t[reads / 2];
	printf("| %s | %u | %.0f ns (%.0f-%.0f) | %.1f ns |\n", c->label, c->instances, med,
	       t[reads / 10], t[reads * 9 / 10], med / c->instances);
	free(t);
	PAPI_stop(set, v);
	PAPI_shutdown();
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--only") == 0) {
		size_t k = (size_t)strtoul(argv[2], NULL, 10);
		int n = atoi(argv[3]);
		if (k >= NCONFIGS || n < 11) {
			fprintf(stderr, "bench_family --only K READS: K < %zu, READS >= 11\n", NCONFIGS);
			return 2;
		}
		return run(&configs[k], n);
	}
	int reads = argc > 1 ? atoi(argv[1]) : 20001;
	if (reads < 11)
		reads = 11;
	printf("| family | PMU instances read | PAPI_read, median (10th-90th pct) | per instance |\n");
	printf("|---|---:|---:|---:|\n");
	fflush(stdout);
	for (size_t i = 0; i < NCONFIGS; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			int rc = run(&configs[i], reads);
			fflush(stdout); /* _exit does not flush stdio */
			_exit(rc);
		}
		int st = 0;
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			printf("| %s | (failed) |\n", configs[i].label);
		fflush(stdout);
	}
	return 0;
}
