/* libpapi_uncore_mpi: MPI_Init and MPI_Finalize through PMPI (see
 * papi_uncore_mpi.h).  At MPI_Init the ranks of a node (MPI_Comm_split_type
 * shared) tell each other the socket of the CPU they run on; for every
 * socket of the node the lowest rank running there is elected, and the
 * node's lowest rank takes the sockets no rank runs on.  An elected rank
 * counts every event on each of its sockets (":socket=N") through PAPI from
 * MPI_Init to MPI_Finalize; at MPI_Finalize every rank sends its records
 * to rank 0, which writes the report (mpi_report.h).  The library never
 * aborts the job: a problem is said on rank 0's stderr and in the report.
 * A job that dies still has its report: every rank keeps its part of it in
 * a file, rewritten at the end of each interval, on MPI_Abort and on the
 * signals a launcher ends a job with (mpi_parts.h, mpi_watch.h).
 *
 * PAPI_INTEL_UNCORE_MPI_TEST_NODE (tests only) replaces the node grouping:
 * ranks with the same value form a node, named "node<value>" for a number
 * and the value itself otherwise, so two simulated machines can stand for
 * two nodes on one host. */
#define _GNU_SOURCE
#include "bind/notices.h"
#include "mpi_elect.h"
#include "mpi_events.h"
#include "mpi_parts.h"
#include "mpi_report.h"
#include "mpi_watch.h"
#include "papi_uncore_mpi.h"

#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <papi.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXPORT      __attribute__((visibility("default")))
#define MAX_SOCKETS 8
#define MAX_REGIONS 64

struct region {
	char name[64];
	unsigned long calls;
	int open;
	long long *begin, *sum;
};

static struct {
	int on; /* counting: this rank was elected for some socket */
	int rank, size;
	char node[64];
	struct umpi_events ev;
	int nmine, mine[MAX_SOCKETS];
	int es;
	int *slot;   /* per (socket i, event e): index in the PAPI set, or -1 */
	char **why;  /* per slot: why it could not be added */
	int *metric; /* per event: a double (PAPI_DATATYPE_FP64) */
	/* Per event: PAPI_VALUETYPE_ABSOLUTE, a value over the interval since
	 * the previous read (src/metrics/README.md, "What a read returns"):
	 * regions do not difference it, and the job's value combines every
	 * read's (job_value). */
	int *absolute;
	double *wsum, *wtime; /* per slot: sum of value x seconds, and seconds */
	unsigned nreads;
	/* The slot of <summary PMU>::COUNTING_TIME, the interval values' own
	 * time base (ns since start, taken by the same read), or -1: then the
	 * wall clock between reads weights them. */
	int time_slot;
	double last_read;
	char (*units)[24];
	int nslots;     /* events in the PAPI set */
	long long *val; /* PAPI values */
	double t0;
	char origin[256];
	char problem[512];
	/* The component's wrap guard notice (bind/notices.h), its own line
	 * under "problems": a read came too late for a counter's wraps. */
	char wraps[300];
	struct region reg[MAX_REGIONS];
	int nreg;
	/* The parts of the report (mpi_parts.h): their directory ("" when
	 * PAPI_INTEL_UNCORE_MPI_INTERVAL=off), the report's path, and whether
	 * this rank's part is final (finished, aborted, signalled).  `lock`
	 * keeps the watcher thread's reads and writes apart from the
	 * application thread's (regions, MPI_Abort). */
	char parts[4200];
	char report[4096];
	int ended;
	pthread_mutex_t lock;
} st = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Seconds on a monotonic clock: what PMPI_Wtime gives, callable from the
 * watcher thread (an MPI call from it would need MPI_THREAD_MULTIPLE). */
