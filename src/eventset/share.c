/* The counters a process's event sets share (see share.h): the hub.  It
 * keeps, per distinct event and per box instance it counts on, a 64-bit
 * total that survives reprogramming: every read folds each programmed
 * counter straight into the total of the instance it holds.  The views
 * (share_view.c) map their slots to those totals. */
#include "eventset/share_internal.h"

#include "common/uncore_error.h"
#include "backend/direct/socket_lock.h"
#include "eventset/fork.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RETRY_NS 1000000000ull /* how often a reading process looks for freed sockets */

/* Used before they come (the union's cache forgotten; unused events dropped). */
static void hub_union_forget(struct uncore_share *hub);
static void hub_prune(struct uncore_share *hub);

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Same counting on the same boxes: the same box type, instance and socket
 * selection and the same encoding (control value and the filter bits it
 * depends on). */
static int same_event(const struct uncore_sched_event *a, const struct uncore_sched_event *b)
{
	const struct uncore_encoding *x = &a->enc, *y = &b->enc;
	if (a->ref.box != b->ref.box || a->ref.instance != b->ref.instance ||
	    a->ref.socket != b->ref.socket || a->ref.cpu != b->ref.cpu || x->ctl != y->ctl ||
	    x->code != y->code || x->fixed != y->fixed || x->fixed_index != y->fixed_index ||
	    x->freerun != y->freerun || x->nfilters != y->nfilters || x->counters != y->counters)
		return 0;
	for (unsigned f = 0; f < UNCORE_MAX_FILTERS; f++)
		if (x->filter_mask[f] != y->filter_mask[f] ||
		    (x->filter[f] & x->filter_mask[f]) != (y->filter[f] & y->filter_mask[f]))
			return 0;
	return 1;
}

static void free_event(struct hub_event *e)
{
	if (!e)
		return;
	free(e->name);
	free(e->inst);
	free(e);
}

/* Event e of `plan`, with the box instances it counts on: its slots there,
 * which are those it gets placed alone (an event's instances depend on it
 * and the machine only, in the scheduler's (socket, box, instance) order,
 * plan/sched.c), so it is not scheduled again. */
static int new_event(const struct uncore_plan *plan, unsigned ev, struct hub_event **out)
{
	const struct uncore_sched_event *sev = &plan->ev[ev];
	struct hub_event *e = calloc(1, sizeof(*e));
	unsigned n = plan->count[ev];
	if (!e)
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	e->sev = *sev;
	e->name = strdup(sev->name ? sev->name : "(event)");
	e->sev.name = e->name;
	e->inst = calloc(n ? n : 1, sizeof(*e->inst));
	if (!e->name || !e->inst) {
		free_event(e);
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	}
	for (unsigned k = 0; k < n; k++) {
		const struct uncore_slot *s = &plan->slots[plan->slot_index[plan->first[ev] + k]];
		e->inst[k].socket = s->socket;
		e->inst[k].box = s->box;
		e->inst[k].instance = s->instance;
		e->inst[k].uslot = -1;
		e->inst[k].live = &e->inst[k].total;
	}
	e->ninst = n;
	*out = e;
	return 0;
}

static int hub_find_inst(const struct hub_event *e, const struct uncore_slot *s)
{
	for (unsigned i = 0; i < e->ninst; i++)
		if (e->inst[i].socket == s->socket && e->inst[i].box == s->box &&
		    e->inst[i].instance == s->instance)
			return (int)i;
	return -1;
}

static void hub_find_insts(const struct hub_event *ev, const struct uncore_plan *plan, unsigned e,
			   int *slot_inst)
{
	for (unsigned j = 0; j < plan->count[e]; j++) {
		unsigned k = plan->slot_index[plan->first[e] + j];
		slot_inst[k] = hub_find_inst(ev, &plan->slots[k]);
	}
}

/* An existing event with refs taken, or a new one appended. */
static int hub_get_event(struct uncore_share *hub, const struct uncore_plan *plan, unsigned e,
			 struct hub_event **out)
{
	for (unsigned i = 0; i < hub->nev; i++)
		if (same_event(&hub->ev[i]->sev, &plan->ev[e])) {
			if (hub->ev[i]->refs++ == 0)
				hub_union_forget(hub);
			*out = hub->ev[i];
			return 0;
		}
	if (hub->nev == hub->cap) {
		unsigned cap = hub->cap ? hub->cap * 2 : 16;
		struct hub_event **n = realloc(hub->ev, cap * sizeof(*n));
		if (!n)
			return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
		hub->ev = n;
		hub->cap = cap;
	}
	int rc = new_event(plan, e, &hub->ev[hub->nev]);
	if (rc < 0)
		return rc;
	hub_union_forget(hub);
	hub->ev[hub->nev]->refs = 1;
	*out = hub->ev[hub->nev++];
	return 0;
}

