/* Views of the shared counters (see share.h): each event set's backend.
 * A view maps each slot of its set's plan to the hub's 64-bit total of
 * one (event, instance), by address, so that a set's read sums totals
 * without a lookup (uncore_share_view_sum). */
#include "eventset/share_internal.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t zero_total;
static const struct uncore_backend_ops view_ops, view_ops_timed;

/* The view's maps of its plan let go (its events left the hub first). */
static void view_free_maps(struct share_view *v)
{
	free(v->evs);
	free(v->slot_ev);
	free(v->slot_inst);
	free(v->slot_total);
	free(v->slot_in);
	free(v->snap);
	v->evs = v->slot_ev = NULL;
	v->slot_inst = NULL;
	v->slot_total = NULL;
	v->slot_in = NULL;
	v->snap = NULL;
	v->nev = 0;
	v->plan = NULL;
}

static int view_unprogram_locked(struct share_view *v)
{
	if (!v->plan)
		return 0;
	v->running = 0;
	/* The last set gives the sockets back to the other processes; a stop
	 * that failed is the set's to report. */
	int rc = hub_leave(v->hub, v->evs, v->nev, 0);
	view_free_maps(v);
	return rc;
}

static int view_program(struct uncore_backend *base, const struct uncore_plan *plan)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	int rc = 0;

	if (!plan->ev && plan->nevents)
		return uncore_fail(UNCORE_EINVAL, "a plan without its events cannot be shared");
	hub_lock(&hub->mu);
	if (v->plan)
		if (view_unprogram_locked(v) < 0)
			uncore_error_clear(); /* reprogrammed: its counts are done with */
	v->evs = calloc(plan->nevents ? plan->nevents : 1, sizeof(*v->evs));
	v->slot_ev = calloc(plan->nslots ? plan->nslots : 1, sizeof(*v->slot_ev));
	v->slot_inst = calloc(plan->nslots ? plan->nslots : 1, sizeof(*v->slot_inst));
	v->slot_total = calloc(plan->nslots ? plan->nslots : 1, sizeof(*v->slot_total));
	v->slot_in = calloc(plan->nslots ? plan->nslots : 1, sizeof(*v->slot_in));
	v->stale = 1;
	v->snap = calloc(plan->nslots ? plan->nslots : 1, sizeof(*v->snap));
	v->plan = plan;
	if (!v->evs || !v->slot_ev || !v->slot_inst || !v->slot_total || !v->slot_in || !v->snap)
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	if (rc == 0)
		rc = hub_join(hub, plan, v->evs, &v->nev, v->slot_inst);
	for (unsigned e = 0; rc == 0 && e < plan->nevents; e++) {
		for (unsigned j = 0; j < plan->count[e]; j++) {
			unsigned k = plan->slot_index[plan->first[e] + j];
			v->slot_ev[k] = v->evs[e];
			/* The event's instances live as long as the view holds it. */
			v->slot_in[k] =
			    v->slot_inst[k] >= 0 ? &v->evs[e]->inst[v->slot_inst[k]] : NULL;
		}
	}
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		/* Its new events too (pruned): nobody uses them. */
		(void)hub_leave(hub, v->evs, v->nev, 1);
		view_free_maps(v);
		uncore_error_restore(&err);
	}
	hub_unlock(&hub->mu);
	return rc;
}

/* Where each slot's total is, after the hub moved them (a teardown or a
 * rebuild, share_internal.h's layout). */
static void view_refresh(struct share_view *v)
{
	if (!v->stale && v->layout == v->hub->layout)
		return;
	for (unsigned k = 0; k < v->plan->nslots; k++)
		v->slot_total[k] = v->slot_in[k] ? v->slot_in[k]->live : &zero_total;
	v->layout = v->hub->layout;
	v->stale = 0;
}

static void fill(struct share_view *v, uint64_t *raw)
{
	view_refresh(v);
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
		if (u >= 0 && v->hub->unread[u])
			raw[k] = UNCORE_RAW_UNREAD;
	}
}

/* A read that came hub->wrap_gap_ns after the previous one: which of the
 * view's counters may have lost the most wraps, and how many (the span
 * over its wrap period, rounded down: fewer could not have been lost at
 * the fastest rate, and none when the span is shorter). */