static double mono(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void note(const char *what)
{
	if (!st.problem[0])
		snprintf(st.problem, sizeof(st.problem), "%s", what);
}

/* The package of the CPU this rank runs on, from sysfs; -1 when unknown. */
static int my_package(void)
{
	char path[128], buf[32];
	int cpu = sched_getcpu();
	if (cpu < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 cpu);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int pkg = fgets(buf, sizeof(buf), f) ? atoi(buf) : -1;
	fclose(f);
	return pkg;
}

static int papi_up(void)
{
	if (PAPI_is_initialized() != PAPI_NOT_INITED)
		return 0;
	int rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT) {
		char m[160];
		snprintf(m, sizeof(m), "PAPI_library_init: %s", PAPI_strerror(rc));
		note(m);
		return -1;
	}
	return 0;
}

/* Sockets of the measured machine: the first event with :socket=N for N
 * up from 0, as far as the component knows the socket.  Also the component's
 * description (hardware, or SIMULATED). */
static int probe_sockets(void)
{
	char name[PAPI_HUGE_STR_LEN];
	int n = 0;
	if (papi_up() < 0)
		return 0;
	int cidx = PAPI_get_component_index("intel_uncore");
	const PAPI_component_info_t *ci = cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
	if (!ci) {
		/* Usually another PAPI of the same soname, loaded first by the
		 * application (Debian's libpapi7.0, a module's): name it. */
		char m[sizeof(st.problem)];
		Dl_info where;
		const char *lib = dladdr((void *)PAPI_library_init, &where) && where.dli_fname
				      ? where.dli_fname
				      : "?";
		snprintf(m, sizeof(m),
			 "the libpapi.so.7.0 loaded in this process (%.200s) has no intel_uncore "
			 "component: the application is linked with another PAPI; rebuild it with "
			 "papi-uncore's or put its lib directory first (README \"One PAPI\")",
			 lib);
		note(m);
		return 0;
	}
	if (ci->disabled) {
		char m[512];
		snprintf(m, sizeof(m), "intel_uncore is disabled: %.470s", ci->disabled_reason);
		note(m);
		return 0;
	}
	snprintf(st.origin, sizeof(st.origin), "%s", ci->description);
	/* Added to a scratch set: adding schedules it, so a socket the machine
	 * lacks is refused (a name alone would parse for any N). */
	while (n < MAX_SOCKETS) {
		int es = PAPI_NULL, ok;
		snprintf(name, sizeof(name), "%s:socket=%d", st.ev.name[0], n);
		if (PAPI_create_eventset(&es) != PAPI_OK)
			break;
		ok = PAPI_add_named_event(es, name) == PAPI_OK;
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
		if (!ok)
			break;
		n++;
	}
	if (n == 0) {
		char m[300];
		snprintf(m, sizeof(m), "%s: not an event of this machine", st.ev.name[0]);
		note(m);
	}
	return n;
}

static void add_counting_time(void);
static void parts_setup(void);

static void start_counting(void)
{
	unsigned ne = st.ev.n;
	char name[PAPI_HUGE_STR_LEN];
	st.es = PAPI_NULL;
	st.time_slot = -1;
	st.slot = calloc((size_t)st.nmine * ne, sizeof(*st.slot));
	st.why = calloc((size_t)st.nmine * ne, sizeof(*st.why));
	st.metric = calloc(ne, sizeof(*st.metric));
	st.absolute = calloc(ne, sizeof(*st.absolute));
	st.wsum = calloc((size_t)st.nmine * ne + 1, sizeof(*st.wsum));
	st.wtime = calloc((size_t)st.nmine * ne + 1, sizeof(*st.wtime));
	st.units = calloc(ne, sizeof(*st.units));
	st.val = calloc((size_t)st.nmine * ne + 1, sizeof(*st.val));
	if (!st.slot || !st.why || !st.metric || !st.absolute || !st.wsum || !st.wtime ||
	    !st.units || !st.val || papi_up() < 0 ||
	    PAPI_create_eventset(&st.es) != PAPI_OK) {
		note("cannot create a PAPI event set");
		return;
	}
	for (int i = 0; i < st.nmine; i++)
		for (unsigned e = 0; e < ne; e++) {
			int k = i * (int)ne + (int)e, code, rc;
			snprintf(name, sizeof(name), "%s:socket=%d", st.ev.name[e], st.mine[i]);
			st.slot[k] = -1;
			rc = PAPI_add_named_event(st.es, name);
			if (rc != PAPI_OK) {
				char m[400];
				snprintf(m, sizeof(m), "%.300s: %.80s", name, PAPI_strerror(rc));
				st.why[k] = strdup(m);
				note(m);
				continue;
			}
			st.slot[k] = st.nslots++;
			PAPI_event_info_t info;
			if (PAPI_event_name_to_code(name, &code) == PAPI_OK &&
			    PAPI_get_event_info(code, &info) == PAPI_OK) {
				st.metric[e] = info.data_type == PAPI_DATATYPE_FP64;
				st.absolute[e] = info.value_type == PAPI_VALUETYPE_ABSOLUTE;
				snprintf(st.units[e], sizeof(st.units[e]), "%.23s", info.units);
			}
		}
	if (st.nslots == 0)
		return;
	add_counting_time();
	int rc = PAPI_start(st.es);
	if (rc != PAPI_OK) {
		char m[200];
		snprintf(m, sizeof(m), "PAPI_start: %s", PAPI_strerror(rc));
		note(m);
		return;
	}
	st.t0 = mono();
	st.last_read = st.time_slot >= 0 ? 0 : st.t0;
	st.on = 1;
}

