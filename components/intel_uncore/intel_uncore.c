/* PAPI front-end of the intel_uncore component.  Thin by design: it turns
 * PAPI's component calls into calls of the papi-uncore library (src/, linked
 * in as one object, see Rules.intel_uncore) and maps the library's error
 * codes to PAPI_E*.  All decisions live in the library, where they are
 * unit-tested without PAPI. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "papi_internal.h"
#include "papi_vector.h"

#include "common/uncore_error.h"
#include "core/backend_choice.h"
#include "platform/cpu.h"

papi_vector_t _intel_uncore_vector;

/* Copy a reason into PAPI's fixed-size disabled_reason field. */
/* PAPI reads the verdict from cmp_info.disabled, set by the component. */
static int disable_component(int papi_error, const char *reason)
{
	snprintf(_intel_uncore_vector.cmp_info.disabled_reason,
		 sizeof(_intel_uncore_vector.cmp_info.disabled_reason), "%s", reason);
	_intel_uncore_vector.cmp_info.disabled = papi_error;
	return papi_error;
}

/* Does the kernel expose any uncore PMU (perf_event uncore drivers)? */
static int kernel_has_uncore_pmu(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d)) != NULL)
		found = strncmp(e->d_name, "uncore", 6) == 0;
	closedir(d);
	return found;
}

static int _intel_uncore_init_component(int cidx)
{
	struct uncore_probe_input in;
	struct uncore_probe_result result;

	memset(&in, 0, sizeof(in));
	_intel_uncore_vector.cmp_info.CmpIdx = cidx;
	in.backend_env = getenv("PAPI_INTEL_UNCORE_BACKEND");
	if (uncore_cpu_identify(&in.cpu) < 0)
		return disable_component(PAPI_ENOSUPP, uncore_error_detail());
	in.have_perf_uncore = kernel_has_uncore_pmu();
	in.have_direct_access = access("/dev/cpu/0/msr", R_OK | W_OK) == 0;
	in.direct_missing = "/dev/cpu/0/msr";
	in.have_simulator = 0;

	uncore_probe_decide(&in, &result);
	if (!result.usable)
		return disable_component(PAPI_ENOSUPP, result.reason);
	/* The backends and event sets arrive with the component issue; until
	 * then a usable platform is still reported as not yet supported. */
	return disable_component(PAPI_ENOSUPP,
				 "intel_uncore: event sets are not available in this build yet");
}

static int _intel_uncore_shutdown_component(void)
{
	return PAPI_OK;
}

papi_vector_t _intel_uncore_vector = {
	.cmp_info =
		{
			.name = "intel_uncore",
			.short_name = "intel_uncore",
			.description = "Intel uncore counters (Haswell-EP, Skylake, Nehalem, Xeon 7400), "
				       "socket- and box-aware",
			.version = "0.1.0",
			.support_version = "n/a",
			.kernel_version = "n/a",
			.default_domain = PAPI_DOM_ALL,
			.available_domains = PAPI_DOM_ALL,
			.default_granularity = PAPI_GRN_SYS,
			.available_granularities = PAPI_GRN_SYS,
		},
	.init_component = _intel_uncore_init_component,
	.shutdown_component = _intel_uncore_shutdown_component,
};
