/* What the shared counters' two files share (share.c: the hub, the union
 * it programs and the sockets it holds; share_view.c: the views event sets
 * count through).  Internal to src/eventset. */
#ifndef UNCORE_EVENTSET_SHARE_INTERNAL_H
#define UNCORE_EVENTSET_SHARE_INTERNAL_H

#include "backend/direct/socket_hold.h"
#include "common/uncore_error.h"
#include "eventset/clock.h"
#include "eventset/hub_lock.h"
#include "eventset/share.h"
#include "plan/sched.h"

#include <pthread.h>
#include <stdint.h>

struct hub_inst {
	uint16_t socket;
	uint8_t box, instance;
	int uslot;      /* slot of the programmed plan counting it, or -1 */
	uint64_t total; /* counts of every programming so far, while not in tot */
	/* Where its total is kept: &total, or while a counter of the plan
	 * counts it, the hub's tot[uslot] (the fold's own array). */
	uint64_t *live;
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
	struct hub_lock mu; /* hub_lock.h: every read through the hub takes it */
	unsigned refs;
	struct uncore_backend *be;
	/* be's read_headroom, or its read: every read of be is the hub's,
	 * into raw[] (allocated with the headroom). */
	int (*read)(struct uncore_backend *be, uint64_t *raw);
	int programmed;
	/* The counters were read at their start and nothing happened since:
	 * the next set's first read (its start value) is that reading, so a
	 * set started alone counts from the very start of the counters, with
	 * no second read (the register sequence of a lone set is unchanged). */
	int fresh;
	/* Per slot of hw, the fold of its counter (counter_fold.h's) into the
	 * total of the instance it counts, kept in tot while programmed:
	 * tot += (now - before) & mask.  The raw readings take turns in two
	 * buffers, raw[cur] the next read's and raw[cur ^ 1] the last one's,
	 * so a fold stores no reading. */
	uint64_t *mask;
	uint64_t *tot;
	/* Bumped whenever the instances' totals move (teardown, rebuild): the
	 * views look their addresses up again (share_view.c). */
	unsigned layout;
	uint64_t *raw[2];
	unsigned cur;
	uint32_t wanted;  /* sockets the union counts on, and those claimed */
	uint32_t missing; /* of those, held by another process */
	/* Something for the views to pass on, bumped per report: counting
	 * stopped for a while on part of the machine (backend.h's
	 * counting_interrupted; interrupted_n), or a read that came too late
	 * for a counter's wraps (wrap_gen). */
	unsigned interrupt_gen;
	/* The wrap guard (hub_guard): the shortest wrap period of the
	 * programmed counters (UINT64_MAX: none can wrap, no clock read), and
	 * the guard's clock at the last reading of them. */
	uint64_t min_wrap_ns;
	uint64_t fold_ns;
	/* The fields above are what a read touches (two cache lines). */
	struct uncore_clock clock;
	/* The start's reading (fresh) timed on the clock just before and
	 * after it (start_timed: both instants taken): the instants of the
	 * set's first read that takes it over (hub_read_start). */
	uint64_t start_ns[2];
	int start_timed;
	uint64_t *wrap_ns;    /* per slot of hw: its wrap period (backend.h, wrap_ns) */
	uint64_t wrap_gap_ns; /* the span of the last read that came too late */
	unsigned wrap_gen, interrupted_n;
	char *lock_dir;
	int no_socket_lock;
	struct hub_event **ev;
	unsigned nev, cap;
	/* The union of the used events as scheduled (hub_union), uord its
	 * events in the plan's order: kept (uvalid) until an event joins or
	 * leaves the union (hub_union_forget), so a start schedules once. */
	struct uncore_plan uplan;
	struct hub_event **uord;
	unsigned un;
	int uvalid;
	/* The last admission's schedule of the union to be (a start beside
	 * running sets: its first setting next to their current ones, in the
	 * union's order; hub_check_admission), or nothing (nevents 0): the
	 * union of the start that follows is that plan, not scheduled again
	 * (hub_union).  Used or dropped by the next hub_union that schedules. */
	struct uncore_plan admitted;
	struct uncore_plan hw; /* the union, on the sockets held */
	uint8_t *unread;       /* after a failed read: the slots it could not read */
	struct hub_fanout *fanout;
	unsigned nfanout;
	/* Views that took ownership of their plans (backend.h, acquire), and
	 * the sockets those plans use: held, and the backend keeps what it
	 * acquired, until the last of those views releases. */
	unsigned acquired;
	uint32_t claimed;
	/* A socket was taken while the union was programmed without it (a
	 * view's acquire found its holder gone): the next start rebuilds. */
	int regained;
	struct uncore_socket_hold *holds[UNCORE_MACHINE_MAX_SOCKETS];
	char owner[UNCORE_MACHINE_MAX_SOCKETS][160];
	/* Per socket held by another measurement group (direct backend): its
	 * user and group and what would let both count ("" otherwise). */
	char note[UNCORE_MACHINE_MAX_SOCKETS][240];
	char *group, *group_tag; /* share.h, struct uncore_share_config */
	uint64_t last_retry_ns;
	char interrupted_detail[160];
	/* The views that acquired (started sets), each with every setting its
	 * set takes turns with: a start is admitted only when each of its
	 * settings fits next to every combination of theirs
	 * (hub_check_admission), so a change of setting at a read or stop
	 * never meets a conflict (issue 29). */
	struct share_view *acq_views;
	/* In a child of fork: the parent's PID.  The counters and the backend
	 * stay the parent's: no backend call is made from this hub again, and
	 * every socket reads 0 (eventset/fork.h). */
	int forked_from;
};