/* When an event is an interval value: the platform's COUNTING_TIME beside
 * the events (not reported), so that each read's values are weighted by the
 * very interval they cover, on the simulator's virtual clock too. */
static void add_counting_time(void)
{
	char name[PAPI_HUGE_STR_LEN];
	int any = 0;
	st.time_slot = -1;
	for (unsigned e = 0; e < st.ev.n; e++)
		any |= st.absolute[e];
	for (unsigned i = 0; any && umpi_counting_time_name(i, name, sizeof(name)) == 0; i++)
		if (PAPI_add_named_event(st.es, name) == PAPI_OK) {
			st.time_slot = st.nslots++;
			return;
		}
}

/* A metric's value (PAPI_DATATYPE_FP64) from its slot. */
static double slot_double_bits(long long v)
{
	double d;
	memcpy(&d, &v, sizeof(d));
	return d;
}

/* A value of event e's slot as a double. */
static double slot_double(unsigned e, long long v)
{
	return st.metric[e] ? slot_double_bits(v) : (double)v;
}

/* A read too late for a counter's wraps (README "Nothing lost"): the
 * component's words, kept for the report's problems.  Weak: a libpapi
 * without intel_uncore_notices (another PAPI) has none. */
#pragma weak intel_uncore_notices
static void take_notices(void)
{
	char buf[sizeof(st.wraps) - 32];
	int n = intel_uncore_notices ? intel_uncore_notices(st.es, buf, sizeof(buf)) : 0;
	if (n > 0)
		snprintf(st.wraps, sizeof(st.wraps), "%d read%s: %.260s", n, n > 1 ? "s" : "", buf);
}

/* Every read of the set closes the interval of its absolute values: each
 * is weighted by the seconds of that interval (COUNTING_TIME's growth, else
 * the wall clock's). */
static void took_read(const long long *v)
{
	double t = st.time_slot >= 0 ? slot_double_bits(v[st.time_slot]) / 1e9 : mono(),
	       dt = t - st.last_read;
	st.last_read = t;
	st.nreads++;
	take_notices();
	for (int i = 0; i < st.nmine; i++)
		for (unsigned e = 0; e < st.ev.n; e++) {
			int k = st.slot[i * (int)st.ev.n + (int)e];
			double d = k >= 0 && st.absolute[e] ? slot_double(e, v[k]) : NAN;
			if (!isnan(d)) {
				st.wsum[k] += d * dt;
				st.wtime[k] += dt;
			}
		}
}

/* The job's value of an absolute event at slot k, as PAPI passes it: the
 * last read's when the job was read once; a rate's mean over the reads
 * weighted by their lengths (the job's amount over its time); a ratio or
 * latency read several times has none (NaN; its integer form 0). */
