/* Building an event set's contents (set_internal.h) when its entries are
 * assigned: metrics compiled into terms, the settings (plans) their
 * periods need, each entry's events, and the read path's prepared sums,
 * so that a read looks nothing up. */
#include "eventset/set_internal.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void uncore_set_free_contents(struct contents *c)
{
	free(c->entries);
	free(c->metric);
	free(c->raw);
	free(c->sev);
	free(c->info);
	if (c->ms) /* a set of events alone has no metrics to free */
		uncore_mset_free(c->ms);
	for (unsigned p = 0; c->phases && p < c->nphases; p++) {
		uncore_plan_free(&c->phases[p].plan);
		free(c->phases[p].ev);
		free(c->phases[p].local);
		free(c->phases[p].raw_op);
		free(c->phases[p].raw_more);
		free(c->phases[p].sum_src);
		free(c->phases[p].sum_off);
		free(c->phases[p].more_src);
		free(c->phases[p].more_dst);
		free(c->phases[p].sum_slot);
		free(c->phases[p].more_slot);
	}
	free(c->raw_entry);
	free(c->phases);
	free(c->folds);
	free(c->rawv);
	free(c->rawv2);
	free(c->base);
	free(c->active_ns);
	free(c->kern_enabled);
	free(c->kern_running);
	free(c->ent_first);
	free(c->ent_n);
	free(c->ent_ev);
	free(c->est);
	free(c->terms);
	free(c->int_scale);
	free(c->int_units);
	free(c->reading);
	free(c->prev_est);
	free(c->terms_int);
	free(c->last_val);
	free(c->sumv);
	free(c->tsum);
	free(c->prev_tsum);
	free(c->fprog);
	free(c->lin);
	free(c->lin_prev);
	free(c->flat);
	memset(c, 0, sizeof(*c));
}

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int build_phases(const struct uncore_machine *m, struct contents *c)
{
	unsigned k = 1, maxp = 1;
	for (unsigned e = 0; e < c->nsev; e++) {
		unsigned p = c->info[e].period ? c->info[e].period : 1;
		if (p > maxp)
			maxp = p;
		if (k <= MAX_PHASES)
			k = k / gcd(k, p) * p;
	}
	/* Least common multiple of the periods, so every setting of every
	 * metric gets the same share; their maximum when that is too many. */
	c->nphases = k <= MAX_PHASES ? k : maxp;
	c->phases = calloc(c->nphases, sizeof(*c->phases));
	if (!c->phases)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
	struct uncore_sched_event *tmp = calloc(c->nsev ? c->nsev : 1, sizeof(*tmp));
	if (!tmp)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
	int rc = 0;
	for (unsigned p = 0; rc == 0 && p < c->nphases; p++) {
		struct phase *ph = &c->phases[p];
		ph->ev = calloc(c->nsev ? c->nsev : 1, sizeof(*ph->ev));
		ph->local = calloc(c->nsev ? c->nsev : 1, sizeof(*ph->local));
		if (!ph->ev || !ph->local) {
			rc = uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
			break;
		}
		for (unsigned e = 0; e < c->nsev; e++) {
			unsigned per = c->info[e].period ? c->info[e].period : 1;
			ph->local[e] = -1;
			if (per == 1 || p % per == c->info[e].phase) {
				tmp[ph->nev] = c->sev[e];
				ph->local[e] = (int)ph->nev;
				ph->ev[ph->nev++] = e;
			}
		}
		rc = uncore_schedule(m, tmp, ph->nev, &ph->plan);
		if (rc == 0 && ph->plan.nslots > c->maxslots)
			c->maxslots = ph->plan.nslots;
	}
	free(tmp);
	return rc;
}

/* Whether sched event e counts for entry i: the entry's own event, or a
 * term of its metric. */
static int counts_for(const struct contents *c, unsigned i, unsigned e)
{
	if (c->metric[i] < 0)
		return e == c->raw[i];
	return e >= c->nraw &&
	       uncore_mset_uses_term(c->ms, (unsigned)c->metric[i], c->info[e].term);
}

