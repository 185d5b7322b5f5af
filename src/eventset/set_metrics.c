/* An event set's metric entries evaluated (see set_internal.h): from the
 * terms' counts of a read's sums or of the bases and the live phase, by
 * each metric's compiled program, as a rate since start, over the
 * interval since the previous read, or as an amount (src/metrics/README.md,
 * "What a read returns"); for eventset.c's reads and set_read.c's. */
#include "eventset/set_internal.h"

#include "eventset/set_eval.h"
#include "metrics/compile.h"

#include <string.h>

/* A set of contents.msum: the terms' values from their exact counts `ts`
 * (the read's sums), or, NULL, from the bases and the live phase's folds
 * into c->tsum.  Each count is the sum of its events' counts, each
 * term's weight 1 and its events always counting: the same value as the
 * events' estimates summed (compute), exactly, below 2^53. */
void set_metric_sum_terms(struct uncore_set *s, const uint64_t *ts)
{
	struct contents *c = &s->c;
	unsigned nt = c->nterms;
	if (!ts) {
		memset(c->tsum, 0, (nt ? nt : 1) * sizeof(*c->tsum));
		for (unsigned e = c->nraw; e < c->nsev; e++) {
			uint64_t v = c->base[e];
			int l = c->phases[s->phase].local[e];
			if (s->live && l >= 0)
				v += set_phase_total(s, (unsigned)l);
			c->tsum[c->info[e].term] += v;
		}
		ts = c->tsum;
	}
	for (unsigned t = 0; t < nt; t++) {
		c->terms[t] = (double)ts[t];
		c->terms_int[t] = (double)(ts[t] - c->prev_tsum[t]);
	}
}

/* The metric entries' values at `now` from c->terms (since start or
 * reset) and c->terms_int (since the previous read); `ts`: a set of
 * contents.msum, the terms' counts the next interval starts from. */
void set_eval_metrics(struct uncore_set *s, uint64_t now, uint64_t *values, int advance,
		      const uint64_t *ts)
{
	struct contents *c = &s->c;
	double elapsed = (double)(now - s->start_ns);
	double *commons = c->commons, *commons_int = c->commons_int;
	commons[UNCORE_METRIC_ELAPSED_NS] = elapsed;
	commons_int[UNCORE_METRIC_ELAPSED_NS] = (double)(now - s->prev_ns);
	/* An empty interval (a second read at the same instant: PAPI_stop
	 * reads, then stops) repeats the value of the interval that ended
	 * there. */
	int repeat = now == s->prev_ns && s->read_once;
	for (unsigned i = 0; i < c->n; i++) {
		if (c->metric[i] < 0)
			continue;
		unsigned k = (unsigned)c->metric[i];
		const struct mx_fprog *f = &c->fprog[i];
		switch (c->reading[i]) {
		case READ_INTERVAL:
			if (repeat)
				values[i] = c->last_val[i];
			else
				uncore_set_store_metric(c, i,
					     f->n ? mx_frun(f)
						  : uncore_mset_eval(c->ms, k, c->terms_int, commons_int),
					     values);
			break;
		case READ_AMOUNT:
			/* Nothing yet over no time: 0, not the rate's 0/0. */
			uncore_set_store_metric(c, i,
				     elapsed > 0 ? (f->n ? mx_frun(f)
							 : uncore_mset_eval(c->ms, k, c->terms, commons)) *
						       elapsed / 1e9
						 : 0.0,
				     values);
			break;
		default:
			uncore_set_store_metric(c, i,
				     f->n ? mx_frun(f) : uncore_mset_eval(c->ms, k, c->terms, commons),
				     values);
			break;
		}
	}
	if (advance && c->any_interval) {
		if (ts)
			memcpy(c->prev_tsum, ts, (c->nterms ? c->nterms : 1) * sizeof(*ts));
		else
			memcpy(c->prev_est, c->est, c->nsev * sizeof(*c->est));
		memcpy(c->last_val, values, c->n * sizeof(*values));
		s->prev_ns = now;
		s->read_once = 1;
	}
}

void set_eval_terms(struct uncore_set *s, uint64_t now, uint64_t *values, int advance,
		    const uint64_t *ts)
{
	set_metric_sum_terms(s, ts);
	set_eval_metrics(s, now, values, advance, ts);
}
