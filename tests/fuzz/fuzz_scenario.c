/* Fuzz target: the simulator's scenario parser (src/sim/SCENARIOS.md) on a
 * machine made once; after a scenario loads, a little simulated time
 * passes so its streams run. */
#include "common/uncore_error.h"
#include "fuzz.h"
#include "sim/uncore_sim.h"

static struct uncore_sim *sim;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!sim && uncore_sim_create("e5-2699v3-2s", NULL, &sim) < 0)
		abort();
	char *s = fuzz_string(data, size);
	if (s && uncore_sim_load_scenario_text(sim, s, "fuzz.scn") == 0) {
		uncore_sim_set_clock(sim, UNCORE_SIM_CLOCK_VIRTUAL);
		uncore_sim_set_access_ns(sim, 0);
		uncore_sim_set_log(sim, NULL);
		uncore_sim_advance(sim, 1000000);
	} else if (s && !uncore_error_detail()[0]) {
		abort();
	}
	free(s);
	return 0;
}
