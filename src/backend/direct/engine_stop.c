/* The direct engine's ending sequences (engine.c has the others, and the
 * register writes and the clearing of a binding they use): stop (the
 * global STOP value, the boxes frozen), unprogram (STOP, boxes reset or
 * controls 0, filters 0, RELEASE, the binding given back), release (the
 * claim given back too) and destroy. */
#include "backend/direct/engine_internal.h"
#include "common/uncore_error.h"
#include <stdlib.h>

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
