/* Thresholds over several rate streams in closed form, in time that grows
 * with the number of streams and reads, never with the span of cycles.
 *
 * A ratio stream num/den has an extra occurrence on relative cycle r when
 * its accumulator (r num) mod den plus (num mod den) reaches den
 * (SCENARIOS.md: the floor of the running total).  Scaled to the common
 * denominator D = lcm(den), every accumulator is (x N_i + phi_i) mod D on
 * cycle c0 + x, and with G = gcd(N_i), N_i = k_i G: all of them are
 * functions of one rotation, theta(x) = x G mod D.  Stream i ticks when
 * (k_i theta + phi_i) mod D >= D - N_i, which holds on k_i + 1 intervals
 * of theta; so the comparison holds on a union S of intervals, and the
 * edge detector fires on S minus (S + G).  The number of cycles x < n with
 * theta(x) in [a, b) is a difference of floor sums, O(log D) each.  Rates
 * that are small multiples of a common rate (STREAM's 100 M, 37.5 M,
 * 12.5 M/s: 8, 3 and 1 times 12.5 M/s) give a handful of intervals; others
 * give more than ROT_MAX_SPANS and are left to the occurrence walk. */
#include "sim/sim_internal.h"

#include <stdlib.h>

typedef unsigned __int128 u128;

#define ROT_MAX_SPANS 4096u
#define ROT_MAX_D     (1ull << 62)

struct span {
	uint64_t lo, hi; /* theta in [lo, hi) */
};

struct rotation {
	uint64_t d, g;      /* theta(x) = x g mod d */
	struct span *holds; /* where the comparison holds: sorted, disjoint */
	unsigned nholds;
	struct span *rises; /* where it holds and did not on the cycle before */
	unsigned nrises;
	int edge;
};

/* sum over x in [0, n) of floor((a x + b) / m): the Euclid-like reduction
 * (swap the roles of the axes and recurse on the remainders). */
static u128 floor_sum(u128 n, u128 m, u128 a, u128 b)
{
	u128 sum = 0;
	for (;;) {
		if (a >= m) {
			sum += n * (n - 1) / 2 * (a / m);
			a %= m;
		}
		if (b >= m) {
			sum += n * (b / m);
			b %= m;
		}
		u128 y = a * n + b;
		if (y < m)
			return sum;
		n = y / m;
		b = y % m;
		u128 t = m;
		m = a;
		a = t;
	}
}

/* Cycles x in [0, n) with theta(x) < t, for 0 <= t <= d:
 * [y mod d < t] = floor(y / d) - floor((y + d - t) / d) + 1. */
static u128 count_below(const struct rotation *r, uint64_t n, u128 all, uint64_t t)
{
	return all + n - floor_sum(n, r->d, r->g, r->d - t);
}

static uint64_t count_in(const struct rotation *r, const struct span *s, unsigned ns, uint64_t n)
{
	if (n == 0)
		return 0;
	u128 all = floor_sum(n, r->d, r->g, 0), total = 0;
	for (unsigned i = 0; i < ns; i++)
		total += count_below(r, n, all, s[i].hi) - count_below(r, n, all, s[i].lo);
	return (uint64_t)total;
}

