/*
 * papi-uncore: Haswell-EP QPI link-layer PMUs (hswep_unc_qpi0..1) for libpfm4,
 * replacing libpfm4's file of the same name.  Adds the packet match/mask
 * facility (HSX PMON 2.9.2.3, Tables 2-172..2-176, 2.12): CTO_COUNT's unit
 * masks carry a 64-bit MATCH1:MATCH0 value in ufilters[0] and a 64-bit
 * MASK1:MASK0 value in ufilters[1], emitted as codes[1] and codes[2] (perf:
 * config1 and config2, which Linux writes to the port's Rx match/mask).
 */
#include <sys/types.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>

#include "pfmlib_priv.h"
#include "pfmlib_intel_x86_priv.h"
#include "pfmlib_intel_snbep_unc_priv.h"
#include "events/intel_hswep_unc_qpi_events.h"

/*
 * libpfm4's common encoder reads ufilters[] as 32-bit set/clear masks, which
 * cannot hold MATCH1/MASK1 (Response Data State, Table 2-172); so after it
 * has chosen the unit masks (including defaults) we take the 64-bit values
 * from the chosen ones.  Only one match selection can be chosen (NCOMBO).
 */
static int hsx_qpi_encode(void *this, pfmlib_event_desc_t *e)
{
	const intel_x86_entry_t *pe = this_pe(this);
	uint64_t match = 0, mask = 0;
	int k, ret;

	ret = pfm_intel_snbep_unc_get_encoding(this, e);
	if (ret != PFM_SUCCESS)
		return ret;
	for (k = 0; k < e->nattrs; k++) {
		pfmlib_event_attr_info_t *a = attr(e, k);

		if (a->ctrl != PFM_ATTR_CTRL_PMU || a->type != PFM_ATTR_UMASK)
			continue;
		match |= pe[e->event].umasks[a->idx].ufilters[0];
		mask |= pe[e->event].umasks[a->idx].ufilters[1];
	}
	e->count = 1;
	if (match || mask) {
		e->codes[e->count++] = match;
		e->codes[e->count++] = mask;
	}
	return PFM_SUCCESS;
}

/* Verbose output (LIBPFM_VERBOSE): the register values, undecoded. */
static void hsx_qpi_display(void *this, pfmlib_event_desc_t *e, void *val)
{
	const intel_x86_entry_t *pe = this_pe(this);

	__pfm_vbprintf("[QPI_CTL=0x%" PRIx64 " RX_MATCH1:0=0x%" PRIx64 " RX_MASK1:0=0x%" PRIx64
		       "] %s\n",
		       *(uint64_t *)val, e->count > 1 ? e->codes[1] : 0,
		       e->count > 2 ? e->codes[2] : 0, pe[e->event].name);
}

#define HSX_QPI(n)                                                                                 \
	pfmlib_pmu_t intel_hswep_unc_qpi##n##_support = {                                          \
	    .desc = "Intel Haswell-EP QPI" #n " uncore",                                           \
	    .name = "hswep_unc_qpi" #n,                                                            \
	    .perf_name = "uncore_qpi_" #n,                                                         \
	    .pmu = PFM_PMU_INTEL_HSWEP_UNC_QPI##n,                                                 \
	    .pme_count = LIBPFM_ARRAY_SIZE(intel_hswep_unc_q_pe),                                  \
	    .type = PFM_PMU_TYPE_UNCORE,                                                           \
	    .num_cntrs = 4,                                                                        \
	    .num_fixed_cntrs = 0,                                                                  \
	    .max_encoding = 3, /* CTL, MATCH, MASK */                                              \
	    .pe = intel_hswep_unc_q_pe,                                                            \
	    .atdesc = snbep_unc_mods,                                                              \
	    .flags = PFMLIB_PMU_FL_RAW_UMASK,                                                      \
	    .pmu_detect = pfm_intel_hswep_unc_detect,                                              \
	    .get_event_encoding[PFM_OS_NONE] = hsx_qpi_encode,                                     \
	    PFMLIB_ENCODE_PERF(pfm_intel_snbep_unc_get_perf_encoding),                             \
	    PFMLIB_OS_DETECT(pfm_intel_x86_perf_detect),                                           \
	    .get_event_first = pfm_intel_x86_get_event_first,                                      \
	    .get_event_next = pfm_intel_x86_get_event_next,                                        \
	    .event_is_valid = pfm_intel_x86_event_is_valid,                                        \
	    .validate_table = pfm_intel_x86_validate_table,                                        \
	    .get_event_info = pfm_intel_x86_get_event_info,                                        \
	    .get_event_attr_info = pfm_intel_x86_get_event_attr_info,                              \
	    PFMLIB_VALID_PERF_PATTRS(pfm_intel_snbep_unc_perf_validate_pattrs),                    \
	    .get_event_nattrs = pfm_intel_x86_get_event_nattrs,                                    \
	    .can_auto_encode = pfm_intel_snbep_unc_can_auto_encode,                                \
	    .display_reg = hsx_qpi_display,                                                        \
	}

HSX_QPI(0);
HSX_QPI(1);
