/* Event encoding: table codes and unit masks into the control register,
 * unit-mask filters and modifiers into the control and filter registers, the
 * unit-mask group rules of the libpfm4 format, and the counter mask. */
#include "events/encode.h"

#include "common/uncore_error.h"
#include "events/table.h"

#include <string.h>

/* Work state of one encoding. */
struct enc {
	const struct uncore_box_type *box;
	const intel_x86_entry_t *e;
	struct uncore_encoding out;
	uint64_t cntmsk;      /* table numbering, narrowed by ucntmsk */
	unsigned used_groups; /* groups with a umask, named or default */
	unsigned modhw;       /* modifiers hard-wired by the umasks */
	unsigned modreq;      /* modifiers required */
	int override_um;      /* umask that replaced the event code, or -1 */
	unsigned numasks_used;
	const char *named_in_group[INTEL_X86_NUM_GRP]; /* first umask named per group */
};

/* The field of filter n that contains `bit`, or the bit itself when the
 * descriptor lists no such field (the validator test reports that). */
static uint64_t filter_field_of(const struct uncore_box_type *box, unsigned n, uint64_t bit)
{
	for (const uint64_t *f = box->filters[n].fields; *f; f++)
		if (*f & bit)
			return *f;
	return bit;
}

static uint64_t filter_fields_touched(const struct uncore_box_type *box, unsigned n, uint64_t bits)
{
	uint64_t mask = 0;
	while (bits) {
		uint64_t bit = bits & -bits;
		mask |= filter_field_of(box, n, bit);
		bits &= ~bit;
	}
	return mask;
}

static int event_uses_filters(const intel_x86_entry_t *e)
{
	for (unsigned i = 0; i < e->numasks; i++)
		for (unsigned n = 0; n < INTEL_X86_MAX_FILTERS; n++)
			if (e->umasks[i].ufilters[n])
				return 1;
	return 0;
}

static int apply_umask(struct enc *s, unsigned um)
{
	const intel_x86_umask_t *u = &s->e->umasks[um];

	/* ucode above bit 7 is a register image (umask field, hard-wired
	 * modifiers, occ_sel on the PCU); bits 7:0 replace the event code only
	 * with CODE_OVERRIDE.  UCODE_WHOLE boxes OR the whole image in. */
	if (s->box->flags & UNCORE_BOXF_UCODE_WHOLE)
		s->out.ctl |= u->ucode << s->box->code_shift;
	else
		s->out.ctl |= u->ucode & ~(uint64_t)0xff;
	if ((u->uflags & INTEL_X86_CODE_OVERRIDE) && !(s->box->flags & UNCORE_BOXF_UCODE_WHOLE)) {
		uint64_t code = u->ucode & 0xff;
		if (s->override_um >= 0 && (s->e->umasks[s->override_um].ucode & 0xff) != code)
			return uncore_fail(
			    UNCORE_ECOMBO,
			    "%s::%s: unit masks %s and %s select different event codes",
			    s->box->name, s->e->name, s->e->umasks[s->override_um].uname, u->uname);
		s->override_um = (int)um;
		s->out.ctl =
		    (s->out.ctl & ~s->box->ctl->ev_sel) | field_put(s->box->ctl->ev_sel, code);
	}
	for (unsigned n = 0; n < INTEL_X86_MAX_FILTERS; n++) {
		if (!u->ufilters[n])
			continue;
		unsigned f = uncore_box_filter_of(s->box, s->e, n);
		if (f >= s->box->nfilters || f >= UNCORE_MAX_FILTERS)
			return uncore_fail(UNCORE_EINVAL,
					   "%s::%s:%s: ufilters[%u] but the box has %u filters",
					   s->box->name, s->e->name, u->uname, n, s->box->nfilters);
		if (s->box->flags & UNCORE_BOXF_UFILTER_VALUE) {
			s->out.filter[f] |= u->ufilters[n];
			s->out.filter_mask[f] |= filter_fields_touched(s->box, f, u->ufilters[n]);
			continue;
		}
		/* libpfm4: bits 31:0 are set, bits 63:32 cleared. */
		uint64_t set = u->ufilters[n] & 0xffffffffULL, clear = u->ufilters[n] >> 32;
		s->out.filter[f] = (s->out.filter[f] | set) & ~clear;
		s->out.filter_mask[f] |= filter_fields_touched(s->box, f, set | clear);
	}
	if (u->ucntmsk)
		s->cntmsk &= u->ucntmsk;
	s->modhw |= u->modhw;
	s->modreq |= u->umodmsk_req;
	s->used_groups |= 1u << umask_group(u);
	s->numasks_used++;
	return 0;
}