struct share_view {
	struct uncore_backend base;
	struct uncore_share *hub;
	const struct uncore_plan *plan;
	unsigned nev;
	struct hub_event **evs;     /* per plan event */
	struct hub_event **slot_ev; /* per plan slot */
	int *slot_inst;             /* per plan slot: instance in slot_ev, or -1 */
	/* Per plan slot: that instance (NULL: none), and where its total is
	 * (its live, or &zero_total), looked up again when the hub's layout
	 * moves on (view_refresh): a read is one load per slot. */
	const struct hub_inst **slot_in;
	const uint64_t **slot_total;
	unsigned layout;
	int stale;
	uint64_t *snap; /* values at stop */
	int running;
	int acquired;
	unsigned seen_gen; /* hub->interrupt_gen passed on so far */
	/* Set by the view's set around one read of its own: that read's time
	 * on the hub's clock, for the wrap guard (hub_guard); NULL: none. */
	const uint64_t *guard_at;
	/* Its last read took over the hub's start reading (fresh, view_read):
	 * that read's counts are of the start reading's instants. */
	int took_start;
	unsigned seen_interrupted, seen_wrap; /* ... of its interrupted_n and wrap_gen */
	/* While acquired: its set's plans (one per setting, the set's own
	 * memory, alive until release) and the next acquired view. */
	const struct uncore_plan **phases;
	unsigned nphases;
	struct share_view *next_acq;
};

/* The settings of another acquired set at an admission (hub_acquire), as
 * share_view.c lists them: the hub reads no view (share.c knows nothing of
 * share_view.c's names; share_view.c calls share.c, never the other way). */
struct hub_settings {
	const struct uncore_plan *const *phases; /* its settings, nphases of them */
	unsigned nphases;
	const struct uncore_plan *cur; /* the one it programs now, or NULL */
};
#define HUB_ADMIT_OTHERS 64 /* beyond: not checked at admission; the reads still check */

/* view_acquire's hub part (share_view.c): the settings `plans` of a set
 * (using the sockets `want`) admitted next to every combination of the
 * settings of the other acquired sets, other[0..no) (else UNCORE_ECONFLICT
 * naming the events in the way), the sockets held (those another process
 * has are read as 0), and the backend's acquire of their boxes there.  Each combination is
 * scheduled in the union's order (the hub's events first, as the union
 * lists them); the one of plans[0] next to the others' current settings
 * is kept in hub->admitted, the union the start then programs.  On
 * failure with nothing acquired or programmed, everything is given back. */
int hub_acquire(struct uncore_share *hub, const struct hub_settings *other, unsigned no,
		const struct uncore_plan *const *plans, unsigned n, uint32_t want);
/* view_program's hub part: the events of `plan` joined (refs taken, new ones
 * appended) into evs[] (*nev of them so far), the union with them scheduled
 * (else UNCORE_ECONFLICT naming the events in the way; a set alone: its plan
 * copied, and beside running sets the admission's, not scheduled again),
 * and per slot of the plan the instance of its event it counts, into
 * slot_inst[] (-1: none). */
