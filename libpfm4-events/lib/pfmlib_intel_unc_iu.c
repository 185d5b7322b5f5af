/*
 * pfmlib_intel_unc_iu.c: encoder helpers shared by papi-uncore's client-uncore
 * PMUs (Skylake client, Nehalem guide events, Xeon 7100/7400 L3): unit-mask
 * selection with groups and defaults, the event-select encoder, the canonical
 * event string, and the perf_event encoding.  Part of papi-uncore.
 */
#include <sys/types.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>

#include "pfmlib_priv.h"
#include "pfmlib_intel_x86_priv.h"
#include "pfmlib_intel_unc_iu_priv.h"
#ifdef __linux__
#include "pfmlib_perf_event_priv.h"
#endif

#define IU_NUM_MODS 4	/* modifier indices used by our tables: NHM_UNC_ATTR_E..O */

const pfmlib_attr_desc_t iu_unc_nhm_mods[] = {
	PFM_ATTR_B("e", "edge detect: count transitions of the condition, not cycles"),
	PFM_ATTR_B("i", "invert: count when the increment is below the threshold"),
	PFM_ATTR_I("c", "threshold (counter mask), 0-255; 0 disables the comparison"),
	PFM_ATTR_B("o", "reset the queue occupancy counter when the event is programmed"),
	PFM_ATTR_NULL
};

const pfmlib_attr_desc_t iu_unc_skl_mods[] = {
	PFM_ATTR_B("e", "edge detect: count transitions of the condition, not cycles"),
	PFM_ATTR_B("i", "invert: count when the increment is below the threshold"),
	PFM_ATTR_I("c", "threshold (THR), 0-31; 0 disables the comparison"),
	PFM_ATTR_NULL
};

static void
iu_take_umask(const intel_x86_entry_t *ent, const intel_x86_umask_t *um, iu_umask_sel_t *sel)
{
	sel->ucode |= um->ucode;
	sel->filter |= um->ufilters[0];
	sel->modhw |= um->modhw;
	if (um->ufilters[0] || (ent->flags & INTEL_X86_FORCE_FILT0))
		sel->has_filter = 1;
}

/*
 * Collect the unit masks of e.  Within a group, a umask flagged NCOMBO must be
 * alone; a group the user left empty takes its INTEL_X86_DFL umask (appended to
 * e->attrs so it shows in the canonical string), unless the event is flagged
 * INTEL_X86_GRP_DFL_NONE, in which case an empty group contributes nothing.
 */
int
pfm_iu_select_umasks(void *this, pfmlib_event_desc_t *e, iu_umask_sel_t *sel)
{
	const intel_x86_entry_t *ent = (const intel_x86_entry_t *)this_pe(this) + e->event;
	int seen[INTEL_X86_NUM_GRP] = { 0 };
	int ncombo[INTEL_X86_NUM_GRP] = { 0 };
	pfmlib_event_attr_info_t *a;
	const intel_x86_umask_t *um;
	int k, j, g, found;

	memset(sel, 0, sizeof(*sel));
	if (ent->flags & INTEL_X86_FORCE_FILT0)
		sel->has_filter = 1;

	for (k = 0; k < e->nattrs; k++) {
		a = attr(e, k);
		if (a->ctrl != PFM_ATTR_CTRL_PMU)
			continue;
		if (a->type == PFM_ATTR_RAW_UMASK)
			return PFM_ERR_ATTR;	/* our PMUs do not declare raw umasks */
		if (a->type != PFM_ATTR_UMASK)
			continue;
		um = &ent->umasks[a->idx];
		g = get_grpid(um->grpid);
		if (um->uflags & INTEL_X86_NCOMBO)
			ncombo[g] = 1;
		if (++seen[g] > 1 && ncombo[g]) {
			DPRINT("%s: unit masks of group %d do not combine\n", ent->name, g);
			return PFM_ERR_FEATCOMB;
		}
		iu_take_umask(ent, um, sel);
	}

	for (g = 0; g < ent->ngrp; g++) {
		if (seen[g])
			continue;
		found = 0;
		for (j = 0; j < e->npattrs && !found; j++) {
			a = &e->pattrs[j];
			if (a->ctrl != PFM_ATTR_CTRL_PMU || a->type != PFM_ATTR_UMASK)
				continue;
			um = &ent->umasks[a->idx];
			if (get_grpid(um->grpid) != g || !(um->uflags & INTEL_X86_DFL))
				continue;
			if (e->nattrs >= PFMLIB_MAX_ATTRS)
				return PFM_ERR_TOOMANY;
			e->attrs[e->nattrs].id = j;
			e->attrs[e->nattrs].ival = 0;
			e->nattrs++;
			iu_take_umask(ent, um, sel);
			found = 1;
		}
		if (!found && !(ent->flags & INTEL_X86_GRP_DFL_NONE)) {
			DPRINT("%s: unit mask group %d needs a unit mask\n", ent->name, g);
			return PFM_ERR_UMASK;
		}
	}
	return PFM_SUCCESS;
}

