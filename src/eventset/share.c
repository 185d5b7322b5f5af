/* The counters a process's event sets share (see share.h).  The hub keeps,
 * per distinct event and per box instance it counts on, a 64-bit total
 * that survives reprogramming: every read folds each programmed counter
 * straight into the total of the instance it holds.  A view maps each slot
 * of its set's plan to one such (event, instance) total, by address, so
 * that a set's read sums totals without a lookup (uncore_share_view_sum). */
#include "eventset/share.h"

#include "backend/direct/socket_hold.h"
#include "common/uncore_error.h"
#include "common/unroll.h"
#include "plan/sched.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RETRY_NS 1000000000ull /* how often a reading process looks for freed sockets */

struct hub_inst {
	uint16_t socket;
	uint8_t box, instance;
	int uslot;      /* slot of the programmed plan counting it, or -1 */
	uint64_t total; /* counts of every programming so far */
};

/* The fold of one programmed counter (counter_fold.h's, into the total of
 * the instance it counts: the instance outlives the programming). */
struct hub_fold {
	uint64_t last;   /* last raw reading */
	uint64_t mask;   /* 2^width - 1 */
	uint64_t *total; /* its instance's */
};

/* A counter whose counts also go to another instance's total: the
 * scheduler counts identical encodings of two events (one on every socket,
 * one on socket 1, say) on one counter (plan/sched.h, slot_index). */
struct hub_fanout {
	unsigned slot;
	uint64_t *total;
};

/* One distinct event of the union. */
struct hub_event {
	struct uncore_sched_event sev;
	char *name;
	unsigned refs; /* programmed views using it */
	int in_hw;     /* part of the programmed plan */
	unsigned ninst;
	struct hub_inst *inst;
};

struct uncore_share {
	pthread_mutex_t mu;
	unsigned refs;
	struct uncore_backend *be;
	char *lock_dir;
	int no_socket_lock;
	struct hub_event **ev;
	unsigned nev, cap;
	struct uncore_plan hw; /* the union, on the sockets held */
	int programmed;
	/* The counters were read at their start and nothing happened since:
	 * the next set's first read (its start value) is that reading, so a
	 * set started alone counts from the very start of the counters, with
	 * no second read (the register sequence of a lone set is unchanged). */
	int fresh;
	struct hub_fold *folds; /* per slot of hw */
	struct hub_fanout *fanout;
	unsigned nfanout;
	uint64_t *raw;
	uint64_t sink;    /* total of a slot no instance claims (none does) */
	uint32_t wanted;  /* sockets the union counts on, and those claimed */
	uint32_t missing; /* of those, held by another process */
	/* Views that took ownership of their plans (backend.h, acquire), and
	 * the sockets those plans use: held, and the backend keeps what it
	 * acquired, until the last of those views releases. */
	unsigned acquired;
	uint32_t claimed;
	struct uncore_socket_hold *holds[UNCORE_MACHINE_MAX_SOCKETS];
	char owner[UNCORE_MACHINE_MAX_SOCKETS][160];
	uint64_t last_retry_ns;
	/* Counting stopped for a while on part of the machine (backend.h's
	 * counting_interrupted): bumped per report, each view passes it on. */
	unsigned interrupt_gen;
	char interrupted_detail[160];
};

struct share_view {
	struct uncore_backend base;
	struct uncore_share *hub;
	const struct uncore_plan *plan;
	unsigned nev;
	struct hub_event **evs;     /* per plan event */
	struct hub_event **slot_ev; /* per plan slot */
	int *slot_inst;             /* per plan slot: instance in slot_ev, or -1 */
	/* Per plan slot: the total of that instance (&zero_total: none),
	 * resolved at program time: a read is one load per slot. */
	const uint64_t **slot_total;
	uint64_t *snap; /* values at stop */
	int running;
	int acquired;
	unsigned seen_gen; /* hub->interrupt_gen passed on so far */
};

static const uint64_t zero_total;
static const struct uncore_backend_ops view_ops, view_ops_timed;

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

