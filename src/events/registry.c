/* The list of built-in platforms, box-type lookup, instance and perf PMU
 * naming, and read-only enumeration of the event tables. */
#include "events/registry.h"

#include "common/uncore_error.h"
#include "events/table.h"

#include <stdio.h>
#include <strings.h>

/* The generations' box types, in the order of the one list of
 * generations (platform/platforms.c), each once. */
const struct uncore_event_platform *uncore_event_platform_at(unsigned i)
{
	const struct uncore_platform *p;
	/* Each once: a cousin shares another generation's box types. */
	for (unsigned k = 0; (p = uncore_platform_at(k)) != NULL; k++) {
		int seen = 0;
		for (unsigned j = 0; j < k && !seen; j++)
			seen = uncore_platform_at(j)->events == p->events;
		if (!seen && i-- == 0)
			return p->events;
	}
	return NULL;
}

const struct uncore_event_platform *uncore_event_platform_get(enum uncore_platform_id id)
{
	const struct uncore_platform *p;
	for (unsigned i = 0; (p = uncore_platform_at(i)) != NULL; i++)
		if (p->id == id)
			return p->events;
	return NULL;
}

const struct uncore_event_platform *uncore_event_platform_by_name(const char *name)
{
	const struct uncore_event_platform *e;
	for (unsigned i = 0; name && (e = uncore_event_platform_at(i)) != NULL; i++)
		if (strcasecmp(e->name, name) == 0)
			return e;
	return NULL;
}

static const struct uncore_box_type *find_in(const struct uncore_event_platform *plat,
					     const char *name)
{
	for (unsigned b = 0; b < plat->nboxes; b++)
		if (strcasecmp(plat->boxes[b]->name, name) == 0)
			return plat->boxes[b];
	return NULL;
}

const struct uncore_box_type *uncore_box_type_find(const struct uncore_event_platform *plat,
						   const char *name)
{
	if (!name)
		return NULL;
	if (plat)
		return find_in(plat, name);
	for (unsigned i = 0; uncore_event_platform_at(i); i++) {
		const struct uncore_box_type *box = find_in(uncore_event_platform_at(i), name);
		if (box)
			return box;
	}
	return NULL;
}

static int numbered_name(const char *base, int numbered, int i, char *buf, size_t len,
			 const char *sep)
{
	int n;
	if (!buf || len == 0)
		return uncore_fail(UNCORE_EINVAL, "no buffer for a box name");
	if (i < 0 || !numbered)
		n = snprintf(buf, len, "%s", base);
	else
		n = snprintf(buf, len, "%s%s%d", base, sep, i);
	if (n < 0 || (size_t)n >= len)
		return uncore_fail(UNCORE_ENOSPACE, "box name %s needs %d bytes", base, n + 1);
	return 0;
}

static int check_instance(const struct uncore_box_type *box, int i)
{
	if (i >= (int)box->ninstances)
		return uncore_fail(UNCORE_EINVAL, "%s has instances 0-%u, not %d", box->name,
				   box->ninstances - 1, i);
	return 0;
}

int uncore_box_instance_name(const struct uncore_box_type *box, int i, char *buf, size_t len)
{
	if (!box)
		return uncore_fail(UNCORE_EINVAL, "no box type");
	int rc = check_instance(box, i);
	if (rc)
		return rc;
	return numbered_name(box->name, box->ninstances > 1, i, buf, len,
			     (box->flags & UNCORE_BOXF_KERNEL) ? "_" : "");
}

int uncore_box_perf_name(const struct uncore_box_type *box, int i, char *buf, size_t len)
{
	if (!box)
		return uncore_fail(UNCORE_EINVAL, "no box type");
	if (!box->perf_pmu)
		return uncore_fail(UNCORE_ENOSUPP, "no Linux perf PMU serves %s: use direct access",
				   box->name);
	int rc = check_instance(box, i);
	if (rc)
		return rc;
	/* A single-instance box has one perf PMU without a number (uncore_pcu). */
	return numbered_name(box->perf_pmu, box->ninstances > 1, i < 0 ? 0 : i, buf, len, "_");
}

