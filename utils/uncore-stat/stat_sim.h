/* --sim: select the uncore simulator for PAPI's component (and for the
 * library calls of --explain) through the environment the component reads
 * at PAPI_library_init. */
#ifndef UNCORE_STAT_SIM_H
#define UNCORE_STAT_SIM_H

#include <stddef.h>

#include "stat_opts.h"

/* Set PAPI_INTEL_UNCORE_BACKEND=sim, PAPI_INTEL_UNCORE_SIM (--sim-model) and
 * PAPI_INTEL_UNCORE_SIM_SCENARIO (--sim-scenario: a file, a built-in name as
 * `stream`, or none; checked here so a wrong one is a usage error).  Without
 * --sim-scenario the environment's scenario, else the library's default
 * (demo-stream) on a private machine; a shared instance (a --sim-model path)
 * keeps the scenario it has.  0, or -1 with the reason in err. */
int stat_sim_setup(const struct stat_opts *o, char *err, size_t len);

/* Seconds on the simulated clock of the shared instance named by
 * PAPI_INTEL_UNCORE_SIM (a path): 0, or -1 when there is none (a private
 * machine inside PAPI's component, whose scenario clock - wall or standing
 * still - is not visible from here). */
int stat_sim_time(double *seconds);
void stat_sim_close(void);

#endif