static void view_note_wraps(struct share_view *v)
{
	struct uncore_share *hub = v->hub;
	uint64_t gap = hub->wrap_gap_ns, most = 0, period = 0;
	unsigned others = 0;
	int at = -1;
	for (unsigned k = 0; v->plan && hub->wrap_ns && k < v->plan->nslots; k++) {
		const struct hub_event *e = v->slot_ev[k];
		int i = v->slot_inst[k];
		int u = e && i >= 0 ? e->inst[i].uslot : -1;
		uint64_t w = u >= 0 && (unsigned)u < hub->hw.nslots ? hub->wrap_ns[u] : UINT64_MAX;
		if (w == 0 || w == UINT64_MAX || gap < w)
			continue;
		others += at >= 0;
		if (gap / w > most) {
			most = gap / w;
			period = w;
			at = (int)k;
		}
	}
	if (at < 0)
		return;
	const struct uncore_slot *sl = &v->plan->slots[at];
	const char *name = v->slot_ev[at]->name;
	char where[32] = "";
	if (!strstr(name, "socket="))
		snprintf(where, sizeof(where), " on socket %u", sl->socket);
	snprintf(v->base.wraps_detail, sizeof(v->base.wraps_detail),
		 "may have lost %llu wraps of %s%s (not read for %.3f s; its %u-bit counter can "
		 "wrap every %.3f s)%s",
		 (unsigned long long)most, name, where, (double)gap / 1e9, sl->width,
		 (double)period / 1e9, others ? ", and other counters too" : "");
	v->base.wraps_lost = 1;
}

/* Pass a hub's reports on to this view's set: interrupted counting, a
 * read too late for a counter's wraps. */
void view_note_interrupted(struct share_view *v)
{
	struct uncore_share *hub = v->hub;
	v->seen_gen = hub->interrupt_gen;
	if (v->seen_interrupted != hub->interrupted_n) {
		v->seen_interrupted = hub->interrupted_n;
		v->base.counting_interrupted = 1;
		snprintf(v->base.interrupted_detail, sizeof(v->base.interrupted_detail), "%s",
			 hub->interrupted_detail);
	}
	if (v->seen_wrap != hub->wrap_gen) {
		v->seen_wrap = hub->wrap_gen;
		view_note_wraps(v);
	}
}

static int view_start(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	int rc = 0;
	hub_lock(&hub->mu);
	if (!v->plan) {
		hub_unlock(&hub->mu);
		return uncore_fail(UNCORE_ESTATE, "start before program");
	}
	int stale = 0;
	for (unsigned e = 0; e < v->nev; e++)
		stale |= !v->evs[e]->in_hw;
	if (stale || hub->regained)
		rc = hub_rebuild(hub);
	else
		hub_retry_missing(hub, 1);
	/* The start's reading is of now (backend.h, sample). */
	if (rc == 0 && hub->programmed && hub->be->ops->sample)
		rc = hub->be->ops->sample(hub->be);
	if (rc == 0) {
		v->running = 1;
		/* Earlier interruptions and late reads are not this run's. */
		v->seen_gen = hub->interrupt_gen;
		v->seen_interrupted = hub->interrupted_n;
		v->seen_wrap = hub->wrap_gen;
	}
	hub_unlock(&hub->mu);
	return rc;
}

static int view_stop(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	int rc = 0;
	hub_lock(&v->hub->mu);
	if (v->plan && v->running) {
		/* Stopped even when the final read fails: what could be read is
		 * kept in the snapshot, and the error says the rest may be short.
		 * The stop's reading is of now (backend.h, sample). */
		if (v->hub->programmed && v->hub->be->ops->sample)
			rc = v->hub->be->ops->sample(v->hub->be);
		int rs = hub_sync(v->hub, NULL);
		if (rc == 0)
			rc = rs;
		view_take_interruption(v);
		fill(v, v->snap);
		v->running = 0;
	}
	hub_unlock(&v->hub->mu);
	return rc;
}

/* What a view's read gives after the hub's reading (hub locked; `rc` that
 * reading's, `fresh` whether it was the start reading taken over): a
 * running view's totals, its unread slots marked, else its snapshot. */
static void view_give(struct share_view *v, uint64_t *raw, int rc, int fresh)
{
	if (v->running) {
		v->took_start = fresh && !v->hub->fresh;
		fill(v, raw);
		if (rc < 0 && v->base.marks_unread)
			mark_unread(v, raw);
	} else {
		v->took_start = 0;
		memcpy(raw, v->snap, v->plan->nslots * sizeof(*raw));
	}
}

