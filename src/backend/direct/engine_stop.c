/* The direct engine's ending sequences (engine.c has the others): stop
 * (the global STOP value, the boxes frozen), unprogram (STOP, boxes reset
 * or controls 0, filters 0, RELEASE, the binding given back), release (the
 * claim given back too) and destroy. */
#include "backend/direct/engine_internal.h"
#include "common/uncore_error.h"
#include <stdlib.h>

void eng_release_binding(struct engine *e)
{
	if (!e->claim.kept)
		direct_claim_drop(&e->claim);
	e->nfreeze = e->nthaw = 0;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		e->used[s] = 0;
	free(e->boxes);
	free(e->counters);
	free(e->filters);
	free(e->ops);
	direct_msr_batch_free(&e->batch);
	e->boxes = NULL;
	e->counters = NULL;
	e->filters = NULL;
	e->ops = NULL;
	e->nops = 0;
	e->tear_sockets = 0;
	e->ncounters = e->nfilters = 0;
	e->sockets = 0;
	e->plan = NULL;
	e->running = 0;
}

/* STOP; every planned box frozen with its controls and counters reset (HSX
 * 2.1.2 a, d), or its controls 0; every filter 0; RELEASE: what a failed
 * program leaves and unprogram does.  Best effort: every write is tried,
 * the first error returned. */
int eng_clear_all(struct engine *e)
{
	int first = eng_set_global(e, DIRECT_GLOBAL_STOP, e->claim.guarded, NULL);
	for (unsigned i = 0; i < e->plan->nboxes; i++) {
		struct eng_box *b = &e->boxes[i];
		if (b->k && b->k->box_ctl) {
			keep_first(&first, eng_wr_box_ctl(e, b,
						      b->k->box_ctl_frz | b->k->box_ctl_rst_ctrl |
							  b->k->box_ctl_rst_ctrs));
			continue;
		}
		for (unsigned c = 0; c < e->ncounters; c++)
			if (e->counters[c].box == i)
				keep_first(&first, eng_wr_ctl(e, &e->counters[c], 0));
	}
	for (unsigned f = 0; f < e->nfilters; f++)
		keep_first(&first, eng_wr(e, &e->filters[f].reg, 0));
	keep_first(&first, eng_set_global(e, DIRECT_GLOBAL_RELEASE, e->claim.guarded, NULL));
	return first;
}

/* Stop: the global STOP value, every box frozen, the kinds enabled at
 * start disabled; each one even when another failed (the boxes that stop
 * keep their counts readable); 0 or the first error. */
int eng_stop(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	if (!e->plan)
		return 0;
	int first = eng_set_global(e, DIRECT_GLOBAL_STOP, e->claim.guarded, NULL);
	for (unsigned i = 0; i < e->plan->nboxes; i++) {
		struct eng_box *b = &e->boxes[i];
		int rc = 0;
		if (b->k && b->k->box_ctl)
			rc = eng_wr_box_ctl(e, b, b->k->box_ctl_frz);
		for (unsigned c = 0; c < e->ncounters && rc == 0; c++) {
			const struct eng_counter *x = &e->counters[c];
			if (x->box == i && x->k->enable_at_start)
				rc = eng_wr_ctl(e, x, x->ctl_value & ~x->enable);
		}
		keep_first(&first, rc);
	}
	if (first == 0) {
		e->running = 0;
		e->thaw_pending = 0; /* stopped: nothing to unfreeze */
	}
	return first;
}

int eng_unprogram(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	if (!e->plan)
		return 0;
	int rc = eng_clear_all(e);
	eng_release_binding(e);
	return rc;
}

int eng_release(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	int rc = eng_unprogram(base);
	direct_claim_drop(&e->claim);
	return rc;
}

void eng_destroy(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	if (!e)
		return;
	eng_release(base);
	direct_wseq_free(&e->seq);
	free(e->claimed);
	free(e->kinds);
	if (e->cfg.own_io)
		uncore_regio_destroy(e->cfg.io);
	free(e->lock_dir);
	free(e);
}