/* The box instances an event counts on: its slots when placed alone. */
static int new_event(struct uncore_share *hub, const struct uncore_sched_event *sev,
		     struct hub_event **out)
{
	struct uncore_plan p;
	struct hub_event *e = calloc(1, sizeof(*e));
	if (!e)
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	e->sev = *sev;
	e->name = strdup(sev->name ? sev->name : "(event)");
	e->sev.name = e->name;
	int rc = e->name ? uncore_schedule(&hub->be->machine, &e->sev, 1, &p)
			 : uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	if (rc < 0) {
		free_event(e);
		return rc;
	}
	e->inst = calloc(p.nslots ? p.nslots : 1, sizeof(*e->inst));
	if (!e->inst) {
		uncore_plan_free(&p);
		free_event(e);
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	}
	for (unsigned k = 0; k < p.nslots; k++) {
		e->inst[k].socket = p.slots[k].socket;
		e->inst[k].box = p.slots[k].box;
		e->inst[k].instance = p.slots[k].instance;
		e->inst[k].uslot = -1;
	}
	e->ninst = p.nslots;
	uncore_plan_free(&p);
	*out = e;
	return 0;
}

static int find_inst(const struct hub_event *e, const struct uncore_slot *s)
{
	for (unsigned i = 0; i < e->ninst; i++)
		if (e->inst[i].socket == s->socket && e->inst[i].box == s->box &&
		    e->inst[i].instance == s->instance)
			return (int)i;
	return -1;
}