/* A view's read, under the hub's lock: a running view's shared counters
 * brought up to date (view_sync, share_internal.h) and what the read met
 * passed on to the view; a stopped view's snapshot. */
static int view_read(struct uncore_backend *base, uint64_t *raw)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	hub_lock(&hub->mu);
	if (!v->plan) {
		hub_unlock(&hub->mu);
		return uncore_fail(UNCORE_ESTATE, "read before program");
	}
	int rc = 0, fresh = 0;
	if (v->running) {
		/* A read that takes over the start reading (hub_sync: fresh) has
		 * that reading's instants (uncore_share_view_start_instants). */
		fresh = hub->fresh && hub->programmed && hub->hw.nslots;
		rc = view_sync(v);
	}
	view_give(v, raw, rc, fresh);
	hub_unlock(&hub->mu);
	return rc;
}

int uncore_share_read_views(struct uncore_backend *const *views, uint64_t *const *raws,
			    unsigned n)
{
	if (!n)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (!uncore_share_is_view(views[i]) ||
		    ((struct share_view *)views[i])->hub != ((struct share_view *)views[0])->hub)
			return uncore_fail(UNCORE_EINVAL,
					   "read of %u views: view %u is not a view of the first "
					   "one's shared counters",
					   n, i);
	struct uncore_share *hub = ((struct share_view *)views[0])->hub;
	hub_lock(&hub->mu);
	/* One reading of the counters for every running view, taken by the
	 * first of them (its fold-only and timing settings: a poller's or a
	 * timed set's view is read alone, by view_read or the sums). */
	int synced = 0, fresh = 0, rc = 0;
	for (unsigned i = 0; i < n; i++) {
		struct share_view *v = (struct share_view *)views[i];
		if (!v->plan || !v->running)
			continue;
		if (!synced) {
			fresh = hub->fresh && hub->programmed && hub->hw.nslots;
			rc = view_sync(v);
			synced = 1;
		} else {
			v->base.read_scaled = hub->be->read_scaled;
			view_take_interruption(v);
		}
	}
	int first = 0;
	for (unsigned i = 0; i < n; i++) {
		struct share_view *v = (struct share_view *)views[i];
		if (!v->plan) {
			if (!first)
				first = uncore_fail(UNCORE_ESTATE, "read before program");
			continue;
		}
		view_give(v, raws[i], rc, fresh);
	}
	hub_unlock(&hub->mu);
	return rc < 0 ? rc : first;
}

int uncore_share_view_start_instants(struct uncore_backend *b, const struct uncore_clock *clock,
				     uint64_t *before, uint64_t *after)
{
	if (!uncore_share_is_view(b))
		return 0;
	struct share_view *v = (struct share_view *)b;
	struct uncore_share *hub = v->hub;
	int took = 0;
	hub_lock(&hub->mu);
	if (v->took_start) {
		took = -1;
		if (hub->start_timed && hub->clock.now_ns == clock->now_ns &&
		    hub->clock.ctx == clock->ctx) {
			*before = hub->start_ns[0];
			*after = hub->start_ns[1];
			took = 1;
		}
		v->took_start = 0;
	}
	hub_unlock(&hub->mu);
	return took;
}

/* The sums' addresses of the totals, as of the hub's layout. */
void view_refresh_sums(struct share_view *v, struct uncore_share_sums *sums)
{
	unsigned ns = v->plan->nslots;
	view_refresh(v);
	for (unsigned i = 0; i < sums->n; i++)
		sums->src[i] = sums->slot[i] < ns ? v->slot_total[sums->slot[i]] : &zero_total;
	for (unsigned j = 0; j < sums->nmore; j++)
		sums->more_src[j] =
		    sums->more_slot[j] < ns ? v->slot_total[sums->more_slot[j]] : &zero_total;
	sums->layout = v->hub->layout;
	sums->stale = 0;
	/* share_view_sum's one pass, when the sums are the totals in slot
	 * order (a set alone on the hub, each event one counter). */
	const struct uncore_share *hub = v->hub;
	int in_order = hub->programmed && sums->n && sums->n == hub->hw.nslots && !sums->nmore &&
		       !hub->nfanout;
	int wide = 1;
	for (unsigned i = 0; in_order && i < sums->n; i++) {
		in_order = sums->src[i] == &hub->tot[i];
		wide &= hub->mask[i] == ~0ull;
	}
	sums->in_order = !in_order ? 0 : wide ? SUMS_IN_ORDER_WIDE : SUMS_IN_ORDER;
}

