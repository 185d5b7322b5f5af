/* The selection of a simulated machine for the PAPI component and the
 * tools: from the user's options (PAPI_INTEL_UNCORE_SIM, _SIM_SCENARIO: a
 * file, a built-in name, or none; _SIM_USER; _SIM_LOG), a machine made or
 * opened and handed over as its register access (sim_regio.c); and the
 * platform of a machine named by model or file. */
#include "sim/sim_internal.h"

#include <string.h>
#include <unistd.h>

#include "common/uncore_error.h"

int uncore_sim_regio_open(const struct uncore_sim_options *o, struct uncore_regio **out)
{
	uncore_error_clear();
	const char *spec = o->machine;
	if (!spec || !spec[0])
		spec = UNCORE_SIM_DEFAULT_MACHINE;
	struct uncore_sim *sim;
	int shared = strchr(spec, '/') || access(spec, F_OK) == 0;
	int rc = shared ? uncore_sim_open(spec, &sim) : uncore_sim_create(spec, NULL, &sim);
	if (rc)
		return rc;
	const char *scenario = o->scenario;
	if (!shared) {
		/* Nobody advances a private machine's time: it follows the wall
		 * clock (unless the scenario says "clock virtual"), and without a
		 * scenario it runs the demo's, so a PAPI program always sees
		 * counts; uncore_sim_describe says it was the default. */
		rc = uncore_sim_set_clock(sim, UNCORE_SIM_CLOCK_WALL);
		if (rc == 0 && !(scenario && scenario[0])) {
			scenario = sim->model->info.default_scenario
				       ? sim->model->info.default_scenario
				       : UNCORE_SIM_DEFAULT_SCENARIO;
			sim->scenario_by_default = 1;
		}
	}
	if (rc == 0 && scenario && scenario[0] && strcmp(scenario, "none") != 0)
		rc = uncore_sim_load_scenario(sim, scenario);
	if (rc) {
		uncore_sim_close(sim);
		return rc;
	}
	const char *user = o->user;
	if (user && user[0] && strcmp(user, "root") != 0) {
		if (strcmp(user, "msr-safe") != 0) {
			uncore_sim_close(sim);
			return uncore_fail(UNCORE_EINVAL, "%s=%s: use root or msr-safe",
					   UNCORE_SIM_ENV_USER, user);
		}
		sim->user = UNCORE_SIM_USER_MSR_SAFE;
	}
	const char *log = o->log;
	if (log && log[0] && (rc = uncore_sim_set_log(sim, log)) != 0) {
		uncore_sim_close(sim);
		return rc;
	}
	sim->regio_closes = uncore_sim_close;
	*out = &sim->io;
	return 0;
}

const char *uncore_sim_platform_of(const char *spec)
{
	const struct uncore_sim_model_info *m;
	if (!spec || !spec[0])
		spec = UNCORE_SIM_DEFAULT_MACHINE;
	if ((m = uncore_sim_model_by_name(spec)) != NULL)
		return m->platform;
	struct uncore_sim *sim;
	struct uncore_sim_topology t;
	const char *platform = NULL;
	if (uncore_sim_open(spec, &sim) != 0) {
		uncore_error_clear();
		return NULL;
	}
	if (uncore_sim_topology(sim, &t) == 0 && (m = uncore_sim_model_by_name(t.model)) != NULL)
		platform = m->platform;
	uncore_sim_close(sim);
	return platform;
}