int hub_join(struct uncore_share *hub, const struct uncore_plan *plan, struct hub_event **evs,
	     unsigned *nev, int *slot_inst);
/* A view's events evs[0..nev) let go: when no view uses any, everything
 * counted is folded, the backend stopped and the sockets no acquiring view
 * claimed given back (the teardown's error: a stop that failed); the
 * events nobody uses dropped then, or always with `prune`. */
int hub_leave(struct uncore_share *hub, struct hub_event *const *evs, unsigned nev, int prune);
/* Nothing counted: keep only the sockets acquiring views claimed. */
void hub_release_unclaimed(struct uncore_share *hub);
/* Program the backend with the union and start it. */
int hub_rebuild(struct uncore_share *hub);
/* hub_retry_missing's work, when sockets are missing. */
void hub_retry_missing_now(struct uncore_share *hub, int force);
/* A read's rare outcomes, out of line (hub_sync): an interruption the read
 * met, a failed read's unread slots (their values kept as of their last
 * read). */
void hub_read_trouble(struct uncore_share *hub, int rc, uint64_t *now, const uint64_t *before);
/* hub_guard's rare path: a read `t` came too late (out of line). */
void hub_wraps_missed(struct uncore_share *hub, uint64_t t);

/* The wrap guard (README "Nothing lost"): every reading of the counters
 * is timed, and one that comes later after the previous one than a
 * programmed counter can wrap in at its fastest rate is noted for the
 * views, each of which says which of its counters may have lost how many
 * wraps (view_note_interrupted).  The poller reads well within that; a
 * process stopped (SIGSTOP, a batch system's suspension), a machine
 * suspended or the poller off can miss it.  `rc`: the read's; a failed
 * read is no reading of every counter. */
static inline __attribute__((always_inline)) void hub_guard(struct uncore_share *hub, int rc,
								const uint64_t *at)
{
	uint64_t t;
	if (hub->min_wrap_ns == UINT64_MAX || rc < 0)
		return;
	/* `at`: the reading's time on the hub's clock, which its reader took
	 * just before (a set's read_timed: one clock reading serves both, issue
	 * 27); else the guard's own.  The backend's freeze instant (its
	 * read_ns[0], backend.h) only when this very read froze (read_timed,
	 * cleared before it by view_time_begin): a read that did not freeze
	 * leaves an earlier read's instant there, and a late one would go
	 * unnoticed. */
	if (at == hub->be->read_ns && !hub->be->read_timed)
		at = NULL;
	if (at)
		t = *at;
	else if (uncore_clock_now_coarse(&hub->clock, &t) < 0)
		return;
	/* The last fold's time never moves back (a reader's clock reading
	 * before a read, the coarse clock after a fold of a finer one). */
	if (__builtin_expect(t <= hub->fold_ns, 0))
		return;
	if (__builtin_expect(t - hub->fold_ns >= hub->min_wrap_ns, 0))
		hub_wraps_missed(hub, t);
	hub->fold_ns = t;
}

/* The counters' start reading (hub_rebuild: the reading a set's first read
 * takes over, fresh), timed on the hub's clock just before and just after
 * it, so that a set whose origin it becomes starts its time there, not at
 * its own later read (issue 27: a preemption in between put counts before
 * the set's origin; uncore_share_view_start_instants). */
static inline int hub_read_start(struct uncore_share *hub)
{
	hub->start_timed = uncore_clock_now(&hub->clock, &hub->start_ns[0]) == 0;
	int rc = hub->read(hub->be, hub->raw[0]);
	if (rc == 0 && hub->start_timed &&
	    uncore_clock_now(&hub->clock, &hub->start_ns[1]) < 0)
		hub->start_timed = 0;
	if (rc == 0 && !hub->start_timed)
		uncore_error_clear(); /* a clock that failed: the origin reads again */
	return rc;
}

/* Take sockets whose holder went away (at most once a second unless
 * `force`).  Inline: every read of a view asks, and the usual answer is
 * one test. */
static inline void hub_retry_missing(struct uncore_share *hub, int force)
{
	if (hub->missing && !hub->no_socket_lock)
		hub_retry_missing_now(hub, force);
}

/* Bring the totals up to date (every programmed counter folded): 0 or
 * the read's error.  The slots that could be read are folded all the
 * same, so a fault on one box costs no other box its counts (backend.h);
 * the read or stop of the set that met it fails, and the component
 * reports it once (issue 15).  Always inline: it is the body of every
 * read through shared counters, whose fixed cost is a call level each (GCC
 * otherwise outlines it: 40 instructions of prologue per PAPI_read). */
