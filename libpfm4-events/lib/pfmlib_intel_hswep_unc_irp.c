/*
 * papi-uncore: Haswell-EP IRP PMU (hswep_unc_irp) for libpfm4, replacing
 * libpfm4's file of the same name.  Encoding: the control value only (the
 * IRP filter the manual mentions has no register in Table 2-144).  The PMU
 * may skip auto-encoding of events that need more than their name, such as
 * SNOOP_RESP, whose response and snoop-type groups are both required (2.7.5).
 */
#include <sys/types.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>

#include "pfmlib_priv.h"
#include "pfmlib_intel_x86_priv.h"
#include "pfmlib_intel_snbep_unc_priv.h"
#include "events/intel_hswep_unc_irp_events.h"

/* Verbose output (LIBPFM_VERBOSE): the control value, undecoded. */
static void hsx_irp_display(void *this, pfmlib_event_desc_t *e, void *val)
{
	const intel_x86_entry_t *pe = this_pe(this);

	__pfm_vbprintf("[IRP_CTL=0x%" PRIx64 "] %s\n", *(uint64_t *)val, pe[e->event].name);
}

pfmlib_pmu_t intel_hswep_unc_irp_support = {
    .desc = "Intel Haswell-EP IRP uncore",
    .name = "hswep_unc_irp",
    .perf_name = "uncore_irp",
    .pmu = PFM_PMU_INTEL_HSWEP_UNC_IRP,
    .pme_count = LIBPFM_ARRAY_SIZE(intel_hswep_unc_i_pe),
    .type = PFM_PMU_TYPE_UNCORE,
    .num_cntrs = 4, /* IRP0 and IRP1 counters 0-1 (Table 2-144, 2.7.1) */
    .num_fixed_cntrs = 0,
    .max_encoding = 1,
    .pe = intel_hswep_unc_i_pe,
    .atdesc = snbep_unc_mods,
    .flags = PFMLIB_PMU_FL_RAW_UMASK,
    .pmu_detect = pfm_intel_hswep_unc_detect,
    .get_event_encoding[PFM_OS_NONE] = pfm_intel_snbep_unc_get_encoding,
    PFMLIB_ENCODE_PERF(pfm_intel_snbep_unc_get_perf_encoding),
    PFMLIB_OS_DETECT(pfm_intel_x86_perf_detect),
    .get_event_first = pfm_intel_x86_get_event_first,
    .get_event_next = pfm_intel_x86_get_event_next,
    .event_is_valid = pfm_intel_x86_event_is_valid,
    .validate_table = pfm_intel_x86_validate_table,
    .get_event_info = pfm_intel_x86_get_event_info,
    .get_event_attr_info = pfm_intel_x86_get_event_attr_info,
    PFMLIB_VALID_PERF_PATTRS(pfm_intel_snbep_unc_perf_validate_pattrs),
    .get_event_nattrs = pfm_intel_x86_get_event_nattrs,
    .can_auto_encode = pfm_intel_snbep_unc_can_auto_encode,
    .display_reg = hsx_irp_display,
};