/* The arrays of the programmed slots (NULL when none). */
static void free_slots(struct uncore_share *hub)
{
	free(hub->mask);
	free(hub->tot);
	if (hub->raw[0])
		free(hub->raw[0] - UNCORE_RAW_HEADROOM);
	if (hub->raw[1])
		free(hub->raw[1] - UNCORE_RAW_HEADROOM);
	free(hub->unread);
	free(hub->fanout);
	free(hub->wrap_ns);
	hub->wrap_ns = NULL;
	hub->min_wrap_ns = UINT64_MAX;
	hub->mask = NULL;
	hub->tot = NULL;
	hub->raw[0] = hub->raw[1] = NULL;
	hub->unread = NULL;
	hub->fanout = NULL;
	hub->nfanout = 0;
}

/* The wrap periods of the programmed counters, and the time of the
 * start's reading (hub_guard). */
static int guard_prepare(struct uncore_share *hub)
{
	hub->min_wrap_ns = UINT64_MAX;
	if (!hub->be->ops->wrap_ns || hub->be->value_bits)
		return 0; /* 64-bit totals: nothing can wrap */
	int rc = hub->be->ops->wrap_ns(hub->be, &hub->hw, hub->wrap_ns);
	if (rc < 0)
		return rc;
	for (unsigned k = 0; k < hub->hw.nslots; k++)
		if (hub->wrap_ns[k] < hub->min_wrap_ns)
			hub->min_wrap_ns = hub->wrap_ns[k];
	if (hub->min_wrap_ns == 0)
		hub->min_wrap_ns = 1;
	return hub->min_wrap_ns == UINT64_MAX ? 0 : uncore_clock_now_coarse(&hub->clock, &hub->fold_ns);
}

/* Fold everything counted so far into the bases and stop the backend: 0,
 * or the error of the backend's stop or unprogram (a freeze that failed,
 * issue 15), the counts read before it kept. */
static int hub_teardown(struct uncore_share *hub)
{
	char detail[256] = "";
	if (!hub->programmed) {
		/* A plan with no counter on this process's sockets (all held
		 * by others, or a fork child's) is never programmed: only its
		 * memory to give back. */
		uncore_plan_free(&hub->hw);
		free_slots(hub);
		return 0;
	}
	if (hub_sync(hub, NULL) < 0)
		uncore_error_clear(); /* what could be read is kept; no set is reading */
	for (unsigned i = 0; i < hub->nev; i++) {
		struct hub_event *e = hub->ev[i];
		for (unsigned k = 0; k < e->ninst; k++) {
			e->inst[k].total = *e->inst[k].live;
			e->inst[k].live = &e->inst[k].total;
			e->inst[k].uslot = -1;
		}
		e->in_hw = 0;
	}
	hub->layout++;
	int rc = hub->be->ops->stop(hub->be);
	if (rc < 0)
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
	/* What the backend acquired stays while a view has acquired. */
	int rc2 =
	    hub->acquired ? hub->be->ops->unprogram(hub->be) : uncore_backend_release(hub->be);
	if (rc == 0 && rc2 < 0) {
		rc = rc2;
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
	}
	uncore_error_clear();
	uncore_plan_free(&hub->hw);
	free_slots(hub);
	hub->programmed = 0;
	hub->fresh = 0;
	return rc < 0 ? uncore_fail(rc, "%s", detail) : 0;
}

static void release_sockets(struct uncore_share *hub, uint32_t keep)
{
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		if (hub->holds[s] && !(keep & (1u << s))) {
			uncore_socket_hold_release(hub->holds[s]);
			hub->holds[s] = NULL;
		}
}

/* Nothing counted: keep only the sockets acquiring views claimed. */
void hub_release_unclaimed(struct uncore_share *hub)
{
	hub->wanted = hub->claimed;
	hub->missing &= hub->claimed;
	release_sockets(hub, hub->claimed);
}

/* Another measurement group programs socket s (the node's lock, the
 * direct backend): who, and what would let both count, into hub->note[s];
 * "" when the holder is of this group. */
static void note_group(struct uncore_share *hub, unsigned s)
{
	hub->note[s][0] = '\0';
	if (!hub->group_tag)
		(void)uncore_socket_lock_foreign(hub->lock_dir, s, hub->group, NULL, 0, hub->note[s],
						 sizeof(hub->note[s]));
}

/* Who counts on socket s: the lock's holder as the lock gave it ("PID 1234
 * (cmd)", uncore_socket_hold_acquire_as), not parsed from its message. */
