/* Stands in for perf_event_uncore_lib.c when PAPI's upstream
 * perf_event_uncore tests are pointed at intel_uncore on the simulator
 * (tests/integration/test_upstream_uncore.sh).  The upstream library picks
 * events by the host's CPUID model; the simulated machine is a Haswell-EP
 * (family 6, model 63) whatever the host is, so these give the events the
 * upstream library names for model 63. */
#include <stdio.h>

#include "perf_event_uncore_lib.h"

char *get_uncore_event(char *event, int size)
{
	snprintf(event, (size_t)size, "%s", "hswep_unc_cbo0::UNC_C_CLOCKTICKS");
	return event;
}

char *get_uncore_cbox_event(char *event_name, char *uncore_base, int size)
{
	snprintf(event_name, (size_t)size, "%s", "UNC_C_COUNTER0_OCCUPANCY");
	snprintf(uncore_base, (size_t)size, "%s", "hswep_unc_cbo");
	return event_name;
}
