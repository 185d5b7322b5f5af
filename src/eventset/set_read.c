/* An event set's read (see eventset.h): the timed read, whose counts and
 * instant are taken together, and the reads of a running set through the
 * view's sums, raw events or metrics (src/metrics/README.md, "What a read
 * returns"); the other reads are eventset.c's (set_read_other, through the
 * set's read_other). */
#include "eventset/set_internal.h"

#include "common/notice_words.h"
#include "common/uncore_error.h"
#include "eventset/set_eval.h"
#include "eventset/share_internal.h"

#include <stdio.h>
#include <string.h>

/* Remember that counts may be short (the first cause is kept). */
void set_note_short(struct uncore_set *s, int rc, const char *what, const char *detail)
{
	if (s->short_rc)
		return;
	s->short_rc = rc < 0 ? rc : UNCORE_EIO;
	snprintf(s->short_detail, sizeof(s->short_detail), "%s: %s", what, detail);
}

/* Take the backend's report of a read too late for a counter's wraps. */
void set_take_wraps(struct uncore_set *s)
{
	s->notices++;
	snprintf(s->notice, sizeof(s->notice), "%s", s->be->wraps_detail);
	s->be->wraps_lost = 0;
}

/* A read (the caller's, the poller's, the stop's) that failed: a notice
 * too, naming what failed (the detail names the register), so that a tool
 * that goes on counting can say which interval it lost and why (issue 29:
 * uncore-stat marks that interval; the next read's counts cover it). */
__attribute__((noinline)) void set_note_failed_read(struct uncore_set *s, const char *what)
{
	s->notices++;
	snprintf(s->notice, sizeof(s->notice), "%s%s", what,
		 uncore_error_detail()[0] ? uncore_error_detail() : uncore_strerror(UNCORE_EIO));
}

/* Take the backend's reports: counting that stopped on part of the
 * machine, a read too late for a counter's wraps. */
void set_take_interruption(struct uncore_set *s)
{
	if (__builtin_expect(!(s->be->counting_interrupted | s->be->wraps_lost), 1))
		return;
	if (s->be->wraps_lost)
		set_take_wraps(s);
	if (!s->be->counting_interrupted)
		return;
	set_note_short(s, UNCORE_EIO, "counting stopped on part of the machine until a later read",
		   s->be->interrupted_detail);
	s->be->counting_interrupted = 0;
}

/* A backend read with its instant on the counting time, *at (README "What
 * a read returns": counts and their time taken together, inside the read).
 * The clock is read just before and just after.  A read that freezes the
 * counters stops them between its first and last access: counting time
 * advances to the instant before and resumes at the instant after, so a
 * read preempted while frozen loses no time its counts lack (a preemption
 * between a clock read and the freeze or unfreeze itself still moves
 * counts against time: src/metrics/README.md, "Counting time").  A read
 * that does not freeze samples the counters one after the other: its
 * instant is the middle, and a read longer than 50 us and four times
 * longer than the shortest one (preempted half-way) is made again,
 * READ_AGAIN times at most, so that the counts and their instant stay
 * together; the first read, with no shortest one yet, is made twice when
 * it is that long.  `origin`: counting (re)started just before: the time
 * before this read counts nothing, and its read, which only starts the
 * folds, is made again the same way, freeze or not. */
#define READ_AGAIN 8

/* `at`: the clock reading just before; through the view's sums on the
 * hub's own clock, it is the wrap guard's too (one reading for both; on
 * the host the set's CLOCK_MONOTONIC, of which the guard's own
 * CLOCK_MONOTONIC_COARSE lags a tick at most, nothing next to the seconds
 * it guards). */
static inline __attribute__((always_inline)) int timed_op(struct uncore_set *s, uint64_t *raw, struct uncore_share_sums *sums,
			   const uint64_t *at)
{
	if (!sums)
		return s->be->ops->read(s->be, raw);
	struct share_view *v = (struct share_view *)s->be;
	const struct uncore_clock *hc = &v->hub->clock;
	v->guard_at = hc->now_ns == s->clock.now_ns && hc->ctx == s->clock.ctx ? at : NULL;
	int rc = share_view_sum(v, sums, raw);
	v->guard_at = NULL;
	return rc;
}

/* The set's clock, its function called straight (no call level of
 * uncore_clock_now's in a timed read). */
static inline __attribute__((always_inline)) int clock_now(const struct uncore_clock *c,
							   uint64_t *ns)
{
	return c->now_ns ? c->now_ns(c->ctx, ns) : uncore_clock_now(c, ns);
}

/* The read made again while it looks preempted (read_timed_sums: one that does
 * not freeze, or the origin's); *b, *a: the clock around the last attempt. */