static void note_owner(struct uncore_share *hub, unsigned s, const char *who)
{
	if (who[0])
		snprintf(hub->owner[s], sizeof(hub->owner[s]), "counted by %s", who);
	else
		snprintf(hub->owner[s], sizeof(hub->owner[s]), "counted by another process");
	uncore_error_clear();
	note_group(hub, s);
	uncore_error_clear();
}

/* Socket s newly held by the hub: when its last holder was killed
 * without giving it back, the backend puts what it left programmed idle
 * (backend.h, socket_taken_over), before anything is programmed there. */
static void hub_took_socket(struct uncore_share *hub, unsigned s)
{
	if (uncore_socket_hold_take_stale(hub->holds[s]) && hub->be->ops->socket_taken_over)
		hub->be->ops->socket_taken_over(hub->be, s);
}

/* Hold what is wanted and free; *gained: a socket was newly taken.  Only
 * errors other than "another process has it" fail. */
static int hub_take_sockets(struct uncore_share *hub, int *gained)
{
	*gained = 0;
	hub->missing = 0;
	if (hub->forked_from) {
		hub->missing = hub->wanted; /* the parent's (fork.h) */
		return 0;
	}
	if (hub->no_socket_lock)
		return 0;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		if (!(hub->wanted & (1u << s)) || hub->holds[s])
			continue;
		char who[128];
		int rc = uncore_socket_hold_acquire_as(hub->lock_dir, s, hub->group_tag, hub->group,
						       &hub->holds[s], who, sizeof(who));
		if (rc == 0) {
			*gained = 1;
			hub->owner[s][0] = hub->note[s][0] = '\0';
			hub_took_socket(hub, s);
			continue;
		}
		if (rc != UNCORE_EBUSY)
			return rc;
		note_owner(hub, s, who);
		hub->missing |= 1u << s;
	}
	release_sockets(hub, hub->wanted);
	return 0;
}

/* The slots of `in` on sockets in `mask`, events kept in order. */
uint32_t uncore_share_held_elsewhere(struct uncore_share *hub)
{
	if (hub->no_socket_lock && !hub->forked_from)
		return 0; /* as uncore_share_holders: nothing to say */
	uint32_t n = hub->be->machine.nsockets;
	uint32_t all = n >= UNCORE_MACHINE_MAX_SOCKETS ? (uint32_t)((1ull << UNCORE_MACHINE_MAX_SOCKETS) - 1)
						   : (1u << n) - 1;
	hub_lock(&hub->mu);
	uint32_t held = hub->wanted & hub->missing & all;
	hub_unlock(&hub->mu);
	return held;
}

/* Whether every box of plan `p` is on a socket of `mask`. */
static int plan_on_sockets(const struct uncore_plan *p, uint32_t mask)
{
	for (unsigned b = 0; b < p->nboxes; b++)
		if (!(mask & (1u << p->boxes[b].socket)))
			return 0;
	return 1;
}

static int hub_keep_sockets(const struct uncore_plan *in, uint32_t mask, struct uncore_plan *out)
{
	struct uncore_plan p;
	unsigned nidx = 0; /* slot_index entries: events may share a slot */
	memset(&p, 0, sizeof(p));
	for (unsigned e = 0; e < in->nevents; e++)
		nidx += in->count[e];
	int *box_map = calloc(in->nboxes ? in->nboxes : 1, sizeof(*box_map));
	int *slot_map = calloc(in->nslots ? in->nslots : 1, sizeof(*slot_map));
	p.slots = calloc(in->nslots ? in->nslots : 1, sizeof(*p.slots));
	p.boxes = calloc(in->nboxes ? in->nboxes : 1, sizeof(*p.boxes));
	p.first = calloc(in->nevents ? in->nevents : 1, sizeof(*p.first));
	p.count = calloc(in->nevents ? in->nevents : 1, sizeof(*p.count));
	p.slot_index = calloc(nidx ? nidx : 1, sizeof(*p.slot_index));
	p.ev = calloc(in->nevents ? in->nevents : 1, sizeof(*p.ev));
	if (!box_map || !slot_map || !p.slots || !p.boxes || !p.first || !p.count ||
	    !p.slot_index || !p.ev) {
		free(box_map);
		free(slot_map);
		uncore_plan_free(&p);
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	}
	for (unsigned b = 0; b < in->nboxes; b++) {
		box_map[b] = -1;
		if (mask & (1u << in->boxes[b].socket)) {
			box_map[b] = (int)p.nboxes;
			p.boxes[p.nboxes++] = in->boxes[b];
		}
	}
	for (unsigned k = 0; k < in->nslots; k++) {
		slot_map[k] = -1;
		if (box_map[in->slots[k].boxprog] >= 0) {
			slot_map[k] = (int)p.nslots;
			p.slots[p.nslots] = in->slots[k];
			p.slots[p.nslots++].boxprog = (uint16_t)box_map[in->slots[k].boxprog];
		}
	}
	unsigned pos = 0;
	for (unsigned e = 0; e < in->nevents; e++) {
		p.first[e] = pos;
		for (unsigned j = 0; j < in->count[e]; j++) {
			int k = slot_map[in->slot_index[in->first[e] + j]];
			if (k >= 0)
				p.slot_index[pos++] = (unsigned)k;
		}
		p.count[e] = pos - p.first[e];
		if (in->ev)
			p.ev[e] = in->ev[e];
	}
	p.nevents = in->nevents;
	free(box_map);
	free(slot_map);
	*out = p;
	return 0;
}

