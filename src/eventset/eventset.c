/* Event sets (see eventset.h): entries are raw events or metrics; the
 * scheduled events are the raw events followed by the metrics' terms
 * (metrics/compile.h); with time-multiplexed terms the set has several
 * settings ("phases"), each a plan of its own, taking turns at each read.
 * Start takes ownership of every phase's boxes at once (backend.h,
 * acquire) and stop gives it back, so a change of phase only reprograms. */
#include "eventset/set_internal.h"

#include "common/notice_words.h"
#include "common/uncore_error.h"
#include "eventset/counter_fold.h"
#include "eventset/set_eval.h"
#include "eventset/share_internal.h"
#include "events/encode.h"
#include "events/parse.h"
#include "metrics/compile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fold a read's values into the current phase: every slot when the read
 * succeeded, else the slots it could read (backend.h) when the backend
 * says which; 1 when a slot went unread. */
static int fold_read(struct uncore_set *s, int rc, int final)
{
	const struct phase *ph = &s->c.phases[s->phase];
	int unread = 0;
	if (rc == 0 && !final) {
		/* Every read of a running set: one fold per slot (every fold of
		 * the live phase runs: phase_begin starts them all). */
		struct uncore_counter_fold *f = s->c.folds;
		const uint64_t *raw = s->c.rawv;
		for (unsigned k = 0, n = ph->plan.nslots; k < n; k++) {
			f[k].total += uncore_fold_delta(&f[k], raw[k]);
			f[k].last = raw[k] & f[k].mask;
		}
		return 0;
	}
	if (rc < 0 && s->be->value_bits && !s->be->marks_unread)
		return 1; /* 64-bit totals (perf): no per-slot mark, nothing folded */
	for (unsigned k = 0; k < ph->plan.nslots; k++) {
		uint64_t raw = s->c.rawv[k];
		if (rc < 0 && raw == UNCORE_RAW_UNREAD) {
			unread = 1;
			if (final)
				uncore_fold_stop(&s->c.folds[k], s->c.folds[k].last);
			continue;
		}
		if (final)
			uncore_fold_stop(&s->c.folds[k], raw);
		else
			uncore_fold_update(&s->c.folds[k], raw);
	}
	return unread;
}

/* Term `term`'s events' bases and slots into sum `t` of the phase's sums;
 * a sum's first slot is its own (not added to a 0), the others add to it
 * (more_slot from nm on): the new nm. */
static unsigned add_term_slots(const struct contents *c, struct phase *ph, unsigned term,
			       unsigned t, unsigned nm)
{
	const struct uncore_plan *pl = &ph->plan;
	const struct uncore_counter_fold *f = c->folds;
	for (unsigned e = c->nraw; e < c->nsev; e++) {
		if (c->info[e].term != term)
			continue;
		unsigned l = (unsigned)ph->local[e];
		ph->sum_off[t] += c->base[e];
		for (unsigned m = 0; m < pl->count[l]; m++) {
			unsigned slot = pl->slot_index[pl->first[l] + m];
			ph->sum_off[t] += f[slot].total - f[slot].last;
			if (ph->sum_slot[t] == c->maxslots)
				ph->sum_slot[t] = slot;
			else {
				ph->more_slot[nm] = slot;
				ph->more_dst[nm++] = t;
			}
		}
	}
	return nm;
}

/* The sums of a set with metrics (contents.msum): the raw entries by raw
 * index, as prepare_sums has them, then each term's slots, every one of
 * them summed into the term's count (the term's first sum reads the fold
 * past the plan's, 0).  A read then gives every term's exact count in the
 * same pass as the raw entries' (set_read_msum); summed is 2, which the
 * one-pass read of a set of events (uncore_set_read) does not take. */