/* Each entry's sched events, listed once here so that a status query
 * (every PAPI_read, intel_uncore.c) costs one pass over its counters. */
static int build_entry_events(struct contents *c)
{
	unsigned total = 0;
	for (int pass = 0; pass < 2; pass++) {
		unsigned k = 0;
		for (unsigned i = 0; i < c->n; i++) {
			if (pass)
				c->ent_first[i] = k;
			for (unsigned e = c->metric[i] < 0 ? c->raw[i] : c->nraw; e < c->nsev;
			     e++) {
				if (counts_for(c, i, e)) {
					if (pass)
						c->ent_ev[k] = e;
					k++;
				}
				if (c->metric[i] < 0)
					break; /* an event's own sched event only */
			}
			if (pass)
				c->ent_n[i] = k - c->ent_first[i];
		}
		if (pass == 0) {
			total = k;
			c->ent_first = calloc(c->n ? c->n : 1, sizeof(*c->ent_first));
			c->ent_n = calloc(c->n ? c->n : 1, sizeof(*c->ent_n));
			c->ent_ev = calloc(total ? total : 1, sizeof(*c->ent_ev));
			if (!c->ent_first || !c->ent_n || !c->ent_ev)
				return uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
		}
	}
	return 0;
}

/* The raw entries' slots in each phase, resolved once here so that a read
 * sums each entry's slots without looking anything up (compute). */
static int build_raw_sums(struct contents *c, int view)
{
	/* Metrics through the view's sums: one setting, every term counted
	 * everywhere all the time, so that a term's value is its slots' exact
	 * total (compute_msum). */
	c->msum = c->ms && view && c->nphases == 1;
	for (unsigned e = c->nraw; c->msum && e < c->nsev; e++)
		c->msum = c->info[e].weight == 1.0 && c->info[e].period <= 1 &&
			  c->phases[0].local[e] >= 0;
	c->nterms = c->ms ? uncore_mset_nterms(c->ms) : 0;
	/* The metrics' sums: one per term, or one per flat entry
	 * (uncore_set_build_folds, prepare_metric_sums), a metric's terms' slots
	 * each once per occurrence of its term. */
	unsigned nsumt = c->nterms > c->nmetrics ? c->nterms : c->nmetrics;
	unsigned nsum = c->nraw + (c->msum ? nsumt : 0);
	c->raw_entry = calloc(c->nraw ? c->nraw : 1, sizeof(*c->raw_entry));
	if (!c->raw_entry)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
	for (unsigned i = 0, k = 0; i < c->n; i++)
		if (c->metric[i] < 0)
			c->raw_entry[k++] = i;
	for (unsigned p = 0; p < c->nphases; p++) {
		struct phase *ph = &c->phases[p];
		const struct uncore_plan *pl = &ph->plan;
		unsigned total = 0;
		for (unsigned k = 0; k < c->nraw; k++) {
			int l = ph->local[c->raw[c->raw_entry[k]]];
			total += l >= 0 ? pl->count[l] : 0;
		}
		unsigned more = 0;
		for (unsigned e = c->nraw; c->msum && e < c->nsev; e++)
			more += pl->count[ph->local[e]];
		more = total + more * (c->nmetrics * MX_LINEAR_MAX > 1 ? c->nmetrics * MX_LINEAR_MAX : 1);
		ph->raw_op = calloc(c->nraw ? c->nraw : 1, sizeof(*ph->raw_op));
		ph->raw_more = calloc(total ? total : 1, sizeof(*ph->raw_more));
		ph->sum_src = calloc(nsum ? nsum : 1, sizeof(*ph->sum_src));
		ph->sum_off = calloc(nsum ? nsum : 1, sizeof(*ph->sum_off));
		ph->more_src = calloc(more ? more : 1, sizeof(*ph->more_src));
		ph->more_dst = calloc(more ? more : 1, sizeof(*ph->more_dst));
		ph->sum_slot = calloc(nsum ? nsum : 1, sizeof(*ph->sum_slot));
		ph->more_slot = calloc(more ? more : 1, sizeof(*ph->more_slot));
		if (!ph->raw_op || !ph->raw_more || !ph->sum_src || !ph->sum_off || !ph->more_src ||
		    !ph->more_dst || !ph->sum_slot || !ph->more_slot)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
		for (unsigned k = 0; k < c->nraw; k++) {
			unsigned i = c->raw_entry[k];
			int l = ph->local[c->raw[i]];
			unsigned n = l >= 0 ? pl->count[l] : 0;
			/* No counter in this setting: the fold past the last slot,
			 * which stays 0. */
			ph->raw_op[ph->nraw_op++] = (struct raw_op){
			    i, c->raw[i], n ? pl->slot_index[pl->first[l]] : c->maxslots};
			for (unsigned m = 1; m < n; m++)
				ph->raw_more[ph->nraw_more++] =
				    (struct raw_add){pl->slot_index[pl->first[l] + m], i, k};
		}
		/* Filled when the phase starts (eventset.c, prepare_sums). */
		ph->sums = (struct uncore_share_sums){.n = ph->nraw_op,
						      .nmore = ph->nraw_more,
						      .off = ph->sum_off,
						      .slot = ph->sum_slot,
						      .more_slot = ph->more_slot,
						      .more_dst = ph->more_dst,
						      .src = ph->sum_src,
						      .more_src = ph->more_src,
						      .stale = 1};
	}
	return 0;
}