/* An existing event with refs taken, or a new one appended. */
static int get_event(struct uncore_share *hub, const struct uncore_sched_event *sev,
		     struct hub_event **out)
{
	for (unsigned i = 0; i < hub->nev; i++)
		if (same_event(&hub->ev[i]->sev, sev)) {
			hub->ev[i]->refs++;
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
	int rc = new_event(hub, sev, &hub->ev[hub->nev]);
	if (rc < 0)
		return rc;
	hub->ev[hub->nev]->refs = 1;
	*out = hub->ev[hub->nev++];
	return 0;
}

/* Bring the totals up to date.  A fault is returned (the read or stop of
 * the set that met it fails, and the component reports it once, issue 15);
 * the slots that could be read are folded all the same, so a fault on one
 * box costs no other box its counts (backend.h). */
static int sync_counts(struct uncore_share *hub)
{
	if (!hub->programmed || !hub->hw.nslots)
		return 0;
	if (hub->fresh) {
		hub->fresh = 0;
		return 0;
	}
	int rc = hub->be->ops->read(hub->be, hub->raw);
	if (hub->be->counting_interrupted) {
		/* Every view counting now lost that span: each takes it once. */
		hub->interrupt_gen++;
		snprintf(hub->interrupted_detail, sizeof(hub->interrupted_detail), "%s",
			 hub->be->interrupted_detail);
		hub->be->counting_interrupted = 0;
	}
	/* Before the folds move `last` on. */
	for (unsigned j = 0; j < hub->nfanout; j++) {
		const struct hub_fold *f = &hub->folds[hub->fanout[j].slot];
		uint64_t r = hub->raw[hub->fanout[j].slot];
		if (rc == 0 || (!hub->be->value_bits && r != UNCORE_RAW_UNREAD))
			*hub->fanout[j].total += (r - f->last) & f->mask;
	}
	if (rc == 0) {
		/* Every read: one fold per counter (counter_fold.h: the delta
		 * modulo 2^width survives one wrap), straight into its total.
		 * Raw values are below 2^width (backend.h). */
		struct hub_fold *f = hub->folds;
		const uint64_t *raw = hub->raw;
		UNCORE_UNROLL_4
		for (size_t k = 0, n = hub->hw.nslots; k < n; k++) {
			uint64_t r = raw[k];
			*f[k].total += (r - f[k].last) & f[k].mask;
			f[k].last = r;
		}
		return 0;
	}
	/* 64-bit totals (perf) carry no per-slot mark: nothing is folded. */
	for (unsigned k = 0; !hub->be->value_bits && k < hub->hw.nslots; k++) {
		if (hub->raw[k] == UNCORE_RAW_UNREAD)
			continue;
		*hub->folds[k].total += (hub->raw[k] - hub->folds[k].last) & hub->folds[k].mask;
		hub->folds[k].last = hub->raw[k];
	}
	return rc;
}

/* Fold everything counted so far into the bases and stop the backend: 0,
 * or the error of the backend's stop or unprogram (a freeze that failed,
 * issue 15), the counts read before it kept. */
static int teardown(struct uncore_share *hub)
{
	char detail[256] = "";
	if (!hub->programmed)
		return 0;
	if (sync_counts(hub) < 0)
		uncore_error_clear(); /* what could be read is kept; no set is reading */
	for (unsigned i = 0; i < hub->nev; i++) {
		struct hub_event *e = hub->ev[i];
		for (unsigned k = 0; k < e->ninst; k++)
			e->inst[k].uslot = -1;
		e->in_hw = 0;
	}
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
	free(hub->folds);
	free(hub->fanout);
	free(hub->raw);
	hub->folds = NULL;
	hub->fanout = NULL;
	hub->nfanout = 0;
	hub->raw = NULL;
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
static void release_unclaimed(struct uncore_share *hub)
{
	hub->wanted = hub->claimed;
	hub->missing &= hub->claimed;
	release_sockets(hub, hub->claimed);
}

/* "PID 1234 (cmd)" out of the lock's "in use by ... (lock PATH)" detail. */
static void note_owner(struct uncore_share *hub, unsigned s)
{
	const char *d = uncore_error_detail(), *by = strstr(d, "in use by ");
	const char *end = by ? strstr(by, " (lock ") : NULL;
	if (by && end)
		snprintf(hub->owner[s], sizeof(hub->owner[s]), "counted by %.*s",
			 (int)(end - by - 10), by + 10);
	else
		snprintf(hub->owner[s], sizeof(hub->owner[s]), "counted by another process");
	uncore_error_clear();
}

/* Hold what is wanted and free; *gained: a socket was newly taken.  Only
 * errors other than "another process has it" fail. */
static int take_sockets(struct uncore_share *hub, int *gained)
{
	*gained = 0;
	hub->missing = 0;
	if (hub->no_socket_lock)
		return 0;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		if (!(hub->wanted & (1u << s)) || hub->holds[s])
			continue;
		int rc = uncore_socket_hold_acquire(hub->lock_dir, s, &hub->holds[s]);
		if (rc == 0) {
			*gained = 1;
			hub->owner[s][0] = '\0';
			continue;
		}
		if (rc != UNCORE_EBUSY)
			return rc;
		note_owner(hub, s);
		hub->missing |= 1u << s;
	}
	release_sockets(hub, hub->wanted);
	return 0;
}

/* The slots of `in` on sockets in `mask`, events kept in order. */
static int keep_sockets(const struct uncore_plan *in, uint32_t mask, struct uncore_plan *out)
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

/* Schedule every event some view uses, on every socket: 0 and the plan,
 * or the scheduler's error naming the events that do not fit together. */
static int schedule_union(struct uncore_share *hub, struct uncore_plan *full,
			  struct hub_event ***order, unsigned *n)
{
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
	int rc = uncore_schedule(&hub->be->machine, sev, k, full);
	free(sev);
	if (rc < 0 || !order)
		free(ord);
	else {
		*order = ord;
		*n = k;
	}
	return rc;
}

/* Drop events no view uses (none is in the programmed plan: teardown came
 * first). */
static void prune(struct uncore_share *hub)
{
	unsigned k = 0;
	for (unsigned i = 0; i < hub->nev; i++) {
		if (hub->ev[i]->refs)
			hub->ev[k++] = hub->ev[i];
		else
			free_event(hub->ev[i]);
	}
	hub->nev = k;
}

/* Program the backend with the union of the used events on the sockets
 * this process may hold, and start it; counting of the events already
 * counted continues from their totals. */
static int rebuild(struct uncore_share *hub)
{
	struct uncore_plan full;
	struct hub_event **ord = NULL;
	unsigned n = 0;
	int gained, rc;

	if (teardown(hub) < 0)
		uncore_error_clear(); /* reprogrammed next: the counts were kept */
	prune(hub);
	if (hub->nev == 0) {
		release_unclaimed(hub);
		return 0;
	}
	rc = schedule_union(hub, &full, &ord, &n);
	if (rc < 0)
		return rc;
	hub->wanted = hub->claimed;
	for (unsigned k = 0; k < full.nslots; k++)
		hub->wanted |= 1u << full.slots[k].socket;
	rc = take_sockets(hub, &gained);
	if (rc == 0)
		rc = keep_sockets(&full, hub->wanted & ~hub->missing, &hub->hw);
	uncore_plan_free(&full);
	if (rc < 0) {
		free(ord);
		return rc;
	}
	hub->last_retry_ns = mono_ns();
	if (hub->hw.nslots) {
		unsigned nidx = 0;
		for (unsigned e = 0; e < hub->hw.nevents; e++)
			nidx += hub->hw.count[e];
		hub->folds = calloc(hub->hw.nslots, sizeof(*hub->folds));
		hub->fanout = calloc(nidx ? nidx : 1, sizeof(*hub->fanout));
		hub->raw = calloc(hub->hw.nslots, sizeof(*hub->raw));
		rc = hub->folds && hub->fanout && hub->raw
			 ? 0
			 : uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
		if (rc == 0)
			rc = hub->be->ops->program(hub->be, &hub->hw);
		if (rc == 0) {
			hub->programmed = 1;
			rc = hub->be->ops->start(hub->be);
		}
		if (rc == 0)
			rc = hub->be->ops->read(hub->be, hub->raw);
		for (unsigned k = 0; rc == 0 && k < hub->hw.nslots; k++) {
			unsigned w =
			    hub->be->value_bits ? hub->be->value_bits : hub->hw.slots[k].width;
			if (w < 1 || w > 64) {
				rc = uncore_fail(UNCORE_EINVAL,
						 "counter width %u is not within 1..64 bits", w);
				break;
			}
			/* A shift by 64 is undefined in C: the mask in two steps. */
			hub->folds[k].mask = w == 64 ? ~0ull : (1ull << w) - 1;
			hub->folds[k].last = hub->raw[k] & hub->folds[k].mask;
			hub->folds[k].total = &hub->sink;
		}
	}
	hub->fresh = rc == 0 && hub->programmed;
	if (rc == 0)
		for (unsigned e = 0; e < n; e++) {
			struct hub_event *he = ord[e];
			for (unsigned j = 0; j < hub->hw.count[e]; j++) {
				unsigned k = hub->hw.slot_index[hub->hw.first[e] + j];
				int i = find_inst(he, &hub->hw.slots[k]);
				if (i < 0)
					continue;
				he->inst[i].uslot = (int)k;
				if (hub->folds[k].total == &hub->sink)
					hub->folds[k].total = &he->inst[i].total;
				else
					hub->fanout[hub->nfanout++] =
					    (struct hub_fanout){k, &he->inst[i].total};
			}
			he->in_hw = 1;
		}
	free(ord);
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		if (hub->programmed)
			teardown(hub);
		else {
			uncore_plan_free(&hub->hw);
			free(hub->folds);
			free(hub->fanout);
			free(hub->raw);
			hub->folds = NULL;
			hub->fanout = NULL;
			hub->nfanout = 0;
			hub->raw = NULL;
		}
		return uncore_error_restore(&err);
	}
	for (unsigned e = 0; e < hub->nev; e++)
		if (hub->ev[e]->refs)
			hub->ev[e]->in_hw = 1;
	return 0;
}

