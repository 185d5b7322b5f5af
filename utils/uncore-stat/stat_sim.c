/* Simulator selection for uncore-stat (see stat_sim.h). */
#include "stat_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"
#include "sim/uncore_sim.h"
#include "simkernel/shape_kernel.h"

int stat_sim_setup(const struct stat_opts *o, char *err, size_t len)
{
	char names[512];

	setenv("PAPI_INTEL_UNCORE_BACKEND", "sim", 1);
	if (o->sim_model)
		setenv("PAPI_INTEL_UNCORE_SIM", o->sim_model, 1);
	if (o->sim_kernel) {
		if (strcmp(o->sim_kernel, "perf") != 0 && strcmp(o->sim_kernel, "none") != 0 &&
		    !uncore_shape_find(o->sim_kernel)) {
			snprintf(err, len,
				 "--sim-kernel %s: use perf (Haswell-EP through a simulated "
				 "perf_event kernel), none, spr, skx, icx, gnr, emr, srf or gnr-old",
				 o->sim_kernel);
			return -1;
		}
		setenv("PAPI_INTEL_UNCORE_SIM_KERNEL", o->sim_kernel, 1);
	}
	if (!o->sim_scenario)
		return 0; /* the environment's, or the library's default */
	if (strcmp(o->sim_scenario, "none") != 0 && !uncore_sim_scenario_exists(o->sim_scenario)) {
		uncore_sim_scenario_names(names, sizeof(names));
		snprintf(err, len,
			 "scenario '%s': no such file and no built-in scenario of that name "
			 "(built-in: %s)",
			 o->sim_scenario, names);
		return -1;
	}
	setenv("PAPI_INTEL_UNCORE_SIM_SCENARIO", o->sim_scenario, 1);
	return 0;
}

static struct uncore_sim *shared;
static int shared_tried;

int stat_sim_time(double *seconds)
{
	const char *path = getenv("PAPI_INTEL_UNCORE_SIM");
	uint64_t ns;

	if (!shared_tried) {
		shared_tried = 1;
		if (path && strchr(path, '/') && uncore_sim_open(path, &shared) < 0) {
			shared = NULL;
			uncore_error_clear();
		}
	}
	if (!shared || uncore_sim_now(shared, &ns) < 0)
		return -1;
	*seconds = (double)ns * 1e-9;
	return 0;
}

void stat_sim_close(void)
{
	if (shared)
		uncore_sim_close(shared);
	shared = NULL;
	shared_tried = 0;
}
