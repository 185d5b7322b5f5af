/* Metrics compiled for one machine, together with the raw events they will
 * be counted with: every name of their formula trees resolved, their
 * counted terms pooled (a term two metrics share is counted once), and the
 * events (struct uncore_sched_event) that measure the terms, ready for the
 * scheduler.
 *
 * When terms of one box type cannot share a box (filter conflict, counter
 * restriction, box full) they are split into classes that are measured
 * either on different instances of a box type whose instances see the same
 * traffic ("spread", scaled by instance counts) or one after the other
 * ("time-multiplexed", scaled by time).  The event set (eventset/eventset.c)
 * counts the events, folds them into term values and evaluates. */
#ifndef UNCORE_METRICS_COMPILE_H
#define UNCORE_METRICS_COMPILE_H

#include <stdint.h>

#include "plan/machine.h"
#include "plan/sched.h"
#include "metrics/metrics.h"

/* How one scheduled event contributes to the terms. */
struct uncore_metric_evinfo {
	unsigned term;  /* the term it counts for */
	double weight;  /* spread: instances present / instances counting this class */
	uint8_t period; /* time multiplexing: settings taking turns (1: always counting) */
	uint8_t phase;  /* its setting (0 .. period-1) */
};

enum uncore_metric_method {
	UNCORE_METRIC_EXACT,  /* every term counted everywhere, all the time */
	UNCORE_METRIC_SPREAD, /* classes on different instances, scaled by instance counts */
	UNCORE_METRIC_MUX,    /* classes take turns in time, scaled by time */
};

/* Values the evaluation needs from the measurement. */
enum { UNCORE_METRIC_ELAPSED_NS, UNCORE_METRIC_TSC_MHZ, UNCORE_METRIC_NCOMMONS };

struct uncore_mset;
struct mx_prog;

/* Compile metrics refs[0..n) for machine `m`; `raw[0..nraw)` are the other
 * events of the set (they stay on every box they use while classes are
 * formed).  0, or the error that makes a metric unmeasurable here, with
 * the reason: UNCORE_ENODEV (its boxes are not present), UNCORE_ENOSUPP
 * (unavailable, other platform), UNCORE_ENOEVENT/ENOUMASK (a name of the
 * formula that does not resolve), UNCORE_ECONFLICT.  *failed is the index
 * of the metric at fault (when known). */
int uncore_mset_compile(const struct uncore_machine *m, const struct uncore_metric_ref *refs,
			unsigned n, const struct uncore_sched_event *raw, unsigned nraw,
			struct uncore_mset **out, unsigned *failed);

void uncore_mset_free(struct uncore_mset *ms);

/* Events for the scheduler, and how each contributes. */
unsigned uncore_mset_nevents(const struct uncore_mset *ms);
const struct uncore_sched_event *uncore_mset_events(const struct uncore_mset *ms);
const struct uncore_metric_evinfo *uncore_mset_evinfo(const struct uncore_mset *ms);

unsigned uncore_mset_nterms(const struct uncore_mset *ms);
/* 1 when metric k's formula uses term `term`, else 0. */
int uncore_mset_uses_term(const struct uncore_mset *ms, unsigned k, unsigned term);

/* Metric k with term values (weighted, scaled counts) and commons. */
double uncore_mset_eval(const struct uncore_mset *ms, unsigned k, const double *terms,
			const double *commons);

/* Metric k's program (metrics/expr.h, mx_compile), or NULL when its tree
 * is evaluated as a tree (too big for a program). */
const struct mx_prog *uncore_mset_prog(const struct uncore_mset *ms, unsigned k);

/* Metric k folded (metrics/expr.h, mx_fold_linear; src/metrics/README.md,
 * "Folding"), the commons whose bit is set in `known` being
 * known_values[id]: 0, or -1 when it has no folded form. */
struct mx_linear;
int uncore_mset_fold(const struct uncore_mset *ms, unsigned k, unsigned known,
		     const double *known_values, struct mx_linear *out);

/* 1 when metric k is an amount: a sum of counted terms times constants
 * (bytes, requests), or of the elapsed time (COUNTING_TIME), whose values
 * over consecutive intervals add up; 0 for
 * every other metric (rates, ratios, latencies: src/metrics/README.md,
 * "What a read returns"). */
int uncore_mset_is_amount(const struct uncore_mset *ms, unsigned k);

/* How metric k is measured and the error bound that applies. */
const char *uncore_mset_method_text(const struct uncore_mset *ms, unsigned k);

#endif