static __attribute__((noinline)) int read_again(struct uncore_set *s, uint64_t *raw,
						struct uncore_share_sums *sums, int origin,
						int *read_rc, uint64_t *b, uint64_t *a)
{
	/* best: the shortest read known before this attempt (none before the
	 * first read: that one is made twice, so that a preempted first read
	 * is known too). */
	uint64_t best = origin ? 0 : s->read_window;
	int rc = 0;
	for (int again = 0; rc == 0 && *read_rc == 0 && again < READ_AGAIN; again++) {
		uint64_t d = *a - *b;
		if (*a < *b || !uncore_read_preempted(d, best))
			break;
		if (!best || d < best)
			best = d;
		rc = clock_now(&s->clock, b);
		*read_rc = rc == 0 ? timed_op(s, raw, sums, b) : 0;
		if (rc == 0)
			rc = clock_now(&s->clock, a);
	}
	return rc;
}

/* The origin's read, after it: one that took over the counters' start
 * reading (the shared counters' fresh reading, share_internal.h
 * hub_read_start) has that reading's instants, *b and *a, not the clock
 * around this read, later by whatever preempted the start in between
 * (issue 27: counts before the origin); a frozen one is one instant as
 * any read that freezes (no read made again: a set's start reads the
 * counters once); one the hub did not time on the set's clock is made
 * again.  Then read_again as any origin's. */
static __attribute__((noinline)) int origin_read(struct uncore_set *s, uint64_t *raw,
						 struct uncore_share_sums *sums, int freezes,
						 int *read_rc, uint64_t *b, uint64_t *a)
{
	int rc = 0, took = uncore_share_view_start_instants(s->be, &s->clock, b, a);
	if (took > 0 && freezes)
		return 0;
	if (took < 0) {
		rc = clock_now(&s->clock, b);
		*read_rc = rc == 0 ? timed_op(s, raw, sums, b) : 0;
		if (rc == 0)
			rc = clock_now(&s->clock, a);
	}
	if (rc == 0 && *read_rc == 0)
		rc = read_again(s, raw, sums, 1, read_rc, b, a);
	return rc;
}

/* The host's CLOCK_MONOTONIC as a clock function (backend.h, read_now). */
static int host_now(void *ctx, uint64_t *ns)
{
	(void)ctx;
	return uncore_clock_now(NULL, ns);
}

/* After the origin's read: a set with metrics counting through a view of
 * a backend whose reads freeze has the backend take each read's freeze
 * and thaw instants on the set's clock (backend.h, read_now), next to
 * those writes, instead of reading the clock around the read; the wrap
 * guard takes the freeze instant when the hub's clock is the set's. */
static void bind_read_clock(struct uncore_set *s)
{
	struct uncore_backend *be = s->be;
	s->read_guard = NULL;
	if (!s->c.ms || !be->read_freezes || !uncore_share_is_view(be)) {
		if (uncore_share_is_view(be))
			be->read_now = NULL;
		return;
	}
	struct share_view *v = (struct share_view *)be;
	const struct uncore_clock *hc = &v->hub->clock;
	be->read_now = s->clock.now_ns ? s->clock.now_ns : host_now;
	be->read_now_ctx = s->clock.now_ns ? s->clock.ctx : NULL;
	if (hc->now_ns == s->clock.now_ns && hc->ctx == s->clock.ctx)
		s->read_guard = &v->hub->be->read_ns[0];
}

/* A read that freezes, timed by the backend (bind_read_clock): counting
 * time advances to its freeze instant and resumes at its thaw instant, so
 * a read preempted while frozen loses no time its counts lack, and one
 * preempted anywhere else (taking the hub's lock, between the sums) moves
 * nothing.  A read that read no register (the counters' start reading
 * taken over, backend.h) has one clock reading after it. */
static inline __attribute__((always_inline)) int
read_backend_timed(struct uncore_set *s, uint64_t *raw, struct uncore_share_sums *sums,
		   int *read_rc, uint64_t *at)
{
	struct uncore_backend *be = s->be;
	struct share_view *v = (struct share_view *)be;
	be->read_timed = 0;
	v->guard_at = s->read_guard;
	*read_rc = sums ? share_view_sum(v, sums, raw) : be->ops->read(be, raw);
	v->guard_at = NULL;
	uint64_t b = be->read_ns[0], a = be->read_ns[1];
	if (__builtin_expect(!be->read_timed, 0)) {
		uint64_t t; /* not b's address: b stays in a register */
		int rc = clock_now(&s->clock, &t);
		if (rc < 0)
			return rc;
		a = b = t;
	}
	if (b > s->resume_ns)
		s->count_ns += b - s->resume_ns;
	s->resume_ns = a > b ? a : b;
	*at = s->count_ns;
	return 0;
}

/* `sums`: the read is the view's sums of them into `raw` (set_read_msum),
 * else the backend's read.  `poll`: the backend's fold_only_read (a
 * constant where the caller knows it). */