/* canonical string: EVENT:UMASK...:mod=value... for every modifier the event has */
void
pfm_iu_build_fstr(void *this, pfmlib_event_desc_t *e, const uint64_t *modval)
{
	const intel_x86_entry_t *ent = (const intel_x86_entry_t *)this_pe(this) + e->event;
	const pfmlib_attr_desc_t *atdesc = this_atdesc(this);
	pfmlib_event_attr_info_t *a;
	int k, idx;

	e->fstr[0] = '\0';
	evt_strcat(e->fstr, "%s", ent->name);
	pfmlib_sort_attr(e);
	for (k = 0; k < e->nattrs; k++) {
		a = attr(e, k);
		if (a->ctrl == PFM_ATTR_CTRL_PMU && a->type == PFM_ATTR_UMASK)
			evt_strcat(e->fstr, ":%s", ent->umasks[a->idx].uname);
	}
	for (k = 0; k < e->npattrs; k++) {
		if (e->pattrs[k].ctrl != PFM_ATTR_CTRL_PMU || e->pattrs[k].type == PFM_ATTR_UMASK)
			continue;
		idx = e->pattrs[k].idx;
		if (idx >= 0 && idx < IU_NUM_MODS)
			evt_strcat(e->fstr, ":%s=%lu", atdesc[idx].name, (unsigned long)modval[idx]);
	}
}

/*
 * Event-select PMUs (Nehalem uncore, Skylake CBo/ARB/fixed UCLK):
 * codes[0] = event | unit masks | modifiers | EN; codes[1] = the value of the
 * extra match register when a selected umask carries one (ufilters[0]).
 */
