/* Smoke test while developing. */
#include "sim_test.h"

TEST(smoke)
{
	struct uncore_sim *sim;
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", NULL, &sim), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim,
		"stream cbo[0] ev=0x37 umask=0x01 ratio=1/4\n"
		"stream cbo[0] ev=0x00 inc=1\n", "t"), 0);
	printf("%s\n", uncore_error_detail());
	WR(io, msr_reg(0, 0xe00), 0x30103);
	WR(io, msr_reg(0, 0xe03), 0x400137);
	WR(io, msr_reg(0, 0xe01), 0x400000);
	WR(io, msr_reg(0, 0xe00), 0x30000);
	CHECK_EQ_INT(uncore_sim_advance(sim, 1000), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe0a)), 625);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 2500);
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(smoke);
	return harness_done();
}
