/* Counter logic: which scenario streams feed a counter (its input), and the
 * per-cycle threshold / invert / edge-detect comparison of HSX PMON 1.4
 * applied to the input's per-cycle sum.  Spans of cycles are computed in
 * closed form: without a threshold the count is the sum of the streams'
 * totals; with one, the comparison sequence is periodic with the least
 * common multiple of the streams' periods, so one period is evaluated and
 * multiplied, or, for constants plus one rate, counted in closed form;
 * constants plus several rates with a small common step in closed form too
 * (sim_rotation.c), other rates walked from occurrence to occurrence.
 * Only other inputs with a huge combined period go cycle by cycle. */
#include "sim/sim_internal.h"

#include <stdlib.h>

#define SIM_BLOCK_MAX 65536u

struct decoded {
	unsigned ev, ext, umask, occ_sel;
};

static struct decoded decode(unsigned kind, uint64_t ctl)
{
	struct decoded x = {.ev = (unsigned)(ctl & HSWEP_PMON_CTL_EV_SEL)};
	if (kind == HSWEP_BOX_QPI || kind == HSWEP_BOX_PCU)
		x.ext = !!(ctl & HSWEP_PMON_CTL_EV_SEL_EXT);
	if (kind == HSWEP_BOX_PCU) /* no umask; occ_sel instead (Table 2-158) */
		x.occ_sel =
		    (unsigned)((ctl & HSWEP_PCU_CTL_OCC_SEL) >> HSWEP_PCU_CTL_OCC_SEL_SHIFT);
	else
		x.umask = (unsigned)((ctl & HSWEP_PMON_CTL_UMASK) >> HSWEP_PMON_CTL_UMASK_SHIFT);
	return x;
}

static void add_input(struct sim_input *in, unsigned i)
{
	if (in->n < SIM_MAX_INPUTS)
		in->idx[in->n++] = (uint16_t)i;
	else
		in->overflowed = 1;
}

static int active(const struct sim_stream *st, uint64_t c0, uint64_t c1)
{
	return st->start_cycle <= c0 && c1 <= st->stop_cycle;
}

void sim_gather(const struct sim_shared *sh, unsigned socket, unsigned kind, unsigned inst,
		unsigned k, uint64_t ctl, uint64_t c0, uint64_t c1, struct sim_input *in)
{
	in->n = 0;
	in->overflowed = 0;
	const struct sim_box *b = &sh->sock[socket].box[kind][inst];
	struct decoded x = decode(kind, ctl);
	const struct sim_shape *shape = sim_shape_find(sh, kind, x.ev, x.ext);
	if (shape && shape->ctrs && !(shape->ctrs & (1u << k)))
		return; /* the event cannot be counted in this counter */
	uint64_t sel_ctl = ctl;
	if (shape && shape->mirror0) {
		/* The input of counter 0, filtered by this counter's own
		 * threshold/invert/edge (CBo COUNTER0_OCCUPANCY, 2.3.1.1). */
		if (k == 0)
			return;
		sel_ctl = b->ctl[0];
		x = decode(kind, sel_ctl);
		shape = sim_shape_find(sh, kind, x.ev, x.ext);
		if ((shape && shape->mirror0) || (shape && shape->ctrs && !(shape->ctrs & 1u)))
			return;
	}
	for (unsigned i = 0; i < sh->n_streams; i++) {
		const struct sim_stream *st = &sh->streams[i];
		if (st->target != SIM_TARGET_EVENT || st->kind != kind || st->ev != x.ev ||
		    st->ext != x.ext || !(st->sockets & (1u << socket)) ||
		    !(st->insts & (1u << inst)) || !active(st, c0, c1))
			continue;
		if (kind == HSWEP_BOX_PCU && (x.ev & HSWEP_PCU_EV_SEL_OCC) && st->occ != x.occ_sel)
			continue;
		if (!sim_umask_selects(shape, (uint8_t)x.umask, st) ||
		    !sim_filters_pass(kind, b, sel_ctl, (uint8_t)x.umask, shape, st))
			continue;
		add_input(in, i);
	}
}

