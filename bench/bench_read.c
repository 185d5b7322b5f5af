/* Cost of PAPI_read on the simulator through the direct backend, for event
 * sets of 1, 8, 32 and 128 events spread over box types and both sockets
 * (one counter each), with the per-socket read freeze on and off side by
 * side: nanoseconds per read (median of many reads), register accesses per
 * read (from the simulator's audit log), and the system calls those accesses
 * would make on real devices.  Each freeze mode runs in a child process,
 * since the component reads PAPI_INTEL_UNCORE_READ_FREEZE at
 * PAPI_library_init.  `--enum` times the enumeration of every native event
 * of intel_uncore instead.  See bench/README.md for how to run it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
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

#include "events/registry.h"
#include "sim/uncore_sim.h"

#define MAX_EVENTS 128
#define LOG_READS  100 /* reads logged to count register accesses */

static const char MODEL[] = "e5-2699v3-2s";

/* Box types in the order the pool visits them, with an event whose
 * threshold/edge variants give distinct encodings (one counter each). */
static const struct {
	const char *type, *event;
} kinds[] = {
    {"hswep_unc_cbo", "UNC_C_CLOCKTICKS"},     {"hswep_unc_imc", "UNC_M_DCLOCKTICKS"},
    {"hswep_unc_sbo", "UNC_S_CLOCKTICKS"},     {"hswep_unc_ha", "UNC_H_CLOCKTICKS"},
    {"hswep_unc_pcu", "UNC_P_CLOCKTICKS"},     {"hswep_unc_qpi", "UNC_Q_CLOCKTICKS"},
    {"hswep_unc_r3qpi", "UNC_R3_CLOCKTICKS"},  {"hswep_unc_irp", "UNC_I_CLOCKTICKS"},
    {"hswep_unc_r2pcie", "UNC_R2_CLOCKTICKS"},
};
static const char *const variants[] = {"", ":t=1", ":e=1", ":t=2"};
static const unsigned sizes[] = {1, 8, 32, 128};

struct result {
	unsigned n, added;
	double median_ns, p10_ns, p90_ns;
	double msr_rd, msr_wr, pci_rd, pci_wr; /* per read */
	unsigned msr_sockets;                  /* sockets with MSR counter reads */
	int ok;
};

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

/* The i-th event of the pool: box types in turn, both sockets in turn,
 * then the next instance, then the next variant. */
static int pool_event(unsigned i, char *buf, size_t len)
{
	const struct uncore_event_platform *plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	unsigned nk = sizeof(kinds) / sizeof(kinds[0]);
	unsigned round = 0, seen = 0;

	for (round = 0; round < 64; round++) {
		for (unsigned k = 0; k < nk; k++) {
			const struct uncore_box_type *bt =
			    uncore_box_type_find(plat, kinds[k].type);
			unsigned ninst = bt ? bt->ninstances : 0;
			if (round >= ninst * (sizeof(variants) / sizeof(variants[0])))
				continue;
			for (unsigned s = 0; s < 2; s++, seen++) {
				if (seen != i)
					continue;
				char inst[64];
				uncore_box_instance_name(bt, (int)(round % ninst), inst,
							 sizeof(inst));
				snprintf(buf, len, "%s::%s%s:socket=%u", inst, kinds[k].event,
					 variants[round / ninst], s);
				return 0;
			}
		}
	}
	return -1;
}

/* Count the audit log's accesses since offset `from`. */
static void count_log(const char *path, struct result *r, unsigned reads)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned msr_rd = 0, msr_wr = 0, pci_rd = 0, pci_wr = 0;
	unsigned sockets = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int rd = strstr(line, "\"op\":\"rd\"") != NULL;
		int msr = strstr(line, "\"space\":\"msr\"") != NULL;
		msr_rd += rd && msr;
		msr_wr += !rd && msr;
		pci_rd += rd && !msr;
		pci_wr += !rd && !msr;
		const char *s = strstr(line, "\"socket\":");
		if (rd && msr && s)
			sockets |= 1u << (atoi(s + 9) & 31);
	}
	fclose(f);
	r->msr_rd = (double)msr_rd / reads;
	r->msr_wr = (double)msr_wr / reads;
	r->pci_rd = (double)pci_rd / reads;
	r->pci_wr = (double)pci_wr / reads;
	r->msr_sockets = (unsigned)__builtin_popcount(sockets);
}

static void measure(struct uncore_sim *sim, unsigned n, unsigned reads, int do_log,
		    struct result *r)
{
	int es = PAPI_NULL;
	long long v[MAX_EVENTS];
	char name[256];
	double *t = calloc(reads ? reads : 1, sizeof(*t));