/* share_view_sum's general case (share_internal.h), the hub locked: the
 * hub's sync, the sums looked up again when stale, the view's values. */
int share_view_sum_general(struct share_view *v, struct uncore_share_sums *sums, uint64_t *out)
{
	struct uncore_share *hub = v->hub;
	if (!v->running) {
		hub_unlock(&hub->mu);
		return uncore_fail(UNCORE_ESTATE, "sums of a view that is not counting");
	}
	int rc = view_sync(v);
	if (sums->stale || sums->layout != hub->layout)
		view_refresh_sums(v, sums);
	/* Counters a failed read missed keep their totals as of their last
	 * read (hub_keep_unread): the sums stay exact up to then. */
	const uint64_t *const *src = sums->src;
	const uint64_t *off = sums->off;
	size_t i = 0, n = sums->n, n8 = n & ~(size_t)7;
	for (; i < n8; i += 8) { /* unrolled: one branch per eight values */
		out[i] = off[i] + *src[i];
		out[i + 1] = off[i + 1] + *src[i + 1];
		out[i + 2] = off[i + 2] + *src[i + 2];
		out[i + 3] = off[i + 3] + *src[i + 3];
		out[i + 4] = off[i + 4] + *src[i + 4];
		out[i + 5] = off[i + 5] + *src[i + 5];
		out[i + 6] = off[i + 6] + *src[i + 6];
		out[i + 7] = off[i + 7] + *src[i + 7];
		__asm__("" : "+r"(i)); /* one index, as in hub_sync */
	}
	for (; i < n; i++)
		out[i] = off[i] + *src[i];
	for (unsigned j = 0; j < sums->nmore; j++)
		out[sums->more_dst[j]] += *sums->more_src[j];
	hub_unlock(&hub->mu);
	return rc;
}

int uncore_share_view_sum(struct uncore_backend *base, struct uncore_share_sums *sums,
			  uint64_t *out)
{
	return share_view_sum((struct share_view *)base, sums, out);
}

/* The settings of a view's set, kept while it is acquired: what the next
 * start's admission checks against (hub_check_admission).  Added to those
 * of an earlier acquire. */
static int remember_phases(struct share_view *v, const struct uncore_plan *const *plans,
			   unsigned n)
{
	const struct uncore_plan **p =
	    realloc(v->phases, (v->nphases + n ? v->nphases + n : 1) * sizeof(*p));
	if (!p)
		return uncore_fail(UNCORE_ENOMEM, "out of memory sharing counters");
	for (unsigned i = 0; i < n; i++)
		p[v->nphases + i] = plans[i];
	v->phases = p;
	v->nphases += n;
	return 0;
}

static void forget_phases(struct share_view *v)
{
	free(v->phases);
	v->phases = NULL;
	v->nphases = 0;
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
	for (unsigned p = 0; p < n; p++)
		for (unsigned k = 0; k < plans[p]->nslots; k++)
			want |= 1u << plans[p]->slots[k].socket;
	hub_lock(&hub->mu);
	struct hub_settings other[HUB_ADMIT_OTHERS];
	unsigned no = 0;
	for (const struct share_view *w = hub->acq_views; w && no < HUB_ADMIT_OTHERS;
	     w = w->next_acq)
		if (w != v && w->nphases)
			other[no++] = (struct hub_settings){w->phases, w->nphases, w->plan};
	unsigned had = v->nphases;
	int rc = remember_phases(v, plans, n);
	if (rc == 0)
		rc = hub_acquire(hub, other, no, plans, n, want);
	if (rc == 0 && !v->acquired) {
		v->acquired = 1;
		hub->acquired++;
		hub->claimed |= want;
		v->next_acq = hub->acq_views;
		hub->acq_views = v;
	} else if (rc < 0 && !v->acquired)
		forget_phases(v);
	else if (rc < 0)
		v->nphases = had; /* those of its earlier acquire */
	hub_unlock(&hub->mu);
	return rc;
}