/* A holder that went away: take its socket and count there too. */
static void retry_missing(struct uncore_share *hub, int force)
{
	int gained = 0;
	uint64_t now;
	if (!hub->missing || hub->no_socket_lock)
		return;
	now = mono_ns();
	if (!force && now - hub->last_retry_ns < RETRY_NS)
		return;
	hub->last_retry_ns = now;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		if (!(hub->missing & (1u << s)))
			continue;
		if (uncore_socket_hold_acquire(hub->lock_dir, s, &hub->holds[s]) == 0) {
			gained = 1;
			hub->missing &= ~(1u << s);
			hub->owner[s][0] = '\0';
		}
		uncore_error_clear();
	}
	if (gained && rebuild(hub) < 0)
		uncore_error_clear(); /* counting goes on where it can; the next start reports */
}

static void view_drop_refs(struct share_view *v)
{
	for (unsigned e = 0; e < v->nev; e++)
		if (v->evs[e])
			v->evs[e]->refs--;
	free(v->evs);
	free(v->slot_ev);
	free(v->slot_inst);
	free(v->slot_total);
	free(v->snap);
	v->evs = v->slot_ev = NULL;
	v->slot_inst = NULL;
	v->slot_total = NULL;
	v->snap = NULL;
	v->nev = 0;
	v->plan = NULL;
}

