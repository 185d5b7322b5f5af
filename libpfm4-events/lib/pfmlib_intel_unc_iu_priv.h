/*
 * pfmlib_intel_unc_iu_priv.h: shared definitions of papi-uncore's client-uncore
 * PMU glue (Skylake client, Nehalem per the Performance Analysis Guide, Xeon
 * 7100/7400 L3).  The tables themselves are lib/events/intel_*_unc_iu_events.h;
 * their conventions are described in libpfm4-events/README.client.md.
 */
#ifndef __PFMLIB_INTEL_UNC_IU_PRIV_H__
#define __PFMLIB_INTEL_UNC_IU_PRIV_H__

/*
 * Modifier indices of the event-select PMUs.  libpfm4 keeps the NHM_UNC
 * names private to pfmlib_intel_nhm_unc.c; our tables use the same names and
 * values so that upstream's nhm_unc, our PMUs and our own C library agree on
 * what a modmsk bit means.
 */
#ifndef NHM_UNC_ATTR_E
#define NHM_UNC_ATTR_E		0	/* edge detect */
#define NHM_UNC_ATTR_I		1	/* invert the threshold comparison */
#define NHM_UNC_ATTR_C		2	/* threshold (counter mask) */
#define NHM_UNC_ATTR_O		3	/* reset the queue occupancy counter */
#define _NHM_UNC_ATTR_E		(1 << NHM_UNC_ATTR_E)
#define _NHM_UNC_ATTR_I		(1 << NHM_UNC_ATTR_I)
#define _NHM_UNC_ATTR_C		(1 << NHM_UNC_ATTR_C)
#define _NHM_UNC_ATTR_O		(1 << NHM_UNC_ATTR_O)
#endif

/*
 * Event-select layout common to the Nehalem uncore (SDM Vol. 3B 18.8.2.2,
 * layout of MSR_UNCORE_PERFEVTSELx) and the Skylake client CBo/ARB (client
 * manual Table 2-7).  The threshold is 8 bits wide on Nehalem (CMASK 31:24)
 * and 5 bits on Skylake (THR 28:24); bit 17 exists only on Nehalem.
 */
#define IU_UNC_EVTSEL_EVENT		0x00000000000000ffULL
#define IU_UNC_EVTSEL_UMASK		0x000000000000ff00ULL
#define IU_UNC_EVTSEL_OCC_CTR_RST	(1ULL << 17)
#define IU_UNC_EVTSEL_EDGE		(1ULL << 18)
#define IU_UNC_EVTSEL_PMI		(1ULL << 20)
#define IU_UNC_EVTSEL_EN		(1ULL << 22)
#define IU_UNC_EVTSEL_INV		(1ULL << 23)
#define IU_UNC_EVTSEL_THR_SHIFT		24
#define IU_SKL_THR_BITS			5
#define IU_NHM_CMASK_BITS		8

/* Xeon 7100/7400: the event control field is bits 63:32 of each EMON MSR (SDM 18.21.1) */
#define IU_X7400_CTL_SHIFT		32

/* Skylake IMC tables: code = width << 16 | MMIO offset from the BAR (manual Table 3-3) */
#define IU_SKL_IMC_OFFSET(code)		((code) & 0xffffu)
#define IU_SKL_IMC_WIDTH(code)		(((code) >> 16) & 0xffu)

/* what the unit masks of one event string select (see pfm_iu_select_umasks) */
typedef struct {
	uint64_t	ucode;		/* OR of the selected ucodes */
	uint64_t	filter;		/* OR of the selected ufilters[0] */
	int		has_filter;	/* a selected umask (or the event) needs the extra register */
	unsigned int	modhw;		/* modifiers hardwired by the selected umasks */
} iu_umask_sel_t;

extern const pfmlib_attr_desc_t iu_unc_nhm_mods[];
extern const pfmlib_attr_desc_t iu_unc_skl_mods[];

extern int pfm_iu_select_umasks(void *this, pfmlib_event_desc_t *e, iu_umask_sel_t *sel);
extern int pfm_iu_evtsel_encode(void *this, pfmlib_event_desc_t *e, unsigned int thr_bits, int has_occ);
extern void pfm_iu_build_fstr(void *this, pfmlib_event_desc_t *e, const uint64_t *modval);
extern int pfm_iu_perf_type(const char *perf_name);
extern int pfm_iu_perf_detect(void *this);
extern int pfm_iu_evtsel_get_perf_encoding(void *this, pfmlib_event_desc_t *e);

/* One PMU of these uncores (Nehalem's and its cousins', Skylake client's,
 * Xeon 7100/7400's): libpfm4's x86 table walkers and what differs as
 * arguments; the variadic tail is IU_UNC_PERF(...) for a PMU the Linux
 * kernel serves, IU_UNC_NO_PERF for one it does not. */
#define IU_UNC_PMU(pmu_desc, pmu_name, pmu_id, table, ncnt, nfixed, maxenc, mods, family,	\
		   models, detect, enc, ...) {						\
	.desc			= pmu_desc,					\
	.name			= pmu_name,					\
	.pmu			= pmu_id,					\
	.pme_count		= LIBPFM_ARRAY_SIZE(table),			\
	.type			= PFM_PMU_TYPE_UNCORE,				\
	.num_cntrs		= ncnt,						\
	.num_fixed_cntrs	= nfixed,					\
	.max_encoding		= maxenc,					\
	.pe			= table,					\
	.atdesc			= mods,						\
	.flags			= PFMLIB_PMU_FL_NO_SMPL,			\
	.cpu_family		= family,					\
	.cpu_models		= models,					\
	.pmu_detect		= detect,					\
	.get_event_encoding[PFM_OS_NONE] = enc,					\
	__VA_ARGS__								\
	.get_event_first	= pfm_intel_x86_get_event_first,		\
	.get_event_next		= pfm_intel_x86_get_event_next,			\
	.event_is_valid		= pfm_intel_x86_event_is_valid,			\
	.can_auto_encode	= pfm_intel_x86_can_auto_encode,		\
	.validate_table		= pfm_intel_x86_validate_table,			\
	.get_event_info		= pfm_intel_x86_get_event_info,			\
	.get_event_attr_info	= pfm_intel_x86_get_event_attr_info,		\
	.get_event_nattrs	= pfm_intel_x86_get_event_nattrs,		\
}
#define IU_UNC_PERF(perfname, perfenc)						\
	.perf_name		= perfname,					\
	 PFMLIB_ENCODE_PERF(perfenc),						\
	 PFMLIB_OS_DETECT(pfm_iu_perf_detect),					\
	 PFMLIB_VALID_PERF_PATTRS(pfm_intel_snbep_unc_perf_validate_pattrs),
#define IU_UNC_NO_PERF	.perf_name = NULL,

#endif /* __PFMLIB_INTEL_UNC_IU_PRIV_H__ */
