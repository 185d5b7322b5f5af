/* Counter scheduling (see sched.h): expand each event to the box instances it
 * counts on, then, box instance by box instance, merge filters and match
 * distinct encodings to counters. */
#include "plan/sched.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct target {
	uint16_t socket;
	uint8_t box;
	uint8_t instance;
	unsigned event;
};

/* The Max. Inc/Cyc of event `ev` of the box, from the manual's table or
 * the supplement's; 0 when the tables do not say. */
static unsigned event_maxinc(const struct uncore_box_type *box, unsigned ev)
{
	if (ev < box->nevents)
		return box->maxinc ? box->maxinc[ev] : 0;
	if (uncore_box_event_is_supplement(box, ev) && box->supplement_maxinc)
		return box->supplement_maxinc[ev - box->nevents];
	return 0;
}

static int target_cmp(const void *pa, const void *pb)
{
	const struct target *a = pa, *b = pb;
	if (a->socket != b->socket)
		return a->socket < b->socket ? -1 : 1;
	if (a->box != b->box)
		return a->box < b->box ? -1 : 1;
	if (a->instance != b->instance)
		return a->instance < b->instance ? -1 : 1;
	return a->event < b->event ? -1 : a->event > b->event;
}

/* The box instance a message names ("hswep_unc_imc3 on socket 1"), in buf. */
static const char *box_label(const struct uncore_machine *m, unsigned box, unsigned inst,
			     unsigned socket, char *buf, size_t len)
{
	char name[64];
	if (uncore_box_instance_name(m->plat->boxes[box], (int)inst, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "%s", m->plat->boxes[box]->name);
	snprintf(buf, len, "%s on socket %u", name, socket);
	return buf;
}

/* Which sockets an event counts on: a bit mask, or a negative error. */
static int event_sockets(const struct uncore_machine *m, const struct uncore_sched_event *e,
			 uint32_t *mask)
{
	int socket = e->ref.socket;

	if (e->ref.cpu != UNCORE_ALL) {
		unsigned s;
		int rc = uncore_machine_socket_of_cpu(m, e->ref.cpu, &s);
		if (rc < 0)
			return rc;
		if (socket != UNCORE_ALL && (unsigned)socket != s)
			return uncore_fail(UNCORE_EINVAL, "%s: cpu=%d is on socket %u, not socket=%d",
					   e->name, e->ref.cpu, s, socket);
		socket = (int)s;
	}
	if (socket == UNCORE_ALL) {
		*mask = m->nsockets >= 32 ? 0xffffffffu : (1u << m->nsockets) - 1;
		return 0;
	}
	if ((unsigned)socket >= m->nsockets)
		return uncore_fail(UNCORE_ENODEV, "%s: socket=%d, but this machine has %u socket%s (0-%u)",
				   e->name, socket, m->nsockets, m->nsockets == 1 ? "" : "s",
				   m->nsockets - 1);
	*mask = 1u << socket;
	return 0;
}

/* Append the targets of event `ei`; returns the new count or a negative error. */
static int expand_event(const struct uncore_machine *m, const struct uncore_sched_event *e,
			unsigned ei, struct target *t, unsigned nt)
{
	int box = uncore_machine_box_index(m, e->ref.box);
	uint32_t sockets = 0;
	unsigned added = 0;
	int rc;

	if (box < 0)
		return uncore_fail(UNCORE_ENODEV, "%s: %s boxes are not part of this machine's platform (%s)",
				   e->name, e->ref.box->name, m->plat->name);
	rc = event_sockets(m, e, &sockets);
	if (rc < 0)
		return rc;
	for (unsigned s = 0; s < m->nsockets; s++) {
		if (!(sockets & (1u << s)))
			continue;
		const struct uncore_instances *present = &m->present[box][s];
		for (unsigned i = 0; i < UNCORE_MAX_INSTANCES; i++) {
			if (!uncore_inst_has(present, i))
				continue;
			if (e->ref.instance != UNCORE_ALL && (unsigned)e->ref.instance != i)
				continue;
			t[nt + added].socket = (uint16_t)s;
			t[nt + added].box = (uint8_t)box;
			t[nt + added].instance = (uint8_t)i;
			t[nt + added].event = ei;
			added++;
		}
	}
	if (added == 0) {
		char name[64];
		const char *note = box < 64 && ((m->absent_boxes >> box) & 1u) ? m->absent_note : "";
		if (e->ref.instance != UNCORE_ALL &&
		    uncore_box_instance_name(e->ref.box, e->ref.instance, name, sizeof(name)) == 0)
			return uncore_fail(UNCORE_ENODEV, "%s: box %s is not present on %s%s%s%s", e->name,
					   name, e->ref.socket == UNCORE_ALL ? "any socket" : "that socket",
					   note[0] ? " (" : "", note, note[0] ? ")" : "");
		return uncore_fail(UNCORE_ENODEV, "%s: no %s box is present on %s%s%s%s", e->name,
				   e->ref.box->name,
				   e->ref.socket == UNCORE_ALL ? "this machine" : "that socket",
				   note[0] ? " (" : "", note, note[0] ? ")" : "");
	}
	return (int)(nt + added);
}

/* Kuhn's augmenting path: try to give user `u` a counter. */
static int augment(unsigned u, const uint64_t *allowed, unsigned ncounters, int *owner,
		   uint32_t *seen)
{
	for (unsigned c = 0; c < ncounters; c++) {
		if (!(allowed[u] & (1ull << c)) || (*seen & (1u << c)))
			continue;
		*seen |= 1u << c;
		if (owner[c] < 0 || augment((unsigned)owner[c], allowed, ncounters, owner, seen)) {
			owner[c] = (int)u;
			return 1;
		}
	}
	return 0;
}

static int same_encoding(const struct uncore_encoding *a, const struct uncore_encoding *b)
{
	/* Fixed counters differ by index (Skylake's five free-running IMC
	 * counters all have ctl 0). */
	return a->ctl == b->ctl && a->fixed == b->fixed && a->counters == b->counters &&
	       (!a->fixed || (a->fixed_index == b->fixed_index && a->code == b->code));
}

static int list_counters(uint64_t mask, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned c = 0; c < 64 && used < len; c++)
		if (mask & (1ull << c))
			used += (size_t)snprintf(buf + used, len - used, "%s%u", used ? "," : "", c);
	return 0;
}

