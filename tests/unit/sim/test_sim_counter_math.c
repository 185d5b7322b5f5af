/* The counter arithmetic of sim_counter.c and sim_rotation.c (closed forms
 * for rates, periodic blocks for patterns, rotations for thresholds over
 * several rates, the crossing search used for overflow freezes) checked
 * against a plain cycle-by-cycle reference on many random inputs.  The
 * reference computes each stream's per-cycle value from SCENARIOS.md's
 * definition in this file (never the simulator's functions), and long spans
 * are checked against closed forms worked out here. */
#include "../../harness.h"
#include "sim/sim_internal.h"

#include <stdlib.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(uint64_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return n ? rng_state % n : 0;
}

static void add_ratio(struct sim_shared *sh, uint64_t num, uint64_t den, uint64_t start)
{
	struct sim_stream *st = &sh->streams[sh->n_streams++];
	memset(st, 0, sizeof(*st));
	st->rate_kind = SIM_RATE_RATIO;
	st->num = num;
	st->den = den;
	st->start_cycle = start;
	st->stop_cycle = UINT64_MAX;
}

static void add_pattern(struct sim_shared *sh, unsigned len, uint64_t start)
{
	struct sim_stream *st = &sh->streams[sh->n_streams++];
	memset(st, 0, sizeof(*st));
	st->rate_kind = SIM_RATE_PATTERN;
	st->pattern_len = (uint8_t)len;
	for (unsigned i = 0; i < len; i++) {
		st->pattern[i] = (uint32_t)rnd(5);
		st->pattern_sum += st->pattern[i];
	}
	st->start_cycle = start;
	st->stop_cycle = UINT64_MAX;
}

/* A stream's occurrences on cycle c, from SCENARIOS.md: a ratio n/d adds
 * floor((r + 1) n / d) - floor(r n / d) on relative cycle r, a pattern
 * pattern[r mod len]; nothing before the stream starts. */
static uint64_t ref_stream_at(const struct sim_stream *st, uint64_t c)
{
	if (c < st->start_cycle || c >= st->stop_cycle)
		return 0;
	uint64_t r = c - st->start_cycle;
	if (st->rate_kind == SIM_RATE_RATIO)
		return (uint64_t)(((unsigned __int128)(r + 1) * st->num) / st->den -
				  ((unsigned __int128)r * st->num) / st->den);
	return st->pattern[r % st->pattern_len];
}

static uint64_t ref_input_at(const struct sim_shared *sh, const struct sim_input *in, uint64_t c)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < in->n; i++)
		sum += ref_stream_at(&sh->streams[in->idx[i]], c);
	return sum;
}

/* The reference: the manual's per-cycle description, literally (HSX PMON
 * 1.4: the per-cycle sum, compared with the threshold, inverted, edge
 * detected). */
static uint64_t reference(const struct sim_shared *sh, const struct sim_input *in,
			  const struct sim_cmp *cmp, uint64_t c0, uint64_t n, int prev,
			  uint64_t need, uint64_t *used)
{
	uint64_t count = 0;
	*used = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t sum = ref_input_at(sh, in, c0 + i);
		if (!cmp->thresh) {
			count += sum;
		} else {
			int cnd = cmp->invert ? sum < cmp->thresh : sum >= cmp->thresh;
			count += cmp->edge ? (cnd && !prev) : cnd;
			prev = cnd;
		}
		if (need && count >= need) {
			*used = i + 1;
			break;
		}
	}
	return count;
}

