/* What the event set's files share (eventset.c counts, set_read.c reads,
 * set_build.c builds): the contents an assignment builds (settings, the read path's
 * prepared sums, scratch) and the set itself.  Internal to src/eventset. */
#ifndef UNCORE_EVENTSET_SET_INTERNAL_H
#define UNCORE_EVENTSET_SET_INTERNAL_H

#include "eventset/counter_fold.h"
#include "eventset/eventset.h"
#include "eventset/share.h"
#include "metrics/compile.h"
#include "metrics/expr.h"

#define MAX_PHASES 64

struct raw_op {
	unsigned entry, event, slot;
};

struct raw_add {
	unsigned slot, entry;
	unsigned raw; /* the entry's index among the raw entries (raw_entry) */
};

struct phase {
	struct uncore_plan plan;
	unsigned nev;
	unsigned *ev; /* global sched-event index of each of the plan's events */
	int *local;   /* per global sched event: its index in this plan, or -1 */
	/* The read path's prepared sums: raw entry op.entry's value is
	 * base[op.event] plus the total of slot op.slot, for each of raw_op
	 * (an entry's first slot), plus the totals of the (slot, entry) pairs
	 * of raw_more (entries counted on several boxes or sockets). */
	struct raw_op *raw_op;
	unsigned nraw_op;
	struct raw_add *raw_more;
	unsigned nraw_more;
	/* The same sums over a view's totals (eventset/share.h), prepared when
	 * the phase starts counting through shared counters: sums.off is each
	 * entry's base less what its slots had counted at the start
	 * (uncore_set_read). */
	struct uncore_share_sums sums;
	const uint64_t **sum_src, **more_src;
	uint64_t *sum_off;
	unsigned *sum_slot, *more_slot, *more_dst;
};

/* A metric entry folded (mx_linear), as the read evaluates it: the sum of
 * the counts of terms term[0 .. n), times k, divided by the time when
 * `divides`, into entry's slot, times scale when its integer form
 * (int_scale; 0: the double). */
struct set_flat {
	unsigned entry, n;
	int divides;
	double k, scale;
	unsigned term[MX_LINEAR_MAX];
};

