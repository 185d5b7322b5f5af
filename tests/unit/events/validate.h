/* Structural validation of a box type and its event table: descriptor
 * sanity, names, counter masks, unit-mask groups and flags, code and filter
 * bits within the box's fields, and that every event and every unit mask
 * encodes.  Each problem is printed as "box::EVENT[:UMASK]: what"; the
 * functions return the number of problems. */
#ifndef TEST_EVENTS_VALIDATE_H
#define TEST_EVENTS_VALIDATE_H

#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/pfm_compat.h"
#include "events/registry.h"
#include "events/table.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int validate_quiet; /* 1: count problems without printing them */

static int vproblem(const struct uncore_box_type *box, const intel_x86_entry_t *e,
		    const intel_x86_umask_t *u, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int vproblem(const struct uncore_box_type *box, const intel_x86_entry_t *e,
		    const intel_x86_umask_t *u, const char *fmt, ...)
{
	if (validate_quiet)
		return 1;
	va_list ap;
	fprintf(stderr, "  table problem: %s", box->name);
	if (e)
		fprintf(stderr, "::%s", e->name ? e->name : "(null)");
	if (u)
		fprintf(stderr, ":%s", u->uname ? u->uname : "(null)");
	fprintf(stderr, ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static int empty(const char *s)
{
	return !s || !*s;
}

static uint64_t v_field_max(uint64_t mask)
{
	return mask ? mask >> __builtin_ctzll(mask) : 0;
}

/* Bits of filter n that some field of the descriptor covers. */
static uint64_t v_filter_bits(const struct uncore_box_type *box, unsigned n)
{
	uint64_t all = 0;
	for (const uint64_t *f = box->filters[n].fields; *f; f++)
		all |= *f;
	return all;
}

static int validate_box_descriptor(const struct uncore_box_type *box)
{
	int bad = 0;
	char buf[64];
	if (empty(box->name) || empty(box->kind) || empty(box->desc) ||
	    (box->perf_pmu && !*box->perf_pmu))
		bad += vproblem(box, NULL, NULL, "name, kind and desc must be set");
	int freerun = !!(box->flags & UNCORE_BOXF_FREERUN);
	int no_en = !!(box->flags & UNCORE_BOXF_NO_ENABLE);
	if (!box->ctl)
		bad += vproblem(box, NULL, NULL, "no control layout");
	else if (!freerun && ((box->ngeneric && !box->ctl->writable) ||
			      (!no_en && (!box->ctl->ev_sel || !box->ctl->en))))
		bad += vproblem(box, NULL, NULL, "control layout missing ev_sel, en or fields");
	else if (box->ctl->writable & box->ctl->en)
		bad += vproblem(box, NULL, NULL, "the enable bit must not be an event field");
	if (box->ninstances < 1 || box->ngeneric > 32 || box->ngeneric + box->nfixed < 1 ||
	    (freerun && box->ngeneric))
		bad += vproblem(box, NULL, NULL, "instances %u, generic counters %u, fixed %u",
				box->ninstances, box->ngeneric, box->nfixed);
	if ((box->ngeneric && (box->counter_width < 16 || box->counter_width > 64)) ||
	    (box->nfixed && (box->fixed_width < 16 || box->fixed_width > 64)))
		bad += vproblem(box, NULL, NULL, "counter width %u / fixed %u", box->counter_width,
				box->fixed_width);
	if ((unsigned)__builtin_popcountll(box->cntmsk_fixed) != box->nfixed)
		bad += vproblem(box, NULL, NULL, "%u fixed counters but cntmsk_fixed 0x%llx",
				box->nfixed, (unsigned long long)box->cntmsk_fixed);
	for (unsigned r = 0; r < box->nroutes; r++)
		if (box->routes[r].from >= INTEL_X86_MAX_FILTERS ||
		    box->routes[r].to >= box->nfilters)
			bad += vproblem(box, NULL, NULL, "route %u out of range", r);
	if (box->nfilters > UNCORE_MAX_FILTERS || (box->nfilters && !box->filters))
		bad += vproblem(box, NULL, NULL, "%u filters", box->nfilters);
	for (unsigned m = 0; m < box->nmods; m++) {
		const struct uncore_mod_desc *d = &box->mods[m];
		if (empty(d->name) || empty(d->desc) || d->attr >= 32)
			bad += vproblem(box, NULL, NULL, "modifier %u: name, desc, attr", m);
		if (d->reg > UNCORE_REG_FILTER(box->nfilters ? box->nfilters - 1 : 0) ||
		    (d->reg != UNCORE_REG_CTL && !box->nfilters))
			bad +=
			    vproblem(box, NULL, NULL, "modifier %s: register %u", d->name, d->reg);
		if (d->kind == UNCORE_MOD_FIELD && v_field_max(d->field) < d->max)
			bad += vproblem(box, NULL, NULL,
					"modifier %s: max %llu does not fit its field", d->name,
					(unsigned long long)d->max);
		if (d->kind == UNCORE_MOD_FIELD && d->reg == UNCORE_REG_CTL && box->ctl &&
		    ((d->field | d->occ_field | d->ctl_also) & ~box->ctl->writable))
			bad += vproblem(box, NULL, NULL,
					"modifier %s sets bits outside the event fields", d->name);
		if (d->min > d->max || (d->is_bool && d->max != 1))
			bad += vproblem(box, NULL, NULL, "modifier %s: range", d->name);
		for (unsigned k = 0; k < m; k++)
			if (box->mods[k].attr == d->attr)
				bad += vproblem(box, NULL, NULL,
						"modifiers %s and %s answer the same attr %u",
						box->mods[k].name, d->name, d->attr);
	}
	if (uncore_box_instance_name(box, 0, buf, sizeof(buf)) ||
	    (box->perf_pmu &&
	     uncore_box_perf_name(box, (int)box->ninstances - 1, buf, sizeof(buf))))
		bad += vproblem(box, NULL, NULL, "instance names");
	if (!box->events || box->nevents == 0)
		bad += vproblem(box, NULL, NULL, "empty event table (tables not merged yet?)");
	return bad;
}

/* A umask must encode on its own (with what it needs: its required group,
 * the event's required modifiers at their least value). */
static int encode_with_needs(const struct uncore_box_type *box, unsigned ev, int um, int um2)
{
	const intel_x86_entry_t *e = box_event(box, ev);
	struct uncore_event_ref ref;
	memset(&ref, 0, sizeof(ref));
	ref.box = box;
	ref.event = ev;
	ref.instance = ref.socket = ref.cpu = -1;
	unsigned req = e->modmsk_req;
	if (um >= 0) {
		const intel_x86_umask_t *u = &e->umasks[um];
		ref.umasks[ref.numasks++] = (uint16_t)um;
		req |= u->umodmsk_req;
		if (u->uflags & INTEL_X86_GRP_REQ) {
			unsigned g = (u->grpid >> 8) & 0xff;
			for (unsigned i = 0; i < e->numasks; i++)
				if ((e->umasks[i].grpid & 0xff) == g) {
					ref.umasks[ref.numasks++] = (uint16_t)i;
					break;
				}
		}
	}
	if (um2 >= 0) {
		ref.umasks[ref.numasks++] = (uint16_t)um2;
		req |= e->umasks[um2].umodmsk_req;
	}
	for (unsigned m = 0; m < box->nmods && ref.nmods < 8; m++)
		if (req & (1u << box->mods[m].attr)) {
			ref.mods[ref.nmods].mod = (uint8_t)m;
			ref.mods[ref.nmods].value = box->mods[m].min ? box->mods[m].min : 1;
			ref.nmods++;
		}
	struct uncore_encoding enc;
	return uncore_event_encode(&ref, &enc);
}

/* Some umask needs one of another group (no default there): any will do. */
static int encodes_with_partner(const struct uncore_box_type *box, unsigned ev, unsigned um)
{
	const intel_x86_entry_t *e = box_event(box, ev);
	for (unsigned k = 0; k < e->numasks; k++)
		if ((e->umasks[k].grpid & 0xff) != (e->umasks[um].grpid & 0xff) &&
		    !e->umasks[k].uequiv && encode_with_needs(box, ev, (int)um, (int)k) == 0)
			return 1;
	return 0;
}

static int validate_umasks(const struct uncore_box_type *box, unsigned ev)
{
	const intel_x86_entry_t *e = box_event(box, ev);
	const struct uncore_ctl_layout *ctl = box->ctl;
	int bad = 0;
	unsigned groups = 0, dfl_count[INTEL_X86_NUM_GRP] = {0}, ncombo[INTEL_X86_NUM_GRP] = {0};
	unsigned dfl_none[INTEL_X86_NUM_GRP] = {0};

	if (e->numasks && !e->umasks)
		return vproblem(box, e, NULL, "numasks %u but no umasks", e->numasks);
	if (e->numasks && (e->ngrp < 1 || e->ngrp > INTEL_X86_NUM_GRP))
		bad += vproblem(box, e, NULL, "ngrp %u with %u umasks", e->ngrp, e->numasks);
	for (unsigned i = 0; i < e->numasks; i++) {
		const intel_x86_umask_t *u = &e->umasks[i];
		unsigned g = u->grpid & 0xff;
		if (empty(u->uname) || empty(u->udesc)) {
			bad += vproblem(box, e, u, "empty name or description");
			continue;
		}
		for (unsigned k = 0; k < i; k++)
			if (!empty(e->umasks[k].uname) && !strcasecmp(e->umasks[k].uname, u->uname))
				bad += vproblem(box, e, u, "duplicate umask name");
		if (g >= e->ngrp) {
			bad += vproblem(box, e, u, "group %u but the event has %u", g, e->ngrp);
			continue;
		}
		groups |= 1u << g;
		if (u->uflags & INTEL_X86_DFL)
			dfl_count[g]++;
		if ((u->uflags | e->flags) & INTEL_X86_NCOMBO)
			ncombo[g]++;
		if (u->uflags & INTEL_X86_GRP_DFL_NONE)
			dfl_none[g]++;
		uint64_t allowed = ctl->umask | ctl->occ_sel;
		for (unsigned f = 0; f < ctl->nfields; f++)
			allowed |= ctl->fields[f].mask;
		for (unsigned m = 0; m < box->nmods; m++)
			if ((u->modhw & (1u << box->mods[m].attr)) &&
			    box->mods[m].reg == UNCORE_REG_CTL)
				allowed |= box->mods[m].field;
		if (box->flags & UNCORE_BOXF_UCODE_WHOLE) {
			if ((u->ucode << box->code_shift) & ~ctl->writable ||
			    (box->code_shift && u->ucode >> (64 - box->code_shift)))
				bad += vproblem(box, e, u, "ucode 0x%llx outside the control field",
						(unsigned long long)u->ucode);
		} else {
			if (u->ucode & ~(uint64_t)0xff & ~allowed)
				bad += vproblem(box, e, u,
						"ucode 0x%llx sets bits outside the umask field",
						(unsigned long long)u->ucode);
			if ((u->ucode & 0xff) && !(u->uflags & INTEL_X86_CODE_OVERRIDE))
				bad +=
				    vproblem(box, e, u, "ucode bits 7:0 set without CODE_OVERRIDE");
			if ((u->ucode & 0xff & ~ctl->ev_sel))
				bad += vproblem(box, e, u, "override code outside ev_sel");
		}
		if ((u->modhw | u->umodmsk_req) & ~e->modmsk)
			bad += vproblem(box, e, u,
					"modhw/umodmsk_req 0x%x not in the event's modmsk 0x%x",
					u->modhw | u->umodmsk_req, e->modmsk);
		if (u->ucntmsk && !(u->ucntmsk & e->cntmsk))
			bad += vproblem(
			    box, e, u, "ucntmsk 0x%llx shares no counter with cntmsk 0x%llx",
			    (unsigned long long)u->ucntmsk, (unsigned long long)e->cntmsk);
		for (unsigned n = 0; n < INTEL_X86_MAX_FILTERS; n++) {
			uint64_t bits =
			    (box->flags & UNCORE_BOXF_UFILTER_VALUE)
				? u->ufilters[n]
				: (u->ufilters[n] & 0xffffffffULL) | (u->ufilters[n] >> 32);
			if (!bits)
				continue;
			unsigned f = uncore_box_filter_of(box, e, n);
			if (f >= box->nfilters)
				bad +=
				    vproblem(box, e, u, "ufilters[%u] but the box has %u filters",
					     n, box->nfilters);
			else if (bits & ~v_filter_bits(box, f))
				bad += vproblem(
				    box, e, u, "ufilters[%u] 0x%llx outside the fields of %s", n,
				    (unsigned long long)u->ufilters[n], box->filters[f].name);
		}
		if (u->uequiv) {
			char buf[256];
			snprintf(buf, sizeof(buf), "%s", u->uequiv);
			for (char *t = strtok(buf, ":"); t; t = strtok(NULL, ":"))
				if (uncore_box_find_umask(box, ev, t) < 0)
					bad += vproblem(box, e, u, "alias of unknown umask %s", t);
		} else if (!bad && encode_with_needs(box, ev, (int)i, -1) &&
			   !encodes_with_partner(box, ev, i)) {
			bad +=
			    vproblem(box, e, u,
				     "encodes neither alone nor with a umask of another group: %s",
				     uncore_error_detail());
		}
	}
	for (unsigned g = 0; e->numasks && g < e->ngrp && g < INTEL_X86_NUM_GRP; g++) {
		if (!(groups & (1u << g)))
			bad += vproblem(box, e, NULL, "group %u has no umask", g);
		if (dfl_count[g] > 1 && ncombo[g])
			bad +=
			    vproblem(box, e, NULL, "group %u has %u defaults that cannot combine",
				     g, dfl_count[g]);
		if (dfl_count[g] && dfl_none[g])
			bad += vproblem(box, e, NULL, "group %u has a default and GRP_DFL_NONE", g);
	}
	return bad;
}

static int validate_event(const struct uncore_box_type *box, unsigned ev)
{
	const intel_x86_entry_t *e = box_event(box, ev);
	int bad = 0;
	if (empty(e->name) || empty(e->desc))
		return vproblem(box, e, NULL, "empty name or description");
	for (unsigned k = 0; k < ev; k++)
		if (!empty(box_event(box, k)->name) && !strcasecmp(box_event(box, k)->name, e->name))
			bad += vproblem(box, e, NULL, "duplicate event name");
	uint64_t generic = (box->ngeneric >= 64 ? ~0ULL : (1ULL << box->ngeneric) - 1)
			   << box->cntmsk_shift;
	int fixed = (e->flags & INTEL_X86_FIXED) || (e->cntmsk & box->cntmsk_fixed);
	if (!e->cntmsk)
		bad += vproblem(box, e, NULL, "cntmsk is 0");
	if (e->cntmsk & ~(generic | box->cntmsk_fixed))
		bad += vproblem(box, e, NULL,
				"cntmsk 0x%llx names counters the box lacks (has 0x%llx)",
				(unsigned long long)e->cntmsk,
				(unsigned long long)(generic | box->cntmsk_fixed));
	if (fixed && !box->nfixed)
		bad += vproblem(box, e, NULL, "fixed-counter event in a box without one");
	if (!fixed && (((uint64_t)e->code << box->code_shift) & ~box->ctl->writable))
		bad +=
		    vproblem(box, e, NULL, "code 0x%x sets bits outside the event fields", e->code);
	unsigned known = 0;
	for (unsigned m = 0; m < box->nmods; m++)
		known |= 1u << box->mods[m].attr;
	if (e->modmsk & ~known)
		bad += vproblem(box, e, NULL, "modmsk 0x%x has modifiers the box lacks (0x%x)",
				e->modmsk, e->modmsk & ~known);
	if (e->modmsk_req & ~e->modmsk)
		bad += vproblem(box, e, NULL, "modmsk_req outside modmsk");
	/* Two modifiers of one event must not share a name (t and t). */
	for (unsigned i = 0; uncore_box_event_mod(box, ev, i); i++)
		for (unsigned k = 0; k < i; k++)
			if (!strcasecmp(uncore_box_event_mod(box, ev, i)->name,
					uncore_box_event_mod(box, ev, k)->name))
				bad += vproblem(box, e, NULL, "two modifiers named %s",
						uncore_box_event_mod(box, ev, i)->name);
	if (e->equiv) {
		char buf[256];
		snprintf(buf, sizeof(buf), "%s", e->equiv);
		char *colon = strchr(buf, ':');
		if (colon)
			*colon = '\0';
		if (uncore_box_find_event(box, buf) < 0)
			bad += vproblem(box, e, NULL, "alias of unknown event %s", buf);
	}
	bad += validate_umasks(box, ev);
	if (!bad && !e->equiv) {
		/* With defaults (or, lacking them, any umask encodes, checked above). */
		int rc = encode_with_needs(box, ev, -1, -1);
		if (rc && rc != UNCORE_ENOUMASK)
			bad += vproblem(box, e, NULL, "does not encode with defaults: %s",
					uncore_error_detail());
	}
	return bad;
}

static int validate_box(const struct uncore_box_type *box)
{
	int bad = validate_box_descriptor(box);
	for (unsigned ev = 0; box->events && ev < uncore_box_nevents(box); ev++)
		bad += validate_event(box, ev);
	return bad;
}

#endif
