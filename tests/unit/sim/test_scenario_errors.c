/* The scenario language's bad input (src/sim/SCENARIOS.md): each bad line
 * is refused with UNCORE_ESYNTAX and a detail that says what is wrong,
 * the machine keeps its previous scenario; good lines next to them load.
 * A golden table: the text, then what the detail must contain ("" for a
 * line that loads). */
#include "common/uncore_error.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "support/tmpdir.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *text, *want;
} rows[] = {
    /* statements */
    {"frobnicate cbo\n", "frobnicate"},
    {"stream\n", "stream <box>[<instances>] ev=<code>"},
    {"stream cbo inc=1\n", "stream without ev="},
    {"stream nosuchbox ev=1 inc=1\n", "nosuchbox"},
    {"stream cbo[99] ev=1 inc=1\n", "range out of bounds in \"99\""},
    {"stream cbo[x] ev=1 inc=1\n", "bad number in \"x\""},
    {"stream cbo ev=1 inc=zz\n", "bad inc=zz"},
    {"stream cbo ev=1 pattern=\n", "empty value for \"pattern\""},
    {"stream cbo ev=1 pattern=1,q\n", "bad pattern value"},
    {"stream cbo ev=1 pattern=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n",
     "pattern longer than 32 values"},
    {"stream cbo ev=1 rate=5M\n", "want <number>/s"},
    {"stream cbo ev=1 rate=x/s\n", "bad rate=x/s"},
    {"stream cbo ev=1 inc=1 start=soon\n", "bad start=soon"},
    {"stream cbo ev=1 inc=1 stop=later\n", "bad stop=later"},
    {"stream qpi ev=1 ext=1 inc=1 dir=up\n", "dir=up: rx or tx"},
    {"free\n", "free <box>[<instances>].<REGISTER> <rate>"},
    {"shape\n", "shape <box> ev=<code>"},
    {"shape cbo umask=1\n", "shape without ev="},
    {"shape nosuchbox ev=1\n", "unknown box \"nosuchbox\""},
    {"clock sometimes\n", "clock sometimes: virtual or wall"},
    {"clock wall y2\n", "clock wall y2: x<rate>"},
    {"clock wall x0\n", "clock wall x0: x<rate>"},
    {"access_ns lots\n", "bad access_ns lots"},
    {"access_ns 100000000001\n", "bad access_ns"},
    {"include no-such-built-in-scenario.scn\n", "no-such-built-in-scenario.scn"},
    /* box and instance spellings */
    {"stream cbo.CTL ev=1 inc=1\n", "unexpected register name in \"cbo.CTL\""},
    {"stream cbo[0 ev=1 inc=1\n", "bad instance list in \"cbo[0\""},
    {"stream cbo[0]x ev=1 inc=1\n", "bad instance list in \"cbo[0]x\""},
    {"stream cbo[20] ev=1 inc=1\n", "instance beyond the box's maximum in \"cbo[20]\""},
    {"stream cbo ev=1 inc=1 state=200\n", "state=200"},
    {"stream cbo ev=1 pattern=,\n", "empty pattern"},
    /* lines that load: each branch of the good syntax */
    {"clock virtual\n", ""},
    {"clock wall x10\n", ""},
    {"access_ns 0\n", ""},
    {"stream cbo[0-3] ev=0x34 umask=0x32 state=M rate=1.5k/s socket=0 start=1ms stop=2s\n", ""},
    {"stream cbo[0,2] ev=1 pattern=1,0,2\n", ""},
    {"stream imc[populated] ev=4 umask=3 ratio=1/3\n", ""},
    {"stream qpi[0] socket=0 ev=0x38 ext=1 dir=tx mc=0xe popc=0x4 rate=3M/s\n", ""},
    {"shape cbo ev=0x34 state=always\nshape cbo ev=0x34 state=always\n", ""},
    {"stream cbo ev=1 state=0x7f inc=1\n", ""},
    /* past 64 bits per cycle only when written: rounded, still loads */
    {"stream cbo ev=1 rate=18446744073709551615.5/s\n", ""},
};

TEST(bad_lines_are_refused_with_the_reason)
{
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("e5-2699v3-2s", NULL, &sim) == 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		harness_row = rows[i].text;
		uncore_error_clear();
		int rc = uncore_sim_load_scenario_text(sim, rows[i].text, "test");
		if (!rows[i].want[0]) {
			CHECK_EQ_INT(rc, 0);
			if (rc)
				fprintf(stderr, "  %s\n", uncore_error_detail());
			continue;
		}
		CHECK(rc < 0);
		CHECK_CONTAINS(uncore_error_detail(), rows[i].want);
	}
	harness_row = NULL;
	uncore_sim_destroy(sim);
}