static void prepare_metric_sums(struct uncore_set *s)
{
	struct contents *c = &s->c;
	struct phase *ph = &c->phases[0];
	const struct uncore_counter_fold *f = c->folds;
	unsigned nr = ph->nraw_op, nm = ph->nraw_more;
	for (unsigned k = 0; k < nr; k++) {
		const struct raw_op *o = &ph->raw_op[k];
		ph->sum_slot[k] = o->slot;
		ph->sum_off[k] = c->base[o->event] + f[o->slot].total - f[o->slot].last;
	}
	for (unsigned j = 0; j < nm; j++) {
		const struct raw_add *a = &ph->raw_more[j];
		ph->more_slot[j] = a->slot;
		ph->more_dst[j] = a->raw;
		ph->sum_off[a->raw] += f[a->slot].total - f[a->slot].last;
	}
	/* The terms' counts, or with a flat list (set_build.c) each flat
	 * entry's sum of its terms' counts (uncore_set_eval_flat). */
	c->sums_flat = c->flat_interval;
	unsigned nt = c->sums_flat ? c->nflat : c->nterms;
	for (unsigned t = 0; t < nt; t++) {
		ph->sum_slot[nr + t] = c->maxslots;
		ph->sum_off[nr + t] = 0;
	}
	for (unsigned j = 0; j < nt; j++) {
		unsigned nk = c->sums_flat ? c->flat[j].n : 1;
		for (unsigned k = 0; k < nk; k++)
			nm = add_term_slots(c, ph, c->sums_flat ? c->flat[j].term[k] : j, nr + j, nm);
	}
	ph->sums.n = nr + nt;
	ph->sums.nmore = nm;
	ph->sums.stale = 1;
	ph->sums.in_order = 0;
	s->summed = 2;
}

/* A set of events (no metric) counting through shared counters: its reads
 * are the view's sums (share.h), each entry's base plus its slots' totals
 * less what they held when the folds last started, written once into the
 * caller's array; the set folds nothing at a read.  Its folds keep that
 * start for the stop's final fold, which needs no reading in between since
 * the view's totals are 64-bit and never wrap.  Prepared whenever the
 * folds start (phase_begin, uncore_set_reset). */
static void prepare_sums(struct uncore_set *s)
{
	struct contents *c = &s->c;
	struct phase *ph = &c->phases[s->phase];
	const struct uncore_counter_fold *f = c->folds;
	s->summed = 0;
	if (c->msum) {
		prepare_metric_sums(s);
		return;
	}
	if (c->ms || c->nphases != 1 || c->nraw != c->n || !uncore_share_is_view(s->be))
		return;
	/* Every entry is raw: raw_op[k] is entry k's.  A slot past the plan's
	 * (an entry without a counter in this setting) sums 0 (share.h). */
	for (unsigned k = 0; k < ph->nraw_op; k++) {
		const struct raw_op *o = &ph->raw_op[k];
		ph->sum_slot[k] = o->slot;
		ph->sum_off[k] = c->base[o->event] + f[o->slot].total - f[o->slot].last;
	}
	for (unsigned j = 0; j < ph->nraw_more; j++) {
		const struct raw_add *a = &ph->raw_more[j];
		ph->more_slot[j] = a->slot;
		ph->more_dst[j] = a->entry;
		ph->sum_off[a->entry] += f[a->slot].total - f[a->slot].last;
	}
	ph->sums.stale = 1; /* the view looks the totals up at the next read */
	ph->sums.in_order = 0;
	s->summed = 1;
}

/* Program and start the current phase; its folds start from a first read. */
static int phase_begin(struct uncore_set *s)
{
	struct phase *ph = &s->c.phases[s->phase];
	int rc = s->be->ops->program(s->be, &ph->plan);
	if (rc < 0)
		return rc;
	rc = s->be->ops->start(s->be);
	int rr = 0;
	if (rc == 0)
		rc = set_read_timed(s, s->c.rawv, 1, &rr, &s->phase_ns);
	if (rc == 0)
		rc = rr;
	if (rc == 0)
		for (unsigned k = 0; k < ph->plan.nslots && rc == 0; k++)
			rc = uncore_fold_init(&s->c.folds[k], s->be->value_bits
								  ? s->be->value_bits
								  : ph->plan.slots[k].width);
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		s->be->ops->unprogram(s->be);
		return uncore_error_restore(&err);
	}
	for (unsigned k = 0; k < ph->plan.nslots; k++)
		uncore_fold_start(&s->c.folds[k], s->c.rawv[k]);
	/* Wraps lost before this reading are not in the set's counts: they
	 * start from it. */
	s->be->wraps_lost = 0;
	s->live = 1;
	prepare_sums(s);
	return 0;
}