static inline __attribute__((always_inline)) int hub_sync(struct uncore_share *hub,
							   const uint64_t *at)
{
	if (!hub->programmed || !hub->hw.nslots)
		return 0;
	if (hub->fresh) {
		hub->fresh = 0;
		return 0;
	}
	uint64_t *now = hub->raw[hub->cur];
	const uint64_t *before = hub->raw[hub->cur ^ 1];
	int rc = hub->read(hub->be, now);
	if (__builtin_expect(rc < 0 || hub->be->counting_interrupted, 0))
		hub_read_trouble(hub, rc, now, before);
	hub_guard(hub, rc, at);
	/* Every read: one fold per counter (counter_fold.h: the delta modulo
	 * 2^width survives one wrap), straight into its total. */
	uint64_t *tot = hub->tot;
	const uint64_t *mask = hub->mask;
	for (unsigned j = 0; j < hub->nfanout; j++) {
		unsigned k = hub->fanout[j].slot;
		*hub->fanout[j].total += (now[k] - before[k]) & mask[k];
	}
	size_t k = 0, n = hub->hw.nslots, n8 = n & ~(size_t)7;
	for (; k < n8; k += 8) { /* unrolled: one branch per eight counters */
		tot[k] += (now[k] - before[k]) & mask[k];
		tot[k + 1] += (now[k + 1] - before[k + 1]) & mask[k + 1];
		tot[k + 2] += (now[k + 2] - before[k + 2]) & mask[k + 2];
		tot[k + 3] += (now[k + 3] - before[k + 3]) & mask[k + 3];
		tot[k + 4] += (now[k + 4] - before[k + 4]) & mask[k + 4];
		tot[k + 5] += (now[k + 5] - before[k + 5]) & mask[k + 5];
		tot[k + 6] += (now[k + 6] - before[k + 6]) & mask[k + 6];
		tot[k + 7] += (now[k + 7] - before[k + 7]) & mask[k + 7];
		/* One index for the four arrays: GCC would walk four pointers
		 * instead, three more instructions a turn (issue 14). */
		__asm__("" : "+r"(k));
	}
	for (; k < n; k++)
		tot[k] += (now[k] - before[k]) & mask[k];
	hub->cur ^= 1;
	return rc;
}

/* A view's share of the hub's interruptions: the rare path out of line. */
void view_note_interrupted(struct share_view *v);
static inline void view_take_interruption(struct share_view *v)
{
	if (v->seen_gen != v->hub->interrupt_gen)
		view_note_interrupted(v);
}

/* A set that times its reads by the backend's freeze and thaw instants
 * (backend.h, read_now; eventset/set_read.c) asks through its view: the
 * hub's backend takes them for this read, under the hub's lock, and the
 * view passes them back (view_time_end). */
static inline __attribute__((always_inline)) void view_time_begin(const struct share_view *v,
								  struct uncore_backend *be)
{
	be->read_now = v->base.read_now;
	be->read_now_ctx = v->base.read_now_ctx;
	be->read_timed = 0;
}

static inline __attribute__((always_inline)) void view_time_end(struct share_view *v,
								struct uncore_backend *be)
{
	v->base.read_timed = be->read_timed;
	v->base.read_ns[0] = be->read_ns[0];
	v->base.read_ns[1] = be->read_ns[1];
	be->read_now = NULL;
}

/* Bring a view's counts up to date under the hub's lock (hub held). */
static inline __attribute__((always_inline)) int view_sync(struct share_view *v)
{
	struct uncore_share *hub = v->hub;
	hub_retry_missing(hub, 0);
	/* A poller's read only folds: no freeze of the shared counters, which
	 * would stop them for the read's duration (backend.h). */
	hub->be->fold_only_read = v->base.fold_only_read;
	int timed = v->base.read_now != NULL;
	if (timed)
		view_time_begin(v, hub->be);
	int rc = hub_sync(hub, v->guard_at);
	if (timed)
		view_time_end(v, hub->be);
	hub->be->fold_only_read = 0;
	/* The union's: a group of another set's events may be the one scaled;
	 * the set's exact check then finds none of its own. */
	v->base.read_scaled = hub->be->read_scaled;
	view_take_interruption(v);
	return rc;
}