/* The names of the umasks of group g, as many as fit, for messages. */
static void group_names(const intel_x86_entry_t *e, unsigned g, char *buf, size_t len)
{
	struct name_list list;
	name_list_init(&list, buf, len);
	for (unsigned i = 0; i < e->numasks; i++)
		if (umask_group(&e->umasks[i]) == g)
			name_list_add(&list, e->umasks[i].uname);
}

static int check_named_umasks(struct enc *s, const struct uncore_event_ref *ev, unsigned *max_grpid)
{
	const intel_x86_entry_t *e = s->e;
	int first_in_group[INTEL_X86_NUM_GRP];
	unsigned ncombo = 0, required = 0;
	int last_group = -1;

	const char *excluder = NULL; /* umask that excludes the groups above max_grpid */

	for (unsigned g = 0; g < INTEL_X86_NUM_GRP; g++)
		first_in_group[g] = -1;
	*max_grpid = INTEL_X86_NUM_GRP;

	for (unsigned k = 0; k < ev->numasks; k++) {
		unsigned um = ev->umasks[k];
		if (um >= e->numasks)
			return uncore_fail(UNCORE_EINVAL, "umask index %u of %s out of range", um,
					   e->name);
		const intel_x86_umask_t *u = &e->umasks[um];
		unsigned g = umask_group(u);
		if (g >= INTEL_X86_NUM_GRP)
			return uncore_fail(UNCORE_EINVAL, "%s:%s: table group %u out of range",
					   e->name, u->uname, g);
		if ((e->flags & INTEL_X86_GRP_EXCL) && last_group >= 0 && (int)g != last_group)
			return uncore_fail(UNCORE_ECOMBO,
					   "%s::%s takes unit masks of one group only: %s and %s "
					   "are in different groups",
					   s->box->name, e->name,
					   e->umasks[first_in_group[last_group]].uname, u->uname);
		last_group = (int)g;
		if ((u->uflags | e->flags) & INTEL_X86_NCOMBO)
			ncombo |= 1u << g;
		if (first_in_group[g] >= 0 && (ncombo & (1u << g))) {
			char names[160];
			group_names(e, g, names, sizeof(names));
			return uncore_fail(
			    UNCORE_ECOMBO,
			    "%s::%s: unit masks %s and %s cannot be combined; choose one of: %s",
			    s->box->name, e->name, e->umasks[first_in_group[g]].uname, u->uname,
			    names);
		}
		if (first_in_group[g] < 0) {
			first_in_group[g] = (int)um;
			s->named_in_group[g] = u->uname;
		}
		if ((u->uflags & INTEL_X86_EXCL_GRP_GT) && g < *max_grpid) {
			*max_grpid = g;
			excluder = u->uname;
		}
		if (u->uflags & INTEL_X86_GRP_REQ)
			required |= 1u << umask_required_group(u);
		int rc = apply_umask(s, um);
		if (rc)
			return rc;
	}

	/* EXCL_GRP_GT: such a umask excludes every group above its own. */
	for (unsigned g = *max_grpid + 1; g < INTEL_X86_NUM_GRP; g++)
		if (first_in_group[g] >= 0)
			return uncore_fail(UNCORE_ECOMBO, "%s::%s: unit mask %s excludes %s",
					   s->box->name, e->name, excluder,
					   e->umasks[first_in_group[g]].uname);

	unsigned missing = required & ~s->used_groups;
	if (missing) {
		unsigned g = (unsigned)__builtin_ctz(missing);
		char names[160];
		group_names(e, g, names, sizeof(names));
		return uncore_fail(UNCORE_ECOMBO, "%s::%s: the unit masks given need one of %s too",
				   s->box->name, e->name, names);
	}
	return 0;
}