void sim_gather_extra(const struct sim_shared *sh, unsigned socket, unsigned kind, unsigned inst,
		      unsigned extra, uint64_t c0, uint64_t c1, struct sim_input *in)
{
	in->n = 0;
	in->overflowed = 0;
	for (unsigned i = 0; i < sh->n_streams; i++) {
		const struct sim_stream *st = &sh->streams[i];
		if (st->target == SIM_TARGET_EXTRA && st->kind == kind && st->extra == extra &&
		    (st->sockets & (1u << socket)) && (st->insts & (1u << inst)) &&
		    active(st, c0, c1))
			add_input(in, i);
	}
}

struct sim_cmp sim_cmp_of(unsigned kind, uint64_t ctl)
{
	const struct hswep_box_desc *d = hswep_box(kind);
	struct sim_cmp c = {
	    .thresh =
		(uint32_t)((ctl >> HSWEP_PMON_CTL_THRESH_SHIFT) & ((1u << d->thresh_bits) - 1)),
	    .invert = !!(ctl & HSWEP_PMON_CTL_INVERT),
	    .edge = !!(ctl & HSWEP_PMON_CTL_EDGE_DET),
	};
	/* PCU occupancy events (ev_sel[7] = 1) use occ_invert and occ_edge_det
	 * (2.8.2.2); the plain invert/edge_det apply to the other events. */
	if (kind == HSWEP_BOX_PCU && (ctl & HSWEP_PCU_EV_SEL_OCC)) {
		c.invert = !!(ctl & HSWEP_PCU_CTL_OCC_INVERT);
		c.edge = !!(ctl & HSWEP_PCU_CTL_OCC_EDGE_DET);
	}
	return c;
}

/* Occurrences of stream st in its first r cycles. */
static uint64_t stream_cum(const struct sim_stream *st, uint64_t r)
{
	if (st->rate_kind == SIM_RATE_RATIO)
		return (uint64_t)((unsigned __int128)r * st->num / st->den);
	uint64_t full = r / st->pattern_len, rem = r % st->pattern_len,
		 sum = full * st->pattern_sum;
	for (uint64_t i = 0; i < rem; i++)
		sum += st->pattern[i];
	return sum;
}

static uint64_t stream_at(const struct sim_stream *st, uint64_t c)
{
	uint64_t r = c - st->start_cycle;
	if (st->rate_kind == SIM_RATE_RATIO)
		return stream_cum(st, r + 1) - stream_cum(st, r);
	return st->pattern[r % st->pattern_len];
}

static uint64_t stream_period(const struct sim_stream *st)
{
	return st->rate_kind == SIM_RATE_RATIO ? st->den : st->pattern_len;
}

uint64_t sim_input_at(const struct sim_shared *sh, const struct sim_input *in, uint64_t c)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < in->n; i++)
		sum += stream_at(&sh->streams[in->idx[i]], c);
	return sum;
}

static uint64_t input_total(const struct sim_shared *sh, const struct sim_input *in, uint64_t c0,
			    uint64_t c1)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < in->n; i++) {
		const struct sim_stream *st = &sh->streams[in->idx[i]];
		sum += stream_cum(st, c1 - st->start_cycle) - stream_cum(st, c0 - st->start_cycle);
	}
	return sum;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Least common multiple of the input's periods, or 0 if above the limit. */
static uint64_t input_period(const struct sim_shared *sh, const struct sim_input *in,
			     uint64_t limit)
{
	uint64_t l = 1;
	for (unsigned i = 0; i < in->n; i++) {
		uint64_t p = stream_period(&sh->streams[in->idx[i]]);
		if (p > limit)
			return 0;
		unsigned __int128 x = (unsigned __int128)l / gcd64(l, p) * p;
		if (x > limit)
			return 0;
		l = (uint64_t)x;
	}
	return l;
}

static int compare(const struct sim_cmp *cmp, uint64_t sum)
{
	return cmp->invert ? sum < cmp->thresh : sum >= cmp->thresh;
}

/* Cycle by cycle over [c0, c0+n), for inputs without a short period.  Each
 * stream's value is stepped incrementally: with r n = a d + acc, the next
 * cycle adds q + (acc + rem >= d) where q, rem = n / d, n mod d. */
struct step {
	const struct sim_stream *st;
	uint64_t q, rem, acc;
	unsigned pi;
};