static void check_case(struct sim_shared *sh, const char *kind)
{
	struct sim_input in = {.n = sh->n_streams};
	for (unsigned i = 0; i < in.n; i++)
		in.idx[i] = (uint16_t)i;
	struct sim_cmp cmp = {
	    .thresh = (uint32_t)rnd(5), .invert = (uint8_t)rnd(2), .edge = (uint8_t)rnd(2)};
	uint64_t c0 = 1000 + rnd(5000), n = 1 + rnd(800);
	uint8_t prev = (uint8_t)rnd(2);
	uint64_t used_ref, used = 0;
	uint64_t want = reference(sh, &in, &cmp, c0, n, prev, 0, &used_ref);
	uint8_t p = prev;
	uint64_t got = sim_eval(sh, &in, &cmp, c0, n, &p, 0, NULL);
	if (got != want) {
		HARNESS_FAIL_AT(
		    "%s: thresh %u inv %u edge %u c0 %llu n %llu prev %u: got %llu want %llu", kind,
		    cmp.thresh, cmp.invert, cmp.edge, (unsigned long long)c0, (unsigned long long)n,
		    prev, (unsigned long long)got, (unsigned long long)want);
		return;
	}
	if (cmp.thresh) {
		uint64_t dummy;
		int last = 0;
		reference(sh, &in, &(struct sim_cmp){.thresh = cmp.thresh, .invert = cmp.invert},
			  c0 + n - 1, 1, 0, 0, &dummy);
		uint64_t s = ref_input_at(sh, &in, c0 + n - 1);
		last = cmp.invert ? s < cmp.thresh : s >= cmp.thresh;
		CHECK_EQ_INT(p, last);
	}
	/* The rotation closed form directly, wherever it applies (sim_eval
	 * prefers a short periodic block when there is one). */
	if (cmp.thresh) {
		uint64_t rot = 0, rused = 0;
		uint8_t rp = prev;
		if (sim_eval_rotation(sh, &in, &cmp, c0, n, &rp, 0, &rused, &rot)) {
			harness_row = "rotation";
			CHECK_EQ_U64(rot, want);
			uint64_t s = ref_input_at(sh, &in, c0 + n - 1);
			CHECK_EQ_INT(rp, cmp.invert ? s < cmp.thresh : s >= cmp.thresh);
			if (want) {
				uint64_t need = 1 + rnd(want);
				reference(sh, &in, &cmp, c0, n, prev, need, &used_ref);
				rp = prev;
				CHECK(sim_eval_rotation(sh, &in, &cmp, c0, n, &rp, need, &rused,
							&rot));
				CHECK_EQ_U64(rused, used_ref);
			}
			harness_row = NULL;
		}
	}
	/* Crossing search: the cycle on which the count reaches `need`. */
	if (want) {
		uint64_t need = 1 + rnd(want);
		reference(sh, &in, &cmp, c0, n, prev, need, &used_ref);
		p = prev;
		sim_eval(sh, &in, &cmp, c0, n, &p, need, &used);
		CHECK_EQ_U64(used, used_ref);
	}
}

TEST(rates_match_the_reference)
{
	struct sim_shared *sh = calloc(1, sizeof(*sh));
	for (int t = 0; t < 3000; t++) {
		sh->n_streams = 0;
		uint64_t den = 1 + rnd(40);
		add_ratio(sh, rnd(3 * den + 1), den, rnd(900));
		if (rnd(2))
			add_pattern(sh, 1, rnd(900)); /* a constant */
		check_case(sh, "ratio");
	}
	free(sh);
}

TEST(patterns_match_the_reference)
{
	struct sim_shared *sh = calloc(1, sizeof(*sh));
	for (int t = 0; t < 2000; t++) {
		sh->n_streams = 0;
		unsigned k = 1 + (unsigned)rnd(3);
		for (unsigned i = 0; i < k; i++)
			add_pattern(sh, 1 + (unsigned)rnd(7), rnd(900));
		if (rnd(2))
			add_ratio(sh, 1 + rnd(5), 2 + rnd(9), rnd(900));
		check_case(sh, "pattern");
	}
	free(sh);
}

TEST(cycle_path_matches_the_reference)
{
	/* Two rates with large coprime periods: no short combined period, so
	 * the cycle-by-cycle evaluator runs. */
	struct sim_shared *sh = calloc(1, sizeof(*sh));
	for (int t = 0; t < 400; t++) {
		sh->n_streams = 0;
		add_ratio(sh, rnd(2000003), 1000003, rnd(900));
		add_ratio(sh, rnd(1999966), 999983, rnd(900));
		if (rnd(3))
			add_ratio(sh, rnd(3000000), 1000033, rnd(900));
		/* a constant keeps the occurrence walk, a longer pattern forces
		 * the plain cycle loop */
		if (rnd(2))
			add_pattern(sh, 1 + (unsigned)rnd(4), rnd(900));
		check_case(sh, "cycles");
	}
	free(sh);
}

