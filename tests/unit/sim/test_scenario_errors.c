/* The scenario language's bad input (src/sim/SCENARIOS.md): each bad line
 * is refused with UNCORE_ESYNTAX and a detail that says what is wrong,
 * the machine keeps its previous scenario; good lines next to them load.
 * A golden table: the text, then what the detail must contain ("" for a
 * line that loads). */
#include "common/uncore_error.h"
#include "harness.h"
#include "sim/uncore_sim.h"

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
    /* lines that load: each branch of the good syntax */
    {"clock virtual\n", ""},
    {"clock wall x10\n", ""},
    {"access_ns 0\n", ""},
    {"stream cbo[0-3] ev=0x34 umask=0x32 state=M rate=1.5k/s socket=0 start=1ms stop=2s\n", ""},
    {"stream cbo[0,2] ev=1 pattern=1,0,2\n", ""},
    {"stream imc[populated] ev=4 umask=3 ratio=1/3\n", ""},
    {"stream qpi[0] socket=0 ev=0x38 ext=1 dir=tx mc=0xe popc=0x4 rate=3M/s\n", ""},
    {"shape cbo ev=0x34 state=always\nshape cbo ev=0x34 state=always\n", ""},
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
	return harness_done();
}