static long long job_value(unsigned e, int k)
{
	if (!st.absolute[e] || st.nreads <= 1)
		return st.val[k];
	double d = strstr(st.units[e], "/s") && st.wtime[k] > 0 ? st.wsum[k] / st.wtime[k] : NAN;
	long long v;
	if (st.metric[e]) {
		memcpy(&v, &d, sizeof(v));
		return v;
	}
	return isnan(d) ? 0 : (long long)(d + (d >= 0 ? 0.5 : -0.5));
}

static void setup(void)
{
	char err[256];
	const char *spec = getenv("PAPI_INTEL_UNCORE_MPI_EVENTS");
	const char *test_node = getenv("PAPI_INTEL_UNCORE_MPI_TEST_NODE");
	MPI_Comm node;
	int nrank, nsize, nsockets = 0;

	PMPI_Comm_rank(MPI_COMM_WORLD, &st.rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &st.size);
	if (!spec || !*spec)
		return; /* nothing asked for: the library stays out of the way */
	if (umpi_events_parse(spec, &st.ev, err, sizeof(err)) < 0) {
		note(err);
		return;
	}
	if (test_node && *test_node) {
		/* Any value names a node: "1" is node1, "node1" itself; ranks with
		 * the same value share it (a number, or the string's hash: MPI
		 * colours are non-negative ints). */
		char *end;
		long n = strtol(test_node, &end, 10);
		int numeric = *end == '\0' && n >= 0 && n < 1000000;
		unsigned h = 5381;
		for (const char *c = test_node; *c; c++)
			h = h * 33u + (unsigned char)*c;
		PMPI_Comm_split(MPI_COMM_WORLD, numeric ? (int)n : (int)(h & 0x3fffffff) + 1000000,
				st.rank, &node);
		if (numeric)
			snprintf(st.node, sizeof(st.node), "node%ld", n);
		else
			snprintf(st.node, sizeof(st.node), "%s", test_node);
	} else {
		PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, st.rank, MPI_INFO_NULL,
				     &node);
		if (gethostname(st.node, sizeof(st.node)) != 0)
			snprintf(st.node, sizeof(st.node), "node");
		st.node[sizeof(st.node) - 1] = '\0';
	}
	PMPI_Comm_rank(node, &nrank);
	PMPI_Comm_size(node, &nsize);
	if (nrank == 0)
		nsockets = probe_sockets();
	PMPI_Bcast(&nsockets, 1, MPI_INT, 0, node);
	int pkg = my_package();
	if (pkg >= nsockets)
		pkg = -1; /* a simulated machine with other sockets than the host */
	int *pkgs = calloc((size_t)nsize, sizeof(int));
	if (!pkgs) {
		PMPI_Comm_free(&node);
		return;
	}
	PMPI_Allgather(&pkg, 1, MPI_INT, pkgs, 1, MPI_INT, node);
	/* Per socket: the lowest rank running there, else the node's first. */
	st.nmine = umpi_elect(pkgs, nsize, nsockets, nrank, st.mine, MAX_SOCKETS);
	free(pkgs);
	PMPI_Comm_free(&node);
	if (st.nmine)
		start_counting();
	parts_setup();
}

EXPORT int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		setup();
	return rc;
}

EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		setup();
	return rc;
}

/* ---- records ------------------------------------------------------------ */

struct buf {
	char *p;
	size_t n, cap;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		size_t room = b->cap - b->n;
		va_start(ap, fmt);
		int k = b->p ? vsnprintf(b->p + b->n, room, fmt, ap) : -1;
		va_end(ap);
		if (k >= 0 && (size_t)k < room) {
			b->n += (size_t)k;
			return;
		}
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (k >= 0 && cap < b->n + (size_t)k + 1)
			cap *= 2;
		char *q = realloc(b->p, cap);
		if (!q)
			return;
		b->p = q;
		b->cap = cap;
	}
}