/* The name of the first filter register two encodings need different
 * values of ("" when the box names none). */
static const char *filter_name(const struct uncore_box_type *box, const struct uncore_encoding *a,
			       const struct uncore_encoding *b)
{
	for (unsigned n = 0; n < box->nfilters && n < UNCORE_MAX_FILTERS; n++)
		if ((a->filter[n] ^ b->filter[n]) & a->filter_mask[n] & b->filter_mask[n])
			return box->filters[n].name ? box->filters[n].name : "";
	return "";
}

/* The box instance of place_box's targets, named only in a message: an
 * event set that fits never builds its name. */
#define WHERE box_label(m, t[0].box, t[0].instance, t[0].socket, where, sizeof(where))

/* Place the events of one box instance (targets t[0..n)). */
static int place_box(const struct uncore_machine *m, const struct uncore_sched_event *ev,
		     const struct target *t, unsigned n, struct uncore_plan *p, unsigned *slot_of)
{
	const struct uncore_box_type *box = m->plat->boxes[t[0].box];
	struct uncore_boxprog *bp = &p->boxes[p->nboxes];
	struct uncore_encoding acc;
	unsigned uniq[64], nuniq = 0; /* first target index of each distinct encoding */
	unsigned uniq_of[64];
	char where[96];
	if (n > 64)
		return uncore_fail(UNCORE_ECONFLICT, "box full: %u events on %s", n, WHERE);
	memset(&acc, 0, sizeof(acc));
	acc.nfilters = (uint8_t)box->nfilters;
	for (unsigned k = 0; k < n; k++) {
		const struct uncore_sched_event *e = &ev[t[k].event];
		if (uncore_filters_merge(&acc, &e->enc) < 0) {
			for (unsigned j = 0; j < k; j++) {
				const struct uncore_sched_event *o = &ev[t[j].event];
				if (!uncore_filters_compatible(&o->enc, &e->enc))
					return uncore_fail(
						UNCORE_ECONFLICT,
						"filter conflict on %s: %s and %s need different values of "
						"the box's filter register%s%s; count them in separate event "
						"sets, or on different boxes with :box=N",
						WHERE, o->name, e->name, box->nfilters ? " " : "",
						filter_name(box, &o->enc, &e->enc));
			}
			return uncore_fail(UNCORE_ECONFLICT, "filter conflict on %s: %s", WHERE, e->name);
		}
		unsigned u;
		for (u = 0; u < nuniq; u++)
			if (same_encoding(&ev[t[uniq[u]].event].enc, &e->enc))
				break;
		if (u == nuniq)
			uniq[nuniq++] = k;
		uniq_of[k] = u;
	}

	/* Fixed counters: one encoding at most on each. */
	int fixed_owner[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
	uint64_t allowed[64];
	unsigned ngen = 0, gen_users[64];
	for (unsigned u = 0; u < nuniq; u++) {
		const struct uncore_sched_event *e = &ev[t[uniq[u]].event];
		if (e->enc.fixed) {
			unsigned fi = e->enc.fixed_index;
			if (box->nfixed == 0)
				return uncore_fail(UNCORE_ECONFLICT, "%s needs a fixed counter, which %s lacks",
						   e->name, WHERE);
			if (fi >= box->nfixed || fi >= 8)
				return uncore_fail(UNCORE_ECONFLICT, "%s needs fixed counter %u, which %s lacks",
						   e->name, fi, WHERE);
			if (fixed_owner[fi] >= 0 && box->nfixed == 1)
				return uncore_fail(UNCORE_ECONFLICT,
						   "box full: %s and %s both need the one fixed counter of %s",
						   ev[t[uniq[fixed_owner[fi]]].event].name, e->name, WHERE);
			if (fixed_owner[fi] >= 0)
				return uncore_fail(UNCORE_ECONFLICT,
						   "box full: %s and %s both need fixed counter %u of %s",
						   ev[t[uniq[fixed_owner[fi]]].event].name, e->name, fi, WHERE);
			fixed_owner[fi] = (int)u;
			continue;
		}
		uint64_t all = box->ngeneric >= 64 ? ~0ull : (1ull << box->ngeneric) - 1;
		allowed[ngen] = e->enc.counters & all;
		gen_users[ngen++] = u;
	}
	if (ngen > box->ngeneric) {
		char names[200];
		size_t used = 0;
		names[0] = '\0';
		for (unsigned g = 0; g < ngen && used < sizeof(names); g++)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", g ? ", " : "",
						 ev[t[uniq[gen_users[g]]].event].name);
		return uncore_fail(UNCORE_ECONFLICT,
				   "box full: %s has %u counters but %u events need one (%s); remove "
				   "events or split them over event sets",
				   WHERE, box->ngeneric, ngen, names);
	}
	int owner[64];
	for (unsigned c = 0; c < 64; c++)
		owner[c] = -1;
	for (unsigned g = 0; g < ngen; g++) {
		uint32_t seen = 0;
		if (!augment(g, allowed, box->ngeneric, owner, &seen)) {
			const struct uncore_sched_event *e = &ev[t[uniq[gen_users[g]]].event];
			char cl[64], holders[160];
			size_t used = 0;
			list_counters(allowed[g], cl, sizeof(cl));
			holders[0] = '\0';
			for (unsigned c = 0; c < box->ngeneric && used < sizeof(holders); c++)
				if ((allowed[g] & (1ull << c)) && owner[c] >= 0)
					used += (size_t)snprintf(
						holders + used, sizeof(holders) - used, "%s%s", used ? ", " : "",
						ev[t[uniq[gen_users[owner[c]]]].event].name);
			return uncore_fail(UNCORE_ECONFLICT,
					   "counter restriction: %s can only use counter%s %s of %s, "
					   "taken by %s",
					   e->name, strchr(cl, ',') ? "s" : "", allowed[g] ? cl : "(none)",
					   WHERE, holders[0] ? holders : "other events");
		}
	}

	/* Build the box program and one slot per distinct encoding. */
	memset(bp, 0, sizeof(*bp));
	bp->socket = t[0].socket;
	bp->box = t[0].box;
	bp->instance = t[0].instance;
	bp->nfilters = (uint8_t)box->nfilters;
	memcpy(bp->filter, acc.filter, sizeof(bp->filter));
	memcpy(bp->filter_mask, acc.filter_mask, sizeof(bp->filter_mask));
	unsigned slot_base = p->nslots;
	unsigned uniq_slot[64];
	for (unsigned u = 0; u < nuniq; u++) {
		const struct uncore_sched_event *e = &ev[t[uniq[u]].event];
		struct uncore_slot *s = &p->slots[p->nslots];
		s->socket = t[0].socket;
		s->box = t[0].box;
		s->instance = t[0].instance;
		s->boxprog = (uint16_t)p->nboxes;
		s->ctl = e->enc.ctl;
		s->code = e->enc.code;
		memcpy(s->filter_mask, e->enc.filter_mask, sizeof(s->filter_mask));
		s->fixed_index = 0;
		/* The table's Max. Inc/Cyc (fixed counters: one clock per cycle);
		 * 0 when the tables do not say. */
		s->max_inc = e->enc.fixed ? 1 : event_maxinc(box, e->ref.event);
		if (e->enc.fixed) {
			s->counter = UNCORE_SLOT_FIXED;
			s->fixed_index = e->enc.fixed_index;
			s->width = (uint8_t)box->fixed_width;
			bp->fixed_used |= (uint8_t)(1u << e->enc.fixed_index);
		} else {
			for (unsigned c = 0; c < box->ngeneric; c++) {
				if (owner[c] >= 0 && gen_users[owner[c]] == u) {
					s->counter = (uint8_t)c;
					bp->counters_used |= (uint8_t)(1u << c);
				}
			}
			s->width = (uint8_t)box->counter_width;
		}
		uniq_slot[u] = slot_base + u;
		p->nslots++;
	}
	for (unsigned k = 0; k < n; k++)
		slot_of[k] = uniq_slot[uniq_of[k]];
	p->nboxes++;
	return 0;
}
#undef WHERE