static inline __attribute__((always_inline)) int
read_timed_sums(struct uncore_set *s, uint64_t *raw, struct uncore_share_sums *sums, int origin,
		int *read_rc, uint64_t *at, const int poll)
{
	/* read_now: bound to a backend whose reads freeze. */
	if (__builtin_expect(s->be->read_now && !origin && !poll, 1))
		return read_backend_timed(s, raw, sums, read_rc, at);
	int freezes = s->be->read_freezes && !poll;
	uint64_t b, a;
	int rc = clock_now(&s->clock, &b);
	*read_rc = rc == 0 ? timed_op(s, raw, sums, &b) : 0;
	if (rc == 0)
		rc = clock_now(&s->clock, &a);
	if (__builtin_expect(origin, 0) && rc == 0 && *read_rc == 0)
		rc = origin_read(s, raw, sums, freezes, read_rc, &b, &a);
	else if (__builtin_expect(!freezes && rc == 0 && *read_rc == 0, 0))
		rc = read_again(s, raw, sums, 0, read_rc, &b, &a);
	if (rc < 0)
		return rc;
	if (a < b)
		a = b;
	/* How long a read takes unpreempted: the shortest seen (not the origin's,
	 * with nothing to catch up), drifting up slowly with unpreempted reads, so
	 * that frequent preemption does not raise the bar that knows one. */
	if (!origin)
		uncore_read_window_note(&s->read_window, a - b);
	uint64_t stop = freezes ? b : b + (a - b) / 2;
	if (!origin && stop > s->resume_ns)
		s->count_ns += stop - s->resume_ns;
	s->resume_ns = freezes ? a : stop;
	*at = s->count_ns;
	if (origin)
		bind_read_clock(s);
	return 0;
}

int set_read_timed(struct uncore_set *s, uint64_t *raw, int origin, int *read_rc, uint64_t *at)
{
	return read_timed_sums(s, raw, NULL, origin, read_rc, at, s->be->fold_only_read);
}

/* A running set of contents.msum (summed 2): one timed pass of the view's
 * sums gives the raw entries and the terms' counts together, with their
 * instant (read_timed); the metrics are evaluated from those.  No fold of
 * the set's own, no per-event estimate: the set's folds keep their start
 * for the stop's final fold, as a set of events' do. */
static inline __attribute__((always_inline)) int set_read_msum(struct uncore_set *s,
								  uint64_t *values, const int poll)
{
	struct contents *c = &s->c;
	uint64_t now = s->phase_ns;
	int rc = 0;
	int rc2 = read_timed_sums(s, c->sumv, &c->phases[0].sums, 0, &rc, &now, poll);
	if (rc2 < 0)
		return rc2;
	if (__builtin_expect(s->be->counting_interrupted | s->be->wraps_lost, 0))
		set_take_interruption(s);
	const uint64_t *sv = c->sumv;
	if (c->nraw) /* raw entries beside the metrics */
		for (unsigned k = 0; k < c->nraw; k++)
			values[c->raw_entry[k]] = sv[k];
	if (__builtin_expect(c->sums_flat, 1)) {
		/* Each kind its own evaluation (set_internal.h, flat_kind). */
		if (c->flat_kind == SET_FLAT_RATES)
			uncore_set_eval_flat(s, now, values, !poll, sv + c->nraw, SET_FLAT_RATES);
		else if (c->flat_kind == SET_FLAT_INT_RATES)
			uncore_set_eval_flat(s, now, values, !poll, sv + c->nraw, SET_FLAT_INT_RATES);
		else
			uncore_set_eval_flat(s, now, values, !poll, sv + c->nraw, SET_FLAT_MIXED);
	} else if (c->all_linear) {
		uncore_set_eval_linear(s, now, values, !poll, sv + c->nraw);
	} else {
		set_eval_terms(s, now, values, !poll, sv + c->nraw);
	}
	s->scaled_hint = s->kern_scaled | s->be->read_scaled;
	return rc;
}

/* The poller's fold-only read of such a set (uncore_set_poll: the
 * backend's fold_only_read set), out of line: the caller's read tests it
 * once, not at each step (bench/README.md 8). */
static __attribute__((noinline)) int set_read_msum_poll(struct uncore_set *s, uint64_t *values)
{
	return set_read_msum(s, values, 1);
}

int uncore_set_read(struct uncore_set *s, uint64_t *values)
{
	if (__builtin_expect(!(s->running & s->summed), 0)) {
		/* Metrics through sums: not through set_read_other (bench/README.md
		 * 8).  summed is 2 only while running and live: phase_begin sets it,
		 * phase_end clears it first. */
		if (s->summed == 2) {
			int rc = __builtin_expect(s->be->fold_only_read, 0) ? set_read_msum_poll(s, values)
									    : set_read_msum(s, values, 0);
			if (rc < 0)
				set_note_failed_read(s, INTEL_UNCORE_NOTICE_READ_FAILED);
			return rc;
		}
		int running = s->running;
		int rc = s->read_other(s, values);
		if (rc < 0 && running)
			set_note_failed_read(s, INTEL_UNCORE_NOTICE_READ_FAILED);
		return rc;
	}
	/* Through shared counters: one pass, into the caller's array, inline
	 * down to the backend's read (share_view_sum): one frame from here to
	 * the hub's fold and the sums. */
	int rc = share_view_sum((struct share_view *)s->be, &s->c.phases[s->phase].sums, values);
	s->scaled_hint = s->kern_scaled | s->be->read_scaled;
	set_take_interruption(s);
	if (__builtin_expect(rc < 0, 0))
		set_note_failed_read(s, INTEL_UNCORE_NOTICE_READ_FAILED);
	return rc;
}