/* The last admission's plan let go (it has events whenever it is kept). */
static void hub_admitted_drop(struct uncore_share *hub)
{
	if (hub->admitted.nevents)
		uncore_plan_free(&hub->admitted);
}

static void hub_union_forget(struct uncore_share *hub)
{
	uncore_plan_free(&hub->uplan);
	free(hub->uord);
	hub->uord = NULL;
	hub->un = 0;
	hub->uvalid = 0;
}

/* Events the scheduler places alike: same_event's, and the rest it reads
 * (the table row, for the slot's max_inc; every filter bit, for the box's
 * program). */
static int places_alike(const struct uncore_sched_event *a, const struct uncore_sched_event *b)
{
	if (!same_event(a, b) || a->ref.event != b->ref.event ||
	    a->enc.occupancy != b->enc.occupancy)
		return 0;
	for (unsigned f = 0; f < UNCORE_MAX_FILTERS; f++)
		if (a->enc.filter[f] != b->enc.filter[f])
			return 0;
	return 1;
}

/* The union's events are exactly hint's, in its order: the scheduler,
 * which depends on the events and the machine only, would place them as
 * it did hint's.  Then *out is a copy of hint, with the hub's events. */
static int union_from_hint(const struct uncore_plan *hint, struct hub_event **ord, unsigned k,
			   struct uncore_plan *out)
{
	if (!hint || hint->nevents != k || !hint->ev)
		return 0;
	for (unsigned e = 0; e < k; e++)
		if (!places_alike(&ord[e]->sev, &hint->ev[e]))
			return 0;
	int rc = hub_keep_sockets(hint, ~0u, out);
	if (rc < 0)
		return rc;
	for (unsigned e = 0; e < k; e++)
		out->ev[e] = ord[e]->sev;
	return 1;
}

/* Every event some view uses, scheduled on every socket: *full (the
 * hub's, valid until hub_union_forget) and, unless order is NULL, its
 * events in the plan's order.  `hint`: NULL, or a plan that may hold
 * exactly the union's events (a set counting alone), copied then rather
 * than scheduled again; so is the last admission's plan (hub->admitted,
 * a set started beside running ones).  0, or the scheduler's error. */
static int hub_union(struct uncore_share *hub, const struct uncore_plan *hint,
		     const struct uncore_plan **full, struct hub_event *const **order, unsigned *n)
{
	int rc = 0;
	if (!hub->uvalid) {
		struct uncore_sched_event *sev = calloc(hub->nev ? hub->nev : 1, sizeof(*sev));
		struct hub_event **ord = calloc(hub->nev ? hub->nev : 1, sizeof(*ord));
		unsigned k = 0;
		if (!sev || !ord) {
			free(sev);
			free(ord);
			return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
		}
		for (unsigned i = 0; i < hub->nev; i++)
			if (hub->ev[i]->refs) {
				ord[k] = hub->ev[i];
				sev[k++] = hub->ev[i]->sev;
			}
		rc = union_from_hint(hint, ord, k, &hub->uplan);
		if (rc == 0 && hub->admitted.nevents)
			rc = union_from_hint(&hub->admitted, ord, k, &hub->uplan);
		if (rc == 0)
			rc = uncore_schedule(&hub->be->machine, sev, k, &hub->uplan);
		hub_admitted_drop(hub); /* used, or of another union */
		free(sev);
		if (rc < 0) {
			free(ord);
			return rc;
		}
		hub->uord = ord;
		hub->un = k;
		hub->uvalid = 1;
	}
	*full = &hub->uplan;
	if (order) {
		*order = hub->uord;
		*n = hub->un;
	}
	return 0;
}

/* Add plan p's events to sev[0..*k), identical ones once (as the hub
 * counts them). */
static void add_plan_events(struct uncore_sched_event *sev, unsigned *k,
			    const struct uncore_plan *p)
{
	for (unsigned e = 0; e < p->nevents; e++) {
		unsigned j = 0;
		while (j < *k && !same_event(&sev[j], &p->ev[e]))
			j++;
		if (j == *k)
			sev[(*k)++] = p->ev[e];
	}
}