void uncore_plan_free(struct uncore_plan *plan)
{
	if (!plan)
		return;
	free(plan->slots);
	free(plan->boxes);
	free(plan->first);
	free(plan->count);
	free(plan->slot_index);
	free(plan->ev);
	memset(plan, 0, sizeof(*plan));
}

int uncore_schedule(const struct uncore_machine *m, const struct uncore_sched_event *ev,
		    unsigned n, struct uncore_plan *out)
{
	struct uncore_plan p;
	struct target *t = NULL;
	unsigned *slot_of = NULL;
	unsigned nt = 0, cap = 0;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	for (unsigned e = 0; e < n; e++)
		cap += m->nsockets * UNCORE_MAX_INSTANCES;
	if (cap == 0)
		cap = 1;
	t = calloc(cap, sizeof(*t));
	slot_of = calloc(cap, sizeof(*slot_of));
	p.slots = calloc(cap, sizeof(*p.slots));
	p.boxes = calloc(cap, sizeof(*p.boxes));
	p.first = calloc(n ? n : 1, sizeof(*p.first));
	p.count = calloc(n ? n : 1, sizeof(*p.count));
	p.slot_index = calloc(cap, sizeof(*p.slot_index));
	p.ev = calloc(n ? n : 1, sizeof(*p.ev));
	if (!t || !slot_of || !p.slots || !p.boxes || !p.first || !p.count || !p.slot_index ||
	    !p.ev) {
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory scheduling %u events", n);
		goto out;
	}
	for (unsigned e = 0; e < n; e++) {
		int r = expand_event(m, &ev[e], e, t, nt);
		if (r < 0) {
			rc = r;
			goto out;
		}
		nt = (unsigned)r;
	}
	qsort(t, nt, sizeof(*t), target_cmp);
	for (unsigned k = 0; k < nt;) {
		unsigned j = k + 1;
		while (j < nt && t[j].socket == t[k].socket && t[j].box == t[k].box &&
		       t[j].instance == t[k].instance)
			j++;
		rc = place_box(m, ev, &t[k], j - k, &p, &slot_of[k]);
		if (rc < 0)
			goto out;
		k = j;
	}
	/* Per event, its slots in target order (socket, box, instance). */
	unsigned pos = 0;
	for (unsigned e = 0; e < n; e++) {
		p.first[e] = pos;
		for (unsigned k = 0; k < nt; k++)
			if (t[k].event == e)
				p.slot_index[pos++] = slot_of[k];
		p.count[e] = pos - p.first[e];
	}
	p.nevents = n;
	if (n)
		memcpy(p.ev, ev, n * sizeof(*ev));
	*out = p;
	memset(&p, 0, sizeof(p));
out:
	uncore_plan_free(&p);
	free(t);
	free(slot_of);
	return rc;
}