void uncore_set_build_folds(struct contents *c)
{
	/* Each metric entry folded (src/metrics/README.md, "Folding"),
	 * divided by the elapsed time at most. */
	c->all_linear = c->lin != NULL;
	c->nflat = 0;
	c->flat_interval = 0;
	c->flat_kind = SET_FLAT_MIXED;
	for (unsigned i = 0; c->lin && i < c->n; i++) {
		struct mx_linear *l = &c->lin[i];
		l->n = 0;
		if (c->metric[i] < 0)
			continue;
		if (uncore_mset_fold(c->ms, (unsigned)c->metric[i], 1u << UNCORE_METRIC_TSC_MHZ,
				     c->commons, l) < 0 ||
		    (l->per >= 0 && l->per != UNCORE_METRIC_ELAPSED_NS)) {
			l->n = 0;
			c->all_linear = 0;
		}
	}
	if (!c->all_linear)
		return;
	/* The read's flat list: per metric entry its terms, factor, divisor
	 * and integer scale, side by side (uncore_set_eval_flat). */
	c->flat_interval = 1;
	for (unsigned i = 0; i < c->n; i++) {
		const struct mx_linear *l = &c->lin[i];
		if (c->metric[i] < 0)
			continue;
		struct set_flat *f = &c->flat[c->nflat++];
		f->entry = i;
		f->n = l->n;
		for (unsigned t = 0; t < l->n; t++)
			f->term[t] = (unsigned)l->term[t];
		f->k = l->k;
		f->scale = c->int_scale[i];
		f->divides = l->per >= 0;
		c->flat_interval &= c->reading[i] == READ_INTERVAL;
	}
	/* The flat evaluation walks one entry at least (uncore_set_eval_flat). */
	if (!c->nflat)
		c->flat_interval = 0;
	/* Rates all (divided by the time), all doubles or all integer forms. */
	int rates = 1, dbl = 1, ints = 1;
	for (unsigned k = 0; k < c->nflat; k++) {
		rates &= c->flat[k].divides != 0;
		dbl &= !(c->flat[k].scale > 0);
		ints &= c->flat[k].scale > 0;
	}
	c->flat_kind = !rates ? SET_FLAT_MIXED
		       : dbl  ? SET_FLAT_RATES
		       : ints ? SET_FLAT_INT_RATES
			      : SET_FLAT_MIXED;
}