/* Stop the current phase and move its counts and time into the bases. */
static int phase_end(struct uncore_set *s, uint64_t *end_ns)
{
	struct phase *ph = &s->c.phases[s->phase];
	uint64_t now = s->phase_ns, t = 0;
	s->summed = 0;
	/* The interval ends when counting stops, not after the reads. */
	int rc2 = uncore_clock_now(&s->clock, &t);
	int rc = s->be->ops->stop(s->be);
	char stop_detail[256];
	snprintf(stop_detail, sizeof(stop_detail), "%s", uncore_error_detail());
	if (rc2 == 0 && t > s->resume_ns)
		s->count_ns += t - s->resume_ns;
	s->resume_ns = t;
	now = s->count_ns;
	/* The final read even when a box would not stop: what it counted since
	 * the last read is read now or never (unprogram follows). */
	int rr = s->be->ops->read(s->be, s->c.rawv);
	if (rr < 0 && !s->be->value_bits) {
		/* Once more for the counters it missed: a transient fault then
		 * costs nothing. */
		int again = s->be->ops->read(s->be, s->c.rawv2);
		rr = 0;
		for (unsigned k = 0; k < ph->plan.nslots; k++) {
			if (s->c.rawv[k] == UNCORE_RAW_UNREAD)
				s->c.rawv[k] = s->c.rawv2[k];
			if (s->c.rawv[k] == UNCORE_RAW_UNREAD)
				rr = again < 0 ? again : UNCORE_EIO;
		}
	}
	if (fold_read(s, rr, 1)) {
		s->final_short = 1;
		set_note_short(s, rr,
			   "the final read could not read every counter; their counts since the "
			   "last read are lost",
			   uncore_error_detail());
	}
	if (s->be->wraps_lost)
		set_take_wraps(s);
	/* An unfreeze failing after the final read costs nothing: counting
	 * ends here anyway. */
	s->be->counting_interrupted = 0;
	if (rc < 0)
		uncore_fail(rc, "%s (the counts were read and kept)", stop_detail);
	else if (rr < 0)
		rc = uncore_fail(rr, "%s", s->short_detail);
	if (rc == 0)
		rc = rc2;
	for (unsigned l = 0; l < ph->nev; l++) {
		struct uncore_slot_status ss;
		s->c.base[ph->ev[l]] += set_phase_total(s, l);
		s->c.active_ns[ph->ev[l]] += now - s->phase_ns;
		/* Before unprogram: the backend's times of this phase's last read. */
		if (rc == 0 && set_live_times(s, l, &ss) == 0) {
			s->c.kern_enabled[ph->ev[l]] += ss.time_enabled;
			s->c.kern_running[ph->ev[l]] += ss.time_running;
			s->kern_scaled |= ss.time_running < ss.time_enabled;
		}
	}
	s->live = 0;
	/* The unprogram's own work (the last holder's teardown reads and
	 * clears what it met) must not wipe the detail of the failure being
	 * returned: it names the register (issue 29). */
	struct uncore_saved_error err;
	uncore_error_save(&err, rc);
	rc2 = s->be->ops->unprogram(s->be);
	if (rc == 0)
		rc = rc2;
	else
		uncore_error_restore(&err);
	*end_ns = now;
	return rc;
}

/* Values of every entry at time `now` from bases and the live phase.
 * `advance`: this read closes an interval (src/metrics/README.md, "What a
 * read returns"): the next READ_INTERVAL value starts here.  The poller's
 * reads do not. */
static void compute(struct uncore_set *s, uint64_t now, uint64_t *values, int advance)
{
	struct contents *c = &s->c;
	const struct phase *ph = &c->phases[s->phase];

	/* Raw events: exact 64-bit counts, each its base and the totals of
	 * its slots in the live phase (build_raw_sums). */
	if (s->live) {
		const struct uncore_counter_fold *f = c->folds;
		const uint64_t *base = c->base;
		for (const struct raw_op *o = ph->raw_op, *end = o + ph->nraw_op; o < end; o++)
			values[o->entry] = base[o->event] + f[o->slot].total;
		for (const struct raw_add *a = ph->raw_more, *end = a + ph->nraw_more; a < end; a++)
			values[a->entry] += f[a->slot].total;
	} else {
		for (unsigned k = 0; k < c->nraw; k++) {
			unsigned i = c->raw_entry[k];
			values[i] = c->base[c->raw[i]];
		}
	}
	if (!c->ms)
		return;
	if (c->msum) {
		set_metric_sum_terms(s, NULL);
		if (c->all_linear)
			uncore_set_eval_linear(s, now, values, advance, c->tsum);
		else
			set_eval_metrics(s, now, values, advance, c->tsum);
		return;
	}
	double elapsed = (double)(now - s->start_ns);
	/* Metric terms: counts scaled by the time their setting was active. */
	for (unsigned e = c->nraw; e < c->nsev; e++) {
		double active = (double)c->active_ns[e];
		double count = (double)c->base[e];
		if (s->live && ph->local[e] >= 0) {
			count += (double)set_phase_total(s, (unsigned)ph->local[e]);
			active += (double)(now - s->phase_ns);
		}
		if (c->info[e].period > 1)
			c->est[e] = active > 0 ? count * (elapsed / active) : NAN;
		else
			c->est[e] = count;
	}
	unsigned nt = c->nterms;
	for (unsigned t = 0; t < nt; t++)
		c->terms[t] = c->terms_int[t] = 0;
	for (unsigned e = c->nraw; e < c->nsev; e++) {
		c->terms[c->info[e].term] += c->info[e].weight * c->est[e];
		c->terms_int[c->info[e].term] += c->info[e].weight * (c->est[e] - c->prev_est[e]);
	}
	set_eval_metrics(s, now, values, advance, NULL);
}