static int add_defaults(struct enc *s, unsigned max_grpid, int named)
{
	const intel_x86_entry_t *e = s->e;
	unsigned ngrp = e->ngrp ? e->ngrp : 1;

	if (e->numasks == 0)
		return 0;
	/* GRP_EXCL: defaults only when nothing was named, from the first group
	 * that has one. */
	if ((e->flags & INTEL_X86_GRP_EXCL) && named)
		return 0;
	for (unsigned g = 0; g < ngrp && g < INTEL_X86_NUM_GRP; g++) {
		if (s->used_groups & (1u << g))
			continue;
		if (g > max_grpid)
			break;
		int added = 0, dfl_none = 0;
		for (unsigned i = 0; i < e->numasks; i++) {
			const intel_x86_umask_t *u = &e->umasks[i];
			if (umask_group(u) != g)
				continue;
			/* libpfm4 flags umasks; an event-wide flag covers every group. */
			if ((u->uflags | e->flags) & INTEL_X86_GRP_DFL_NONE)
				dfl_none = 1;
			if (!(u->uflags & INTEL_X86_DFL))
				continue;
			int rc = apply_umask(s, i);
			if (rc)
				return rc;
			added = 1;
			if (u->uflags & INTEL_X86_EXCL_GRP_GT) {
				/* libpfm4 lets such a default pass silently next to a
				 * named umask of a higher group; that umask would then
				 * be ignored by the hardware, so we refuse. */
				unsigned above = s->used_groups & ~((2u << g) - 1);
				if (above) {
					unsigned h = (unsigned)__builtin_ctz(above);
					char names[160];
					group_names(e, g, names, sizeof(names));
					return uncore_fail(
					    UNCORE_ECOMBO,
					    "%s::%s: %s needs an explicit unit mask of "
					    "group %u (the default %s excludes it): one of %s",
					    s->box->name, e->name, s->named_in_group[h], g,
					    u->uname, names);
				}
				if (g < max_grpid)
					max_grpid = g;
			}
		}
		if (added && (e->flags & INTEL_X86_GRP_EXCL))
			return 0;
		if (!added && !dfl_none && !(e->flags & INTEL_X86_GRP_EXCL)) {
			char names[200];
			group_names(e, g, names, sizeof(names));
			if (ngrp > 1)
				return uncore_fail(
				    UNCORE_ENOUMASK,
				    "%s::%s needs a unit mask of group %u too: one of %s",
				    s->box->name, e->name, g, names);
			return uncore_fail(UNCORE_ENOUMASK, "%s::%s needs a unit mask: one of %s",
					   s->box->name, e->name, names);
		}
	}
	/* libpfm4: an event with unit masks counts with at least one. */
	if (s->numasks_used == 0) {
		char names[200];
		group_names(e, 0, names, sizeof(names));
		return uncore_fail(UNCORE_ENOUMASK, "%s::%s needs a unit mask: one of %s",
				   s->box->name, e->name, names);
	}
	return 0;
}

static int apply_mod(struct enc *s, const struct uncore_mod_desc *d, uint64_t v)
{
	const struct uncore_box_type *box = s->box;
	uint64_t *reg;

	if (d->reg == UNCORE_REG_CTL)
		reg = &s->out.ctl;
	else if (d->reg - 1u < box->nfilters)
		reg = &s->out.filter[d->reg - 1];
	else
		return uncore_fail(UNCORE_EINVAL, "%s: modifier %s names filter %u of %u",
				   box->name, d->name, d->reg - 1u, box->nfilters);

	switch (d->kind) {
	case UNCORE_MOD_FIELD: {
		uint64_t field = (s->out.occupancy && d->occ_field) ? d->occ_field : d->field;
		*reg = (*reg & ~field) | field_put(field, v);
		if (d->reg != UNCORE_REG_CTL)
			s->out.filter_mask[d->reg - 1] |= field;
		break;
	}
	case UNCORE_MOD_FREQ_BAND: {
		/* HSX 2.8.3: FREQ_BAND<n>_CYCLES compares against byte n of the filter. */
		uint64_t band = field_get(box->ctl->ev_sel, s->out.ctl) - box->freq_band0;
		if (band > 3)
			return uncore_fail(
			    UNCORE_ECOMBO,
			    "%s::%s: modifier %s applies to the frequency band events only",
			    box->name, s->e->name, d->name);
		uint64_t field = d->field << (8 * band);
		*reg = (*reg & ~field) | field_put(field, v);
		s->out.filter_mask[d->reg - 1] |= field;
		break;
	}
	default:
		return uncore_fail(UNCORE_EINVAL, "%s: modifier %s has unknown kind %u", box->name,
				   d->name, d->kind);
	}
	s->out.ctl |= d->ctl_also;
	return 0;
}