static void step_init(struct step *sp, const struct sim_stream *st, uint64_t c)
{
	uint64_t r = c - st->start_cycle;
	sp->st = st;
	if (st->rate_kind == SIM_RATE_RATIO) {
		sp->q = st->num / st->den;
		sp->rem = st->num % st->den;
		sp->acc = (uint64_t)((unsigned __int128)r * st->num % st->den);
	} else {
		sp->pi = (unsigned)(r % st->pattern_len);
	}
}

static uint64_t step_next(struct step *sp)
{
	const struct sim_stream *st = sp->st;
	if (st->rate_kind == SIM_RATE_RATIO) {
		uint64_t a = sp->acc + sp->rem, carry = a >= st->den;
		sp->acc = carry ? a - st->den : a;
		return sp->q + carry;
	}
	uint64_t v = st->pattern[sp->pi];
	if (++sp->pi == st->pattern_len)
		sp->pi = 0;
	return v;
}

static uint64_t eval_cycles(const struct sim_shared *sh, const struct sim_input *in,
			    const struct sim_cmp *cmp, uint64_t c0, uint64_t n, uint8_t *prev,
			    uint64_t need, uint64_t *used)
{
	struct step sp[SIM_MAX_INPUTS];
	for (unsigned i = 0; i < in->n; i++)
		step_init(&sp[i], &sh->streams[in->idx[i]], c0);
	uint64_t count = 0;
	int p = *prev;
	for (uint64_t c = 0; c < n; c++) {
		uint64_t sum = 0;
		for (unsigned i = 0; i < in->n; i++)
			sum += step_next(&sp[i]);
		int cnd = compare(cmp, sum);
		count += cmp->edge ? (cnd && !p) : cnd;
		p = cnd;
		if (need && count >= need) {
			*used = c + 1;
			break;
		}
	}
	*prev = (uint8_t)p;
	return count;
}

/* Scan conditions cnd[0..len) with previous result p, adding to *count;
 * returns the index + 1 where *count reached need, or 0. */
static uint64_t scan(const uint8_t *cnd, uint64_t len, int edge, int p, uint64_t *count,
		     uint64_t need)
{
	for (uint64_t i = 0; i < len; i++) {
		*count += edge ? (cnd[i] && !p) : cnd[i];
		p = cnd[i];
		if (need && *count >= need)
			return i + 1;
	}
	return 0;
}

/* A thresholded input that is constant apart from at most one ratio stream
 * has a closed form.  With K the constant part and q = floor(num / den),
 * the sum on cycle c is K + q + b(c), b(c) in {0, 1}; the comparison result
 * s(c) is then constant or equal to b(c) or to !b(c).  A ratio's extra
 * occurrences are evenly spread, so when they come at most every other
 * cycle the 1s of b are isolated, else its 0s are: rising edges of s follow
 * from the number of 1s (or 0s) of s. */
struct closed {
	const struct sim_stream *st; /* the ratio stream, or NULL */
	uint64_t k;                  /* constant part of the sum */
	int s0, s1;                  /* comparison result with b = 0, b = 1 */
};

static int closed_form(const struct sim_shared *sh, const struct sim_input *in,
		       const struct sim_cmp *cmp, struct closed *cf)
{
	cf->st = NULL;
	cf->k = 0;
	for (unsigned i = 0; i < in->n; i++) {
		const struct sim_stream *st = &sh->streams[in->idx[i]];
		if (st->rate_kind == SIM_RATE_PATTERN && st->pattern_len == 1)
			cf->k += st->pattern[0];
		else if (st->rate_kind == SIM_RATE_RATIO && !cf->st)
			cf->st = st;
		else
			return 0;
	}
	uint64_t q = cf->st ? cf->st->num / cf->st->den : 0;
	cf->s0 = compare(cmp, cf->k + q);
	cf->s1 = cf->st && cf->st->num % cf->st->den ? compare(cmp, cf->k + q + 1) : cf->s0;
	return 1;
}

/* Cycles in [c, c + m) where s is 1. */
static uint64_t closed_ones(const struct closed *cf, uint64_t c, uint64_t m)
{
	if (cf->s0 == cf->s1)
		return cf->s0 ? m : 0;
	const struct sim_stream *st = cf->st;
	uint64_t r = c - st->start_cycle, q = st->num / st->den;
	uint64_t ones_b = stream_cum(st, r + m) - stream_cum(st, r) - q * m;
	return cf->s1 ? ones_b : m - ones_b;
}

