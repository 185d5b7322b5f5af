/* A set's metric values (set_internal.h): a value into an entry's slot,
 * and the folded metrics of a set of msum evaluated on its read's counts
 * (src/metrics/README.md, "Folding"). */
#include "eventset/set_internal.h"

#include <math.h>
#include <string.h>

/* A metric's value into the slot of entry i: the double's bits, or its
 * integer form rounded half away from zero (without libm: PAPI's tools do
 * not link it); a value that is no number (x/0, nothing counted yet)
 * reads 0 in the integer form. */
void uncore_set_store_metric(const struct contents *c, unsigned i, double d, uint64_t *values)
{
	if (c->int_scale[i] > 0) {
		double x = isfinite(d) ? d * c->int_scale[i] : 0;
		int64_t v = x >= 0x1p63    ? INT64_MAX
			    : x <= -0x1p63 ? INT64_MIN
					   : (int64_t)(x + (x >= 0 ? 0.5 : -0.5));
		memcpy(&values[i], &v, sizeof(v));
	} else {
		memcpy(&values[i], &d, sizeof(d));
	}
}

/* eval_metrics of a set whose metric entries are all folded (all_linear):
 * their values straight from the read's counts `ts` (each since start, or
 * since the previous read's prev_tsum), the same readings. */
void uncore_set_eval_linear(struct uncore_set *s, uint64_t now, uint64_t *values, int advance,
			const uint64_t *ts)
{
	struct contents *c = &s->c;
	uint64_t since_start = now - s->start_ns, since_prev = now - s->prev_ns;
	int repeat = now == s->prev_ns && s->read_once;
	for (unsigned i = 0; i < c->n; i++) {
		const struct mx_linear *l = &c->lin[i];
		double v;
		if (!l->n)
			continue; /* a raw entry */
		switch (c->reading[i]) {
		case READ_INTERVAL:
			if (repeat) {
				values[i] = c->last_val[i];
				continue;
			}
			v = mx_linear_counts(l, ts, c->prev_tsum, (double)since_prev);
			break;
		case READ_AMOUNT:
			v = since_start ? mx_linear_counts(l, ts, NULL, (double)since_start) *
					      (double)since_start / 1e9
					: 0.0;
			break;
		default:
			v = mx_linear_counts(l, ts, NULL, (double)since_start);
			break;
		}
		uncore_set_store_metric(c, i, v, values);
	}
	if (advance && c->any_interval) {
		for (unsigned t = 0; t < c->nterms; t++)
			c->prev_tsum[t] = ts[t];
		for (unsigned i = 0; i < c->n; i++)
			c->last_val[i] = values[i];
		s->prev_ns = now;
		s->read_once = 1;
	}
}