/* A value as the records carry it: kind and text. */
static void put_value(struct buf *b, unsigned e, long long v)
{
	if (st.metric[e]) {
		double d;
		memcpy(&d, &v, sizeof(d));
		put(b, "m\t%.17g", d);
	} else
		put(b, "c\t%llu", (unsigned long long)v);
}

static void records(struct buf *b, double seconds)
{
	put(b, "N\t%s\t%d\n", st.node, st.rank);
	if (!st.slot)
		return;
	for (int i = 0; i < st.nmine; i++) {
		put(b, "S\t%s\t%d\t%d\t%.9f\n", st.node, st.mine[i], st.rank, seconds);
		for (unsigned e = 0; e < st.ev.n; e++) {
			int k = i * (int)st.ev.n + (int)e;
			put(b, "V\t%s\t%d\t%u\t", st.node, st.mine[i], e);
			if (st.slot[k] >= 0 && st.on)
				put_value(b, e, job_value(e, st.slot[k]));
			else
				put(b, "e\t%s",
				    st.why[k]       ? st.why[k]
				    : st.problem[0] ? st.problem
						    : "not counted");
			put(b, "\t%s\n", st.units[e]);
		}
		for (int r = 0; r < st.nreg; r++)
			for (unsigned e = 0; e < st.ev.n; e++) {
				int k = i * (int)st.ev.n + (int)e;
				if (st.slot[k] < 0 || st.metric[e] || st.absolute[e])
					continue; /* a metric's value is not a difference */
				put(b, "R\t%s\t%d\t%d\t%s\t%lu\t%u\t", st.node, st.mine[i], st.rank,
				    st.reg[r].name, st.reg[r].calls, e);
				put_value(b, e, st.reg[r].sum[st.slot[k]]);
				put(b, "\n");
			}
	}
}

/* This rank's records with its problems, its component's description
 * and its state (mpi_report.h, records O and X). */
static void part_text(struct buf *b, double seconds, const char *state)
{
	records(b, seconds);
	if (st.problem[0])
		put(b, "P\t%s\t%d\t%s\n", st.node, st.rank, st.problem);
	if (st.wraps[0])
		put(b, "P\t%s\t%d\t%s\n", st.node, st.rank, st.wraps);
	if (st.origin[0])
		put(b, "O\t%s\t%d\t%s\n", st.node, st.rank, st.origin);
	put(b, "X\t%s\t%d\t%s\n", st.node, st.rank, state);
}

/* This rank's part rewritten (with the counts of a read now when it counts,
 * its part is not final yet and `rebuild`: the first part, at MPI_Init, has
 * the zeros of the start and reads nothing, since a read may move a
 * simulated kernel's clock), then the report rebuilt when `rebuild`.
 * `final`: the part says how the rank ended and is not rewritten again.
 * Called with st.lock held. */
static void checkpoint_locked(const char *state, int final, int rebuild)
{
	char err[512];
	if (!st.parts[0])
		return;
	if (!st.ended) {
		double seconds = 0;
		if (st.on && rebuild) {
			long long *v = calloc((size_t)st.nslots + 1, sizeof(*v));
			if (v && PAPI_read(st.es, v) == PAPI_OK) {
				memcpy(st.val, v, (size_t)st.nslots * sizeof(*v));
				took_read(st.val);
			} else
				take_notices(); /* the counts of the last good read stay */
			free(v);
			seconds = mono() - st.t0;
		}
		struct buf b = {0};
		part_text(&b, seconds, state);
		if (b.p)
			umpi_part_write(st.parts, st.rank, b.p, b.n);
		free(b.p);
		st.ended = final;
	}
	if (rebuild)
		umpi_parts_rebuild(st.parts, st.report, &st.ev, st.origin, st.size, err, sizeof(err));
}

/* The watcher's tick (mpi_watch.h): an interval's end (0), or a signal. */
static void tick(int signo)
{
	char state[128];
	pthread_mutex_lock(&st.lock);
	if (signo == 0)
		snprintf(state, sizeof(state), "running\tcounted %u time%s", st.nreads,
			 st.nreads == 1 ? "" : "s");
	else
		snprintf(state, sizeof(state), "ended\tsignal %d (%s)", signo, strsignal(signo));
	checkpoint_locked(state, signo != 0, 1);
	pthread_mutex_unlock(&st.lock);
}