static int closed_at(const struct closed *cf, uint64_t c)
{
	return closed_ones(cf, c, 1) != 0;
}

static uint64_t closed_count(const struct closed *cf, const struct sim_cmp *cmp, uint64_t c0,
			     uint64_t m, int prev)
{
	if (m == 0)
		return 0;
	uint64_t ones = closed_ones(cf, c0, m);
	if (!cmp->edge)
		return ones;
	int first = closed_at(cf, c0);
	if (cf->s0 == cf->s1)
		return first && !prev;
	/* Are the 1s of s isolated?  Those of b are when 2 (num mod den) <= den. */
	uint64_t rem = cf->st->num % cf->st->den;
	int b_ones_isolated = 2 * rem <= cf->st->den, b_zeros_isolated = 2 * rem >= cf->st->den;
	int s_ones_isolated = cf->s1 ? b_ones_isolated : b_zeros_isolated;
	if (s_ones_isolated) /* every 1 but a first one after prev = 1 is an edge */
		return ones - (first && prev);
	/* 0s isolated: every 0 before the last cycle is followed by an edge. */
	uint64_t zeros = (m - 1) - closed_ones(cf, c0, m - 1);
	return zeros + (first && !prev);
}

static uint64_t eval_closed(const struct closed *cf, const struct sim_cmp *cmp, uint64_t c0,
			    uint64_t n, uint8_t *prev, uint64_t need, uint64_t *used)
{
	uint64_t total = closed_count(cf, cmp, c0, n, *prev);
	if (need && total >= need) {
		uint64_t lo = 1, hi = n;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			if (closed_count(cf, cmp, c0, mid, *prev) >= need)
				hi = mid;
			else
				lo = mid + 1;
		}
		*used = lo;
		n = lo;
		total = closed_count(cf, cmp, c0, n, *prev);
	}
	*prev = (uint8_t)closed_at(cf, c0 + n - 1);
	return total;
}

/* Constants plus several ratio streams: the sum is K + sum(q_i) + B(c), B(c)
 * the number of streams with an extra occurrence on cycle c.  Between such
 * cycles B = 0 and the comparison result is constant, so the span is walked
 * from one extra occurrence to the next: the cost grows with occurrences,
 * not cycles.  A(x) = ((x + r0) num) mod den is a stream's accumulator at
 * the start of cycle x; x has an occurrence when A(x) + rem >= den. */
struct tick {
	uint64_t next; /* next cycle (relative to c0) with an extra occurrence */
	uint64_t acc;  /* A(next) */
	uint64_t rem, den;
};

/* From accumulator a at cycle x, the first occurrence is at x + j. */
static void tick_schedule(struct tick *t, uint64_t x, uint64_t a)
{
	uint64_t j = (t->den - a + t->rem - 1) / t->rem - 1;
	t->next = x + j;
	t->acc = a + j * t->rem;
}

static int eval_ticks(const struct sim_shared *sh, const struct sim_input *in,
		      const struct sim_cmp *cmp, uint64_t c0, uint64_t n, uint8_t *prev,
		      uint64_t need, uint64_t *used, uint64_t *result)
{
	struct tick tk[SIM_MAX_INPUTS];
	unsigned nt = 0;
	uint64_t base = 0;
	for (unsigned i = 0; i < in->n; i++) {
		const struct sim_stream *st = &sh->streams[in->idx[i]];
		if (st->rate_kind == SIM_RATE_PATTERN && st->pattern_len == 1) {
			base += st->pattern[0];
			continue;
		}
		if (st->rate_kind != SIM_RATE_RATIO)
			return 0;
		base += st->num / st->den;
		struct tick *t = &tk[nt];
		t->rem = st->num % st->den;
		t->den = st->den;
		if (!t->rem)
			continue;
		uint64_t a0 =
		    (uint64_t)((unsigned __int128)(c0 - st->start_cycle) * st->num % st->den);
		tick_schedule(t, 0, a0);
		nt++;
	}
	uint8_t cond_of[SIM_MAX_INPUTS + 1];
	for (unsigned b = 0; b <= nt; b++)
		cond_of[b] = (uint8_t)compare(cmp, base + b);
	uint64_t count = 0, c = 0;
	int p = *prev;
	while (c < n) {
		uint64_t ev = n;
		for (unsigned i = 0; i < nt; i++)
			if (tk[i].next < ev)
				ev = tk[i].next;
		if (ev > c) { /* cycles c .. ev-1: no extra occurrence */
			uint64_t add = cond_of[0] ? (cmp->edge ? !p : ev - c) : 0;
			if (need && add && count + add >= need) {
				*used = cmp->edge ? c + 1 : c + (need - count);
				count = need;
				p = cond_of[0];
				break;
			}
			count += add;
			p = cond_of[0];
			c = ev;
			if (c >= n)
				break;
		}
		unsigned b = 0;
		for (unsigned i = 0; i < nt; i++) {
			struct tick *t = &tk[i];
			if (t->next != c)
				continue;
			b++;
			tick_schedule(t, c + 1, t->acc + t->rem - t->den);
		}
		int cnd = cond_of[b];
		count += cmp->edge ? (cnd && !p) : cnd;
		p = cnd;
		c++;
		if (need && count >= need) {
			*used = c;
			break;
		}
	}
	*prev = (uint8_t)p;
	*result = count;
	return 1;
}