static int apply_mods(struct enc *s, const struct uncore_event_ref *ev)
{
	const struct uncore_box_type *box = s->box;
	const intel_x86_entry_t *e = s->e;
	unsigned given = 0;

	for (unsigned k = 0; k < ev->nmods; k++) {
		if (ev->mods[k].mod >= box->nmods)
			return uncore_fail(UNCORE_EINVAL, "modifier index %u out of range",
					   ev->mods[k].mod);
		const struct uncore_mod_desc *d = &box->mods[ev->mods[k].mod];
		uint64_t v = ev->mods[k].value;
		if (!(e->modmsk & (1u << d->attr)))
			return uncore_fail(UNCORE_ENOMOD, "%s::%s does not accept modifier %s",
					   box->name, e->name, d->name);
		if (v < d->min || v > d->max)
			return uncore_fail(UNCORE_ERANGE,
					   "%s::%s: %s=%llu is out of range [%llu-%llu]", box->name,
					   e->name, d->name, (unsigned long long)v,
					   (unsigned long long)d->min, (unsigned long long)d->max);
		if ((d->flags & UNCORE_MODF_ONLY_IF_REQUIRED) && !(s->modreq & (1u << d->attr)))
			return uncore_fail(UNCORE_ECOMBO,
					   "%s::%s: modifier %s applies only with a unit mask that "
					   "needs it",
					   box->name, e->name, d->name);
		if (s->out.fixed && (d->reg != UNCORE_REG_CTL || d->kind != UNCORE_MOD_FIELD ||
				     (d->field & ~box->fixed_ctl_mods)))
			return uncore_fail(UNCORE_ECOMBO,
					   "%s::%s counts on the fixed counter, which has no %s",
					   box->name, e->name, d->name);
		if (s->modhw & (1u << d->attr)) {
			/* A umask hard-wires this modifier (its value is in the ucode):
			 * the tables' contract (README.client.md) refuses it even with
			 * the same value; libpfm4's core encoder would accept that. */
			uint64_t hw =
			    d->reg == UNCORE_REG_CTL ? field_get(d->field, s->out.ctl) : 0;
			return uncore_fail(
			    UNCORE_ECOMBO, "%s::%s: the unit mask fixes %s=%llu; leave %s out",
			    box->name, e->name, d->name, (unsigned long long)hw, d->name);
		}
		int rc = apply_mod(s, d, v);
		if (rc)
			return rc;
		given |= 1u << d->attr;
	}

	unsigned missing = (s->modreq | e->modmsk_req) & ~given;
	if (missing) {
		const struct uncore_mod_desc *d =
		    uncore_box_mod_by_attr(box, (unsigned)__builtin_ctz(missing));
		return uncore_fail(UNCORE_EINVAL, "%s::%s needs modifier %s=<%s>", box->name,
				   e->name, d ? d->name : "?", d ? d->desc : "value");
	}
	return 0;
}