	memset(r, 0, sizeof(*r));
	r->n = n;
	if (!t || PAPI_create_eventset(&es) != PAPI_OK)
		goto out;
	/* Boxes the model lacks (a third QPI port) are refused: take the next. */
	for (unsigned i = 0; r->added < n && pool_event(i, name, sizeof(name)) == 0; i++)
		if (PAPI_add_named_event(es, name) == PAPI_OK)
			r->added++;
	if (r->added != n || PAPI_start(es) != PAPI_OK)
		goto out;
	for (unsigned i = 0; i < 100; i++) /* warm-up */
		PAPI_read(es, v);
	for (unsigned i = 0; i < reads; i++) {
		double a = now_ns();
		PAPI_read(es, v);
		t[i] = now_ns() - a;
	}
	if (do_log) {
		char path[] = "/tmp/bench_read_log_XXXXXX";
		int fd = mkstemp(path);
		if (fd >= 0) {
			close(fd);
			uncore_sim_set_log(sim, path);
			for (unsigned i = 0; i < LOG_READS; i++)
				PAPI_read(es, v);
			uncore_sim_set_log(sim, NULL);
			count_log(path, r, LOG_READS);
			unlink(path);
		}
	}
	PAPI_stop(es, v);
	if (reads) {
		qsort(t, reads, sizeof(*t), cmp_double);
		r->median_ns = t[reads / 2];
		r->p10_ns = t[reads / 10];
		r->p90_ns = t[reads * 9 / 10];
	}
	r->ok = 1;
out:
	if (es != PAPI_NULL) {
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	free(t);
}

/* One freeze mode in this (child) process: results written to fd. */
static int run_mode(int freeze, unsigned reads, int do_log, const unsigned *which, unsigned nwhich,
		    int fd)
{
	char path[64];
	struct uncore_sim *sim;
	snprintf(path, sizeof(path), "/dev/shm/bench-read-%d", (int)getpid());
	if (uncore_sim_create(MODEL, path, &sim) < 0) {
		fprintf(stderr, "bench_read: cannot create the simulator in %s\n", path);
		return 1;
	}
	setenv("PAPI_INTEL_UNCORE_BACKEND", "sim", 1);
	setenv("PAPI_INTEL_UNCORE_SIM", path, 1);
	setenv("PAPI_INTEL_UNCORE_READ_FREEZE", freeze ? "1" : "0", 1);
	unsetenv("PAPI_INTEL_UNCORE_SIM_SCENARIO");
	unsetenv("PAPI_INTEL_UNCORE_SIM_LOG");
	int rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT) {
		fprintf(stderr, "bench_read: PAPI_library_init: %s\n", PAPI_strerror(rc));
		uncore_sim_destroy(sim);
		return 1;
	}
	for (unsigned k = 0; k < nwhich; k++) {
		struct result r;
		measure(sim, which[k], reads, do_log, &r);
		if (fd >= 0 && write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
			break;
	}
	PAPI_shutdown();
	uncore_sim_destroy(sim);
	return 0;
}

static int run_child(int freeze, unsigned reads, int do_log, const unsigned *which, unsigned nwhich,
		     struct result *out)
{
	int p[2];
	if (pipe(p) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		_exit(run_mode(freeze, reads, do_log, which, nwhich, p[1]));
	}
	close(p[1]);
	for (unsigned k = 0; k < nwhich; k++)
		if (read(p[0], &out[k], sizeof(out[k])) != (ssize_t)sizeof(out[k]))
			out[k].ok = 0;
	close(p[0]);
	int status;
	waitpid(pid, &status, 0);
	return 0;
}

/* Enumerate every native event of intel_uncore with its umasks, as
 * papi_native_avail does; noinline so callgrind can collect just this. */
__attribute__((noinline)) static unsigned enumerate_all(int cidx)
{
	PAPI_event_info_t info;
	unsigned entries = 0;
	int code = PAPI_NATIVE_MASK;
	if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
		return 0;
	do {
		if (PAPI_get_event_info(code, &info) == PAPI_OK)
			entries++;
		int um = code;
		if (PAPI_enum_cmp_event(&um, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK) {
			do {
				if (PAPI_get_event_info(um, &info) == PAPI_OK)
					entries++;
			} while (PAPI_enum_cmp_event(&um, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK);
		}
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
	return entries;
}

static int run_enum(unsigned repeats)
{
	setenv("PAPI_INTEL_UNCORE_BACKEND", "sim", 1);
	unsetenv("PAPI_INTEL_UNCORE_SIM_SCENARIO");
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 1;
	int cidx = PAPI_get_component_index("intel_uncore");
	double *t = calloc(repeats, sizeof(*t));
	unsigned entries = 0;
	for (unsigned i = 0; t && i < repeats; i++) {
		double a = now_ns();
		entries = enumerate_all(cidx);
		t[i] = now_ns() - a;
	}
	if (t) {
		qsort(t, repeats, sizeof(*t), cmp_double);
		printf("enumerate: %u entries (events and their umasks/modifiers), median %.2f ms "
		       "over %u runs (%.0f ns per entry)\n",
		       entries, t[repeats / 2] / 1e6, repeats,
		       t[repeats / 2] / (entries ? entries : 1));
	}
	free(t);
	PAPI_shutdown();
	return 0;
}

/* Real devices, from the access counts: every MSR access is one pread or
 * pwrite of /dev/cpu/N/msr, every PCI dword one pread of config space
 * (sysfs, or libpci's pread); with msr-safe's batch device the MSR reads
 * of a socket are one ioctl. */
static void print_table(const struct result *on, const struct result *off, unsigned n)
{
	printf(
	    "| events | ns/read freeze on (p10-p90) | ns/read freeze off (p10-p90) | MSR rd | PCI "
	    "rd "
	    "| MSR wr on/off | syscalls/read: msr + PCI on/off | with msr-safe batch on/off |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (unsigned k = 0; k < n; k++) {
		const struct result *a = &on[k], *b = &off[k];
		if (!a->ok || !b->ok) {
			printf("| %u | failed (%u/%u events added) | | | | | | |\n", a->n, a->added,
			       a->n);
			continue;
		}
		double sys_on = a->msr_rd + a->msr_wr + a->pci_rd + a->pci_wr;
		double sys_off = b->msr_rd + b->msr_wr + b->pci_rd + b->pci_wr;
		double batch_on = a->msr_sockets + a->msr_wr + a->pci_rd + a->pci_wr;
		double batch_off = b->msr_sockets + b->msr_wr + b->pci_rd + b->pci_wr;
		printf("| %u | %.0f (%.0f-%.0f) | %.0f (%.0f-%.0f) | %.0f | %.0f/%.0f | %.0f/%.0f "
		       "| %.0f/%.0f "
		       "| %.0f/%.0f |\n",
		       a->n, a->median_ns, a->p10_ns, a->p90_ns, b->median_ns, b->p10_ns, b->p90_ns,
		       a->msr_rd, a->pci_rd, b->pci_rd, a->msr_wr, b->msr_wr, sys_on, sys_off,
		       batch_on, batch_off);
	}
}

int main(int argc, char **argv)
{
	unsigned reads = 5001, which[8], nwhich = 0;
	int do_log = 1, freeze = -1;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--reads") == 0 && i + 1 < argc) {
			reads = (unsigned)strtoul(argv[++i], NULL, 0);
		} else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc && nwhich < 8) {
			which[nwhich++] = (unsigned)strtoul(argv[++i], NULL, 0);
		} else if (strcmp(argv[i], "--freeze") == 0 && i + 1 < argc) {
			freeze = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--no-log") == 0) {
			do_log = 0;
		} else if (strcmp(argv[i], "--enum") == 0) {
			return run_enum(i + 1 < argc ? (unsigned)strtoul(argv[i + 1], NULL, 0) : 5);
		} else {
			fprintf(stderr, "usage: bench_read [--reads N] [--size N]... [--freeze 0|1 "
					"[--no-log]] | --enum [REPEATS]\n");
			return 2;
		}
	}
	if (nwhich == 0)
		for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
			which[nwhich++] = sizes[k];
	for (unsigned k = 0; k < nwhich; k++)
		if (which[k] == 0 || which[k] > MAX_EVENTS)
			return 2;
	/* One mode in this process (for callgrind: valgrind follows no fork here). */
	if (freeze >= 0)
		return run_mode(freeze, reads, do_log, which, nwhich, -1);

	struct result on[8], off[8];
	run_child(1, reads, do_log, which, nwhich, on);
	run_child(0, reads, do_log, which, nwhich, off);
	printf("PAPI_read on the SIMULATED uncore (model %s, direct backend), %u timed reads "
	       "per row; events spread over box types and both sockets, one counter each\n\n",
	       MODEL, reads);
	print_table(on, off, nwhich);
	return 0;
}
