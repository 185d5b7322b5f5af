/*
 * papi-uncore: Haswell-EP CBo PMUs (hswep_unc_cbo0..17) for libpfm4, replacing
 * libpfm4's file of the same name.  Encoding: libpfm4's common Intel server
 * uncore encoder (CTL, FILTER0, FILTER1; Tables 2-16, 2-18, 2-19, field
 * ranges fixed by patches/10-hswep-cbo-filters.patch); for perf both filter
 * registers go to config1, as Linux expects them.
 */
#include <sys/types.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>

#include "pfmlib_priv.h"
#include "pfmlib_intel_x86_priv.h"
#include "pfmlib_intel_snbep_unc_priv.h"
#ifdef CONFIG_PFMLIB_OS_LINUX
#include "pfmlib_perf_event_priv.h"
#endif
#include "events/intel_hswep_unc_cbo_events.h"

#ifdef CONFIG_PFMLIB_OS_LINUX
/*
 * Linux's hswep cbox PMU takes FILTER0 in config1[31:0] and FILTER1 in
 * config1[63:32] for every event (format filter_nid2 is config1:32-47,
 * filter_opc2 config1:52-60); libpfm4 does that only for LLC_LOOKUP and the
 * TOR events, so a NID qualifier on e.g. LLC_VICTIMS would go to config2 and
 * be lost.
 */
static int hsx_cbo_perf_encode(void *this, pfmlib_event_desc_t *e)
{
	struct perf_event_attr *pattr = e->os_data;
	int ret = pfm_intel_snbep_unc_get_perf_encoding(this, e);

	if (ret != PFM_SUCCESS)
		return ret;
	pattr->config1 = e->count > 1 ? e->codes[1] : 0;
	if (e->count > 2)
		pattr->config1 |= e->codes[2] << 32;
	pattr->config2 = 0;
	return PFM_SUCCESS;
}
#define HSX_CBO_PERF_ENCODE hsx_cbo_perf_encode
#else
#define HSX_CBO_PERF_ENCODE NULL
#endif

/* Verbose output (LIBPFM_VERBOSE): the three register values, undecoded. */
static void hsx_cbo_display(void *this, pfmlib_event_desc_t *e, void *val)
{
	const intel_x86_entry_t *pe = this_pe(this);

	__pfm_vbprintf("[CBO_CTL=0x%" PRIx64 " FILTER0=0x%" PRIx64 " FILTER1=0x%" PRIx64 "] %s\n",
		       *(uint64_t *)val, e->count > 1 ? e->codes[1] : 0,
		       e->count > 2 ? e->codes[2] : 0, pe[e->event].name);
}

#define HSX_CBO(n)                                                                                 \
	pfmlib_pmu_t intel_hswep_unc_cb##n##_support = {                                           \
	    .desc = "Intel Haswell-EP C-Box " #n " uncore",                                        \
	    .name = "hswep_unc_cbo" #n,                                                            \
	    .perf_name = "uncore_cbox_" #n,                                                        \
	    .pmu = PFM_PMU_INTEL_HSWEP_UNC_CB##n,                                                  \
	    .pme_count = LIBPFM_ARRAY_SIZE(intel_hswep_unc_c_pe),                                  \
	    .type = PFM_PMU_TYPE_UNCORE,                                                           \
	    .num_cntrs = 4,                                                                        \
	    .num_fixed_cntrs = 0,                                                                  \
	    .max_encoding = 3, /* CTL, FILTER0, FILTER1 */                                         \
	    .pe = intel_hswep_unc_c_pe,                                                            \
	    .atdesc = snbep_unc_mods,                                                              \
	    .flags = PFMLIB_PMU_FL_RAW_UMASK | INTEL_PMU_FL_UNC_CBO,                               \
	    .pmu_detect = pfm_intel_hswep_unc_detect,                                              \
	    .get_event_encoding[PFM_OS_NONE] = pfm_intel_snbep_unc_get_encoding,                   \
	    PFMLIB_ENCODE_PERF(HSX_CBO_PERF_ENCODE),                                               \
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
	    .display_reg = hsx_cbo_display,                                                        \
	}

HSX_CBO(0);
HSX_CBO(1);
HSX_CBO(2);
HSX_CBO(3);
HSX_CBO(4);
HSX_CBO(5);
HSX_CBO(6);
HSX_CBO(7);
HSX_CBO(8);
HSX_CBO(9);
HSX_CBO(10);
HSX_CBO(11);
HSX_CBO(12);
HSX_CBO(13);
HSX_CBO(14);
HSX_CBO(15);
HSX_CBO(16);
HSX_CBO(17);