/* The flat-PMU models (Skylake client, Nehalem, Xeon 7400) name units,
 * not boxes; each unit counts as its kind does. */
static const struct {
	const char *model, *text, *want;
} flat_rows[] = {
    {"i7-6700k", "stream cbo[9] ev=1 inc=1\n", "instance beyond the unit's maximum in \"cbo[9]\""},
    {"i7-6700k", "stream nosuchunit ev=1 inc=1\n", "unknown unit \"nosuchunit\" on model i7-6700k"},
    {"i7-6700k", "stream cbo umask=1 inc=1\n", "stream without ev="},
    {"i7-6700k", "stream clock inc=1\n", "counts by itself: no streams"},
    {"i7-6700k", "stream cbo[0] ev=0x22 umask=0x41 inc=1\n", ""},
    {"x7460-4s", "stream gbsq inc=1\n", "an EMON stream needs match=<attributes>"},
};

TEST(flat_models_refuse_with_the_reason)
{
	for (size_t i = 0; i < sizeof(flat_rows) / sizeof(flat_rows[0]); i++) {
		struct uncore_sim *sim = NULL;
		harness_row = flat_rows[i].text;
		REQUIRE(uncore_sim_create(flat_rows[i].model, NULL, &sim) == 0);
		uncore_error_clear();
		int rc = uncore_sim_load_scenario_text(sim, flat_rows[i].text, "test");
		if (!flat_rows[i].want[0]) {
			CHECK_EQ_INT(rc, 0);
		} else {
			CHECK_EQ_INT(rc, UNCORE_ESYNTAX);
			CHECK_CONTAINS(uncore_error_detail(), flat_rows[i].want);
		}
		uncore_sim_destroy(sim);
	}
	harness_row = NULL;
}

/* The language's limits, each refused at the line that passes it: 512
 * streams, 256 shapes, 40 words a line, 1023 characters a line, includes
 * nested 4 deep (a file that includes itself). */
TEST(limits_are_refused_at_the_line_that_passes_them)
{
	static char text[128 * 1024];
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("e5-2699v3-2s", NULL, &sim) == 0);
	size_t used = 0, first_512 = 0;
	for (int i = 0; i < 513; i++) { /* at most 64 on one event */
		first_512 = used;
		used += (size_t)snprintf(text + used, sizeof(text) - used, "stream cbo ev=%d inc=1\n",
					 i % 250);
	}
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, text, "test"), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "test:513: more than 512 streams");
	/* 512 load. */
	text[first_512] = '\0';
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, text, "test"), 0);

	used = 0;
	for (int i = 0; i < 257; i++) /* a shape per event: 256 of the CBo's, one of the HA's */
		used += (size_t)snprintf(text + used, sizeof(text) - used, "shape %s ev=%d\n",
					 i < 256 ? "cbo" : "ha", i & 0xff);
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, text, "test"), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "test:257: more than 256 shapes");

	used = (size_t)snprintf(text, sizeof(text), "stream cbo ev=1");
	for (int i = 0; i < 40; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, " inc=1");
	snprintf(text + used, sizeof(text) - used, "\n");
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, text, "test"), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "too many words on one line");

	memset(text, ' ', 1100);
	snprintf(text + 1100, sizeof(text) - 1100, "clock virtual\n");
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, text, "test"), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "test:1: line longer than 1023 characters");

	const char *dir = test_mkdtemp("scn-limits");
	REQUIRE(dir);
	CHECK_EQ_INT(test_put(dir, "self.scn", "clock virtual\ninclude self.scn\n"), 0);
	char path[600];
	snprintf(path, sizeof(path), "%s/self.scn", dir);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, path), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "includes nested too deeply at \"self.scn\"");
	test_rmtree(dir);
	uncore_error_clear();
	uncore_sim_destroy(sim);
}

/* Box filters exist on Haswell-EP models only: a shape elsewhere is
 * refused naming the model. */
TEST(shape_needs_a_haswell_ep_model)
{
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("x5570-2s", NULL, &sim) == 0);
	CHECK(uncore_sim_load_scenario_text(sim, "shape cbo ev=1\n", "test") < 0);
	CHECK_CONTAINS(uncore_error_detail(), "only Haswell-EP models have box filters");
	uncore_sim_destroy(sim);
}

int main(void)
{
	RUN(bad_lines_are_refused_with_the_reason);
	RUN(shape_needs_a_haswell_ep_model);
	RUN(flat_models_refuse_with_the_reason);
	RUN(limits_are_refused_at_the_line_that_passes_them);
	return harness_done();
}