int uncore_event_encode(const struct uncore_event_ref *ev, struct uncore_encoding *out)
{
	if (!ev || !out || !ev->box || ev->event >= uncore_box_nevents(ev->box))
		return uncore_fail(UNCORE_EINVAL, "no event to encode");
	if (ev->numasks > UNCORE_EVENT_MAX_UMASKS || ev->nmods > UNCORE_EVENT_MAX_MODS)
		return uncore_fail(UNCORE_EINVAL, "malformed event reference");

	struct enc s;
	memset(&s, 0, sizeof(s));
	s.box = ev->box;
	s.e = box_event(ev->box, ev->event);
	s.override_um = -1;
	s.cntmsk = s.e->cntmsk;
	s.out.nfilters =
	    (uint8_t)(s.box->nfilters < UNCORE_MAX_FILTERS ? s.box->nfilters : UNCORE_MAX_FILTERS);
	s.out.ctl = (uint64_t)s.e->code << s.box->code_shift;
	s.out.fixed =
	    (s.e->flags & INTEL_X86_FIXED) || uncore_box_is_fixed_cntmsk(s.box, s.e->cntmsk);

	unsigned max_grpid;
	int rc = check_named_umasks(&s, ev, &max_grpid);
	if (!rc)
		rc = add_defaults(&s, max_grpid, ev->numasks > 0);
	if (rc)
		return rc;

	const struct uncore_ctl_layout *ctl = s.box->ctl;
	s.out.code = s.out.fixed || s.box->code_shift
			 ? s.e->code
			 : (uint32_t)(s.out.ctl & (ctl->ev_sel | ctl->ev_sel_ext));
	s.out.occupancy = ctl->occ_event && (field_get(ctl->ev_sel, s.out.ctl) & ctl->occ_event);

	rc = apply_mods(&s, ev);
	if (rc)
		return rc;

	if (s.e->flags & INTEL_X86_FORCE_FILT0) {
		/* Filter 0 is programmed even when its value is 0 (Nehalem: a zero
		 * MSR 396h powers the matcher down). */
		unsigned f = uncore_box_filter_of(s.box, s.e, 0);
		if (f < s.out.nfilters)
			s.out.filter_mask[f] |= filter_fields_touched(s.box, f, ~0ULL);
	}
	/* Events the box's filters select by their control value alone
	 * (registry.h, struct uncore_filter_claim). */
	for (unsigned i = 0; i < s.box->nclaims; i++) {
		const struct uncore_filter_claim *cl = &s.box->claims[i];
		if ((s.out.ctl & cl->ctl_mask) == cl->ctl_value && cl->filter < s.out.nfilters)
			s.out.filter_mask[cl->filter] |= cl->fields;
	}
	/* Whole-filter boxes: an event whose umasks program the filters
	 * depends on every field, even with the default (all-zero) umask. */
	if ((s.box->flags & UNCORE_BOXF_FILTERS_WHOLE) && event_uses_filters(s.e))
		for (unsigned n = 0; n < s.out.nfilters; n++)
			s.out.filter_mask[n] |= filter_fields_touched(s.box, n, ~0ULL);

	if (s.out.fixed) {
		/* The fixed counter's control has no event select: only the
		 * modifiers it supports survive (HSX table 2-115). */
		s.out.ctl &= s.box->fixed_ctl_mods;
		s.out.counters = uncore_box_generic_counters(s.box, s.cntmsk);
		uint64_t fbit = s.cntmsk & s.box->cntmsk_fixed;
		fbit &= -fbit;
		s.out.fixed_index =
		    fbit ? (uint8_t)__builtin_popcountll(s.box->cntmsk_fixed & (fbit - 1)) : 0;
		s.out.freerun = !!(s.box->flags & UNCORE_BOXF_FREERUN);
	} else {
		s.out.counters = uncore_box_generic_counters(s.box, s.cntmsk);
		if (!s.out.counters)
			return uncore_fail(
			    UNCORE_ECOMBO,
			    "%s::%s: no counter can count this unit mask combination", s.box->name,
			    s.e->name);
	}
	*out = s.out;
	return 0;
}

int uncore_filters_conflict(const struct uncore_encoding *acc, const struct uncore_encoding *add)
{
	for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++) {
		uint64_t diff =
		    (acc->filter[n] ^ add->filter[n]) & acc->filter_mask[n] & add->filter_mask[n];
		if (diff)
			return uncore_fail(UNCORE_ECONFLICT,
					   "filter register %u: bits 0x%llx are set differently "
					   "(0x%llx vs 0x%llx)",
					   n, (unsigned long long)diff,
					   (unsigned long long)acc->filter[n],
					   (unsigned long long)add->filter[n]);
	}
	return uncore_fail(UNCORE_ECONFLICT, "filters set differently");
}