/* After setup: rank 0 empties <report>.parts, every rank writes its first
 * part, and the watcher starts (intervals on the ranks that count). */
static void parts_setup(void)
{
	const char *iv = getenv("PAPI_INTEL_UNCORE_MPI_INTERVAL");
	const char *report = getenv("PAPI_INTEL_UNCORE_MPI_REPORT");
	double seconds = umpi_watch_interval(iv);
	char err[400];
	int ok = 0;
	snprintf(st.report, sizeof(st.report), "%s",
		 report && *report ? report : "papi_uncore_mpi.json");
	if (seconds < 0) {
		note("PAPI_INTEL_UNCORE_MPI_INTERVAL: not seconds (decimal, more than 0, at most "
		     "86400) nor off; the default 10 s is used");
		seconds = umpi_watch_interval(NULL);
	}
	if (seconds > 0 && umpi_parts_dir(st.report, st.parts, sizeof(st.parts)) == 0)
		ok = st.rank != 0 || umpi_parts_reset(st.parts, err, sizeof(err)) == 0;
	if (st.rank == 0 && seconds > 0 && !ok)
		note(err);
	/* Every rank's first part after rank 0 emptied the directory. */
	PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!ok) {
		st.parts[0] = '\0';
		return;
	}
	pthread_mutex_lock(&st.lock);
	checkpoint_locked("running\tstarted", 0, 0);
	pthread_mutex_unlock(&st.lock);
	if (umpi_watch_start(st.on ? seconds : 0, tick) < 0)
		note("cannot start the thread that writes the report's parts");
}

/* MPI_Abort: this rank's part says so, the report is rebuilt, then the
 * job ends as MPI would end it. */
EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
	char state[64];
	snprintf(state, sizeof(state), "ended\tMPI_Abort (error code %d)", errorcode);
	pthread_mutex_lock(&st.lock);
	checkpoint_locked(state, 1, 1);
	pthread_mutex_unlock(&st.lock);
	return PMPI_Abort(comm, errorcode);
}

