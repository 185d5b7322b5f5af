/* A set's metric values (set_internal.h), inline in its read path
 * (eventset.c): a value into an entry's slot, and the folded metrics of a
 * set of msum evaluated on its read's counts (src/metrics/README.md,
 * "Folding"). */
#ifndef UNCORE_EVENTSET_SET_EVAL_H
#define UNCORE_EVENTSET_SET_EVAL_H

#include "eventset/set_internal.h"

#include <math.h>
#include <string.h>

/* uncore_set_store_scaled's integer form out of range (or no number):
 * out of line, so that its constants are not loaded on every read. */
static __attribute__((noinline, unused)) int64_t uncore_set_int_out_of_range(double d, double x)
{
	x = isfinite(d) ? x : 0;
	return x >= 0x1p63    ? INT64_MAX
	       : x <= -0x1p63 ? INT64_MIN
			      : (int64_t)(x + (x >= 0 ? 0.5 : -0.5));
}

/* A metric's value into the slot of entry i: the double's bits, or its
 * integer form rounded half away from zero (without libm: PAPI's tools do
 * not link it); a value that is no number (x/0, nothing counted yet)
 * reads 0 in the integer form. */
/* The integer form (scale > 0) of uncore_set_store_scaled. */
static inline __attribute__((always_inline)) void uncore_set_store_int(double scale, double d,
								      uint64_t *out)
{
	double x = d * scale, half = 0.5;
	int64_t v;
	/* Half away from zero (x + copysign(0.5, x)), truncated by the
	 * processor's conversion, which gives INT64_MIN for no number and out
	 * of range: an x within range (-2^63 < x < 2^63, so x is -2^63 + 1024
	 * at least) never converts to it, so one test finds the rest, out of
	 * line (C leaves that conversion undefined: the instruction's own
	 * result is tested). */
	double y = x >= 0 ? x + half : x - half;
	__asm__("cvttsd2si %1, %0" : "=r"(v) : "x"(y));
	if (__builtin_expect(v == INT64_MIN, 0))
		v = uncore_set_int_out_of_range(d, x);
	memcpy(out, &v, sizeof(v));
}

static inline __attribute__((always_inline)) void uncore_set_store_scaled(double scale, double d,
									 uint64_t *out)
{
	if (scale > 0)
		uncore_set_store_int(scale, d, out);
	else
		memcpy(out, &d, sizeof(d));
}

static inline __attribute__((always_inline)) void
uncore_set_store_metric(const struct contents *c, unsigned i, double d, uint64_t *values)
{
	uncore_set_store_scaled(c->int_scale[i], d, &values[i]);
}

/* eval_metrics of a set whose metric entries are all folded (all_linear):
 * their values straight from the read's counts `ts`, the same readings;
 * an entry read over the interval since the previous read keeps its sum
 * of counts at that read (lin_prev) and its value (last_val, which an
 * empty interval repeats). */
static inline __attribute__((always_inline)) void
uncore_set_eval_linear(struct uncore_set *s, uint64_t now, uint64_t *values, int advance,
		       const uint64_t *ts)
{
	struct contents *c = &s->c;
	uint64_t since_start = now - s->start_ns, since_prev = now - s->prev_ns;
	int repeat = now == s->prev_ns && s->read_once;
	for (unsigned i = 0; i < c->n; i++) {
		const struct mx_linear *l = &c->lin[i];
		if (!l->n)
			continue; /* a raw entry */
		uint64_t sum = mx_linear_sum(l, ts);
		double v;
		switch (c->reading[i]) {
		case READ_INTERVAL:
			if (repeat) {
				values[i] = c->last_val[i];
				continue;
			}
			uncore_set_store_metric(
			    c, i, mx_linear_value(l, sum - c->lin_prev[i], (double)since_prev), values);
			if (advance) {
				c->lin_prev[i] = sum;
				c->last_val[i] = values[i];
			}
			continue;
		case READ_AMOUNT:
			v = since_start ? mx_linear_value(l, sum, (double)since_start) *
					      (double)since_start / 1e9
					: 0.0;
			break;
		default:
			v = mx_linear_value(l, sum, (double)since_start);
			break;
		}
		uncore_set_store_metric(c, i, v, values);
	}
	if (advance && c->any_interval) {
		s->prev_ns = now;
		s->read_once = 1;
	}
}

/* uncore_set_eval_linear of a set whose metric entries are all read over
 * the interval since the previous read (flat_interval), over its flat
 * list: the same values, the same readings (the sum of counts, its
 * difference from the previous read's, times k, over the interval's
 * time), with no lookup and no switch per entry.  `ts`: each flat entry's
 * sum of its terms' counts (sums_flat); `kind`: the list's flat_kind. */
static inline __attribute__((always_inline)) void
uncore_set_eval_flat(struct uncore_set *s, uint64_t now, uint64_t *values, int advance,
		     const uint64_t *ts, const int kind)
{
	struct contents *c = &s->c;
	uint64_t since_prev = now - s->prev_ns;
	const struct set_flat *f = c->flat, *end = f + c->nflat;
	uint64_t *prev = c->lin_prev, *last = c->last_val;
	if (__builtin_expect(!since_prev && s->read_once, 0)) {
		/* An empty interval repeats the value of the one that ended here. */
		for (; f < end; f++)
			values[f->entry] = last[f->entry];
		return;
	}
	/* No time yet (a read at the start's instant): NaN, as x/0 in the tree. */
	/* A time below 2^63 ns (292 years): converted as signed, one
	 * instruction (an unsigned conversion tests the top bit first). */
	double per = since_prev ? (double)(int64_t)since_prev : __builtin_nan("");
	/* At least one entry (uncore_set_build_folds): tested at the end. */
	do {
		uint64_t sum = *ts;
		unsigned i = f->entry;
		double v = (double)(sum - prev[i]) * f->k;
		/* kind (set_internal.h, flat_kind): known for every entry. */
		if (kind != SET_FLAT_MIXED || f->divides)
			v /= per;
		uint64_t bits; /* the value's, stored twice without a reload */
		if (kind == SET_FLAT_RATES)
			memcpy(&bits, &v, sizeof(bits));
		else if (kind == SET_FLAT_INT_RATES)
			uncore_set_store_int(f->scale, v, &bits);
		else
			uncore_set_store_scaled(f->scale, v, &bits);
		values[i] = bits;
		if (advance) {
			prev[i] = sum;
			last[i] = bits;
		}
		ts++;
	} while (++f < end);
	if (advance) {
		s->prev_ns = now;
		s->read_once = 1;
	}
}

#endif
