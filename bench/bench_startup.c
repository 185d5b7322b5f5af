/* What intel_uncore adds to PAPI_library_init, side by side in one run:
 * child processes alternate between PAPI with every component and PAPI
 * with intel_uncore disabled before init (PAPI_disable_component_by_name,
 * so its init_component never runs), each timing its one
 * PAPI_library_init.  Prints the medians and their ratio.  Run on this
 * machine as it is (no simulator): on a machine without uncore the
 * component finds kernel PMUs only and must cost next to nothing.
 *
 *   bench_startup [RUNS]          RUNS children of each kind (default 41)
 *   bench_startup --once on|off   one init in this process (for callgrind) */
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

/* One PAPI_library_init, with or without intel_uncore: its ns, or < 0. */
static double init_once(int with_uncore, char *what, size_t len)
{
	if (!with_uncore && PAPI_disable_component_by_name("intel_uncore") != PAPI_OK)
		return -1;
	double a = now_ns();
	int rc = PAPI_library_init(PAPI_VER_CURRENT);
	double t = now_ns() - a;
	if (rc != PAPI_VER_CURRENT)
		return -1;
	if (what) {
		const PAPI_component_info_t *ci =
		    PAPI_get_component_info(PAPI_get_component_index("intel_uncore"));
		snprintf(what, len, "%.200s",
			 !ci            ? "(no intel_uncore)"
			 : ci->disabled ? ci->disabled_reason
					: ci->description);
	}
	PAPI_shutdown();
	return t;
}

/* Fork a child for one init; its time comes back through a pipe. */
static double child(int with_uncore, char *what, size_t len)
{
	int p[2];
	double t = -1;
	if (pipe(p) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char w[256] = "";
		close(p[0]);
		double v = init_once(with_uncore, w, sizeof(w));
		if (write(p[1], &v, sizeof(v)) != (ssize_t)sizeof(v) ||
		    write(p[1], w, sizeof(w)) != (ssize_t)sizeof(w))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	char w[256];
	if (read(p[0], &t, sizeof(t)) != (ssize_t)sizeof(t))
		t = -1;
	if (read(p[0], w, sizeof(w)) == (ssize_t)sizeof(w) && what) {
		w[sizeof(w) - 1] = '\0';
		snprintf(what, len, "%s", w);
	}
	close(p[0]);
	waitpid(pid, NULL, 0);
	return t;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--once") == 0)
		return init_once(strcmp(argv[2], "off") != 0, NULL, 0) < 0;
	int runs = argc > 1 ? atoi(argv[1]) : 41;
	if (runs < 1)
		return 2;
	double *on = calloc((size_t)runs, sizeof(*on)), *off = calloc((size_t)runs, sizeof(*off));
	char what[256] = "";
	if (!on || !off)
		return 1;
	/* Alternate, so that both kinds see the same machine load. */
	for (int i = 0; i < runs; i++) {
		on[i] = child(1, i == 0 ? what : NULL, sizeof(what));
		off[i] = child(0, NULL, 0);
		if (on[i] < 0 || off[i] < 0) {
			fprintf(stderr, "bench_startup: PAPI_library_init failed\n");
			return 1;
		}
	}
	qsort(on, (size_t)runs, sizeof(*on), cmp_double);
	qsort(off, (size_t)runs, sizeof(*off), cmp_double);
	printf("intel_uncore here: %s\n\n", what);
	printf("| PAPI_library_init | median µs (p10-p90) of %d runs |\n|---|---:|\n", runs);
	printf("| every component | %.0f (%.0f-%.0f) |\n", on[runs / 2] / 1e3, on[runs / 10] / 1e3,
	       on[runs * 9 / 10] / 1e3);
	printf("| without intel_uncore | %.0f (%.0f-%.0f) |\n", off[runs / 2] / 1e3,
	       off[runs / 10] / 1e3, off[runs * 9 / 10] / 1e3);
	printf("| ratio (medians) | %.3f |\n", on[runs / 2] / off[runs / 2]);
	free(on);
	free(off);
	return 0;
}