static int view_unprogram_locked(struct share_view *v)
{
	struct uncore_share *hub = v->hub;
	if (!v->plan)
		return 0;
	v->running = 0;
	view_drop_refs(v);
	unsigned used = 0;
	for (unsigned i = 0; i < hub->nev; i++)
		used += hub->ev[i]->refs != 0;
	int rc = 0;
	if (used == 0) {
		/* The last set: give the sockets back to the other processes.  A
		 * stop that failed is the set's to report. */
		rc = teardown(hub);
		prune(hub);
		release_unclaimed(hub);
	}
	return rc;
}

static int view_program(struct uncore_backend *base, const struct uncore_plan *plan)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	int rc = 0;

	if (!plan->ev && plan->nevents)
		return uncore_fail(UNCORE_EINVAL, "a plan without its events cannot be shared");
	pthread_mutex_lock(&hub->mu);
	if (v->plan)
		if (view_unprogram_locked(v) < 0)
			uncore_error_clear(); /* reprogrammed: its counts are done with */
	v->evs = calloc(plan->nevents ? plan->nevents : 1, sizeof(*v->evs));
	v->slot_ev = calloc(plan->nslots ? plan->nslots : 1, sizeof(*v->slot_ev));
	v->slot_inst = calloc(plan->nslots ? plan->nslots : 1, sizeof(*v->slot_inst));
	v->slot_total = calloc(plan->nslots ? plan->nslots : 1, sizeof(*v->slot_total));
	v->snap = calloc(plan->nslots ? plan->nslots : 1, sizeof(*v->snap));
	v->plan = plan;
	if (!v->evs || !v->slot_ev || !v->slot_inst || !v->slot_total || !v->snap)
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	for (unsigned e = 0; rc == 0 && e < plan->nevents; e++) {
		rc = get_event(hub, &plan->ev[e], &v->evs[e]);
		if (rc == 0)
			v->nev = e + 1;
	}
	if (rc == 0) {
		/* Fits next to the other sets' events? */
		struct uncore_plan full;
		rc = schedule_union(hub, &full, NULL, NULL);
		if (rc == 0)
			uncore_plan_free(&full);
		else if (rc == UNCORE_ECONFLICT) {
			char detail[512];
			snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
			rc =
			    uncore_fail(UNCORE_ECONFLICT,
					"cannot count next to the other running event sets of this "
					"process: %s; stop some of them first",
					detail);
		}
	}
	for (unsigned e = 0; rc == 0 && e < plan->nevents; e++)
		for (unsigned j = 0; j < plan->count[e]; j++) {
			unsigned k = plan->slot_index[plan->first[e] + j];
			v->slot_ev[k] = v->evs[e];
			v->slot_inst[k] = find_inst(v->evs[e], &plan->slots[k]);
			/* The event's instances live as long as the view holds it. */
			v->slot_total[k] = v->slot_inst[k] >= 0
					       ? &v->evs[e]->inst[v->slot_inst[k]].total
					       : &zero_total;
		}
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		view_drop_refs(v);
		unsigned used = 0;
		for (unsigned i = 0; i < hub->nev; i++)
			used += hub->ev[i]->refs != 0;
		if (used == 0) {
			teardown(hub);
			release_unclaimed(hub);
		}
		prune(hub); /* events nobody uses; the programmed plan still counts them */
		uncore_error_restore(&err);
	}
	pthread_mutex_unlock(&hub->mu);
	return rc;
}

static void fill(const struct share_view *v, uint64_t *raw)
{
	const uint64_t *const *t = v->slot_total;
	for (unsigned k = 0, n = v->plan->nslots; k < n; k++)
		raw[k] = *t[k];
}

/* After a failed read of the shared counters: the slots whose counter
 * could not be read are marked (backend.h), so the set keeps the others. */
static void mark_unread(const struct share_view *v, uint64_t *raw)
{
	for (unsigned k = 0; k < v->plan->nslots; k++) {
		const struct hub_event *e = v->slot_ev[k];
		int i = v->slot_inst[k];
		int u = e && i >= 0 ? e->inst[i].uslot : -1;
		if (u >= 0 && v->hub->raw[u] == UNCORE_RAW_UNREAD)
			raw[k] = UNCORE_RAW_UNREAD;
	}
}