/* The next READ_INTERVAL value starts at `ns`, from zero counts. */
static void interval_restart(struct uncore_set *s, uint64_t ns)
{
	memset(s->c.prev_est, 0, (s->c.nsev ? s->c.nsev : 1) * sizeof(*s->c.prev_est));
	memset(s->c.prev_tsum, 0, (s->c.nterms ? s->c.nterms : 1) * sizeof(*s->c.prev_tsum));
	if (s->c.lin_prev)
		memset(s->c.lin_prev, 0, (s->c.n ? s->c.n : 1) * sizeof(*s->c.lin_prev));
	s->prev_ns = ns;
	s->read_once = 0;
}

static void clear_totals(struct uncore_set *s)
{
	s->kern_scaled = 0;
	memset(s->c.base, 0, (s->c.nsev ? s->c.nsev : 1) * sizeof(*s->c.base));
	memset(s->c.active_ns, 0, (s->c.nsev ? s->c.nsev : 1) * sizeof(*s->c.active_ns));
	memset(s->c.kern_enabled, 0, (s->c.nsev ? s->c.nsev : 1) * sizeof(*s->c.kern_enabled));
	memset(s->c.kern_running, 0, (s->c.nsev ? s->c.nsev : 1) * sizeof(*s->c.kern_running));
}

/* Own what every phase uses (backend.h, acquire), before the first one is
 * programmed. */
static int set_acquire(struct uncore_set *s)
{
	const struct uncore_plan *plans[MAX_PHASES];
	unsigned n = s->c.nphases < MAX_PHASES ? s->c.nphases : MAX_PHASES;
	for (unsigned p = 0; p < n; p++)
		plans[p] = &s->c.phases[p].plan;
	return uncore_backend_acquire(s->be, plans, n);
}

/* Give it back when counting ends; `rc`: the error so far, kept first. */
static int set_release(struct uncore_set *s, int rc)
{
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		uncore_backend_release(s->be);
		return uncore_error_restore(&err);
	}
	return uncore_backend_release(s->be);
}

int uncore_set_start(struct uncore_set *s)
{
	int rc;
	if (s->running)
		return uncore_fail(UNCORE_ESTATE, "the event set is already running");
	if (s->c.n == 0)
		return uncore_fail(UNCORE_EINVAL, "the event set is empty");
	clear_totals(s);
	s->phase = 0;
	s->count_ns = s->resume_ns = 0;
	s->short_rc = s->final_short = 0;
	s->short_detail[0] = '\0';
	s->notices = 0;
	s->notice[0] = '\0';
	s->be->counting_interrupted = 0;
	rc = set_acquire(s);
	if (rc == 0)
		rc = phase_begin(s);
	if (rc < 0)
		return set_release(s, rc);
	s->start_ns = s->phase_ns;
	interval_restart(s, s->start_ns);
	s->running = 1;
	return 0;
}

/* A running set between settings (a change of setting failed): the
 * setting programmed again; the values are the counts so far. */
static __attribute__((noinline)) int set_read_between(struct uncore_set *s, uint64_t *values)
{
	uint64_t now = s->phase_ns;
	int rc = phase_begin(s);
	if (rc == 0)
		now = s->phase_ns;
	else if (uncore_clock_now(&s->clock, &now) < 0)
		now = s->phase_ns;
	struct uncore_saved_error err;
	uncore_error_save(&err, rc);
	compute(s, now, values, !s->be->fold_only_read);
	s->scaled_hint = s->kern_scaled;
	return rc < 0 ? uncore_error_restore(&err) : 0;
}