/* sev[0..k) into `out` as hub_union lists them: those the hub has in its
 * order (a program appends new events), then the others.  The scheduler's
 * success does not depend on the order (plan/sched.c: a matching per box,
 * filters merged pairwise), where it places them does. */
static void union_order(const struct uncore_share *hub, const struct uncore_sched_event *sev,
			unsigned k, struct uncore_sched_event *out)
{
	unsigned m = 0; /* same_event is an equivalence; no list holds two alike */
	for (unsigned i = 0; i < hub->nev && m < k; i++)
		for (unsigned j = 0; j < k; j++)
			if (same_event(&hub->ev[i]->sev, &sev[j])) {
				out[m++] = sev[j];
				break;
			}
	for (unsigned j = 0; j < k; j++) {
		unsigned i = 0;
		while (i < hub->nev && !same_event(&hub->ev[i]->sev, &sev[j]))
			i++;
		if (i == hub->nev)
			out[m++] = sev[j];
	}
}

/* The others' settings picked are the ones programmed now. */
static int picks_current(const struct hub_settings *other, const unsigned *pick, unsigned no)
{
	for (unsigned i = 0; i < no; i++)
		if (other[i].phases[pick[i]] != other[i].cur)
			return 0;
	return 1;
}

#define ADMISSION_MAX_COMBOS 4096 /* beyond: each other view's settings in turn */

/* Whether every plan of `plans` (the settings of a set) fits next to
 * every combination of the settings of the other acquired sets, other[0..no)
 * (at most HUB_ADMIT_OTHERS): 0, or UNCORE_ECONFLICT naming the events in
 * the way (hub_acquire). */
static int hub_check_admission(struct uncore_share *hub, const struct hub_settings *other,
			       unsigned no, const struct uncore_plan *const *plans, unsigned n)
{
	unsigned nev = 0, pick[HUB_ADMIT_OTHERS];
	uint64_t combos = 1;
	for (unsigned p = 0; p < n; p++)
		nev += plans[p]->nevents;
	for (unsigned i = 0; i < no; i++) {
		for (unsigned q = 0; q < other[i].nphases; q++)
			nev += other[i].phases[q]->nevents;
		if (combos <= ADMISSION_MAX_COMBOS)
			combos *= other[i].nphases;
	}
	hub_admitted_drop(hub);
	if (no == 0)
		return 0;
	int each = combos > ADMISSION_MAX_COMBOS;
	struct uncore_sched_event *sev = calloc(2 * (nev ? nev : 1), sizeof(*sev));
	if (!sev)
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	struct uncore_sched_event *ordered = sev + (nev ? nev : 1);
	int rc = 0;
	for (unsigned p = 0; rc == 0 && p < n; p++) {
		/* Every combination of the others' settings, a mixed-radix
		 * count (each: one other's settings at a time, the rest at 0). */
		memset(pick, 0, sizeof(pick));
		for (unsigned turn = 0; rc == 0;) {
			unsigned k = 0;
			struct uncore_plan full;
			add_plan_events(sev, &k, plans[p]);
			for (unsigned i = 0; i < no; i++)
				add_plan_events(sev, &k, other[i].phases[pick[i]]);
			union_order(hub, sev, k, ordered);
			rc = uncore_schedule(&hub->be->machine, ordered, k, &full);
			if (rc == 0 && p == 0 && !hub->admitted.nevents && picks_current(other, pick, no))
				hub->admitted = full; /* the start's union (hub_union) */
			else if (rc == 0)
				uncore_plan_free(&full);
			unsigned i = each ? turn : 0;
			if (each) {
				while (i < no && ++pick[i] >= other[i].nphases) {
					pick[i] = 0;
					i = ++turn;
				}
			} else {
				while (i < no && ++pick[i] >= other[i].nphases)
					pick[i++] = 0;
			}
			if (i >= no)
				break;
		}
	}
	free(sev);
	if (rc < 0)
		hub_admitted_drop(hub);
	return rc;
}

/* A conflict with the other running sets, as a set's start says it (its
 * admission, or the union it joins); other codes as they are. */
static int conflict_beside(int rc)
{
	if (rc != UNCORE_ECONFLICT)
		return rc;
	char detail[512];
	snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
	return uncore_fail(UNCORE_ECONFLICT,
			   "cannot count next to the other running event sets of this process: %s; "
			   "stop some of them first",
			   detail);
}