/* After a set's read through `b` (its origin's, set_read.c): 1 when that
 * read took over the hub's start reading (hub_read_start) timed on `clock`,
 * the set's, with *before and *after its instants; -1 when it took it over
 * but the hub could not time it on that clock (the set reads again); 0
 * when the read read the counters itself, or `b` is no view. */
int uncore_share_view_start_instants(struct uncore_backend *b, const struct uncore_clock *clock,
				     uint64_t *before, uint64_t *after);

/* The sums' addresses of the totals, as of the hub's layout (share_view.c). */
void view_refresh_sums(struct share_view *v, struct uncore_share_sums *sums);

/* The general read of the sums (share_view.c), the hub locked: the rest
 * of share_view_sum when the one-pass read does not apply. */
int share_view_sum_general(struct share_view *v, struct uncore_share_sums *sums, uint64_t *out);

/* The one-pass read (sums in_order, share.h): the counters read, each
 * folded into its total and that total plus the set's offset written into
 * `out`, in one loop; wide: no mask (64-bit values, the perf backend).
 * What hub_sync and the sums do, for a set alone on the hub. */
static inline __attribute__((always_inline)) void
fold_sum_in_order(uint64_t *restrict tot, const uint64_t *now, const uint64_t *before,
		  const uint64_t *mask, const uint64_t *off, uint64_t *out, size_t n,
		  const int wide)
{
#define UNCORE_FOLD_SUM(k)                                                                         \
	do {                                                                                       \
		uint64_t t =                                                                       \
		    tot[k] + (wide ? now[k] - before[k] : (now[k] - before[k]) & mask[k]);         \
		tot[k] = t;                                                                        \
		out[k] = off[k] + t;                                                               \
	} while (0)
	size_t k = 0, n4 = n & ~(size_t)3;
	for (; k < n4; k += 4) { /* unrolled: one branch per four counters */
		UNCORE_FOLD_SUM(k);
		UNCORE_FOLD_SUM(k + 1);
		UNCORE_FOLD_SUM(k + 2);
		UNCORE_FOLD_SUM(k + 3);
	}
	for (; k < n; k++)
		UNCORE_FOLD_SUM(k);
#undef UNCORE_FOLD_SUM
}

/* uncore_share_view_sum's body, inline so that a set's read (eventset.c,
 * uncore_set_read) is one function from the set's state down to the
 * backend's read: the hub's fold and the sums in one frame, no call level
 * of its own per PAPI_read (issue 14: the perf backend's 8 events within
 * 1.05x of PAPI perf_event); the general case out of line. */
static inline __attribute__((always_inline)) int
share_view_sum(struct share_view *v, struct uncore_share_sums *sums, uint64_t *out)
{
	struct uncore_share *hub = v->hub;
	hub_lock(&hub->mu);
	/* The usual read (issue 14: the perf backend's 8 events within 1.05x
	 * of PAPI perf_event): sums in order as of the hub's current layout
	 * (so programmed, its first reading taken, no fanout), the view
	 * counting, no poller's fold-only read, no socket to retry. */
	if (__builtin_expect(sums->in_order && sums->layout == hub->layout && v->running &&
				 !v->base.fold_only_read && !hub->missing,
			     1)) {
		uint64_t *now = hub->raw[hub->cur];
		const uint64_t *before = hub->raw[hub->cur ^ 1];
		int timed = v->base.read_now != NULL;
		if (__builtin_expect(timed, 0))
			view_time_begin(v, hub->be);
		int rc = hub->read(hub->be, now);
		if (__builtin_expect(timed, 0))
			view_time_end(v, hub->be);
		if (__builtin_expect(rc < 0 || hub->be->counting_interrupted, 0))
			hub_read_trouble(hub, rc, now, before);
		hub_guard(hub, rc, v->guard_at);
		if (sums->in_order == SUMS_IN_ORDER_WIDE)
			fold_sum_in_order(hub->tot, now, before, NULL, sums->off, out, sums->n, 1);
		else
			fold_sum_in_order(hub->tot, now, before, hub->mask, sums->off, out, sums->n,
					  0);
		hub->cur ^= 1;
		v->base.read_scaled = hub->be->read_scaled;
		view_take_interruption(v);
		hub_unlock(&hub->mu);
		return rc;
	}
	return share_view_sum_general(v, sums, out);
}

#endif
