/* An event set on a fresh simulated machine, in virtual time: the set is
 * timed with the simulator's clock and its model's TSC, as the PAPI
 * component does on the simulator, so metric values are exact.  Counted
 * by the direct backend, or by the perf backend behind the simulated
 * kernel (simkernel/uncore_sim_perf.h). */
#ifndef UNCORE_TEST_SIM_SET_H
#define UNCORE_TEST_SIM_SET_H

#include <stdint.h>

#include "eventset/eventset.h"
#include "sim/uncore_sim.h"

struct uncore_sim_perf;

#define NS_PER_S 1000000000ull

struct sim_set {
	struct uncore_sim *sim;
	struct uncore_backend *be;
	struct uncore_set *set;
	struct uncore_sim_topology topo;
	struct uncore_sim_perf *kernel; /* sim_set_open_perf: owned by be */
	char root[256];                 /* its sysfs tree, removed at close */
};

/* Model `model` with scenario src/sim/scenarios/<scenario> (NULL: none)
 * or, when scenario_text is not NULL, that text (its includes resolved in
 * src/sim/scenarios).  0, or the error (printed). */
int sim_set_open(struct sim_set *e, const char *model, const char *scenario,
		 const char *scenario_text);
/* The same machine counted by the perf backend through a simulated kernel
 * (Haswell-EP tables plus the kernel's own PMUs). */
int sim_set_open_perf(struct sim_set *e, const char *model, const char *scenario,
		      const char *scenario_text);
void sim_set_close(struct sim_set *e);

/* Assign, printing the detail on error. */
int sim_set_assign(struct sim_set *e, const char *const *names, unsigned n);

/* Value i of values[] as a double, per the set's entry type. */
double sim_set_value(const struct sim_set *e, const uint64_t *values, unsigned i);

/* Directory of the scenario library (src/sim/scenarios). */
const char *sim_set_scenario_dir(void);

#endif
