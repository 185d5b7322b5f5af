/* Folding (src/metrics/README.md, "Folding"): every metric of every
 * platform's file that folds gives its tree's value within 1e-12
 * (relative) and of the same class (NaN on a zero elapsed time, 0 on no
 * counts), on counts from 0 to 2^50 and elapsed times from 0 to 10^12 ns,
 * with several TSC speeds folded in; hswep_metric::DRAM_BW folds into one
 * sum of its two terms, one constant and the elapsed time. */
#include "common/uncore_error.h"
#include "harness.h"
#include "support/full_machine.h"
#include "metrics/compile.h"
#include "metrics/expr.h"
#include "metrics/metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static uint64_t next_random(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 11;
}

/* A count of 10^0 .. 10^15 (or 0, or up to 2^50). */
static uint64_t some_count(uint64_t *state)
{
	uint64_t r = next_random(state);
	switch (r % 8) {
	case 0:
		return 0;
	case 1:
		return r & ((1ull << 50) - 1);
	default: {
		uint64_t scale = 1;
		for (unsigned e = (unsigned)(r >> 8) % 16; e > 0; e--)
			scale *= 10;
		return scale + (r >> 20) % scale;
	}
	}
}

/* Same class and within 1e-12. */
static int close_to(double tree, double folded)
{
	if (isnan(tree) || isnan(folded))
		return isnan(tree) && isnan(folded);
	if (isinf(tree) || isinf(folded))
		return tree == folded;
	if (tree == 0 || folded == 0)
		return tree == folded;
	return fabs(folded - tree) <= 1e-12 * fabs(tree);
}

static unsigned check_metric(const struct uncore_mset *ms, const char *name)
{
	static const double mhz[] = {2300, 1000, 2100.5, 3.7e3};
	static const uint64_t ns[] = {0, 1, 999, 1000000, 1000000007, 1000000000000ull};
	uint64_t state = 27;
	unsigned folded = 0;
	unsigned nt = uncore_mset_nterms(ms);
	CHECK(nt <= 64);
	if (nt > 64)
		return 0;
	for (unsigned m = 0; m < sizeof(mhz) / sizeof(mhz[0]); m++) {
		double commons[UNCORE_METRIC_NCOMMONS] = {0};
		commons[UNCORE_METRIC_TSC_MHZ] = mhz[m];
		struct mx_linear l;
		if (uncore_mset_fold(ms, 0, 1u << UNCORE_METRIC_TSC_MHZ, commons, &l) < 0) {
			CHECK_EQ_INT((int)l.n, 0);
			continue;
		}
		folded = 1;
		CHECK(l.n > 0 && l.n <= MX_LINEAR_MAX);
		CHECK(l.per == -1 || l.per == UNCORE_METRIC_ELAPSED_NS);
		for (unsigned i = 0; i < l.n; i++)
			CHECK(l.term[i] >= 0 && (unsigned)l.term[i] < nt);
		for (unsigned round = 0; round < 40; round++) {
			uint64_t counts[64], from[64];
			double terms[64], terms_int[64];
			for (unsigned t = 0; t < nt; t++) {
				from[t] = round % 3 ? some_count(&state) : 0;
				counts[t] = from[t] + (round == 1 ? 0 : some_count(&state));
				terms[t] = (double)counts[t];
				terms_int[t] = (double)(counts[t] - from[t]);
			}
			for (unsigned k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
				commons[UNCORE_METRIC_ELAPSED_NS] = (double)ns[k];
				double t = uncore_mset_eval(ms, 0, terms, commons);
				double f = mx_linear_counts(&l, counts, NULL, (double)ns[k]);
				if (!close_to(t, f))
					fprintf(stderr, "  %s: tree %.17g folded %.17g\n", name, t, f);
				CHECK(close_to(t, f));
				t = uncore_mset_eval(ms, 0, terms_int, commons);
				f = mx_linear_counts(&l, counts, from, (double)ns[k]);
				CHECK(close_to(t, f));
			}
		}
	}
	return folded;
}

TEST(every_folded_metric_gives_its_tree_s_value_within_1e_12)
{
	unsigned total = 0, folded = 0;
	struct test_catalog_case c;
	for (unsigned p = 0; test_next_catalog(&p, &c);) {
		const struct uncore_metric_catalog *cat = c.cat;
		struct uncore_machine m = c.m;
		for (unsigned i = 0; i < cat->ndefs; i++) {
			const struct uncore_metric_def *d = &cat->defs[i];
			char row[160];
			snprintf(row, sizeof(row), "%s::%s", d->pmu, d->name);
			harness_row = row;
			struct uncore_metric_ref r = {
			    .cat = cat, .def = d, .socket = UNCORE_ALL, .instance = UNCORE_ALL};
			struct uncore_mset *ms = NULL;
			unsigned failed;
			if (d->unavailable || uncore_mset_compile(&m, &r, 1, NULL, 0, &ms, &failed) < 0)
				continue;
			total++;
			folded += check_metric(ms, row);
			uncore_mset_free(ms);
		}
	}
	harness_row = NULL;
	uncore_error_clear();
	fprintf(stderr, "  %u of %u metrics fold\n", folded, total);
	/* Half of them fold (119 of 240 when written). */
	CHECK(total > 100);
	CHECK(folded >= 100);
}

TEST(dram_bw_folds_into_one_sum_one_constant_and_the_time)
{
	const struct uncore_event_platform *plat = uncore_event_platform_by_name("hswep");
	struct uncore_machine m = test_full_machine(plat, 2);
	struct uncore_metric_ref r;
	struct uncore_mset *ms = NULL;
	unsigned failed;
	REQUIRE(uncore_metric_parse(plat, "hswep_metric::DRAM_BW", &r) == 0);
	REQUIRE(uncore_mset_compile(&m, &r, 1, NULL, 0, &ms, &failed) == 0);
	double commons[UNCORE_METRIC_NCOMMONS] = {0};
	commons[UNCORE_METRIC_TSC_MHZ] = 2300;
	struct mx_linear l;
	CHECK_EQ_INT(uncore_mset_fold(ms, 0, 1u << UNCORE_METRIC_TSC_MHZ, commons, &l), 0);
	CHECK_EQ_INT((int)l.n, 2);
	CHECK_EQ_INT(l.per, UNCORE_METRIC_ELAPSED_NS);
	/* 64 bytes a CAS, GB/s from bytes/ns: 64 (within the rounding of the
	 * TSC's conversions). */
	CHECK(fabs(l.k - 64) <= 64e-15);
	/* stream.scn: 1.6e9 reads and 8e8 writes over one second: 153.6 GB/s. */
	uint64_t counts[2] = {1600000000, 800000000};
	CHECK(fabs(mx_linear_counts(&l, counts, NULL, 1e9) - 153.6) <= 153.6e-12);
	uncore_mset_free(ms);
}

int main(void)
{
	RUN(every_folded_metric_gives_its_tree_s_value_within_1e_12);
	RUN(dram_bw_folds_into_one_sum_one_constant_and_the_time);
	return harness_done();
}