/* Pass a hub's report of interrupted counting on to this view's set. */
static void take_interruption(struct share_view *v)
{
	struct uncore_share *hub = v->hub;
	if (v->seen_gen == hub->interrupt_gen)
		return;
	v->seen_gen = hub->interrupt_gen;
	v->base.counting_interrupted = 1;
	snprintf(v->base.interrupted_detail, sizeof(v->base.interrupted_detail), "%s",
		 hub->interrupted_detail);
}

static int view_start(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	int rc = 0;
	pthread_mutex_lock(&hub->mu);
	if (!v->plan) {
		pthread_mutex_unlock(&hub->mu);
		return uncore_fail(UNCORE_ESTATE, "start before program");
	}
	int stale = 0;
	for (unsigned e = 0; e < v->nev; e++)
		stale |= !v->evs[e]->in_hw;
	if (stale)
		rc = rebuild(hub);
	else
		retry_missing(hub, 1);
	if (rc == 0) {
		v->running = 1;
		v->seen_gen = hub->interrupt_gen; /* earlier interruptions are not this run's */
	}
	pthread_mutex_unlock(&hub->mu);
	return rc;
}

static int view_stop(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	int rc = 0;
	pthread_mutex_lock(&v->hub->mu);
	if (v->plan && v->running) {
		/* Stopped even when the final read fails: what could be read is
		 * kept in the snapshot, and the error says the rest may be short. */
		rc = sync_counts(v->hub);
		take_interruption(v);
		fill(v, v->snap);
		v->running = 0;
	}
	pthread_mutex_unlock(&v->hub->mu);
	return rc;
}

/* A running view's read, under the hub's lock: the shared counters
 * brought up to date and what the read met passed on to the view. */
static int view_sync(struct share_view *v)
{
	struct uncore_share *hub = v->hub;
	retry_missing(hub, 0);
	/* A poller's read only folds: no freeze of the shared counters, which
	 * would stop them for the read's duration (backend.h). */
	hub->be->fold_only_read = v->base.fold_only_read;
	int rc = sync_counts(hub);
	hub->be->fold_only_read = 0;
	/* The union's: a group of another set's events may be the one scaled;
	 * the set's exact check then finds none of its own. */
	v->base.read_scaled = hub->be->read_scaled;
	take_interruption(v);
	return rc;
}

static int view_read(struct uncore_backend *base, uint64_t *raw)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	pthread_mutex_lock(&hub->mu);
	if (!v->plan) {
		pthread_mutex_unlock(&hub->mu);
		return uncore_fail(UNCORE_ESTATE, "read before program");
	}
	int rc = 0;
	if (v->running) {
		rc = view_sync(v);
		fill(v, raw);
		if (rc < 0 && v->base.marks_unread)
			mark_unread(v, raw);
	} else {
		memcpy(raw, v->snap, v->plan->nslots * sizeof(*raw));
	}
	pthread_mutex_unlock(&hub->mu);
	return rc;
}

int uncore_share_is_view(const struct uncore_backend *b)
{
	return b && (b->ops == &view_ops || b->ops == &view_ops_timed);
}

int uncore_share_view_slot_totals(struct uncore_backend *base, const uint64_t **out)
{
	struct share_view *v = (struct share_view *)base;
	if (!uncore_share_is_view(base))
		return uncore_fail(UNCORE_EINVAL, "not a view of shared counters");
	pthread_mutex_lock(&v->hub->mu);
	int rc = v->plan ? 0 : uncore_fail(UNCORE_ESTATE, "totals of a view before program");
	for (unsigned k = 0; rc == 0 && k < v->plan->nslots; k++)
		out[k] = v->slot_total[k];
	pthread_mutex_unlock(&v->hub->mu);
	return rc;
}