static unsigned count_event_mods(const struct uncore_box_type *box, const intel_x86_entry_t *e)
{
	unsigned n = 0;
	for (unsigned m = 0; m < box->nmods; m++)
		if (e->modmsk & (1u << box->mods[m].attr))
			n++;
	return n;
}

int uncore_box_event_info(const struct uncore_box_type *box, unsigned ev,
			  struct uncore_event_info *out)
{
	if (!box || !out || ev >= uncore_box_nevents(box))
		return uncore_fail(UNCORE_EINVAL, "event index %u out of range", ev);
	const intel_x86_entry_t *e = box_event(box, ev);
	struct uncore_event_info info = {
	    .name = e->name,
	    .desc = e->desc,
	    .equiv = e->equiv,
	    .code = e->code,
	    .flags = e->flags,
	    .numasks = e->numasks,
	    .ngroups = e->ngrp,
	    .counters = uncore_box_generic_counters(box, e->cntmsk),
	    .fixed = (e->flags & INTEL_X86_FIXED) || uncore_box_is_fixed_cntmsk(box, e->cntmsk),
	    .nmods = count_event_mods(box, e),
	};
	*out = info;
	return 0;
}

int uncore_box_umask_info(const struct uncore_box_type *box, unsigned ev, unsigned um,
			  struct uncore_umask_info *out)
{
	if (!box || !out || ev >= uncore_box_nevents(box) || um >= box_event(box, ev)->numasks)
		return uncore_fail(UNCORE_EINVAL, "umask index %u of event %u out of range", um,
				   ev);
	const intel_x86_umask_t *u = box_umask(box, ev, um);
	struct uncore_umask_info info = {
	    .name = u->uname,
	    .desc = u->udesc,
	    .equiv = u->uequiv,
	    .ucode = u->ucode,
	    .flags = u->uflags,
	    .group = umask_group(u),
	    .is_default = !!(u->uflags & INTEL_X86_DFL),
	};
	*out = info;
	return 0;
}

const struct uncore_mod_desc *uncore_box_event_mod(const struct uncore_box_type *box, unsigned ev,
						   unsigned i)
{
	if (!box || ev >= uncore_box_nevents(box))
		return NULL;
	unsigned modmsk = box_event(box, ev)->modmsk;
	for (unsigned m = 0; m < box->nmods; m++) {
		if (!(modmsk & (1u << box->mods[m].attr)))
			continue;
		if (i-- == 0)
			return &box->mods[m];
	}
	return NULL;
}

int uncore_box_find_event(const struct uncore_box_type *box, const char *name)
{
	if (box && name)
		for (unsigned i = 0; i < uncore_box_nevents(box); i++)
			if (strcasecmp(box_event(box, i)->name, name) == 0)
				return (int)i;
	return UNCORE_ENOEVENT;
}

int uncore_box_find_umask(const struct uncore_box_type *box, unsigned ev, const char *name)
{
	if (box && name && ev < uncore_box_nevents(box)) {
		const intel_x86_entry_t *e = box_event(box, ev);
		for (unsigned i = 0; i < e->numasks; i++)
			if (strcasecmp(e->umasks[i].uname, name) == 0)
				return (int)i;
	}
	return UNCORE_ENOUMASK;
}

const struct uncore_mod_desc *uncore_box_mod_by_attr(const struct uncore_box_type *box,
						     unsigned attr)
{
	for (unsigned m = 0; box && m < box->nmods; m++)
		if (box->mods[m].attr == attr)
			return &box->mods[m];
	return NULL;
}

unsigned uncore_box_filter_of(const struct uncore_box_type *box, const intel_x86_entry_t *e,
			      unsigned n)
{
	uint64_t ev_sel = field_get(box->ctl->ev_sel, e->code);
	for (unsigned r = 0; r < box->nroutes; r++)
		if (box->routes[r].from == n && box->routes[r].ev_sel == ev_sel)
			return box->routes[r].to;
	return n;
}
