/* The simulator's and the simulated kernel's refusals, each with its
 * reason (a test driving them wrongly must be told, never get a machine
 * that silently does something else): bad clock modes and rates, a time
 * step past 64 bits, log paths that cannot be used, too many fault rules,
 * instance files that are not instances, scenario files that cannot be
 * read, multiplexing shares that are not num/den, PMUs that do not exist. */
#include "common/uncore_error.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "simkernel/uncore_sim_perf.h"
#include "support/tmpdir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

TEST(machine_refusals)
{
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("e5-2699v3-2s", NULL, &sim) == 0);
	CHECK_EQ_INT(uncore_sim_set_clock(sim, (enum uncore_sim_clock_mode)7), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "unknown clock mode 7");
	CHECK_EQ_INT(uncore_sim_set_clock_rate(sim, UNCORE_SIM_CLOCK_WALL, 0), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "wall clock rate 0");
	CHECK_EQ_INT(uncore_sim_set_clock_rate(sim, UNCORE_SIM_CLOCK_WALL, 10), 0);
	CHECK_EQ_INT(uncore_sim_set_clock(sim, UNCORE_SIM_CLOCK_VIRTUAL), 0);
	uint64_t before = 0, now = 0;
	CHECK_EQ_INT(uncore_sim_now(sim, &before), 0);
	CHECK_EQ_INT(uncore_sim_advance(sim, UINT64_MAX), UNCORE_ERANGE);
	CHECK_CONTAINS(uncore_error_detail(), "cannot advance by");
	CHECK_EQ_INT(uncore_sim_now(sim, &now), 0);
	CHECK_EQ_U64(now, before); /* the refused step moved nothing */

	/* The log: a path too long, a directory that does not exist, then a
	 * good one, read back, and off again. */
	char longpath[5000], buf[600];
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	CHECK_EQ_INT(uncore_sim_set_log(sim, longpath), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "log path too long");
	CHECK(uncore_sim_set_log(sim, "/nonexistent-dir/sim.log") < 0);
	CHECK_CONTAINS(uncore_error_detail(), "cannot open log /nonexistent-dir/sim.log");
	const char *dir = test_mkdtemp("sim-api");
	REQUIRE(dir);
	char logp[600];
	snprintf(logp, sizeof(logp), "%s/sim.log", dir);
	CHECK_EQ_INT(uncore_sim_set_log(sim, logp), 0);
	CHECK_EQ_INT(uncore_sim_log_path(sim, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, logp);
	CHECK_EQ_INT(uncore_sim_log_path(sim, buf, 4), UNCORE_ENOSPACE);
	CHECK_EQ_INT(uncore_sim_set_log(sim, NULL), 0);
	CHECK_EQ_INT(uncore_sim_log_path(sim, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "");

	/* Fault rules: a bounded table. */
	struct uncore_sim_fault f = {.space = UNCORE_SPACE_MSR,
				     .op = UNCORE_SIM_OP_READ,
				     .socket = -1,
				     .bdf = -1,
				     .addr = 0x12345,
				     .nth = 1000000,
				     .count = 1,
				     .error = EIO};
	int rc = 0, added = 0;
	for (int i = 0; i < 1000 && rc == 0; i++)
		if ((rc = uncore_sim_inject_fault(sim, &f)) == 0)
			added++;
	CHECK_EQ_INT(rc, UNCORE_ENOSPACE);
	CHECK_CONTAINS(uncore_error_detail(), "fault rules");
	CHECK(added > 0);
	CHECK_EQ_INT(uncore_sim_clear_faults(sim), 0);
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
	CHECK_EQ_INT(uncore_sim_clear_faults(sim), 0);

	/* Scenario files: one that cannot be read; the names it knows. */
	char missing[700];
	snprintf(missing, sizeof(missing), "%s/none.scn", dir);
	CHECK(uncore_sim_load_scenario(sim, missing) < 0);
	CHECK_CONTAINS(uncore_error_detail(), "cannot read scenario");
	CHECK_EQ_INT(uncore_sim_scenario_exists(missing), 0);
	CHECK_EQ_INT(uncore_sim_scenario_exists("llc"), 1);
	CHECK_EQ_INT(uncore_sim_scenario_exists(logp), 1); /* a readable file */
	uncore_sim_destroy(sim);

	/* Instance files: a path too long, a file that is not an instance. */
	CHECK(uncore_sim_create("e5-2699v3-2s", longpath, &sim) < 0);
	CHECK_CONTAINS(uncore_error_detail(), "instance path too long");
	CHECK(uncore_sim_open(logp, &sim) < 0);
	CHECK_CONTAINS(uncore_error_detail(), "is not a simulator instance");
	CHECK(uncore_sim_open(missing, &sim) < 0);
	test_rmtree(dir);
}

TEST(simulated_kernel_refusals)
{
	const char *dir = test_mkdtemp("simk-api");
	REQUIRE(dir);
	struct uncore_sim_options o = {.machine = "e5-2699v3-2s", .scenario = "none"};
	struct uncore_sim_perf *k = NULL;
	/* PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE that is not pmu=num/den. */
	CHECK_EQ_INT(uncore_sim_perf_open(&o, dir, "uncore_imc_0", &k), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "is not pmu=num/den");
	CHECK(uncore_sim_perf_open(&o, dir, "uncore_nothing=1/2", &k) < 0);
	CHECK_CONTAINS(uncore_error_detail(), "no simulated PMU uncore_nothing");
	CHECK(uncore_sim_perf_open(&o, dir, "uncore_imc_0=3/2", &k) < 0);
	CHECK_CONTAINS(uncore_error_detail(), "need 0 < num <= den");
	/* A good one, then the per-PMU queries of a PMU that does not exist. */
	CHECK_EQ_INT(uncore_sim_perf_open(&o, dir, "uncore_imc_0=1/2,uncore_imc_1=1/4", &k), 0);
	if (k) {
		uint64_t cfg[3];
		int cpu;
		CHECK_EQ_INT(uncore_sim_perf_last_config(k, "uncore_nothing", cfg), UNCORE_ENODEV);
		CHECK_EQ_INT(uncore_sim_perf_last_cpu(k, "uncore_nothing", &cpu), UNCORE_ENODEV);
		CHECK_EQ_INT(uncore_sim_perf_fail(k, UNCORE_SIM_PERF_OPS, 1, EIO), UNCORE_EINVAL);
		CHECK_CONTAINS(uncore_error_detail(), "bad fault");
		uncore_sim_perf_destroy(k);
	}
	test_rmtree(dir);
}

int main(void)
{
	RUN(machine_refusals);
	RUN(simulated_kernel_refusals);
	return harness_done();
}