int uncore_share_view_sum(struct uncore_backend *base, const struct uncore_share_sums *sums,
			  uint64_t *out)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	pthread_mutex_lock(&hub->mu);
	if (!v->running) {
		pthread_mutex_unlock(&hub->mu);
		return uncore_fail(UNCORE_ESTATE, "sums of a view that is not counting");
	}
	int rc = view_sync(v);
	/* Counters a failed read missed keep their totals as of their last
	 * read (sync_counts): the sums stay exact up to then. */
	const uint64_t *const *src = sums->src;
	const uint64_t *off = sums->off;
	UNCORE_UNROLL_4
	for (unsigned i = 0, n = sums->n; i < n; i++)
		out[i] = off[i] + *src[i];
	for (unsigned j = 0; j < sums->nmore; j++)
		out[sums->more_dst[j]] += *sums->more_src[j];
	pthread_mutex_unlock(&hub->mu);
	return rc;
}

/* Ownership of a view's plans (backend.h): the hub holds their sockets
 * (those another process has are read as 0, as at start) and the backend
 * acquires their boxes there, so the set's changes of plan reprogram the
 * union without giving a socket back or rebuilding an allowlist. */
static int view_acquire(struct uncore_backend *base, const struct uncore_plan *const *plans,
			unsigned n)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	uint32_t want = 0;
	int gained, rc;
	for (unsigned p = 0; p < n; p++)
		for (unsigned k = 0; k < plans[p]->nslots; k++)
			want |= 1u << plans[p]->slots[k].socket;
	pthread_mutex_lock(&hub->mu);
	hub->wanted |= want;
	rc = take_sockets(hub, &gained);
	for (unsigned p = 0; p < n && rc == 0; p++) {
		struct uncore_plan mine;
		const struct uncore_plan *one = &mine;
		rc = keep_sockets(plans[p], hub->wanted & ~hub->missing, &mine);
		if (rc == 0) {
			rc = uncore_backend_acquire(hub->be, &one, 1);
			uncore_plan_free(&mine);
		}
	}
	if (rc == 0 && !v->acquired) {
		v->acquired = 1;
		hub->acquired++;
		hub->claimed |= want;
	} else if (rc < 0 && !hub->acquired && !hub->programmed) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		uncore_backend_release(hub->be);
		release_unclaimed(hub);
		rc = uncore_error_restore(&err);
	}
	pthread_mutex_unlock(&hub->mu);
	return rc;
}

static int view_release(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	pthread_mutex_lock(&hub->mu);
	int rc = view_unprogram_locked(v);
	if (v->acquired) {
		v->acquired = 0;
		if (--hub->acquired == 0) {
			hub->claimed = 0;
			if (!hub->programmed) {
				struct uncore_saved_error err;
				uncore_error_save(&err, rc);
				int rc2 = uncore_backend_release(hub->be);
				rc = rc < 0 ? uncore_error_restore(&err) : rc2;
				release_unclaimed(hub);
			}
		}
	}
	pthread_mutex_unlock(&hub->mu);
	return rc;
}

static int view_unprogram(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	pthread_mutex_lock(&v->hub->mu);
	int rc = view_unprogram_locked(v);
	pthread_mutex_unlock(&v->hub->mu);
	return rc;
}

static void view_destroy(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	if (!v)
		return;
	view_release(base);
	uncore_share_release(v->hub);
	free(v);
}

/* The counters the poller keeps from wrapping twice are the shared ones:
 * the programmed union (other sets' events may wrap sooner), and the set's
 * own plan for a set not yet counting. */
static int view_max_read_interval(const struct uncore_backend *base, const struct uncore_plan *plan,
				  uint64_t *ns)
{
	const struct share_view *v = (const struct share_view *)base;
	struct uncore_share *hub = v->hub;
	uint64_t hw = UINT64_MAX;
	*ns = UINT64_MAX;
	if (!hub->be->ops->max_read_interval)
		return 0;
	pthread_mutex_lock(&hub->mu);
	int rc = hub->be->ops->max_read_interval(hub->be, plan, ns);
	if (rc == 0 && hub->programmed && hub->hw.nslots)
		rc = hub->be->ops->max_read_interval(hub->be, &hub->hw, &hw);
	if (rc == 0 && hw < *ns)
		*ns = hw;
	pthread_mutex_unlock(&hub->mu);
	return rc;
}

