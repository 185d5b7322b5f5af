/*
 * papi-uncore: Haswell-EP Home Agent PMUs (hswep_unc_ha0..1) for libpfm4,
 * replacing libpfm4's file of the same name.  Encoding: CTL, then
 * HAn_PCI_PMON_BOX_OPCODEMATCH, then ADDRMATCH1:ADDRMATCH0 (HSX PMON Tables
 * 2-65..2-67); ADDR_OPC_MATCH always carries the opcode word so the address
 * is always the third (INTEL_X86_FORCE_FILT0 in the table).
 */
#include <sys/types.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>

#include "pfmlib_priv.h"
#include "pfmlib_intel_x86_priv.h"
#include "pfmlib_intel_snbep_unc_priv.h"
#include "events/intel_hswep_unc_ha_events.h"

/* Verbose output (LIBPFM_VERBOSE): the register values, undecoded. */
static void hsx_ha_display(void *this, pfmlib_event_desc_t *e, void *val)
{
	const intel_x86_entry_t *pe = this_pe(this);

	__pfm_vbprintf("[HA_CTL=0x%" PRIx64 " OPCODEMATCH=0x%" PRIx64 " ADDRMATCH1:0=0x%" PRIx64
		       "] %s\n",
		       *(uint64_t *)val, e->count > 1 ? e->codes[1] : 0,
		       e->count > 2 ? e->codes[2] : 0, pe[e->event].name);
}

#define HSX_HA(n)                                                                                  \
	pfmlib_pmu_t intel_hswep_unc_ha##n##_support = {                                           \
	    .desc = "Intel Haswell-EP HA " #n " uncore",                                           \
	    .name = "hswep_unc_ha" #n,                                                             \
	    .perf_name = "uncore_ha_" #n,                                                          \
	    .pmu = PFM_PMU_INTEL_HSWEP_UNC_HA##n,                                                  \
	    .pme_count = LIBPFM_ARRAY_SIZE(intel_hswep_unc_h_pe),                                  \
	    .type = PFM_PMU_TYPE_UNCORE,                                                           \
	    .num_cntrs = 4,                                                                        \
	    .num_fixed_cntrs = 0,                                                                  \
	    .max_encoding = 3, /* CTL, OPCODEMATCH, ADDRMATCH */                                   \
	    .pe = intel_hswep_unc_h_pe,                                                            \
	    .atdesc = snbep_unc_mods,                                                              \
	    .flags = PFMLIB_PMU_FL_RAW_UMASK,                                                      \
	    .pmu_detect = pfm_intel_hswep_unc_detect,                                              \
	    .get_event_encoding[PFM_OS_NONE] = pfm_intel_snbep_unc_get_encoding,                   \
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
	    .display_reg = hsx_ha_display,                                                         \
	}

HSX_HA(0);
HSX_HA(1);