int hub_acquire(struct uncore_share *hub, const struct hub_settings *other, unsigned no,
		const struct uncore_plan *const *plans, unsigned n, uint32_t want)
{
	int gained;
	/* Conflicts are found now, never at a later change of setting. */
	int rc = conflict_beside(hub_check_admission(hub, other, no, plans, n));
	if (rc < 0)
		return rc;
	hub->wanted |= want;
	rc = hub_take_sockets(hub, &gained);
	if (gained && hub->programmed)
		hub->regained = 1;
	for (unsigned p = 0; p < n && rc == 0 && !hub->forked_from; p++) {
		/* fork.h: a fork child's hub makes no backend call.  A plan
		 * whose sockets are all this process's is acquired as it is;
		 * one with a socket held elsewhere, without that socket's boxes. */
		struct uncore_plan mine;
		const struct uncore_plan *one = plans[p];
		int copied = !plan_on_sockets(plans[p], hub->wanted & ~hub->missing);
		if (copied && (rc = hub_keep_sockets(plans[p], hub->wanted & ~hub->missing, &mine)) < 0)
			break;
		if (copied)
			one = &mine;
		rc = uncore_backend_acquire(hub->be, &one, 1);
		if (copied)
			uncore_plan_free(&mine);
	}
	if (rc < 0 && !hub->acquired && !hub->programmed && !hub->forked_from) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		uncore_backend_release(hub->be);
		hub_release_unclaimed(hub);
		rc = uncore_error_restore(&err);
	}
	return rc;
}

int hub_join(struct uncore_share *hub, const struct uncore_plan *plan, struct hub_event **evs,
	     unsigned *nev, int *slot_inst)
{
	int rc = 0;
	for (unsigned e = 0; rc == 0 && e < plan->nevents; e++) {
		rc = hub_get_event(hub, plan, e, &evs[e]);
		if (rc == 0)
			*nev = e + 1;
	}
	if (rc == 0) {
		/* Fits next to the other sets' events? */
		const struct uncore_plan *full;
		rc = conflict_beside(hub_union(hub, plan, &full, NULL, NULL));
	}
	for (unsigned e = 0; rc == 0 && e < plan->nevents; e++)
		hub_find_insts(evs[e], plan, e, slot_inst);
	return rc;
}

int hub_leave(struct uncore_share *hub, struct hub_event *const *evs, unsigned nev, int prune)
{
	unsigned used = 0;
	int rc = 0;
	for (unsigned e = 0; e < nev; e++)
		if (evs[e] && --evs[e]->refs == 0)
			hub_union_forget(hub);
	for (unsigned i = 0; i < hub->nev; i++)
		used += hub->ev[i]->refs != 0;
	if (used == 0) {
		rc = hub_teardown(hub);
		hub_release_unclaimed(hub);
	}
	/* Events nobody uses; the programmed plan still counts them. */
	if (used == 0 || prune)
		hub_prune(hub);
	return rc;
}

/* Drop the events no view uses that the programmed plan does not count. */
static void hub_prune(struct uncore_share *hub)
{
	unsigned k = 0;
	for (unsigned i = 0; i < hub->nev; i++) {
		/* One the programmed plan still counts keeps its instances: the
		 * folds write into them (until the next teardown). */
		if (hub->ev[i]->refs || hub->ev[i]->in_hw)
			hub->ev[k++] = hub->ev[i];
		else
			free_event(hub->ev[i]);
	}
	hub->nev = k;
}

/* Program the backend with the union of the used events on the sockets
 * this process may hold, and start it; counting of the events already
 * counted continues from their totals. */
