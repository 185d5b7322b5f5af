/* PAPI's high-level API with uncore presets and a metric's integer form
 * in PAPI_EVENTS, on the simulator: one region over 20 ms of simulated
 * time; the JSON it writes is checked by tests/integration/test_hl_json.sh.
 * Usage: papi_hl_json OUTPUT_DIRECTORY [PAPI_EVENTS] (the second: other
 * events than the ones above, test_event_spellings.sh) */
#include <stdio.h>
#include <stdlib.h>

#include "itest.h"
#include "papi.h"

#define MS 1000000ull /* ns */

int main(int argc, char **argv)
{
	struct itest_sim sim;
	if (argc < 2) {
		printf("FAIL usage: papi_hl_json OUTPUT_DIRECTORY\n");
		return 2;
	}
	/* The high-level API reads these when it starts (first region). */
	setenv("PAPI_EVENTS",
	       argc > 2 ? argv[2]
			: "PAPI_UNC_DRAM_RD_BYTES,hswep_unc_imc::UNC_M_CAS_COUNT:RD,"
			  "hswep_unc_imc::UNC_M_CAS_COUNT:WR,hswep_metric::DRAM_BW:int=instant,"
			  "hswep_metric::DRAM_BW:socket1:int=instant",
	       1);
	setenv("PAPI_OUTPUT_DIRECTORY", argv[1], 1);
	if (itest_sim_create("e5-2699v3-2s", &sim) != 0 || itest_load(&sim, "boxes.scn") != 0) {
		printf("FAIL setup\n");
		itest_sim_destroy(&sim);
		return 1;
	}
	int rc = PAPI_hl_region_begin("uncore");
	if (rc == PAPI_OK)
		rc = uncore_sim_advance(sim.sim, 20 * MS) == 0 ? PAPI_OK : PAPI_ESYS;
	if (rc == PAPI_OK)
		rc = PAPI_hl_region_end("uncore");
	if (rc == PAPI_OK)
		rc = PAPI_hl_stop();
	printf("%s high-level region over 20 ms of simulated time (%s)\n",
	       rc == PAPI_OK ? "PASS" : "FAIL", PAPI_strerror(rc));
	itest_sim_destroy(&sim);
	return rc == PAPI_OK ? 0 : 1;
}