EXPORT int MPI_Finalize(void)
{
	double seconds = 0;
	struct buf b = {0};
	int len, *lens = NULL, *offs = NULL;
	char *all = NULL;
	const char *report = getenv("PAPI_INTEL_UNCORE_MPI_REPORT");

	if (!st.ev.n)
		return PMPI_Finalize();
	umpi_watch_stop();
	if (st.on) {
		int rc = PAPI_stop(st.es, st.val);
		seconds = mono() - st.t0;
		if (rc == PAPI_OK)
			took_read(st.val);
		else
			take_notices();
		if (rc != PAPI_OK) {
			char m[200];
			snprintf(m, sizeof(m), "PAPI_stop: %s", PAPI_strerror(rc));
			note(m);
			st.on = 0;
		}
	}
	part_text(&b, seconds, "finished\t");
	/* Until the report is written from every rank's records: the final
	 * part, and the watcher again for the signals of a job that dies in
	 * between (a rank that never reaches MPI_Finalize). */
	if (st.parts[0] && b.p) {
		pthread_mutex_lock(&st.lock);
		umpi_part_write(st.parts, st.rank, b.p, b.n);
		st.ended = 1;
		pthread_mutex_unlock(&st.lock);
		umpi_watch_start(0, tick);
	}
	len = b.p ? (int)b.n : 0;
	if (st.rank == 0) {
		lens = calloc((size_t)st.size, sizeof(int));
		offs = calloc((size_t)st.size, sizeof(int));
	}
	PMPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	int total = 0;
	if (st.rank == 0 && lens && offs) {
		for (int r = 0; r < st.size; r++) {
			offs[r] = total;
			total += lens[r];
		}
		all = malloc((size_t)total + 1);
	}
	PMPI_Gatherv(b.p ? b.p : "", len, MPI_CHAR, all, lens, offs, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (st.rank == 0 && all) {
		char err[512];
		all[total] = '\0';
		/* Problems of any rank, on rank 0's stderr (the first few). */
		int said = 0;
		for (char *line = all; line && *line && said < 4;) {
			char *end = strchr(line, '\n');
			if (strncmp(line, "P\t", 2) == 0 && ++said)
				fprintf(stderr, "papi_uncore_mpi: %.*s\n",
					(int)(end ? end - line - 2 : (long)strlen(line + 2)),
					line + 2);
			line = end ? end + 1 : NULL;
		}
		if (umpi_report_write(report && *report ? report : "papi_uncore_mpi.json", &st.ev,
				      st.origin, st.size, all, err, sizeof(err)) < 0)
			fprintf(stderr, "papi_uncore_mpi: %s\n", err);
		else if (st.parts[0])
			umpi_parts_remove(st.parts); /* every rank is past its last part */
	}
	umpi_watch_stop();
	free(all);
	free(lens);
	free(offs);
	free(b.p);
	return PMPI_Finalize();
}

/* ---- regions ------------------------------------------------------------ */

static struct region *region(const char *name, int create)
{
	for (int i = 0; i < st.nreg; i++)
		if (strcmp(st.reg[i].name, name) == 0)
			return &st.reg[i];
	if (!create || st.nreg == MAX_REGIONS)
		return NULL;
	struct region *r = &st.reg[st.nreg];
	r->begin = calloc((size_t)st.nslots + 1, sizeof(long long));
	r->sum = calloc((size_t)st.nslots + 1, sizeof(long long));
	if (!r->begin || !r->sum) {
		free(r->begin);
		free(r->sum);
		return NULL;
	}
	snprintf(r->name, sizeof(r->name), "%s", name);
	st.nreg++;
	return r;
}

EXPORT int papi_uncore_mpi_region_begin(const char *name)
{
	if (!name || !*name || strlen(name) >= sizeof(st.reg[0].name) || strchr(name, '\t') ||
	    strchr(name, '\n'))
		return -1;
	if (!st.on)
		return 0;
	pthread_mutex_lock(&st.lock);
	struct region *r = region(name, 1);
	int ok = r && PAPI_read(st.es, r->begin) == PAPI_OK;
	if (ok) {
		took_read(r->begin);
		r->open = 1;
	}
	pthread_mutex_unlock(&st.lock);
	return ok ? 0 : -1;
}

EXPORT int papi_uncore_mpi_region_end(const char *name)
{
	if (!name || !*name)
		return -1;
	if (!st.on)
		return 0;
	pthread_mutex_lock(&st.lock);
	struct region *r = region(name, 0);
	int ok = r && r->open && PAPI_read(st.es, st.val) == PAPI_OK;
	if (ok) {
		took_read(st.val);
		for (int k = 0; k < st.nslots; k++)
			r->sum[k] += st.val[k] - r->begin[k];
		r->calls++;
		r->open = 0;
	}
	pthread_mutex_unlock(&st.lock);
	return ok ? 0 : -1;
}

/* Fortran: CHARACTER(*) arrives with its length as a hidden last argument. */
EXPORT void papi_uncore_mpi_region_begin_(const char *name, size_t len);
EXPORT void papi_uncore_mpi_region_end_(const char *name, size_t len);

static int fortran_name(const char *s, size_t len, char *out, size_t cap)
{
	while (len && s[len - 1] == ' ')
		len--;
	if (len >= cap)
		return -1;
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

EXPORT void papi_uncore_mpi_region_begin_(const char *name, size_t len)
{
	char n[64];
	if (fortran_name(name, len, n, sizeof(n)) == 0)
		papi_uncore_mpi_region_begin(n);
}

EXPORT void papi_uncore_mpi_region_end_(const char *name, size_t len)
{
	char n[64];
	if (fortran_name(name, len, n, sizeof(n)) == 0)
		papi_uncore_mpi_region_end(n);
}