static int view_release(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	hub_lock(&hub->mu);
	int rc = view_unprogram_locked(v);
	if (v->acquired) {
		v->acquired = 0;
		for (struct share_view **w = &hub->acq_views; *w; w = &(*w)->next_acq)
			if (*w == v) {
				*w = v->next_acq;
				break;
			}
		v->next_acq = NULL;
		forget_phases(v);
		if (--hub->acquired == 0) {
			hub->claimed = 0;
			if (!hub->programmed && !hub->forked_from) {
				struct uncore_saved_error err;
				uncore_error_save(&err, rc);
				int rc2 = uncore_backend_release(hub->be);
				rc = rc < 0 ? uncore_error_restore(&err) : rc2;
				hub_release_unclaimed(hub);
			}
		}
	}
	hub_unlock(&hub->mu);
	return rc;
}

static int view_unprogram(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	hub_lock(&v->hub->mu);
	int rc = view_unprogram_locked(v);
	hub_unlock(&v->hub->mu);
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
	hub_lock(&hub->mu);
	int rc = hub->be->ops->max_read_interval(hub->be, plan, ns);
	if (rc == 0 && hub->programmed && hub->hw.nslots)
		rc = hub->be->ops->max_read_interval(hub->be, &hub->hw, &hw);
	if (rc == 0 && hw < *ns)
		*ns = hw;
	hub_unlock(&hub->mu);
	return rc;
}

/* The hub's backend brought up to now (backend.h, sample). */
static int view_sample(struct uncore_backend *base)
{
	struct share_view *v = (struct share_view *)base;
	int rc = 0;
	hub_lock(&v->hub->mu);
	if (v->hub->programmed && v->hub->be->ops->sample)
		rc = v->hub->be->ops->sample(v->hub->be);
	hub_unlock(&v->hub->mu);
	return rc;
}

static int view_stats(struct uncore_backend *base, struct uncore_backend_stats *out)
{
	struct share_view *v = (struct share_view *)base;
	memset(out, 0, sizeof(*out));
	if (!v->hub->be->ops->stats)
		return 0;
	hub_lock(&v->hub->mu);
	int rc = v->hub->be->ops->stats(v->hub->be, out);
	hub_unlock(&v->hub->mu);
	return rc;
}

static int view_slot_status(struct uncore_backend *base, unsigned slot,
			    struct uncore_slot_status *out)
{
	struct share_view *v = (struct share_view *)base;
	struct uncore_share *hub = v->hub;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	hub_lock(&hub->mu);
	if (v->plan && slot < v->plan->nslots && v->slot_ev[slot] && v->slot_inst[slot] >= 0) {
		int u = v->slot_ev[slot]->inst[v->slot_inst[slot]].uslot;
		if (u >= 0 && hub->be->ops->slot_status)
			rc = hub->be->ops->slot_status(hub->be, (unsigned)u, out);
	}
	hub_unlock(&hub->mu);
	return rc;
}

/* Views of a backend that keeps slot times (perf) pass them on; the others
 * have none (every slot counts all the time). */
#define VIEW_OPS                                                                                   \
	.name = "shared", .acquire = view_acquire, .release = view_release,                        \
	.program = view_program, .start = view_start, .stop = view_stop, .read = view_read,        \
	.unprogram = view_unprogram, .destroy = view_destroy,                                      \
	.max_read_interval = view_max_read_interval, .stats = view_stats, .sample = view_sample
static const struct uncore_backend_ops view_ops = {VIEW_OPS};
static const struct uncore_backend_ops view_ops_timed = {VIEW_OPS, .slot_status = view_slot_status};

int uncore_share_view(struct uncore_share *hub, struct uncore_backend **out)
{
	struct share_view *v = calloc(1, sizeof(*v));
	if (!v)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
	v->hub = hub;
	v->base.ops = hub->be->ops->slot_status ? &view_ops_timed : &view_ops;
	v->base.is_share_view = 1;
	v->base.machine = hub->be->machine;
	v->base.events = hub->be->events;
	v->base.value_bits = 64;
	/* Per-slot marks of a failed read exist when the backend's reads have
	 * them (direct; perf's 64-bit totals do not). */
	v->base.marks_unread = hub->be->value_bits == 0;
	v->base.read_freezes = hub->be->read_freezes;
	hub_lock(&hub->mu);
	hub->refs++;
	hub_unlock(&hub->mu);
	*out = &v->base;
	return 0;
}