uint64_t sim_eval(const struct sim_shared *sh, const struct sim_input *in,
		  const struct sim_cmp *cmp, uint64_t c0, uint64_t n, uint8_t *prev, uint64_t need,
		  uint64_t *used)
{
	if (used)
		*used = 0;
	else
		need = 0;
	if (n == 0)
		return 0;
	if (cmp->thresh == 0) {
		/* No comparison: the raw per-cycle sums add up (1.4); invert and
		 * edge_det follow the threshold "in sequence" and do nothing
		 * without it. */
		uint64_t total = input_total(sh, in, c0, c0 + n);
		if (!need || total < need)
			return total;
		uint64_t lo = 1, hi = n; /* smallest m with total(m) >= need */
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			if (input_total(sh, in, c0, c0 + mid) >= need)
				hi = mid;
			else
				lo = mid + 1;
		}
		*used = lo;
		return input_total(sh, in, c0, c0 + lo);
	}
	struct closed cf;
	if (closed_form(sh, in, cmp, &cf))
		return eval_closed(&cf, cmp, c0, n, prev, need, used);
	uint64_t L = input_period(sh, in, SIM_BLOCK_MAX), ticks;
	if (!L && sim_eval_rotation(sh, in, cmp, c0, n, prev, need, used ? used : &(uint64_t){0},
				    &ticks))
		return ticks;
	if (!L && eval_ticks(sh, in, cmp, c0, n, prev, need, used ? used : &(uint64_t){0}, &ticks))
		return ticks;
	uint8_t *cnd = L ? malloc(L) : NULL;
	if (!cnd)
		return eval_cycles(sh, in, cmp, c0, n, prev, need, used ? used : &(uint64_t){0});
	uint64_t first = n < L ? n : L;
	for (uint64_t i = 0; i < first; i++)
		cnd[i] = (uint8_t)compare(cmp, sim_input_at(sh, in, c0 + i));
	uint64_t count = 0, hit = scan(cnd, first, cmp->edge, *prev, &count, need);
	if (hit || n <= L) {
		if (hit)
			*used = hit;
		*prev = cnd[(hit ? hit : first) - 1];
		free(cnd);
		return count;
	}
	/* Later blocks all start after cnd[L-1], so they all count the same. */
	uint64_t block = 0;
	scan(cnd, L, cmp->edge, cnd[L - 1], &block, 0);
	uint64_t rest = n - L, full = rest / L, rem = rest % L, consumed = L;
	if (need && block && count + full * block >= need) {
		uint64_t k = (need - count - 1) / block;
		count += k * block;
		consumed += k * L;
		hit = scan(cnd, L, cmp->edge, cnd[L - 1], &count, need);
		*used = consumed + hit;
		*prev = cnd[hit - 1];
		free(cnd);
		return count;
	}
	count += full * block;
	consumed += full * L;
	hit = scan(cnd, rem, cmp->edge, cnd[L - 1], &count, need);
	if (hit)
		*used = consumed + hit;
	*prev = hit ? cnd[hit - 1] : rem ? cnd[rem - 1] : cnd[L - 1];
	free(cnd);
	return count;
}