int hub_rebuild(struct uncore_share *hub)
{
	const struct uncore_plan *full;
	struct hub_event *const *ord = NULL;
	uint8_t *taken = NULL; /* per slot of hw: an instance keeps its total there */
	unsigned n = 0;
	int gained, rc;

	hub->regained = 0;
	if (hub_teardown(hub) < 0)
		uncore_error_clear(); /* reprogrammed next: the counts were kept */
	hub_prune(hub);
	if (hub->nev == 0) {
		hub_release_unclaimed(hub);
		return 0;
	}
	rc = hub_union(hub, NULL, &full, &ord, &n);
	if (rc < 0)
		return rc;
	hub->wanted = hub->claimed;
	for (unsigned k = 0; k < full->nslots; k++)
		hub->wanted |= 1u << full->slots[k].socket;
	rc = hub_take_sockets(hub, &gained);
	if (rc == 0)
		rc = hub_keep_sockets(full, hub->wanted & ~hub->missing, &hub->hw);
	if (rc < 0)
		return rc;
	hub->last_retry_ns = mono_ns();
	if (hub->hw.nslots) {
		unsigned nidx = 0;
		for (unsigned e = 0; e < hub->hw.nevents; e++)
			nidx += hub->hw.count[e];
		unsigned ns = hub->hw.nslots;
		hub->mask = calloc(ns, sizeof(*hub->mask));
		hub->tot = calloc(ns, sizeof(*hub->tot));
		/* The backend's headroom in front of each (backend.h,
		 * read_headroom). */
		for (int b = 0; b < 2; b++) {
			uint64_t *r = calloc(UNCORE_RAW_HEADROOM + ns, sizeof(*r));
			hub->raw[b] = r ? r + UNCORE_RAW_HEADROOM : NULL;
		}
		hub->unread = calloc(ns, sizeof(*hub->unread));
		hub->fanout = calloc(nidx ? nidx : 1, sizeof(*hub->fanout));
		hub->wrap_ns = calloc(ns, sizeof(*hub->wrap_ns));
		taken = calloc(ns, sizeof(*taken));
		hub->cur = 0;
		rc = hub->mask && hub->tot && hub->raw[0] && hub->raw[1] && hub->unread &&
			     hub->fanout && hub->wrap_ns && taken
			 ? 0
			 : uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
		if (rc == 0)
			rc = hub->be->ops->program(hub->be, &hub->hw);
		if (rc == 0) {
			hub->programmed = 1;
			rc = hub->be->ops->start(hub->be);
		}
		if (rc == 0)
			rc = hub_read_start(hub); /* timed: a set's origin (issue 27) */
		if (rc == 0)
			rc = guard_prepare(hub);
		hub->cur = 1; /* the start's reading is the one before the next */
		for (unsigned k = 0; rc == 0 && k < hub->hw.nslots; k++) {
			unsigned w =
			    hub->be->value_bits ? hub->be->value_bits : hub->hw.slots[k].width;
			if (w < 1 || w > 64) {
				rc = uncore_fail(UNCORE_EINVAL,
						 "counter width %u is not within 1..64 bits", w);
				break;
			}
			/* A shift by 64 is undefined in C: the mask in two steps. */
			hub->mask[k] = w == 64 ? ~0ull : (1ull << w) - 1;
		}
	}
	hub->fresh = rc == 0 && hub->programmed;
	if (rc == 0)
		for (unsigned e = 0; e < n; e++) {
			struct hub_event *he = ord[e];
			for (unsigned j = 0; j < hub->hw.count[e]; j++) {
				unsigned k = hub->hw.slot_index[hub->hw.first[e] + j];
				int i = hub_find_inst(he, &hub->hw.slots[k]);
				if (i < 0)
					continue;
				/* The first instance on a counter keeps its total
				 * in tot; another one (fanout) in its own. */
				he->inst[i].uslot = (int)k;
				if (!taken[k]) {
					taken[k] = 1;
					hub->tot[k] = he->inst[i].total;
					he->inst[i].live = &hub->tot[k];
				} else
					hub->fanout[hub->nfanout++] =
					    (struct hub_fanout){k, &he->inst[i].total};
			}
			he->in_hw = 1;
		}
	free(taken);
	hub->layout++;
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		if (hub->programmed)
			hub_teardown(hub);
		else {
			uncore_plan_free(&hub->hw);
			free_slots(hub);
		}
		return uncore_error_restore(&err);
	}
	for (unsigned e = 0; e < hub->nev; e++)
		if (hub->ev[e]->refs)
			hub->ev[e]->in_hw = 1;
	return 0;
}

/* A holder that went away: take its socket and count there too. */
void hub_retry_missing_now(struct uncore_share *hub, int force)
{
	int gained = 0;
	uint64_t now = mono_ns();
	if (hub->forked_from || (!force && now - hub->last_retry_ns < RETRY_NS))
		return;
	hub->last_retry_ns = now;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		if (!(hub->missing & (1u << s)))
			continue;
		if (uncore_socket_hold_acquire_as(hub->lock_dir, s, hub->group_tag, hub->group,
						  &hub->holds[s], NULL, 0) == 0) {
			gained = 1;
			hub->missing &= ~(1u << s);
			hub->owner[s][0] = hub->note[s][0] = '\0';
			hub_took_socket(hub, s);
		}
		uncore_error_clear();
	}
	if (gained && hub_rebuild(hub) < 0)
		uncore_error_clear(); /* counting goes on where it can; the next start reports */
}

/* fork (fork.h): no read or change half done before it... */
static void hub_fork_lock(void *hub)
{
	hub_lock(&((struct uncore_share *)hub)->mu);
}

static void hub_fork_unlock(void *hub)
{
	hub_unlock(&((struct uncore_share *)hub)->mu);
}

/* ...and in the child the counters are the parent's: the totals stop where
 * they are, nothing is programmed from here again (so no register of the
 * parent's counting is written, and the backend is never destroyed here),
 * the socket holds are let go without dropping the parent's locks, and
 * every socket reads 0, saying why. */