/* Everything assign builds; replaced as a whole. */
struct contents {
	unsigned n;
	struct uncore_entry *entries;   /* as resolved: kept to rebuild without parsing again */
	int *metric;                    /* per entry: index among the metrics, or -1 */
	unsigned *raw;                  /* per entry: its sched event when raw */
	unsigned *raw_entry;            /* the raw entries' indices, in order (nraw) */
	struct uncore_sched_event *sev; /* raw events, then the metrics' terms */
	struct uncore_metric_evinfo *info;
	unsigned nsev, nraw, nmetrics;
	struct uncore_mset *ms;
	unsigned nphases;
	struct phase *phases;
	unsigned maxslots;
	struct uncore_counter_fold *folds; /* slots of the current phase */
	uint64_t *rawv;                    /* scratch per slot */
	uint64_t *rawv2;                   /* a second read's, when the final one failed */
	uint64_t *base;                    /* per sched event: counts of finished phases */
	uint64_t *active_ns;               /* per sched event: time its phase ran */
	/* Per sched event: the backend's enabled and running times of its
	 * least-counted slot (perf: the kernel multiplexed its group), summed
	 * over finished phases (uncore_set_event_status). */
	uint64_t *kern_enabled, *kern_running;
	/* Per entry: its sched events (an event's own; a metric's terms'),
	 * ent_ev[ent_first[i] .. + ent_n[i]). */
	unsigned *ent_first, *ent_n, *ent_ev;
	double *est, *terms; /* scratch */
	/* Per entry: a metric's integer form (":int", metrics.h): its scale
	 * (0: the double itself); a metric's units as read (its amount form's,
	 * its integer form's). */
	double *int_scale;
	char (*int_units)[48];
	/* Per entry: how a metric is read (enum metric_reading,
	 * src/metrics/README.md "What a read returns"). */
	unsigned char *reading;
	int any_interval;   /* some entry is READ_INTERVAL */
	double *prev_est;   /* per sched event: its estimate at the previous read */
	double *terms_int;  /* scratch: terms over the interval since the previous read */
	uint64_t *last_val; /* per entry: the previous read's value (an empty interval repeats it) */
	/* Metrics read through the view's sums (src/metrics/README.md,
	 * "Compiled metrics"): a set of one setting whose metric terms are
	 * counted everywhere, all the time (weight 1, period 1), on a view.
	 * Its sums are the raw entries (by raw index) followed by the terms'
	 * exact 64-bit counts; a read evaluates the metrics from those. */
	int msum;
	unsigned nterms;
	uint64_t *sumv;      /* the sums' output: nraw + nterms */
	uint64_t *tsum;      /* per term: its count (scratch, a read off the folds) */
	uint64_t *prev_tsum; /* per term: its count at the previous read (READ_INTERVAL) */
	double tsc_mhz;      /* the set clock's TSC MHz (TSC_SPEED), per clock */
	/* The commons of a read (since start; since the previous read), and
	 * per entry its metric's program bound to them and to terms or
	 * terms_int as the entry is read (eventset.c, bind_metrics). */
	double commons[UNCORE_METRIC_NCOMMONS], commons_int[UNCORE_METRIC_NCOMMONS];
	struct mx_fprog *fprog;
	/* Per entry of a set of msum: its metric folded (src/metrics/README.md,
	 * "Folding"), evaluated on the read's counts (eval_linear); all_linear:
	 * every metric entry has its folded form, the term values are not
	 * needed. */
	struct mx_linear *lin;
	uint64_t *lin_prev; /* per entry: its sum of counts at the previous read (READ_INTERVAL) */
	int all_linear;
	/* A set of all_linear: its metric entries folded, as a flat list the
	 * read walks with no lookup (uncore_set_build_folds); flat_interval:
	 * every one is read over the interval since the previous read (the
	 * read's own evaluation, uncore_set_eval_flat). */
	struct set_flat *flat;
	unsigned nflat;
	int flat_interval;
	/* What every entry of the flat list is (uncore_set_build_folds): the
	 * read's evaluation then tests it once, not per entry. */
	enum { SET_FLAT_MIXED, SET_FLAT_RATES, SET_FLAT_INT_RATES } flat_kind;
	/* The view's sums of the metrics are the flat entries' sums of their
	 * terms' counts, not the terms' (prepare_metric_sums, as it last
	 * prepared them). */
	int sums_flat;
};

/* How a metric entry is read. */
enum metric_reading {
	READ_INTERVAL,   /* over the interval since the previous read (PAPI_VALUETYPE_ABSOLUTE) */
	READ_RUNNING,    /* an amount: since start or reset (PAPI_VALUETYPE_RUNNING_SUM) */
	READ_AMOUNT,     /* a rate's amount form: rate x time since start or reset (running) */
	READ_RUN,        /* :run: the metric over the time since start or reset (absolute) */
};

struct uncore_set {
	/* What every read touches first, together (one cache line). */
	struct uncore_backend *be;
	unsigned phase; /* current setting */
	int running;
	/* Reads sum the view's totals (the current phase's sums): a set of
	 * events through shared counters, with one setting. */
	int summed;
	int kern_scaled; /* a finished phase had a slot the backend scaled */
	/* Set by every read: 0 when uncore_set_any_scaled is 0 (kern_scaled or
	 * the backend's read_scaled), for the caller's one test per read
	 * (uncore_set_scaled_hint). */
	int scaled_hint;
	struct uncore_clock clock;
	struct contents c;
	int live;          /* the current phase's folds hold counts not yet in base */
	uint64_t start_ns; /* of the interval (start or reset) */
	uint64_t phase_ns; /* when the current phase started counting */
	uint64_t stop_ns;  /* when stopped */
	uint64_t prev_ns;  /* of the previous read (or start, reset): READ_INTERVAL's origin */
	/* Counting time (src/metrics/README.md, "What a read returns"): every
	 * *_ns above is on it, the set's clock less the spans in which reads
	 * froze the counters.  count_ns: at the last timed read; resume_ns:
	 * the clock when counting last resumed (or the last read's instant);
	 * read_window: how long reads usually take, ns (a moving average: one
	 * four times longer was preempted). */
	uint64_t count_ns, resume_ns, read_window;
	int read_once;     /* a read since start or reset gave values (last_val) */
	/* Reads timed by the backend (set_read.c, bind_read_clock): where the
	 * wrap guard takes the freeze instant, or NULL. */
	const uint64_t *read_guard;
	uint64_t *values;  /* last values, for reads of a stopped set */
	/* uncore_set_read of a set the view's sums do not serve (stopped,
	 * between settings, not summed): set_read_other, set where the set is
	 * made (set_assign.c), so that the read (set_read.c) names nothing of
	 * eventset.c. */
	int (*read_other)(struct uncore_set *s, uint64_t *values);
	int attach_cpu; /* PAPI_CPU_ATTACH: entries without a socket count its socket; -1: none */
	/* Counts that may be short since start or reset (uncore_set_short):
	 * the error and what was lost; final_short when the stop's own final
	 * read lost counters, so that reads and stops of the stopped set keep
	 * saying so. */
	int short_rc, final_short;
	char short_detail[320];
	/* Reads since start that came too late for a counter's wraps (the
	 * wrap guard) or failed (uncore_set_notices), and the last one's
	 * words. */
	unsigned notices;
	char notice[240];
};

