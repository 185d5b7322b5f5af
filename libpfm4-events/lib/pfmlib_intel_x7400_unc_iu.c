/*
 * pfmlib_intel_x7400_unc_iu.c: libpfm4 PMUs for the L3 / caching bus controller
 * EMON facility of the Xeon 7400 (x7400_unc_gbsq, _gsnpq, _fsb) and the Dual-Core
 * Xeon 7100 (x7100_unc_*), SDM Vol. 3B 18.21.  Events are attribute matches on
 * the event control field (MSR bits 63:32).  Tables:
 * events/intel_x7400_unc_iu_events.h.  Part of papi-uncore.
 */
#include <sys/types.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>

#include "pfmlib_priv.h"
#include "pfmlib_intel_x86_priv.h"
#include "pfmlib_intel_unc_iu_priv.h"

#include "events/intel_x7400_unc_iu_events.h"

/* Xeon 7400: DisplayFamily_DisplayModel 06_1DH (SDM 18.21) */
static const int x7400_unc_iu_models[] = {
	0x1d,
	0
};

/* Xeon 7100: family 0FH, model 06H (SDM 18.21) */
static const int x7100_unc_iu_models[] = {
	0x06,
	0
};

static void
iu_cpuid(unsigned int leaf, unsigned int sub, unsigned int *a, unsigned int *b,
	 unsigned int *c, unsigned int *d)
{
#if defined(__i386__) || defined(__x86_64__)
	__asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "0"(leaf), "2"(sub));
#else
	*a = *b = *c = *d = 0;
#endif
}

/*
 * Family 0FH model 06H also covers NetBurst parts without an L3 (and without
 * this facility).  SDM Vol. 3C 35.18.1: find the third-level cache with the
 * deterministic cache parameter leaf (CPUID leaf 4).
 */
static int
pfm_iu_x7100_detect(void *this)
{
	unsigned int a, b, c, d, max, sub;
	int ret;

	ret = pfm_intel_x86_model_detect(this);
	if (ret != PFM_SUCCESS)
		return ret;
	iu_cpuid(0, 0, &max, &b, &c, &d);
	if (max < 4)
		return PFM_ERR_NOTSUPP;
	for (sub = 0; sub < 16; sub++) {
		iu_cpuid(4, sub, &a, &b, &c, &d);
		if ((a & 0x1f) == 0)		/* cache type 0: no more caches */
			break;
		if (((a >> 5) & 0x7) == 3)	/* cache level 3 */
			return PFM_SUCCESS;
	}
	return PFM_ERR_NOTSUPP;
}

/* codes[0] = the whole MSR value: control field in bits 63:32, count field 0 */
static int
pfm_iu_x7400_get_encoding(void *this, pfmlib_event_desc_t *e)
{
	const intel_x86_entry_t *ent = (const intel_x86_entry_t *)this_pe(this) + e->event;
	const uint64_t no_mods[4] = { 0 };
	iu_umask_sel_t sel;
	uint64_t ctl;
	int ret;

	ret = pfm_iu_select_umasks(this, e, &sel);
	if (ret != PFM_SUCCESS)
		return ret;
	ctl = (uint64_t)ent->code | sel.ucode;
	if (ctl >> 32)
		return PFM_ERR_INVAL;	/* a table value outside the control field */
	e->codes[0] = ctl << IU_X7400_CTL_SHIFT;
	e->count = 1;
	pfm_iu_build_fstr(this, e, no_mods);
	__pfm_vbprintf("[EMON_L3_CTR_CTL=0x%"PRIx64"] %s\n", e->codes[0], e->fstr);
	return PFM_SUCCESS;
}

/* no Linux perf PMU serves these processors' L3 counters: no perf encoding */
#define IU_X7X00_PMU(sym, pmuname, id, descr, table, ncnt, family, models, detect) \
pfmlib_pmu_t sym = IU_UNC_PMU(descr, pmuname, id, table, ncnt, 0, 1, iu_unc_nhm_mods, family, \
			      models, detect, pfm_iu_x7400_get_encoding, IU_UNC_NO_PERF)

/* GBSQ: MSR_EMON_L3_CTR_CTL0/1; GSNPQ: CTL2/3; FSB: CTL4-7 (SDM 18.21.1) */
IU_X7X00_PMU(intel_x7400_unc_iu_gbsq_support, "x7400_unc_gbsq", PFM_PMU_INTEL_X7400_UNC_IU_GBSQ,
	     "Intel Xeon 7400 L3 GBSQ", intel_x7400_unc_iu_gbsq_pe, 2,
	     6, x7400_unc_iu_models, pfm_intel_x86_model_detect);
IU_X7X00_PMU(intel_x7400_unc_iu_gsnpq_support, "x7400_unc_gsnpq", PFM_PMU_INTEL_X7400_UNC_IU_GSNPQ,
	     "Intel Xeon 7400 L3 GSNPQ", intel_x7400_unc_iu_gsnpq_pe, 2,
	     6, x7400_unc_iu_models, pfm_intel_x86_model_detect);
IU_X7X00_PMU(intel_x7400_unc_iu_fsb_support, "x7400_unc_fsb", PFM_PMU_INTEL_X7400_UNC_IU_FSB,
	     "Intel Xeon 7400 FSB (caching bus controller)", intel_x7x00_unc_iu_fsb_pe, 4,
	     6, x7400_unc_iu_models, pfm_intel_x86_model_detect);
IU_X7X00_PMU(intel_x7100_unc_iu_gbsq_support, "x7100_unc_gbsq", PFM_PMU_INTEL_X7100_UNC_IU_GBSQ,
	     "Intel Xeon 7100 L3 GBSQ", intel_x7100_unc_iu_gbsq_pe, 2,
	     15, x7100_unc_iu_models, pfm_iu_x7100_detect);
IU_X7X00_PMU(intel_x7100_unc_iu_gsnpq_support, "x7100_unc_gsnpq", PFM_PMU_INTEL_X7100_UNC_IU_GSNPQ,
	     "Intel Xeon 7100 L3 GSNPQ", intel_x7100_unc_iu_gsnpq_pe, 2,
	     15, x7100_unc_iu_models, pfm_iu_x7100_detect);
IU_X7X00_PMU(intel_x7100_unc_iu_fsb_support, "x7100_unc_fsb", PFM_PMU_INTEL_X7100_UNC_IU_FSB,
	     "Intel Xeon 7100 FSB (caching bus controller)", intel_x7x00_unc_iu_fsb_pe, 4,
	     15, x7100_unc_iu_models, pfm_iu_x7100_detect);
