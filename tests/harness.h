/* A small test harness: typed assertions that print both values and where
 * they failed, one PASS/FAIL line per test case, and an exit status the
 * runner (tests/run-tests.sh) folds into the suite's "N passed, N failed".
 *
 *   TEST(name) { CHECK_EQ_U64(got, want); }
 *   int main(void) { RUN(name); return harness_done(); }
 */
#ifndef UNCORE_TEST_HARNESS_H
#define UNCORE_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int harness_case_failed;
static int harness_passed;
static int harness_failed;
static const char *harness_row; /* optional: the table row being checked */

#define TEST(name) static void name(void)

#define HARNESS_FAIL_AT(...)                                                                       \
	do {                                                                                       \
		harness_case_failed = 1;                                                           \
		fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);                                  \
		if (harness_row)                                                                   \
			fprintf(stderr, "[row %s] ", harness_row);                                 \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fputc('\n', stderr);                                                               \
	} while (0)

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond))                                                                       \
			HARNESS_FAIL_AT("CHECK(%s) failed", #cond);                                \
	} while (0)

/* A precondition of the rest of the case (a temporary directory, an
 * open file): when it does not hold, the case fails and ends here, so a
 * failed setup is never a pass. */
#define REQUIRE(cond)                                                                              \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			HARNESS_FAIL_AT("REQUIRE(%s) failed: setup, the case stops", #cond);       \
			return;                                                                    \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_U64(got, want)                                                                    \
	do {                                                                                       \
		uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                              \
		if (g_ != w_)                                                                      \
			HARNESS_FAIL_AT("%s == %s: got 0x%" PRIx64 " (%" PRIu64                    \
					"), want 0x%" PRIx64 " (%" PRIu64 ")",                     \
					#got, #want, g_, g_, w_, w_);                              \
	} while (0)

#define CHECK_EQ_INT(got, want)                                                                    \
	do {                                                                                       \
		long long g_ = (long long)(got), w_ = (long long)(want);                           \
		if (g_ != w_)                                                                      \
			HARNESS_FAIL_AT("%s == %s: got %lld, want %lld", #got, #want, g_, w_);     \
	} while (0)

#define CHECK_EQ_STR(got, want)                                                                    \
	do {                                                                                       \
		const char *g_ = (got), *w_ = (want);                                              \
		if (!g_ || !w_ || strcmp(g_, w_) != 0)                                             \
			HARNESS_FAIL_AT("%s == %s: got \"%s\", want \"%s\"", #got, #want,          \
					g_ ? g_ : "(null)", w_ ? w_ : "(null)");                   \
	} while (0)

#define CHECK_CONTAINS(hay, needle)                                                                \
	do {                                                                                       \
		const char *h_ = (hay), *n_ = (needle);                                            \
		if (!h_ || !strstr(h_, n_))                                                        \
			HARNESS_FAIL_AT("%s contains \"%s\": got \"%s\"", #hay, n_,                \
					h_ ? h_ : "(null)");                                       \
	} while (0)

#define CHECK_NEAR(got, want, tol)                                                                 \
	do {                                                                                       \
		double g_ = (double)(got), w_ = (double)(want), t_ = (double)(tol);                \
		if (!(g_ - w_ <= t_ && w_ - g_ <= t_))                                             \
			HARNESS_FAIL_AT("%s ~= %s: got %.9g, want %.9g (tol %.3g)", #got, #want,   \
					g_, w_, t_);                                               \
	} while (0)

#define RUN(name)                                                                                  \
	do {                                                                                       \
		harness_case_failed = 0;                                                           \
		harness_row = NULL;                                                                \
		name();                                                                            \
		if (harness_case_failed) {                                                         \
			harness_failed++;                                                          \
			printf("FAIL %s\n", #name);                                                \
		} else {                                                                           \
			harness_passed++;                                                          \
			printf("PASS %s\n", #name);                                                \
		}                                                                                  \
		fflush(stdout);                                                                    \
	} while (0)

static inline int harness_done(void)
{
	printf("%d passed, %d failed\n", harness_passed, harness_failed);
	return harness_failed ? 1 : 0;
}

#endif
