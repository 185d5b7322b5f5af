/* Every PMU name of the component is routed to it by PAPI without the
 * "intel_uncore:::" prefix: each box type, each libpfm4 instance name
 * (hswep_unc_imc3) and, behind the simulated kernel, each kernel PMU
 * instance (uncore_imc_0 ... uncore_r3qpi_1), although PAPI keeps only
 * PAPI_PMU_MAX names per component (papi-patches/README.md).  Names come
 * from the event tables (the same functions the component and the simulated
 * kernel use); an instance the simulated model lacks must be refused, never
 * routed elsewhere.  Usage: papi_pmu_routing table|kernel */
#include <stdio.h>
#include <string.h>

#include "events/pfm_compat.h"
#include "events/registry.h"
#include "harness.h"
#include "papi.h"

static int kernel;

/* The name must be found without a prefix, by intel_uncore; returns 1 if
 * it was. */
static int routed(const char *name, int cidx)
{
	int code = 0;
	int rc = PAPI_event_name_to_code(name, &code);
	harness_row = name;
	if (rc != PAPI_OK)
		return 0;
	CHECK_EQ_INT(PAPI_get_event_component(code), cidx);
	return 1;
}

TEST(every_pmu_name_is_routed_without_prefix)
{
	const struct uncore_event_platform *plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	int cidx = PAPI_get_component_index("intel_uncore");
	unsigned tried = 0, found = 0;
	CHECK(plat != NULL);
	if (!plat)
		return;
	for (unsigned b = 0; b < plat->nboxes; b++) {
		const struct uncore_box_type *bt = plat->boxes[b];
		if ((bt->flags & UNCORE_BOXF_KERNEL) || !bt->nevents)
			continue;
		int n = bt->ninstances > 1 ? (int)bt->ninstances : 1;
		for (int i = -1; i < n; i++) {
			char pmu[64], name[256];
			if (kernel) {
				if (i < 0 || !bt->perf_pmu ||
				    uncore_box_perf_name(bt, bt->ninstances > 1 ? i : -1, pmu,
							 sizeof(pmu)) < 0)
					continue;
				snprintf(name, sizeof(name), "%s::event=0x%x", pmu,
					 (unsigned)bt->events[0].code);
			} else {
				if (i < 0)
					snprintf(pmu, sizeof(pmu), "%s", bt->name);
				else if (bt->ninstances <= 1 ||
					 uncore_box_instance_name(bt, i, pmu, sizeof(pmu)) < 0)
					continue;
				snprintf(name, sizeof(name), "%s::%s", pmu, bt->events[0].name);
			}
			tried++;
			if (routed(name, cidx)) {
				found++;
				continue;
			}
			/* Refused: only right when the model lacks that instance,
			 * which the prefixed name must then say too. */
			char prefixed[300];
			int code;
			snprintf(prefixed, sizeof(prefixed), "intel_uncore:::%s", name);
			if (PAPI_event_name_to_code(prefixed, &code) == PAPI_OK)
				HARNESS_FAIL_AT("%s: refused without the prefix, accepted with it",
						name);
		}
	}
	printf("  %u of %u PMU names routed (the others are instances the model lacks)\n", found,
	       tried);
	CHECK(found >= 40);
}

int main(int argc, char **argv)
{
	kernel = argc > 1 && strcmp(argv[1], "kernel") == 0;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		printf("FAIL PAPI_library_init\n");
		return 1;
	}
	RUN(every_pmu_name_is_routed_without_prefix);
	PAPI_shutdown();
	return harness_done();
}
