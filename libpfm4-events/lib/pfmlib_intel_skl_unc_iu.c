/*
 * pfmlib_intel_skl_unc_iu.c: Skylake client (6th Generation Intel Core) uncore
 * PMUs for libpfm4: skl_unc_cbo0..3, skl_unc_arb, skl_unc_clock (the fixed
 * UCLK counter) and skl_unc_imc (the five free-running IMC MMIO counters).
 * Tables: events/intel_skl_unc_iu_events.h.  Part of papi-uncore.
 */
#include <sys/types.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>

#include "pfmlib_priv.h"
#include "pfmlib_intel_x86_priv.h"
#include "pfmlib_intel_snbep_unc_priv.h"
#include "pfmlib_intel_unc_iu_priv.h"
#ifdef __linux__
#include "pfmlib_perf_event_priv.h"
#endif

#include "events/intel_skl_unc_iu_events.h"

/* DisplayModel of the Skylake client parts the manual covers (S- and mobile platforms) */
static const int skl_unc_iu_models[] = {
	0x4e,
	0x5e,
	0
};

static int
pfm_iu_skl_get_encoding(void *this, pfmlib_event_desc_t *e)
{
	return pfm_iu_evtsel_encode(this, e, IU_SKL_THR_BITS, 0);
}

/* IMC counters are free running: nothing to program, the code names the counter */
static int
pfm_iu_skl_imc_get_encoding(void *this, pfmlib_event_desc_t *e)
{
	const intel_x86_entry_t *ent = (const intel_x86_entry_t *)this_pe(this) + e->event;
	const uint64_t no_mods[4] = { 0 };
	iu_umask_sel_t sel;
	int ret;

	ret = pfm_iu_select_umasks(this, e, &sel);
	if (ret != PFM_SUCCESS)
		return ret;
	e->codes[0] = ent->code;
	e->count = 1;
	pfm_iu_build_fstr(this, e, no_mods);
	return PFM_SUCCESS;
}

#ifdef __linux__
/*
 * Linux's uncore_imc PMU names the same five counters by small event numbers
 * (arch/x86/events/intel/uncore_snb.c): data_reads=1, data_writes=2,
 * gt_requests=3, ia_requests=4, io_requests=5.
 */
static const struct {
	unsigned int offset;
	unsigned int perf_event;
} skl_imc_perf_ids[] = {
	{ 0x5050, 1 }, { 0x5054, 2 }, { 0x5040, 3 }, { 0x5044, 4 }, { 0x5048, 5 },
};

static int
pfm_iu_skl_imc_get_perf_encoding(void *this, pfmlib_event_desc_t *e)
{
	pfmlib_pmu_t *pmu = this;
	struct perf_event_attr *attr = e->os_data;
	unsigned int off;
	size_t i;
	int ret, type;

	ret = pfm_iu_skl_imc_get_encoding(this, e);
	if (ret != PFM_SUCCESS)
		return ret;
	off = IU_SKL_IMC_OFFSET(e->codes[0]);
	for (i = 0; i < sizeof(skl_imc_perf_ids) / sizeof(skl_imc_perf_ids[0]); i++)
		if (skl_imc_perf_ids[i].offset == off)
			break;
	if (i == sizeof(skl_imc_perf_ids) / sizeof(skl_imc_perf_ids[0]))
		return PFM_ERR_NOTSUPP;
	type = pfm_iu_perf_type(pmu->perf_name);
	if (type < 0)
		return type;
	attr->type = type;
	attr->config = skl_imc_perf_ids[i].perf_event;
	attr->exclude_hv = 0;
	attr->exclude_kernel = 0;
	attr->exclude_user = 0;
	return PFM_SUCCESS;
}
#endif

#define IU_SKL_UNC_PMU(sym, pmuname, perfname, id, descr, table, ncnt, nfixed, mods, enc, perfenc) \
pfmlib_pmu_t sym = IU_UNC_PMU(descr, pmuname, id, table, ncnt, nfixed, 1, mods, 6, \
			      skl_unc_iu_models, pfm_intel_x86_model_detect, enc, \
			      IU_UNC_PERF(perfname, perfenc))

/* one PMU per CBo slice (manual 2.4: up to four), each served by Linux's uncore_cbox_<n> */
#define IU_SKL_CBO(n) \
	IU_SKL_UNC_PMU(intel_skl_unc_iu_cbo##n##_support, "skl_unc_cbo" #n, "uncore_cbox_" #n, \
		       PFM_PMU_INTEL_SKL_UNC_IU_CBO##n, "Intel Skylake client C-Box " #n " uncore", \
		       intel_skl_unc_iu_cbo_pe, 2, 0, iu_unc_skl_mods, \
		       pfm_iu_skl_get_encoding, pfm_iu_evtsel_get_perf_encoding)

IU_SKL_CBO(0);
IU_SKL_CBO(1);
IU_SKL_CBO(2);
IU_SKL_CBO(3);

IU_SKL_UNC_PMU(intel_skl_unc_iu_arb_support, "skl_unc_arb", "uncore_arb",
	       PFM_PMU_INTEL_SKL_UNC_IU_ARB, "Intel Skylake client ARB uncore",
	       intel_skl_unc_iu_arb_pe, 2, 0, iu_unc_skl_mods,
	       pfm_iu_skl_get_encoding, pfm_iu_evtsel_get_perf_encoding);

/* Linux gives the fixed UCLK counter of client parts to uncore_cbox_0 (event 0xff) */
IU_SKL_UNC_PMU(intel_skl_unc_iu_clock_support, "skl_unc_clock", "uncore_cbox_0",
	       PFM_PMU_INTEL_SKL_UNC_IU_CLOCK, "Intel Skylake client fixed UCLK counter",
	       intel_skl_unc_iu_clock_pe, 0, 1, iu_unc_skl_mods,
	       pfm_iu_skl_get_encoding, pfm_iu_evtsel_get_perf_encoding);

IU_SKL_UNC_PMU(intel_skl_unc_iu_imc_support, "skl_unc_imc", "uncore_imc",
	       PFM_PMU_INTEL_SKL_UNC_IU_IMC, "Intel Skylake client IMC free-running counters",
	       intel_skl_unc_iu_imc_pe, 0, 5, iu_unc_skl_mods,
	       pfm_iu_skl_imc_get_encoding, pfm_iu_skl_imc_get_perf_encoding);