static void hub_fork_child(void *x)
{
	struct uncore_share *hub = x;
	int parent = (int)getppid();
	hub_lock_init(&hub->mu);
	for (unsigned i = 0; i < hub->nev; i++) {
		struct hub_event *e = hub->ev[i];
		for (unsigned k = 0; k < e->ninst; k++) {
			e->inst[k].total = *e->inst[k].live;
			e->inst[k].live = &e->inst[k].total;
			e->inst[k].uslot = -1;
		}
		e->in_hw = 0;
	}
	uncore_plan_free(&hub->hw);
	free_slots(hub);
	hub->programmed = 0;
	hub->fresh = 0;
	hub->layout++;
	hub->forked_from = parent > 0 ? parent : 1;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		/* Counted by the parent: held, or (no lock: a process alone on
		 * the perf backend) wanted and not another's. */
		int parents = hub->holds[s] || (hub->no_socket_lock && (hub->wanted & (1u << s)) &&
						!(hub->missing & (1u << s)));
		if (parents)
			snprintf(hub->owner[s], sizeof(hub->owner[s]),
				 "counted by PID %d (the parent of this forked process)", parent);
		else
			snprintf(hub->owner[s], sizeof(hub->owner[s]),
				 "not counted in this child of PID %d (fork): PAPI_shutdown and "
				 "PAPI_library_init count here",
				 parent);
		hub->note[s][0] = '\0';
		uncore_socket_hold_release(hub->holds[s]); /* an orphan now */
		hub->holds[s] = NULL;
	}
	hub->missing = hub->wanted;
}

static const struct uncore_fork_ops hub_fork_ops = {
    .lock = hub_fork_lock, .unlock = hub_fork_unlock, .child = hub_fork_child};

int uncore_share_create(struct uncore_backend *be, const struct uncore_share_config *cfg,
			struct uncore_share **out)
{
	struct uncore_share *hub;
	if (!be)
		return uncore_fail(UNCORE_EINVAL, "sharing counters without a backend");
	hub = calloc(1, sizeof(*hub));
	if (!hub)
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	if (cfg && cfg->lock_dir && !(hub->lock_dir = strdup(cfg->lock_dir))) {
		free(hub);
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	}
	hub->no_socket_lock = cfg ? cfg->no_socket_lock : 0;
	/* One owner of the sockets: the hub holds what it has the backend
	 * program (hub_take_sockets; the backend takes no hold of its own). */
	be->sockets_held_by_owner = !hub->no_socket_lock;
	uncore_clock_host(&hub->clock);
	hub->min_wrap_ns = UINT64_MAX;
	hub_lock_init(&hub->mu);
	hub->refs = 1;
	hub->be = be;
	/* The hub's raw buffers have the headroom (backend.h). */
	hub->read = be->ops->read_headroom ? be->ops->read_headroom : be->ops->read;
	uncore_fork_init();
	uncore_fork_add(UNCORE_FORK_HUBS, hub, &hub_fork_ops);
	*out = hub;
	return 0;
}

void uncore_share_set_clock(struct uncore_share *hub, const struct uncore_clock *clock)
{
	hub_lock(&hub->mu);
	hub->clock = *clock;
	hub_unlock(&hub->mu);
}

int uncore_share_set_group(struct uncore_share *hub, const char *group, const char *tag)
{
	char *g = group ? strdup(group) : NULL, *t = tag ? strdup(tag) : NULL;
	if ((group && !g) || (tag && !t)) {
		free(g);
		free(t);
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	}
	hub_lock(&hub->mu);
	free(hub->group);
	free(hub->group_tag);
	hub->group = g;
	hub->group_tag = t;
	hub_unlock(&hub->mu);
	return 0;
}

void uncore_share_release(struct uncore_share *hub)
{
	if (!hub)
		return;
	hub_lock(&hub->mu);
	unsigned left = --hub->refs;
	hub_unlock(&hub->mu);
	if (left)
		return;
	uncore_fork_remove(UNCORE_FORK_HUBS, hub);
	if (hub_teardown(hub) < 0)
		uncore_error_clear();
	hub_union_forget(hub);
	hub_admitted_drop(hub);
	for (unsigned i = 0; i < hub->nev; i++)
		free_event(hub->ev[i]);
	free(hub->ev);
	/* A fork child's backend is its parent's counting: left as it is.
	 * The sockets are given back after the backend's last write. */
	if (!hub->forked_from)
		hub->be->ops->destroy(hub->be);
	release_sockets(hub, 0);
	free(hub->lock_dir);
	free(hub->group);
	free(hub->group_tag);
	free(hub);
}