static int view_stats(struct uncore_backend *base, struct uncore_backend_stats *out)
{
	struct share_view *v = (struct share_view *)base;
	memset(out, 0, sizeof(*out));
	if (!v->hub->be->ops->stats)
		return 0;
	pthread_mutex_lock(&v->hub->mu);
	int rc = v->hub->be->ops->stats(v->hub->be, out);
	pthread_mutex_unlock(&v->hub->mu);
	return rc;
}

static int view_slot_status(struct uncore_backend *base, unsigned slot,
			    struct uncore_slot_status *out)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&hub->mu);
	if (v->plan && slot < v->plan->nslots && v->slot_ev[slot] && v->slot_inst[slot] >= 0) {
		int u = v->slot_ev[slot]->inst[v->slot_inst[slot]].uslot;
		if (u >= 0 && hub->be->ops->slot_status)
			rc = hub->be->ops->slot_status(hub->be, (unsigned)u, out);
	}
	pthread_mutex_unlock(&hub->mu);
	return rc;
}

/* Views of a backend that keeps slot times (perf) pass them on; the others
 * have none (every slot counts all the time). */
#define VIEW_OPS                                                                                   \
	.name = "shared", .acquire = view_acquire, .release = view_release,                        \
	.program = view_program, .start = view_start, .stop = view_stop, .read = view_read,        \
	.unprogram = view_unprogram, .destroy = view_destroy,                                      \
	.max_read_interval = view_max_read_interval, .stats = view_stats
static const struct uncore_backend_ops view_ops = {VIEW_OPS};
static const struct uncore_backend_ops view_ops_timed = {VIEW_OPS, .slot_status = view_slot_status};

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
	pthread_mutex_init(&hub->mu, NULL);
	hub->refs = 1;
	hub->be = be;
	*out = hub;
	return 0;
}

void uncore_share_release(struct uncore_share *hub)
{
	if (!hub)
		return;
	pthread_mutex_lock(&hub->mu);
	unsigned left = --hub->refs;
	pthread_mutex_unlock(&hub->mu);
	if (left)
		return;
	if (teardown(hub) < 0)
		uncore_error_clear();
	for (unsigned i = 0; i < hub->nev; i++)
		free_event(hub->ev[i]);
	free(hub->ev);
	release_sockets(hub, 0);
	hub->be->ops->destroy(hub->be);
	pthread_mutex_destroy(&hub->mu);
	free(hub->lock_dir);
	free(hub);
}

int uncore_share_view(struct uncore_share *hub, struct uncore_backend **out)
{
	struct share_view *v = calloc(1, sizeof(*v));
	if (!v)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
	v->hub = hub;
	v->base.ops = hub->be->ops->slot_status ? &view_ops_timed : &view_ops;
	v->base.machine = hub->be->machine;
	v->base.events = hub->be->events;
	v->base.value_bits = 64;
	/* Per-slot marks of a failed read exist when the backend's reads have
	 * them (direct; perf's 64-bit totals do not). */
	v->base.marks_unread = hub->be->value_bits == 0;
	pthread_mutex_lock(&hub->mu);
	hub->refs++;
	pthread_mutex_unlock(&hub->mu);
	*out = &v->base;
	return 0;
}

int uncore_share_socket_state(struct uncore_share *hub, unsigned s, char *who, size_t wlen)
{
	int st;
	if (s >= UNCORE_MACHINE_MAX_SOCKETS)
		return -1;
	pthread_mutex_lock(&hub->mu);
	if (!(hub->wanted & (1u << s)))
		st = -1;
	else if (hub->missing & (1u << s)) {
		st = 0;
		if (who)
			snprintf(who, wlen, "%s", hub->owner[s]);
	} else
		st = 1;
	pthread_mutex_unlock(&hub->mu);
	return st;
}

int uncore_share_holders(struct uncore_share *hub, char *buf, size_t len)
{
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	if (hub->no_socket_lock)
		return 0;
	for (unsigned s = 0; s < hub->be->machine.nsockets && s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		char who[160] = "";
		if (uncore_share_socket_state(hub, s, who, sizeof(who)) != 0)
			continue;
		int n = snprintf(buf + at, len - at, "%ssocket %u %s, reads 0 here", at ? "; " : "",
				 s, who);
		if (n < 0 || (size_t)n >= len - at)
			return uncore_fail(UNCORE_ENOSPACE, "holder description too long");
		at += (size_t)n;
	}
	return 0;
}