TEST(several_rates_with_a_common_step_match_the_reference)
{
	/* Rates that are small multiples of one rate over a large denominator
	 * (like STREAM's CAS rates on DCLK): the rotation closed form. */
	struct sim_shared *sh = calloc(1, sizeof(*sh));
	static const uint64_t dens[] = {1066666667, 2133333334, 1000003, 999983 * 7, 4096, 97};
	for (int t = 0; t < 3000; t++) {
		sh->n_streams = 0;
		uint64_t den = dens[rnd(6)], step = 1 + rnd(den / 16 + 1);
		unsigned k = 2 + (unsigned)rnd(3);
		for (unsigned i = 0; i < k; i++)
			add_ratio(sh, step * (1 + rnd(9)) + (rnd(4) ? 0 : den * rnd(3)), den,
				  rnd(900));
		if (rnd(2))
			add_pattern(sh, 1, rnd(900)); /* a constant */
		check_case(sh, "rotation");
	}
	free(sh);
}

TEST(long_spans_stay_fast)
{
	/* A thresholded rate over 10^9 cycles: closed form, not a loop. */
	struct sim_shared *sh = calloc(1, sizeof(*sh));
	add_ratio(sh, 100000000, 1066666667, 0);
	struct sim_input in = {.n = 1, .idx = {0}};
	struct sim_cmp cmp = {.thresh = 1, .edge = 1};
	uint8_t p = 0;
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 0, 1066666667, &p, 0, NULL), 100000000);
	cmp.edge = 0;
	cmp.invert = 1;
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 0, 1066666667, &p, 0, NULL), 966666667);
	/* Two rates (the STREAM write CAS of both major modes), thresholded:
	 * walked occurrence by occurrence.  The slower stream's occurrences fall
	 * on cycles of the faster one (equal denominators, rates 3:1). */
	sh->n_streams = 0;
	add_ratio(sh, 37500000, 1066666667, 0);
	add_ratio(sh, 12500000, 1066666667, 0);
	in.n = 2;
	in.idx[1] = 1;
	cmp = (struct sim_cmp){.thresh = 1}; /* 0.1 s of DCLK */
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 0, 106666667, &p, 0, NULL), 3750000);
	cmp.thresh = 2;
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 0, 106666667, &p, 0, NULL), 1250000);

	/* STREAM's CAS_COUNT:ALL with t=1 (any read or write CAS on a cycle):
	 * 100 M, 37.5 M and 12.5 M/s are 8, 3 and 1 times u = 12.5 M/s on
	 * f = 1066666667 DCLK cycles.  Over a whole period (f cycles),
	 * theta = x u mod f takes every value once (gcd(u, f) = 1), and the
	 * k u stream ticks when (k theta mod f) >= f - k u: for k = 8, 3, 1
	 * that is 8, 3 and 1 intervals of theta of widths u (and fractions).
	 * The 1u stream's ticks fall on both others' (a multiple of a rate
	 * ticks whenever it does), and the 8u and 3u streams meet only there
	 * (gcd(8, 3) = 1): 100 M + 37.5 M - 12.5 M = 125 M cycles per period.
	 * Four seconds are exactly 4 f cycles. */
	sh->n_streams = 0;
	add_ratio(sh, 100000000, 1066666667, 0);
	add_ratio(sh, 37500000, 1066666667, 0);
	add_ratio(sh, 12500000, 1066666667, 0);
	in.n = 3;
	in.idx[2] = 2;
	cmp = (struct sim_cmp){.thresh = 1};
	p = 0;
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 0, 4ull * 1066666667, &p, 0, NULL), 500000000);
	/* Any whole period, wherever it starts. */
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 123456789, 1066666667, &p, 0, NULL), 125000000);
	/* Two or more CAS on a cycle: only where 8u and 3u meet, with 1u. */
	cmp.thresh = 2;
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 0, 1066666667, &p, 0, NULL), 12500000);
	cmp.thresh = 3;
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 0, 1066666667, &p, 0, NULL), 12500000);
	/* Cycles with no CAS at all. */
	cmp = (struct sim_cmp){.thresh = 1, .invert = 1};
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 0, 1066666667, &p, 0, NULL), 1066666667 - 125000000);
	/* One hour of simulated time: still closed form (and the same rate). */
	cmp = (struct sim_cmp){.thresh = 1};
	CHECK_EQ_U64(sim_eval(sh, &in, &cmp, 0, 3600ull * 1066666667, &p, 0, NULL),
		     3600ull * 125000000);
	free(sh);
}

int main(void)
{
	RUN(rates_match_the_reference);
	RUN(patterns_match_the_reference);
	RUN(cycle_path_matches_the_reference);
	RUN(several_rates_with_a_common_step_match_the_reference);
	RUN(long_spans_stay_fast);
	return harness_done();
}