int
pfm_iu_evtsel_encode(void *this, pfmlib_event_desc_t *e, unsigned int thr_bits, int has_occ)
{
	const intel_x86_entry_t *ent = (const intel_x86_entry_t *)this_pe(this) + e->event;
	uint64_t modval[IU_NUM_MODS] = { 0 };
	uint64_t thr_max = (1ULL << thr_bits) - 1;
	pfmlib_event_attr_info_t *a;
	iu_umask_sel_t sel;
	uint64_t val;
	int k, idx, ret;

	ret = pfm_iu_select_umasks(this, e, &sel);
	if (ret != PFM_SUCCESS)
		return ret;

	for (k = 0; k < e->nattrs; k++) {
		a = attr(e, k);
		if (a->ctrl != PFM_ATTR_CTRL_PMU || a->type == PFM_ATTR_UMASK)
			continue;
		idx = a->idx;
		if (idx < 0 || idx >= IU_NUM_MODS || (idx == NHM_UNC_ATTR_O && !has_occ))
			return PFM_ERR_ATTR;
		if (sel.modhw & (1u << idx)) {
			DPRINT("%s: modifier %d is fixed by the unit mask\n", ent->name, idx);
			return PFM_ERR_ATTR_SET;
		}
		if (idx == NHM_UNC_ATTR_C && e->attrs[k].ival > thr_max) {
			DPRINT("%s: threshold %lu above %lu\n", ent->name,
			       (unsigned long)e->attrs[k].ival, (unsigned long)thr_max);
			return PFM_ERR_ATTR_VAL;
		}
		modval[idx] = e->attrs[k].ival;
	}
	/* a threshold hardwired by the unit mask shows as the value it has */
	if (sel.modhw & _NHM_UNC_ATTR_C)
		modval[NHM_UNC_ATTR_C] = (sel.ucode >> IU_UNC_EVTSEL_THR_SHIFT) & thr_max;

	val = (ent->code & IU_UNC_EVTSEL_EVENT) | sel.ucode;
	if (modval[NHM_UNC_ATTR_E])
		val |= IU_UNC_EVTSEL_EDGE;
	if (modval[NHM_UNC_ATTR_I])
		val |= IU_UNC_EVTSEL_INV;
	if (modval[NHM_UNC_ATTR_O])
		val |= IU_UNC_EVTSEL_OCC_CTR_RST;
	val |= modval[NHM_UNC_ATTR_C] << IU_UNC_EVTSEL_THR_SHIFT;
	val |= IU_UNC_EVTSEL_EN;

	e->codes[0] = val;
	e->count = 1;
	if (sel.has_filter) {
		e->codes[1] = sel.filter;
		e->count = 2;
	}
	pfm_iu_build_fstr(this, e, modval);
	__pfm_vbprintf("[UNC_EVTSEL=0x%"PRIx64" extra=0x%"PRIx64"] %s\n",
		       e->codes[0], e->count > 1 ? e->codes[1] : 0, e->fstr);
	return PFM_SUCCESS;
}

int
pfm_iu_perf_type(const char *perf_name)
{
	char path[256];
	FILE *fp;
	int type, n;

	if (!perf_name)
		return PFM_ERR_NOTSUPP;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", perf_name);
	fp = fopen(path, "r");
	if (!fp)
		return PFM_ERR_NOTSUPP;
	n = fscanf(fp, "%d", &type);
	fclose(fp);
	return n == 1 && type >= 0 ? type : PFM_ERR_NOTSUPP;
}

/* the perf_event layer exports this PMU only if the kernel has its uncore PMU */
int
pfm_iu_perf_detect(void *this)
{
	pfmlib_pmu_t *pmu = this;
	char path[256];

	if (!pmu->perf_name)
		return PFM_ERR_NOTSUPP;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s", pmu->perf_name);
	return access(path, R_OK | X_OK) ? PFM_ERR_NOTSUPP : PFM_SUCCESS;
}

#ifdef __linux__
int
pfm_iu_evtsel_get_perf_encoding(void *this, pfmlib_event_desc_t *e)
{
	pfmlib_pmu_t *pmu = this;
	struct perf_event_attr *attr = e->os_data;
	int ret, type;

	ret = pmu->get_event_encoding[PFM_OS_NONE](this, e);
	if (ret != PFM_SUCCESS)
		return ret;
	/*
	 * Linux's uncore PMUs for these boxes program only the event select:
	 * an event that needs an extra match register (Nehalem MSR 0x301 or
	 * 0x396) would count without its qualification, so refuse it.
	 */
	if (e->count > 1) {
		DPRINT("%s: event needs an extra register perf_events cannot program\n", pmu->name);
		return PFM_ERR_NOTSUPP;
	}
	type = pfm_iu_perf_type(pmu->perf_name);
	if (type < 0)
		return type;
	attr->type = type;
	/* the kernel sets EN and PMI itself, and knows the fixed counter by config 0xff alone */
	attr->config = e->codes[0] & ~(IU_UNC_EVTSEL_EN | IU_UNC_EVTSEL_PMI);
	/* uncore counts at every privilege level */
	attr->exclude_hv = 0;
	attr->exclude_kernel = 0;
	attr->exclude_user = 0;
	return PFM_SUCCESS;
}
#endif