static int in_spans(const struct span *s, unsigned ns, uint64_t theta)
{
	unsigned lo = 0, hi = ns;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (s[mid].hi <= theta)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ns && s[lo].lo <= theta;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int cmp_holds(const struct sim_cmp *cmp, uint64_t sum)
{
	return cmp->invert ? sum < cmp->thresh : sum >= cmp->thresh;
}

struct bound {
	uint64_t at;
	int delta; /* +1: a stream starts ticking, -1: stops */
};

static int bound_order(const void *a, const void *b)
{
	const struct bound *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

static uint64_t ceil_div(__int128 a, u128 b)
{
	if (a <= 0)
		return 0;
	return (uint64_t)(((u128)a + b - 1) / b);
}

/* S minus (S + g mod d): theta where the comparison holds and did not on
 * the cycle before. */
static unsigned rising_spans(const struct rotation *r, struct span *out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < r->nholds; i++) {
		/* Walk [lo, hi) and keep the parts whose theta - g is outside S. */
		uint64_t lo = r->holds[i].lo, hi = r->holds[i].hi;
		while (lo < hi) {
			uint64_t back = (lo + r->d - r->g) % r->d; /* theta of the cycle before */
			/* the run of theta from lo on whose cycle before stays
			 * inside (or outside) S: up to the next bound of S */
			unsigned j = 0, top = r->nholds;
			while (j < top) {
				unsigned mid = j + (top - j) / 2;
				if (r->holds[mid].hi <= back)
					j = mid + 1;
				else
					top = mid;
			}
			int inside = j < r->nholds && r->holds[j].lo <= back;
			uint64_t until = inside          ? r->holds[j].hi
					 : j < r->nholds ? r->holds[j].lo
							 : r->d;
			uint64_t len = until - back, end = hi - lo < len ? hi : lo + len;
			if (!inside) {
				if (n && out[n - 1].hi == lo)
					out[n - 1].hi = end;
				else
					out[n++] = (struct span){lo, end};
			}
			lo = end;
		}
	}
	return n;
}

static void rotation_free(struct rotation *r)
{
	free(r->holds);
	free(r->rises);
}

/* 1 and the rotation of the input at c0, or 0 when it does not apply. */
static int rotation_build(const struct sim_shared *sh, const struct sim_input *in,
			  const struct sim_cmp *cmp, uint64_t c0, struct rotation *r)
{
	uint64_t base = 0, d = 1, g = 0, spans = 0;
	unsigned nr = 0;
	const struct sim_stream *rs[SIM_MAX_INPUTS];
	for (unsigned i = 0; i < in->n; i++) {
		const struct sim_stream *st = &sh->streams[in->idx[i]];
		if (st->rate_kind == SIM_RATE_PATTERN && st->pattern_len == 1) {
			base += st->pattern[0];
			continue;
		}
		if (st->rate_kind != SIM_RATE_RATIO)
			return 0;
		base += st->num / st->den;
		if (st->num % st->den == 0)
			continue;
		u128 l = (u128)(d / gcd_u64(d, st->den)) * st->den;
		if (l > ROT_MAX_D)
			return 0;
		d = (uint64_t)l;
		rs[nr++] = st;
	}
	if (nr == 0)
		return 0;
	uint64_t nn[SIM_MAX_INPUTS], phi[SIM_MAX_INPUTS];
	for (unsigned i = 0; i < nr; i++) {
		nn[i] = rs[i]->num % rs[i]->den * (d / rs[i]->den);
		phi[i] = (uint64_t)((u128)(c0 - rs[i]->start_cycle) % d * nn[i] % d);
		g = gcd_u64(g, nn[i]);
	}
	for (unsigned i = 0; i < nr; i++) {
		spans += nn[i] / g + 1;
		if (spans > ROT_MAX_SPANS)
			return 0;
	}
	struct bound *b = malloc(2 * spans * sizeof(*b));
	if (!b)
		return 0;
	unsigned nb = 0;
	for (unsigned i = 0; i < nr; i++) {
		/* k theta + phi, theta in [0, d), crosses [j d - N, j d) for j >= 1. */
		uint64_t k = nn[i] / g;
		u128 top = (u128)k * (d - 1) + phi[i];
		for (u128 j = 1; (__int128)(j * d) - (__int128)nn[i] <= (__int128)top; j++) {
			uint64_t lo = ceil_div((__int128)(j * d) - nn[i] - phi[i], k);
			uint64_t hi = ceil_div((__int128)(j * d) - phi[i], k);
			if (hi > d)
				hi = d;
			if (lo >= hi)
				continue;
			b[nb++] = (struct bound){lo, +1};
			b[nb++] = (struct bound){hi, -1};
		}
	}
	qsort(b, nb, sizeof(*b), bound_order);
	r->d = d;
	r->g = g;
	r->edge = cmp->edge;
	r->holds = malloc((nb + 1) * sizeof(*r->holds));
	r->rises = malloc(4 * (nb + 1) * sizeof(*r->rises));
	r->nholds = r->nrises = 0;
	if (!r->holds || !r->rises) {
		free(b);
		rotation_free(r);
		return 0;
	}
	/* Sweep theta: between bounds the number of ticking streams is fixed. */
	uint64_t at = 0;
	int ticking = 0;
	for (unsigned i = 0; i <= nb; i++) {
		uint64_t next = i < nb ? b[i].at : d;
		if (next > at && cmp_holds(cmp, base + (uint64_t)ticking)) {
			if (r->nholds && r->holds[r->nholds - 1].hi == at)
				r->holds[r->nholds - 1].hi = next;
			else
				r->holds[r->nholds++] = (struct span){at, next};
		}
		if (i < nb) {
			ticking += b[i].delta;
			at = next;
		}
	}
	free(b);
	if (cmp->edge)
		r->nrises = rising_spans(r, r->rises);
	return 1;
}

/* The comparison results over x in [0, m): a count, given the last
 * result before x = 0. */
static uint64_t rotation_count(const struct rotation *r, uint64_t m, int prev)
{
	if (m == 0)
		return 0;
	if (!r->edge)
		return count_in(r, r->holds, r->nholds, m);
	/* x = 0 rises against prev, not against the rotation's cycle before. */
	return count_in(r, r->rises, r->nrises, m) - in_spans(r->rises, r->nrises, 0) +
	       (in_spans(r->holds, r->nholds, 0) && !prev);
}

static int rotation_holds_at(const struct rotation *r, uint64_t x)
{
	return in_spans(r->holds, r->nholds, (uint64_t)((u128)x * r->g % r->d));
}

int sim_eval_rotation(const struct sim_shared *sh, const struct sim_input *in,
		      const struct sim_cmp *cmp, uint64_t c0, uint64_t n, uint8_t *prev,
		      uint64_t need, uint64_t *used, uint64_t *result)
{
	struct rotation r;
	if (!rotation_build(sh, in, cmp, c0, &r))
		return 0;
	uint64_t count = rotation_count(&r, n, *prev);
	if (need && count >= need) {
		/* The first m with count(m) >= need: the count grows by at most
		 * one per cycle, so count(m) == need there. */
		uint64_t lo = 1, hi = n;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			if (rotation_count(&r, mid, *prev) >= need)
				hi = mid;
			else
				lo = mid + 1;
		}
		*used = lo;
		n = lo;
		count = rotation_count(&r, n, *prev);
	}
	*prev = (uint8_t)rotation_holds_at(&r, n - 1);
	*result = count;
	rotation_free(&r);
	return 1;
}