/* Build the contents of `n` entries counted through `be` (attached to
 * `attach_cpu`, or -1): 0, or an error with the detail naming the entry;
 * free with uncore_set_free_contents in either case. */
int uncore_set_build_contents(const struct uncore_backend *be, const struct uncore_entry *entries,
			      unsigned n, int attach_cpu, struct contents *c);
void uncore_set_free_contents(struct contents *c);
/* The metric entries of a set of msum folded (contents.lin, all_linear)
 * with the commons known (the TSC's MHz), and the read's flat list of
 * them: once per contents and clock. */
void uncore_set_build_folds(struct contents *c);

/* The backend's times of the least-counted slot of event `local` of the
 * current phase, as of the last read: 0, or 1 when the backend keeps none
 * (it always counts).  (set_query.c) */
int set_live_times(const struct uncore_set *s, unsigned local, struct uncore_slot_status *out);

/* The read's reports (set_read.c): counts that may be short (the first
 * cause is kept); the backend's report of a read too late for a counter's
 * wraps; a read (the caller's, the poller's, the stop's) that failed, a
 * notice naming what failed; the backend's reports taken after a read
 * (counting stopped on part of the machine, wraps). */
void set_note_short(struct uncore_set *s, int rc, const char *what, const char *detail);
void set_take_wraps(struct uncore_set *s);
void set_note_failed_read(struct uncore_set *s, const char *what);
void set_take_interruption(struct uncore_set *s);
/* A backend read with its instant on the counting time, *at (set_read.c):
 * 0 or the clock's error; *read_rc the read's.  `origin`: counting
 * (re)started just before. */
int set_read_timed(struct uncore_set *s, uint64_t *raw, int origin, int *read_rc, uint64_t *at);
/* uncore_set_read of a set that is stopped, between settings or not
 * read through sums (eventset.c; a set's read_other). */
int set_read_other(struct uncore_set *s, uint64_t *values);
/* set_metrics.c: a set of contents.msum's terms from their counts `ts`
 * (the read's sums) or, NULL, from the bases and the live phase's folds
 * (into c->tsum); the metric entries' values at `now` from the terms (since
 * start or reset, and since the previous read; `advance`: this read closes
 * an interval; `ts`: the counts the next interval starts from); both, by
 * the metrics' programs, for a set that is not all_linear. */
void set_metric_sum_terms(struct uncore_set *s, const uint64_t *ts);
void set_eval_metrics(struct uncore_set *s, uint64_t now, uint64_t *values, int advance,
		      const uint64_t *ts);
void set_eval_terms(struct uncore_set *s, uint64_t now, uint64_t *values, int advance,
		    const uint64_t *ts);

/* Totals of the current phase's slots of sched event `local`. */
static inline uint64_t set_phase_total(const struct uncore_set *s, unsigned local)
{
	const struct uncore_plan *p = &s->c.phases[s->phase].plan;
	uint64_t v = 0;
	for (unsigned k = 0; k < p->count[local]; k++)
		v += s->c.folds[p->slot_index[p->first[local] + k]].total;
	return v;
}

#endif