/* The set is attached to CPU `cpu` (PAPI_CPU_ATTACH): an entry that names
 * no socket counts that CPU's socket, as ":cpu=N" would (an entry's own
 * :socket= or :cpu= wins). */
static void attach_entry(int cpu, int kind, struct uncore_sched_event *ev,
			 struct uncore_metric_ref *mref, unsigned socket)
{
	if (cpu < 0)
		return;
	if (kind == 0 && ev->ref.socket == UNCORE_ALL && ev->ref.cpu == UNCORE_ALL)
		ev->ref.cpu = cpu;
	else if (kind == 1 && mref->socket == UNCORE_ALL)
		mref->socket = (int)socket;
}

int uncore_set_build_contents(const struct uncore_backend *be, const struct uncore_entry *entries,
			      unsigned n, int attach_cpu, struct contents *c)
{
	unsigned attach_socket = 0;
	if (attach_cpu >= 0) {
		int arc = uncore_machine_socket_of_cpu(&be->machine, attach_cpu, &attach_socket);
		if (arc < 0)
			return arc;
	}
	struct uncore_metric_ref *mrefs = NULL;
	int rc = 0;

	c->n = n;
	c->entries = calloc(n ? n : 1, sizeof(*c->entries));
	c->metric = calloc(n ? n : 1, sizeof(*c->metric));
	c->raw = calloc(n ? n : 1, sizeof(*c->raw));
	c->sev = calloc(n ? n : 1, sizeof(*c->sev));
	mrefs = calloc(n ? n : 1, sizeof(*mrefs));
	c->int_scale = calloc(n ? n : 1, sizeof(*c->int_scale));
	c->int_units = calloc(n ? n : 1, sizeof(*c->int_units));
	c->reading = calloc(n ? n : 1, sizeof(*c->reading));
	c->last_val = calloc(n ? n : 1, sizeof(*c->last_val));
	if (!c->entries || !c->metric || !c->raw || !c->sev || !mrefs || !c->int_scale ||
	    !c->int_units || !c->reading || !c->last_val) {
		free(mrefs);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for %u events", n);
	}
	if (n)
		memcpy(c->entries, entries, n * sizeof(*entries));
	for (unsigned i = 0; i < n; i++) {
		const struct uncore_entry *e = &c->entries[i];
		int kind = e->kind == UNCORE_ENTRY_METRIC;
		if (kind) {
			mrefs[c->nmetrics] = e->metric;
		} else {
			c->sev[c->nraw] = e->ev;
			c->sev[c->nraw].name = e->name;
		}
		attach_entry(attach_cpu, kind, &c->sev[c->nraw], &mrefs[c->nmetrics],
			     attach_socket);
		if (kind) {
			const struct uncore_metric_ref *r = &mrefs[c->nmetrics];
			char units[48];
			snprintf(units, sizeof(units), "%s", r->def->units);
			if (r->amount)
				uncore_metric_amount_units(r->def->units, units, sizeof(units));
			if (r->integer)
				uncore_metric_int_units(units, &c->int_scale[i], c->int_units[i],
							sizeof(c->int_units[i]));
			else
				snprintf(c->int_units[i], sizeof(c->int_units[i]), "%s", units);
			c->metric[i] = (int)c->nmetrics++;
		} else {
			c->metric[i] = -1;
			c->raw[i] = c->nraw++;
		}
	}
	if (c->nmetrics) {
		unsigned failed = 0;
		rc = uncore_mset_compile(&be->machine, mrefs, c->nmetrics, c->sev, c->nraw, &c->ms,
					 &failed);
		if (rc < 0)
			goto out;
		for (unsigned i = 0; i < n; i++) {
			int k = c->metric[i];
			if (k < 0)
				continue;
			if (mrefs[k].amount)
				c->reading[i] = READ_AMOUNT;
			else if (mrefs[k].run && !uncore_mset_is_amount(c->ms, (unsigned)k))
				c->reading[i] = READ_RUN;
			else if (uncore_mset_is_amount(c->ms, (unsigned)k))
				c->reading[i] = READ_RUNNING;
			else
				c->reading[i] = READ_INTERVAL;
			c->any_interval |= c->reading[i] == READ_INTERVAL;
		}
	}
	/* Raw events, then the metrics' events. */
	unsigned nm = c->ms ? uncore_mset_nevents(c->ms) : 0;
	c->nsev = c->nraw + nm;
	struct uncore_sched_event *all = realloc(c->sev, (c->nsev ? c->nsev : 1) * sizeof(*all));
	c->info = calloc(c->nsev ? c->nsev : 1, sizeof(*c->info));
	if (!all || !c->info) {
		if (all)
			c->sev = all;
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
		goto out;
	}
	c->sev = all;
	for (unsigned e = 0; e < c->nraw; e++) {
		c->info[e].weight = 1;
		c->info[e].period = 1;
	}
	if (nm) {
		memcpy(c->sev + c->nraw, uncore_mset_events(c->ms), nm * sizeof(*c->sev));
		memcpy(c->info + c->nraw, uncore_mset_evinfo(c->ms), nm * sizeof(*c->info));
	}
	rc = build_phases(&be->machine, c);
	if (rc == 0)
		rc = build_entry_events(c);
	if (rc == 0)
		rc = build_raw_sums(c, uncore_share_is_view(be));
	if (rc < 0)
		goto out;
	unsigned nt = c->ms ? uncore_mset_nterms(c->ms) : 0;
	/* One more than the slots: the fold of events without a counter (0). */
	c->folds = calloc(c->maxslots + 1, sizeof(*c->folds));
	c->rawv = calloc(c->maxslots ? c->maxslots : 1, sizeof(*c->rawv));
	c->rawv2 = calloc(c->maxslots ? c->maxslots : 1, sizeof(*c->rawv2));
	c->base = calloc(c->nsev ? c->nsev : 1, sizeof(*c->base));
	c->active_ns = calloc(c->nsev ? c->nsev : 1, sizeof(*c->active_ns));
	c->kern_enabled = calloc(c->nsev ? c->nsev : 1, sizeof(*c->kern_enabled));
	c->kern_running = calloc(c->nsev ? c->nsev : 1, sizeof(*c->kern_running));
	c->est = calloc(c->nsev ? c->nsev : 1, sizeof(*c->est));
	c->terms = calloc(nt ? nt : 1, sizeof(*c->terms));
	c->terms_int = calloc(nt ? nt : 1, sizeof(*c->terms_int));
	c->prev_est = calloc(c->nsev ? c->nsev : 1, sizeof(*c->prev_est));
	c->sumv = calloc(c->nraw + nt + c->nmetrics + 1, sizeof(*c->sumv));
	c->tsum = calloc(nt ? nt : 1, sizeof(*c->tsum));
	c->prev_tsum = calloc(nt ? nt : 1, sizeof(*c->prev_tsum));
	c->fprog = c->ms ? calloc(c->n ? c->n : 1, sizeof(*c->fprog)) : NULL;
	c->lin = c->msum ? calloc(c->n ? c->n : 1, sizeof(*c->lin)) : NULL;
	c->lin_prev = c->msum ? calloc(c->n ? c->n : 1, sizeof(*c->lin_prev)) : NULL;
	c->flat = c->msum ? calloc(c->n ? c->n : 1, sizeof(*c->flat)) : NULL;
	if (!c->folds || !c->rawv || !c->rawv2 || !c->base || !c->active_ns || !c->kern_enabled ||
	    !c->kern_running || !c->est || !c->terms || !c->terms_int || !c->prev_est ||
	    !c->sumv || !c->tsum || !c->prev_tsum || (c->ms && !c->fprog) ||
	    (c->msum && (!c->lin || !c->lin_prev || !c->flat)))
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory for %u counters", c->maxslots);
out:
	free(mrefs);
	return rc;
}
