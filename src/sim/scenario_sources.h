/* The scenario library (src/sim/scenarios/, every .scn file) compiled into the
 * library, so a scenario is found by name with no file at run time
 * (PAPI_INTEL_UNCORE_SIM_SCENARIO=stream): the generated
 * build/gen/sim/scenario_data.c (scripts/embed-metrics.py) defines this
 * table, terminated by an entry with file == NULL. */
#ifndef UNCORE_SIM_SCENARIO_SOURCES_H
#define UNCORE_SIM_SCENARIO_SOURCES_H

struct uncore_sim_scenario_source {
	const char *file; /* "stream.scn" */
	const char *text; /* the whole file */
};

extern const struct uncore_sim_scenario_source uncore_sim_scenario_sources[];

#endif