/* uncore_set_read of a set that is stopped or does not read through sums. */
__attribute__((noinline)) int set_read_other(struct uncore_set *s, uint64_t *values)
{
	if (!s->running) {
		memcpy(values, s->values, s->c.n * sizeof(*values));
		s->scaled_hint = s->kern_scaled;
		return s->final_short ? uncore_fail(s->short_rc, "%s", s->short_detail) : 0;
	}
	if (!s->live)
		return set_read_between(s, values);
	/* The clock serves metrics (their interval) alone: a set of events
	 * reads none. */
	uint64_t now = s->phase_ns;
	int rc = 0, rc2 = 0;
	if (s->c.ms)
		rc2 = set_read_timed(s, s->c.rawv, 0, &rc, &now);
	else
		rc = s->be->ops->read(s->be, s->c.rawv);
	if (rc2 < 0)
		return rc2;
	/* The counters that could be read are folded even when others could
	 * not: a fault on one box costs no other box its counts (a counter
	 * left unread too long could wrap twice). */
	fold_read(s, rc, 0);
	set_take_interruption(s);
	/* Written once, into the caller's array: s->values serves reads of a
	 * stopped set only (stop and reset fill it). */
	compute(s, now, values, !s->be->fold_only_read);
	if (rc < 0)
		return rc;
	if (s->c.nphases > 1) {
		/* Next setting of the multiplexed terms. */
		uint64_t end;
		rc = phase_end(s, &end);
		s->phase = (s->phase + 1) % s->c.nphases;
		if (rc == 0)
			rc = phase_begin(s);
		if (rc < 0) {
			/* Still running, between settings: the next read (or the
			 * poller's) programs the setting again, and a stop ends the
			 * set with the counts so far.  So PAPI's state and the set's
			 * agree, and the set can always be stopped (issue 29). */
			set_note_short(s, rc, "a change of the time-multiplexed setting failed; counting "
				   "resumes at a later read", uncore_error_detail());
			return rc;
		}
	}
	/* After phase_end, which may have set kern_scaled. */
	s->scaled_hint = s->kern_scaled | s->be->read_scaled;
	return 0;
}

int uncore_set_sample(struct uncore_set *s)
{
	if (!s->running || !s->be->ops->sample)
		return 0;
	return s->be->ops->sample(s->be);
}

int uncore_set_poll(struct uncore_set *s, uint64_t *values)
{
	if (!s->running)
		return 0;
	s->be->fold_only_read = 1;
	int rc = uncore_set_read(s, values);
	s->be->fold_only_read = 0;
	return rc;
}

int uncore_set_stop(struct uncore_set *s, uint64_t *values)
{
	int rc = 0;
	if (s->running) {
		uint64_t end = s->phase_ns;
		if (s->live)
			rc = phase_end(s, &end);
		else if (uncore_clock_now(&s->clock, &end) < 0)
			uncore_error_clear(); /* between settings: the counts so far */
		rc = set_release(s, rc);
		if (rc < 0)
			set_note_failed_read(s, INTEL_UNCORE_NOTICE_STOP_FAILED);
		s->stop_ns = end;
		s->running = 0;
		compute(s, end, s->values, 1);
	} else if (s->final_short) {
		rc = uncore_fail(s->short_rc, "%s", s->short_detail);
	}
	if (values)
		memcpy(values, s->values, s->c.n * sizeof(*values));
	return rc;
}

int uncore_set_reset(struct uncore_set *s)
{
	clear_totals(s);
	s->short_rc = s->final_short = 0;
	s->short_detail[0] = '\0';
	if (s->running && !s->live) {
		/* Between settings: nothing programmed to read from. */
		if (uncore_clock_now(&s->clock, &s->start_ns) < 0)
			uncore_error_clear(); /* the interval starts at the last known time */
		interval_restart(s, s->start_ns);
		return 0;
	}
	if (s->running) {
		const struct phase *ph = &s->c.phases[s->phase];
		int rr = 0, rc = set_read_timed(s, s->c.rawv, 0, &rr, &s->phase_ns);
		if (rc == 0)
			rc = rr;
		if (rc < 0) {
			prepare_sums(s); /* the bases were cleared */
			return rc;
		}
		for (unsigned k = 0; k < ph->plan.nslots; k++)
			uncore_fold_reset(&s->c.folds[k], s->c.rawv[k]);
		s->start_ns = s->phase_ns;
		interval_restart(s, s->start_ns);
		prepare_sums(s);
		return 0;
	}
	s->start_ns = s->stop_ns;
	interval_restart(s, s->start_ns);
	compute(s, s->stop_ns, s->values, 0);
	return 0;
}
