/* A shared simulated machine (a file other processes, and a component's
 * socket locks, can use) in a fresh temporary directory, for unit tests. */
#ifndef UNCORE_TEST_SHARED_SIM_H
#define UNCORE_TEST_SHARED_SIM_H

#include "sim/uncore_sim.h"

#include <stddef.h>

/* Machine of `model` created as <dir>/machine in a new directory tagged
 * `tag` (tmpdir.h): its path into `path`, the machine into *sim, and the
 * directory returned (test_rmtree it after uncore_sim_destroy); NULL on
 * failure. */
const char *test_shared_sim(const char *tag, const char *model, char *path, size_t len,
			    struct uncore_sim **sim);

#endif
