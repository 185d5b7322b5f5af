/* --sim: select the uncore simulator for PAPI's component (and for the
 * library calls of --explain) through the environment the component reads
 * at PAPI_library_init, and find scenarios by name. */
#ifndef UNCORE_STAT_SIM_H
#define UNCORE_STAT_SIM_H

#include <stddef.h>

#include "stat_opts.h"

#define STAT_DEFAULT_SCENARIO "demo-stream"

/* Set PAPI_INTEL_UNCORE_BACKEND=sim, PAPI_INTEL_UNCORE_SIM (--sim-model) and
 * PAPI_INTEL_UNCORE_SIM_SCENARIO: --sim-scenario, else a scenario already in
 * the environment, else the default - except on a shared instance (a
 * --sim-model path), which keeps the scenario it has.  0, or -1 with the
 * reason in err. */
int stat_sim_setup(const struct stat_opts *o, char *err, size_t len);

/* The file of scenario `arg`: a path as given, else `arg`(.scn) in the
 * first of: $UNCORE_STAT_SCENARIO_DIR, <bin>/../share/papi-uncore/scenarios
 * (staged or installed), <bin>/../../src/sim/scenarios (the build tree).
 * 0, or -1 with the places searched in err. */
int stat_find_scenario(const char *arg, char *path, size_t len, char *err, size_t errlen);

/* Seconds on the simulated clock of the shared instance named by
 * PAPI_INTEL_UNCORE_SIM (a path): 0, or -1 when there is none (a private
 * machine inside PAPI's component, whose scenario clock - wall or standing
 * still - is not visible from here). */
int stat_sim_time(double *seconds);
void stat_sim_close(void);

#endif
