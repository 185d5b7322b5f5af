/* The counting side of uncore-stat, through PAPI's public API only: the
 * user's events become PAPI events of the intel_uncore component (an event
 * that names no socket is added once per socket with :socket=N, so it can be
 * shown per socket; its total is their sum), are started, read and stopped,
 * and each reading becomes rows (struct stat_row) for the output. */
#ifndef UNCORE_STAT_COUNTERS_H
#define UNCORE_STAT_COUNTERS_H

#include <stdint.h>
#include <stdio.h>

#include "stat_kgroups.h"
#include "stat_opts.h"

struct uncore_metric_group;

#define STAT_MAX_SOCKETS 8
#define STAT_MAX_PAPI    1024 /* PAPI events after per-socket expansion */
#define STAT_MAX_METRICS 128  /* distinct members of the -g groups */
#define STAT_MAX_GROUPS  16

/* One event as the user named it. */
struct stat_event {
	const char *name;
	int socket;   /* the socket it names (:socket=N), or -1 */
	int expanded; /* counted once per socket (":socket=N" added) */
	unsigned n;   /* its PAPI events: papi[0..n), one per socket when expanded */
	unsigned papi[STAT_MAX_SOCKETS];
};

/* One line of a report: an event per socket and in total (metrics of -g have
 * their own rows: stat_metric_row). */
struct stat_row {
	const char *name;
	uint32_t sockets; /* bit s: count[s] is known */
	uint64_t count[STAT_MAX_SOCKETS];
	uint64_t total;
};

/* One metric of the -g groups: PAPI events M (the node total) and
 * M:socket=S for every socket; values are doubles. */
struct stat_metric {
	const char *name; /* as the group names it (hswep_metric::DRAM_BW) */
	char units[64];   /* PAPI_event_info_t.units */
	int fp64;         /* PAPI_DATATYPE_FP64: the double's bits in the long long */
	/* PAPI_VALUETYPE_RUNNING_SUM: an amount since start (differenced here);
	 * else its value covers the interval since the previous read
	 * (src/metrics/README.md, "What a read returns"). */
	int running;
	unsigned total;   /* PAPI index of M */
	unsigned papi[STAT_MAX_SOCKETS];
	/* Its ":run" form (M:run, M:socket=S:run), the value over the whole
	 * time since start, when the metric is no running sum: the run's
	 * value of a ratio or a multiplexed metric however often it was read
	 * (src/metrics/README.md, "What a read returns"). */
	int has_run;
	unsigned run_total;
	unsigned run_papi[STAT_MAX_SOCKETS];
	/* A metric over the kernel's aliases (stat_kgroups.h), computed here:
	 * its terms' PAPI indices per socket and bytes per count. */
	const struct stat_kmetric *km;
	struct stat_kresolved kr;
	unsigned tpapi[STAT_KMAX_TERMS][STAT_MAX_SOCKETS];
};

/* A metric row of a report: a member's value per socket and for the node
 * (NaN when the metric has no value for the span). */
struct stat_metric_row {
	const char *name;
	const char *units;
	double value[STAT_MAX_SOCKETS];
	double total;
};

/* A -g group as reported: its members are rows[row[0..n)] of the metric rows. */
struct stat_group_view {
	const char *name;
	const char *title;
	unsigned n;
	unsigned row[STAT_MAX_METRICS];
};

struct stat_counters {
	int eventset;
	int cidx;         /* intel_uncore's component index */
	char origin[256]; /* the component's description */
	int simulated;    /* the counts come from the simulator */
	unsigned nsockets;
	unsigned nevents;
	struct stat_event ev[STAT_MAX_EVENTS];
	unsigned npapi;
	char *papi_names[STAT_MAX_PAPI];
	long long values[STAT_MAX_PAPI];
	unsigned nmetrics;
	struct stat_metric metric[STAT_MAX_METRICS];
	unsigned ngroups;
	struct stat_group_view group[STAT_MAX_GROUPS];
	int is_metric[STAT_MAX_PAPI]; /* PAPI index i is a metric (not a count) */
	/* PAPI index of <summary PMU>::COUNTING_TIME (ns counted, a running
	 * sum read with the counts), or -1 where the platform has none. */
	int time_papi;
};

/* Initialise PAPI (the environment must already select the backend) and
 * find intel_uncore.  0, or 1 (printed). */
int stat_counters_init(struct stat_counters *c);

/* Add the events of `o` and the members of the groups g[0..o->ngroups)
 * (M and M:socket=S each) to one event set.  0; STAT_EXIT_USAGE when an
 * event is bad (the reason printed on stderr); 1 on other failures. */
/* Print the component's native event names, one a line, without PAPI's
 * "intel_uncore:::" prefix (what -e takes; for shell completion); with
 * `masks_of`, that event's unit masks and qualifiers ("RD", "socket=").
 * 0 or 1. */
int stat_counters_list_events(const struct stat_counters *c, const char *masks_of, FILE *f);

int stat_counters_add(struct stat_counters *c, const struct stat_opts *o,
		      const struct uncore_metric_group *const *g);

/* init, then add without groups. */
int stat_counters_open(struct stat_counters *c, const struct stat_opts *o);

/* The metric rows of the span from reading `before` (NULL: the start) to
 * reading `now`: running sums (counts of the kernel-alias metrics, amounts)
 * as their differences, the others as `now` gives them (its interval since
 * the previous read); `seconds`: the span, for the kernel-alias metrics. */
void stat_counters_metric_rows(const struct stat_counters *c, const long long *now,
			       const long long *before, double seconds,
			       struct stat_metric_row *rows);

/* The whole run's values of the library metrics that are no running sums,
 * from their ":run" forms in reading `now` (the time since start: exact
 * for ratios, and for multiplexed terms however often the set was read),
 * into `rows`; the other rows are left alone.  1 when every such metric
 * has its :run form. */
int stat_counters_run_rows(const struct stat_counters *c, const long long *now,
			   struct stat_metric_row *rows);

/* Seconds between reads `before` (NULL: the start) and `now` on the
 * counting time the reads took with their counts (COUNTING_TIME), or
 * `fallback` (the report clock's) where the platform has none. */
/* The component's notices of the set since start (0: none; a libpapi
 * without intel_uncore_notices has none): reads too late for a counter's
 * wraps, or failed; the last one's words in buf (bind/notices.h). */
int stat_counters_notices(const struct stat_counters *c, char *buf, size_t len);

double stat_counters_seconds(const struct stat_counters *c, const long long *now,
			     const long long *before, double fallback);

/* The time-multiplexed settings of the set (uncore_set_entry_info's
 * nsettings, asked of the library): 1 unless some metric needs several. */
unsigned stat_counters_settings(const struct stat_counters *c);

int stat_counters_start(struct stat_counters *c);

/* Counts since start into out[0..npapi): 0, or 1 with out unchanged and
 * `why` saying what failed ("PAPI_read: a read failed: <the component's
 * detail, naming the register>"); nothing printed. */
int stat_counters_read(struct stat_counters *c, long long *out, char *why, size_t len);

/* Final counts, then stop: the same. */
int stat_counters_stop(struct stat_counters *c, long long *out, char *why, size_t len);

void stat_counters_close(struct stat_counters *c);

/* Rows of the events from `now - before` (before may be NULL: from zero). */
void stat_counters_rows(const struct stat_counters *c, const long long *now,
			const long long *before, struct stat_row *rows);

#endif
