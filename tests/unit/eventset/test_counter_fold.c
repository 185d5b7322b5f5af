/* Counter folding: a model counter of each width runs from many starting
 * points through wraps — at the boundary, with many reads per wrap, with
 * the largest delta one wrap allows — and the folded total must equal the
 * number of events the model generated. */
#include "common/uncore_error.h"
#include "eventset/counter_fold.h"
#include "harness.h"

static const unsigned widths[] = {8, 32, 44, 48, 64};

static uint64_t mask_of(unsigned w)
{
	return w == 64 ? ~0ull : (1ull << w) - 1;
}

/* A model hardware counter: `raw` is what a register read returns,
 * including junk in the reserved bits above the width. */
struct model {
	unsigned width;
	uint64_t value;
	uint64_t events;
};

static uint64_t model_raw(const struct model *m, uint64_t junk)
{
	return (m->value & mask_of(m->width)) | (m->width < 64 ? junk << m->width : 0);
}

static void model_count(struct model *m, uint64_t n)
{
	m->value = (m->value + n) & mask_of(m->width);
	m->events += n;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

TEST(init_rejects_bad_widths)
{
	struct uncore_counter_fold f = {0};
	CHECK_EQ_INT(uncore_fold_init(&f, 0), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_fold_init(&f, 65), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "65");
	CHECK_EQ_INT(uncore_fold_init(&f, 48), 0);
	CHECK_EQ_U64(f.mask, 0xffffffffffffull);
	CHECK_EQ_INT(uncore_fold_init(&f, 64), 0);
	CHECK_EQ_U64(f.mask, ~0ull);
}

TEST(exactly_at_the_boundary)
{
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		unsigned w = widths[i];
		uint64_t top = mask_of(w);
		struct uncore_counter_fold f = {0};
		char row[16];
		snprintf(row, sizeof(row), "W=%u", w);
		harness_row = row;
		CHECK_EQ_INT(uncore_fold_init(&f, w), 0);
		uncore_fold_start(&f, top - 1);
		CHECK_EQ_U64(uncore_fold_update(&f, top), 1);       /* to the last value */
		CHECK_EQ_U64(uncore_fold_update(&f, 0), 2);         /* wrap to exactly 0 */
		CHECK_EQ_U64(uncore_fold_update(&f, 0), 2);         /* no events */
		CHECK_EQ_U64(uncore_fold_update(&f, top), 2 + top); /* largest one-wrap delta */
		CHECK_EQ_U64(uncore_fold_update(&f, top - 1), 2 + top + top);
	}
	harness_row = NULL;
}

TEST(single_wrap_between_reads_is_exact)
{
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		unsigned w = widths[i];
		char row[16];
		snprintf(row, sizeof(row), "W=%u", w);
		harness_row = row;
		for (int trial = 0; trial < 2000; trial++) {
			struct model m = {.width = w, .value = rnd() & mask_of(w)};
			struct uncore_counter_fold f = {0};
			uncore_fold_init(&f, w);
			uncore_fold_start(&f, model_raw(&m, rnd()));
			/* Any step below 2^W crosses the boundary at most once. */
			uint64_t step = rnd() & mask_of(w);
			model_count(&m, step);
			CHECK_EQ_U64(uncore_fold_update(&f, model_raw(&m, rnd())), step);
		}
	}
	harness_row = NULL;
}

TEST(many_reads_per_wrap_and_many_wraps)
{
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		unsigned w = widths[i];
		char row[16];
		snprintf(row, sizeof(row), "W=%u", w);
		harness_row = row;
		struct model m = {.width = w, .value = mask_of(w) - 5};
		struct uncore_counter_fold f = {0};
		uncore_fold_init(&f, w);
		uncore_fold_start(&f, model_raw(&m, 0));
		/* Steps of about 1/64 of the range: ~64 reads per wrap, 3000 reads. */
		uint64_t span = w == 64 ? (1ull << 50) : (mask_of(w) >> 6) + 1;
		for (int k = 0; k < 3000; k++) {
			model_count(&m, rnd() % span);
			uncore_fold_update(&f, model_raw(&m, rnd()));
		}
		CHECK_EQ_U64(f.total, m.events);
		if (w < 64)
			CHECK(m.events >> w >= 10); /* wrapped many times */
	}
	harness_row = NULL;
}

TEST(start_stop_reset_semantics)
{
	struct uncore_counter_fold f = {0};
	uncore_fold_init(&f, 48);
	CHECK_EQ_U64(uncore_fold_update(&f, 1000), 0); /* not started: ignored */
	uncore_fold_start(&f, 1000);
	CHECK_EQ_U64(uncore_fold_update(&f, 1500), 500);
	uncore_fold_reset(&f, 1700);
	CHECK_EQ_U64(f.total, 0);
	CHECK_EQ_U64(uncore_fold_update(&f, 1750), 50);
	CHECK_EQ_U64(uncore_fold_stop(&f, 1800), 100);
	CHECK(!f.running);
	CHECK_EQ_U64(uncore_fold_update(&f, 999999), 100); /* stopped: frozen */
	CHECK_EQ_U64(uncore_fold_delta(&f, 1801), 1);
	uncore_fold_start(&f, 5); /* restart from 0 */
	CHECK_EQ_U64(uncore_fold_update(&f, 0xffffffffffffull), 0xffffffffffffull - 5);
	CHECK_EQ_U64(uncore_fold_update(&f, 3), 0xffffffffffffull - 5 + 4);
}

int main(void)
{
	RUN(init_rejects_bad_widths);
	RUN(exactly_at_the_boundary);
	RUN(single_wrap_between_reads_is_exact);
	RUN(many_reads_per_wrap_and_many_wraps);
	RUN(start_stop_reset_semantics);
	return harness_done();
}
