/* The counter arithmetic of sim_counter.c (closed forms for rates, periodic
 * blocks for patterns, the crossing search used for overflow freezes)
 * checked against a plain cycle-by-cycle reference on many random inputs. */
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

/* The reference: the manual's per-cycle description, literally. */
static uint64_t reference(const struct sim_shared *sh, const struct sim_input *in,
			  const struct sim_cmp *cmp, uint64_t c0, uint64_t n, int prev,
			  uint64_t need, uint64_t *used)
{
	uint64_t count = 0;
	*used = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t sum = sim_input_at(sh, in, c0 + i);
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
		uint64_t s = sim_input_at(sh, &in, c0 + n - 1);
		last = cmp.invert ? s < cmp.thresh : s >= cmp.thresh;
		CHECK_EQ_INT(p, last);
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
	free(sh);
}

int main(void)
{
	RUN(rates_match_the_reference);
	RUN(patterns_match_the_reference);
	RUN(cycle_path_matches_the_reference);
	RUN(long_spans_stay_fast);
	return harness_done();
}
