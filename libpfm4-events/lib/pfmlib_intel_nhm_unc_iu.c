/*
 * pfmlib_intel_nhm_unc_iu.c: libpfm4 PMU "nhm_unc_guide", the Nehalem (Core i7,
 * Xeon 5500) uncore with the events of Intel's Performance Analysis Guide,
 * including the ones upstream's nhm_unc lacks (GQ tracker occupancy, snoop
 * state changes with MSR 301h, address/opcode match with MSR 396h).
 * Table: events/intel_nhm_unc_iu_events.h.  And its cousins, the same
 * uncore PMU (SDM Vol. 3B 18.8.2) with their own events, one PMU each from
 * the generated list events/intel_nhm_cousins.h: "wsm_unc_sdm", Westmere's
 * (Core i7 / Xeon 5600) with the events of SDM Vol. 3B Table 19-20.
 * Part of papi-uncore.
 */
#include <sys/types.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>

#include "pfmlib_priv.h"
#include "pfmlib_intel_x86_priv.h"
#include "pfmlib_intel_snbep_unc_priv.h"
#include "pfmlib_intel_unc_iu_priv.h"

#include "events/intel_nhm_unc_iu_events.h"
#include "events/intel_nhm_cousins.h"

/*
 * Core i7 / Xeon 5500 (Nehalem-EP, Bloomfield) and the Lynnfield/Clarksfield
 * parts share this uncore.  Model 0x2E (Nehalem-EX, Xeon 7500) is left out on
 * purpose: its uncore is a different design (boxes of the Xeon 7500 uncore
 * programming guide), not the GQ/QHL/QMC uncore of the guide.
 */
static const int nhm_unc_iu_models[] = {
	0x1a,
	0x1e,
	0x1f,
	0
};

/* SDM Vol. 3B 18.8.2.2: CMASK is 8 bits; OCC_CTR_RST (bit 17) exists here */
static int
pfm_iu_nhm_get_encoding(void *this, pfmlib_event_desc_t *e)
{
	return pfm_iu_evtsel_encode(this, e, IU_NHM_CMASK_BITS, 1);
}

/* Nehalem's PMU with a generation's name, id, events and models. */
#define NHM_UNC_IU_PMU(pmu_desc, pmu_name, pmu_id, table, models)		\
	IU_UNC_PMU(pmu_desc, pmu_name, pmu_id, table, 8, 1,			\
		   2 /* event select + MSR 301h or 396h */, iu_unc_nhm_mods, 6,	\
		   models, pfm_intel_x86_model_detect, pfm_iu_nhm_get_encoding,	\
		   IU_UNC_PERF("uncore", pfm_iu_evtsel_get_perf_encoding))

pfmlib_pmu_t intel_nhm_unc_iu_support =
	NHM_UNC_IU_PMU("Intel Nehalem uncore (Performance Analysis Guide events)",
		       "nhm_unc_guide", PFM_PMU_INTEL_NHM_UNC_IU, intel_nhm_unc_iu_pe,
		       nhm_unc_iu_models);

/* The cousins (events/intel_nhm_cousins.h): Westmere, SDM Table 19-20:
 * 06_25H, 06_2CH (06_1FH is Nehalem's above; 06_2FH, Westmere-EX, has
 * another uncore).  intel_<gen>_unc_iu_support, PFM_PMU_INTEL_<GEN>_UNC_IU
 * (registered by patches/20-register-client-pmus.patch). */
#define NHM_MODEL_LIST(...) __VA_ARGS__
#define NHM_COUSIN_PMU(gen, GEN, box, table, models, manual, desc, pmu_desc)	\
	static const int gen##_unc_iu_models[] = {NHM_MODEL_LIST models, 0};	\
	pfmlib_pmu_t intel_##gen##_unc_iu_support =				\
		NHM_UNC_IU_PMU(pmu_desc, box, PFM_PMU_INTEL_##GEN##_UNC_IU, table,	\
			       gen##_unc_iu_models);

NHM_COUSINS(NHM_COUSIN_PMU)
