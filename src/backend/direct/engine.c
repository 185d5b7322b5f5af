/* The one direct engine (engine.h): every programming sequence of the
 * direct backend, over the platform's box-kind descriptions.
 *
 *   acquire:   claim the boxes of every plan given (claim.h): hold the
 *              sockets with programmable counters, build the allowlist of
 *              the claimed boxes' PMON registers.  Kept until release.
 *   program:   bind every slot to its registers; claim what the plan
 *              needs beyond what was acquired; global control to its
 *              PROGRAM value (nothing counts), filters, then every control
 *              with its local enable.  A failure clears what was written.
 *   start:     zero the planned counters, then the global START value: all
 *              counters of a socket start with one write.
 *   read:      with read_freeze, the global READ_FREEZE value around the
 *              reads (one instant per socket), MSR counters of a socket in
 *              one read_many, MMIO counters one by one, each masked to its
 *              width; the event-set layer folds wraps.
 *   stop:      the global STOP value.
 *   unprogram: STOP, every control and filter back to 0, RELEASE; the
 *              claim is given back unless acquire took it.
 * Free-running counters are only read: the event-set layer takes the
 * reading at start as their origin. */
#include "backend/direct/engine.h"

#include "backend/direct/claim.h"
#include "backend/direct/msr_batch.h"
#include "common/uncore_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct eng_counter {
	const struct direct_kind *k;
	struct uncore_reg ctl, ctr;
	uint64_t ctl_value; /* with the local enable */
};

struct eng_filter {
	struct uncore_reg reg;
	uint64_t value;
};

struct eng_read {
	struct uncore_reg reg;
	uint64_t mask;
	uint8_t batched; /* read by the MSR batch */
};

struct engine {
	struct uncore_backend base;
	const struct direct_platform *p;
	struct uncore_direct_config cfg;
	char *lock_dir; /* owned copy of cfg.lock_dir */
	uint64_t mmio_base;
	struct direct_claim claim; /* sockets held, allowlisted views of cfg.io */
	const struct uncore_plan *plan;
	struct eng_counter *counters;
	unsigned ncounters;
	struct eng_filter *filters;
	unsigned nfilters;
	struct eng_read *reads;
	struct direct_msr_batch batch;
	uint64_t used[UNCORE_MACHINE_MAX_SOCKETS]; /* global "used" bits per socket */
	uint32_t sockets;                          /* sockets with programmable counters */
	int running;
};

const struct direct_kind *direct_kind_find(const struct direct_platform *p, const char *kind)
{
	for (unsigned i = 0; p && kind && i < p->nkinds; i++)
		if (strcmp(p->kinds[i].kind, kind) == 0)
			return &p->kinds[i];
	return NULL;
}

int direct_kind_reg(const struct direct_kind *k, unsigned socket, unsigned inst,
		    enum direct_reg_role role, unsigned idx, uint64_t mmio_base,
		    struct uncore_reg *out)
{
	if (k->reg)
		return k->reg(k, socket, inst, role, idx, mmio_base, out);
	unsigned n = role == DIRECT_REG_FILTER      ? k->nfilters
		     : role >= DIRECT_REG_FIXED_CTL ? k->nfixed
						    : k->ncounters;
	if (inst >= k->max_instances || idx >= n)
		return uncore_fail(
		    UNCORE_ERANGE,
		    "%s: instance %u register %u does not exist (%u instances of %u)", k->title,
		    inst, idx, k->max_instances, n);
	memset(out, 0, sizeof(*out));
	out->socket = (uint16_t)socket;
	if (role == DIRECT_REG_FILTER || role >= DIRECT_REG_FIXED_CTL) {
		out->space = UNCORE_SPACE_MSR;
		out->width = 8;
		out->addr = role == DIRECT_REG_FILTER      ? k->filter_msr[idx]
			    : role == DIRECT_REG_FIXED_CTL ? k->fixed_ctl
							   : k->fixed_ctr;
		return 0;
	}
	if (k->space == UNCORE_SPACE_MMIO) {
		if (role == DIRECT_REG_CTL)
			return uncore_fail(UNCORE_EINVAL,
					   "%s: free-running counters have no control register",
					   k->title);
		if (!mmio_base)
			return uncore_fail(UNCORE_ENODEV, "%s: no base address to reach them",
					   k->title);
		out->space = UNCORE_SPACE_MMIO;
		out->width = (uint8_t)(k->width <= 32 ? 4 : 8);
		out->addr = mmio_base + k->mmio_offsets[idx];
		return 0;
	}
	out->space = UNCORE_SPACE_MSR;
	out->width = 8;
	out->addr =
	    (role == DIRECT_REG_CTL ? k->ctl_base : k->ctr_base) + (uint64_t)k->stride * inst + idx;
	return 0;
}

static const struct direct_kind *kind_of(const struct engine *e, unsigned box)
{
	const struct uncore_machine *m = &e->base.machine;
	return box < m->plat->nboxes ? direct_kind_find(e->p, m->plat->boxes[box]->kind) : NULL;
}

static uint64_t width_mask(unsigned w)
{
	return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
}

static int wr(struct engine *e, const struct uncore_reg *r, uint64_t v)
{
	return uncore_regio_write(e->claim.guarded, r, v);
}

static void global_reg(const struct engine *e, unsigned socket, struct uncore_reg *r)
{
	memset(r, 0, sizeof(*r));
	r->space = UNCORE_SPACE_MSR;
	r->width = 8;
	r->socket = (uint16_t)socket;
	r->addr = e->p->global_msr;
}

/* The global control's value at `step` for a socket whose used counters
 * are `used` (engine.h, struct direct_platform): 1 with *v, 0 for none. */
static int global_value(const struct direct_platform *p, enum direct_global_step step,
			uint64_t used, uint64_t *v)
{
	uint64_t bits = (used & p->used_mask) << p->used_shift;
	switch (step) {
	case DIRECT_GLOBAL_START:
	case DIRECT_GLOBAL_READ_THAW:
		*v = p->counting | bits;
		return 1;
	case DIRECT_GLOBAL_RELEASE:
		*v = p->counting | bits;
		return p->release_counting;
	default:
		*v = p->held | (p->used_when_held ? bits : 0);
		return 1;
	}
}

/* Every socket with programmable counters to its `step` value; all sockets
 * are visited even after a failure (the first error is returned), so a
 * fault on one socket never leaves the others counting. */
static int set_global(struct engine *e, enum direct_global_step step, struct uncore_regio *io)
{
	int rc = 0;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		uint64_t v;
		if (!(e->sockets & (1u << s)) || !global_value(e->p, step, e->used[s], &v))
			continue;
		struct uncore_reg g;
		global_reg(e, s, &g);
		int rc2 = uncore_regio_write(io, &g, v);
		if (rc == 0)
			rc = rc2;
	}
	return rc;
}

static int bind_slot(struct engine *e, unsigned i)
{
	const struct uncore_slot *s = &e->plan->slots[i];
	const struct uncore_machine *m = &e->base.machine;
	const struct direct_kind *k = kind_of(e, s->box);
	struct eng_read *rd = &e->reads[i];
	int fixed = s->counter == UNCORE_SLOT_FIXED;
	unsigned idx = fixed ? s->fixed_index : s->counter;
	int rc;

	if (!k)
		return uncore_fail(UNCORE_ENOSUPP, "%s: no %s register layout for %s boxes",
				   e->p->title, m->plat->name,
				   s->box < m->plat->nboxes ? m->plat->boxes[s->box]->name : "?");
	if (s->width != k->width)
		return uncore_fail(UNCORE_EINVAL,
				   "%s: the event tables say %u-bit counters, the register layout "
				   "%u bits (%s)",
				   k->title, s->width, k->width, k->section);
	/* A fixed slot on a kind of generic counters is its extra fixed counter. */
	int extra = fixed && !k->fixed;
	if ((extra && !k->nfixed) || (!fixed && k->fixed))
		return uncore_fail(UNCORE_EINVAL, "%s: a %s counter planned on a box without one",
				   k->title, fixed ? "fixed" : "generic");
	rc = direct_kind_reg(k, s->socket, s->instance,
			     extra ? DIRECT_REG_FIXED_CTR : DIRECT_REG_CTR, idx, e->mmio_base,
			     &rd->reg);
	if (rc < 0)
		return rc;
	rd->mask = width_mask(k->width);
	if (rd->reg.space == UNCORE_SPACE_MSR) {
		rd->batched = 1;
		rc = direct_msr_batch_add(&e->batch, &rd->reg, i);
		if (rc < 0)
			return rc;
	}
	if (k->freerun)
		return 0;
	struct eng_counter *c = &e->counters[e->ncounters];
	c->k = k;
	c->ctr = rd->reg;
	rc = direct_kind_reg(k, s->socket, s->instance,
			     extra ? DIRECT_REG_FIXED_CTL : DIRECT_REG_CTL, idx, e->mmio_base,
			     &c->ctl);
	if (rc < 0)
		return rc;
	if (extra)
		c->ctl_value = (s->ctl & k->fixed_ctl_writable) | k->fixed_ctl_enable;
	else
		c->ctl_value = (s->ctl & k->ctl_writable & ~(k->combined ? k->ctr_writable : 0)) |
			       k->ctl_enable;
	e->ncounters++;
	e->used[s->socket] |= UINT64_C(1) << (extra ? k->fixed_gbit : k->gbit + idx);
	e->sockets |= 1u << s->socket;
	return 0;
}

/* The filters an event of the box depends on (filter_mask), with their values. */
static int bind_filters(struct engine *e, const struct uncore_boxprog *bp)
{
	const struct direct_kind *k = kind_of(e, bp->box);
	for (unsigned f = 0; k && f < bp->nfilters; f++) {
		if (!bp->filter_mask[f])
			continue;
		if (f >= k->nfilters)
			return uncore_fail(UNCORE_ENOSUPP, "%s: filter %u has no register",
					   k->title, f);
		struct eng_filter *fl = &e->filters[e->nfilters];
		int rc =
		    direct_kind_reg(k, bp->socket, bp->instance, DIRECT_REG_FILTER, f, 0, &fl->reg);
		if (rc < 0)
			return rc;
		fl->value = bp->filter[f] & k->filter_writable[f];
		e->nfilters++;
		e->sockets |= 1u << bp->socket;
	}
	return 0;
}

/* The allowlist of a claimed box (claim.h): every counter and control of
 * the box with their writable bits, and its filters; a box of
 * free-running counters is only read. */
static int claim_box(const void *ctx, const struct direct_claim_box *cb,
		     struct uncore_allowlist *al)
{
	const struct engine *e = ctx;
	const struct direct_kind *k = kind_of(e, cb->box);
	int rc = 0;
	if (!k || k->freerun)
		return 0;
	for (unsigned c = 0; c < k->ncounters && rc == 0; c++) {
		struct uncore_reg ctl, ctr;
		rc = direct_kind_reg(k, cb->socket, cb->instance, DIRECT_REG_CTL, c, 0, &ctl);
		if (rc == 0)
			rc = direct_kind_reg(k, cb->socket, cb->instance, DIRECT_REG_CTR, c, 0,
					     &ctr);
		if (rc == 0)
			rc = uncore_allowlist_add(
			    al, &ctl, k->ctl_writable | (k->combined ? k->ctr_writable : 0));
		if (rc == 0 && !k->combined)
			rc = uncore_allowlist_add(al, &ctr, k->ctr_writable);
	}
	for (unsigned f = 0; f < k->nfixed && rc == 0; f++) {
		struct uncore_reg ctl, ctr;
		rc = direct_kind_reg(k, cb->socket, cb->instance, DIRECT_REG_FIXED_CTL, f, 0, &ctl);
		if (rc == 0)
			rc = direct_kind_reg(k, cb->socket, cb->instance, DIRECT_REG_FIXED_CTR, f,
					     0, &ctr);
		if (rc == 0)
			rc = uncore_allowlist_add(al, &ctl, k->fixed_ctl_writable);
		if (rc == 0)
			rc = uncore_allowlist_add(al, &ctr, k->ctr_writable);
	}
	for (unsigned f = 0; f < k->nfilters && rc == 0; f++) {
		struct uncore_reg r;
		rc = direct_kind_reg(k, cb->socket, cb->instance, DIRECT_REG_FILTER, f, 0, &r);
		if (rc == 0)
			rc = uncore_allowlist_add(al, &r, k->filter_writable[f]);
	}
	return rc < 0 ? rc : 1;
}

static int claim_global(const void *ctx, unsigned socket, struct uncore_allowlist *al)
{
	const struct engine *e = ctx;
	struct uncore_reg g;
	global_reg(e, socket, &g);
	return uncore_allowlist_add(al, &g, e->p->global_writable);
}

static const struct direct_claim_ops claim_ops = {
    .add_box = claim_box,
    .add_global = claim_global,
};

static void release_binding(struct engine *e)
{
	if (!e->claim.kept)
		direct_claim_drop(&e->claim);
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		e->used[s] = 0;
	free(e->counters);
	free(e->filters);
	free(e->reads);
	direct_msr_batch_free(&e->batch);
	e->counters = NULL;
	e->filters = NULL;
	e->reads = NULL;
	e->ncounters = e->nfilters = 0;
	e->sockets = 0;
	e->plan = NULL;
	e->running = 0;
}

/* STOP, every planned control and filter 0, RELEASE: what a failed program
 * leaves and unprogram does.  Best effort: every write is tried. */
static int clear_all(struct engine *e)
{
	int rc = set_global(e, DIRECT_GLOBAL_STOP, e->claim.guarded);
	for (unsigned c = 0; c < e->ncounters; c++) {
		int rc2 = wr(e, &e->counters[c].ctl, 0);
		if (rc == 0)
			rc = rc2;
	}
	for (unsigned f = 0; f < e->nfilters; f++) {
		int rc2 = wr(e, &e->filters[f].reg, 0);
		if (rc == 0)
			rc = rc2;
	}
	int rc2 = set_global(e, DIRECT_GLOBAL_RELEASE, e->claim.guarded);
	return rc ? rc : rc2;
}

static int eng_acquire(struct uncore_backend *base, const struct uncore_plan *const *plans,
		       unsigned n)
{
	struct engine *e = (struct engine *)base;
	int rc = direct_claim_add(&e->claim, &e->cfg, &claim_ops, e, plans, n);
	if (rc == 0)
		e->claim.kept = 1;
	return rc;
}

static int eng_program(struct uncore_backend *base, const struct uncore_plan *plan)
{
	struct engine *e = (struct engine *)base;
	int rc;

	if (e->plan)
		return uncore_fail(UNCORE_EBUSY, "another event set of this process is counting on "
						 "the uncore; stop it before starting this one");
	unsigned nf = 0;
	for (unsigned i = 0; i < plan->nboxes; i++)
		nf += plan->boxes[i].nfilters;
	e->counters = calloc(plan->nslots ? plan->nslots : 1, sizeof(*e->counters));
	e->reads = calloc(plan->nslots ? plan->nslots : 1, sizeof(*e->reads));
	e->filters = calloc(nf ? nf : 1, sizeof(*e->filters));
	e->plan = plan;
	if (!e->counters || !e->reads || !e->filters ||
	    direct_msr_batch_init(&e->batch, plan->nslots) < 0) {
		release_binding(e);
		return uncore_fail(UNCORE_ENOMEM, "out of memory binding %u counters",
				   plan->nslots);
	}
	for (unsigned s = 0; s < plan->nslots; s++)
		if ((rc = bind_slot(e, s)) < 0)
			goto fail;
	for (unsigned i = 0; i < plan->nboxes; i++)
		if ((rc = bind_filters(e, &plan->boxes[i])) < 0)
			goto fail;
	direct_msr_batch_finish(&e->batch);
	/* The sockets are ours before the first write (claim.h); reading
	 * free-running counters alone disturbs nobody and needs no hold. */
	if ((rc = direct_claim_add(&e->claim, &e->cfg, &claim_ops, e, &plan, 1)) < 0)
		goto fail;

	rc = set_global(e, DIRECT_GLOBAL_PROGRAM, e->claim.guarded);
	for (unsigned f = 0; f < e->nfilters && rc == 0; f++)
		rc = wr(e, &e->filters[f].reg, e->filters[f].value);
	for (unsigned c = 0; c < e->ncounters && rc == 0; c++)
		rc = wr(e, &e->counters[c].ctl, e->counters[c].ctl_value);
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		clear_all(e); /* leave nothing half-programmed */
		rc = uncore_error_restore(&err);
		goto fail;
	}
	return 0;
fail:
	release_binding(e);
	return rc;
}

static int eng_start(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	int rc = 0;

	if (!e->plan)
		return uncore_fail(UNCORE_ESTATE, "start before program");
	/* Zeroed while held (program or stop left the socket not counting);
	 * a combined register is zeroed by writing its control again. */
	for (unsigned c = 0; c < e->ncounters && rc == 0; c++) {
		const struct eng_counter *x = &e->counters[c];
		rc = x->k->combined ? wr(e, &x->ctl, x->ctl_value) : wr(e, &x->ctr, 0);
	}
	if (rc == 0)
		rc = set_global(e, DIRECT_GLOBAL_START, e->claim.guarded);
	if (rc == 0)
		e->running = 1;
	return rc;
}

static int eng_stop(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	if (!e->plan)
		return 0;
	int rc = set_global(e, DIRECT_GLOBAL_STOP, e->claim.guarded);
	if (rc == 0)
		e->running = 0;
	return rc;
}

/* Every counter that can be read is read (backend.h): one that fails is
 * UNCORE_RAW_UNREAD and the others keep their values; a thaw that fails
 * after the reads leaves counters stopped until a later read restarts
 * them, which the backend reports as interrupted counting. */
static int eng_read(struct uncore_backend *base, uint64_t *raw)
{
	struct engine *e = (struct engine *)base;
	const struct uncore_plan *p = e->plan;
	int frozen = e->cfg.read_freeze && e->running && e->ncounters && !base->fold_only_read;
	int first = 0, rc;

	if (!p)
		return uncore_fail(UNCORE_ESTATE, "read before program");
	if (frozen)
		first = set_global(e, DIRECT_GLOBAL_READ_FREEZE, e->claim.guarded_global);
	rc = direct_msr_batch_read(&e->batch, e->cfg.io, raw);
	if (rc < 0 && !first)
		first = rc;
	for (unsigned s = 0; s < p->nslots; s++) {
		const struct eng_read *rd = &e->reads[s];
		if (!rd->batched && (rc = uncore_regio_read(e->cfg.io, &rd->reg, &raw[s])) < 0) {
			raw[s] = UNCORE_RAW_UNREAD;
			if (!first)
				first = rc;
		}
		if (raw[s] != UNCORE_RAW_UNREAD)
			raw[s] &= rd->mask;
	}
	if (frozen) {
		char detail[256];
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
		rc = set_global(e, DIRECT_GLOBAL_READ_THAW, e->claim.guarded_global);
		if (rc < 0) {
			base->counting_interrupted = 1;
			snprintf(base->interrupted_detail, sizeof(base->interrupted_detail),
				 "restarting the counters after a read failed: %s",
				 uncore_error_detail());
		}
		if (!first)
			first = rc;
		else
			uncore_fail(first, "%s", detail);
	}
	return first;
}

static int eng_unprogram(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	if (!e->plan)
		return 0;
	int rc = clear_all(e);
	release_binding(e);
	return rc;
}

static int eng_release(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	int rc = eng_unprogram(base);
	direct_claim_drop(&e->claim);
	return rc;
}

static void eng_destroy(struct uncore_backend *base)
{
	struct engine *e = (struct engine *)base;
	if (!e)
		return;
	eng_release(base);
	if (e->cfg.own_io)
		uncore_regio_destroy(e->cfg.io);
	free(e->lock_dir);
	free(e);
}

/* Half the shortest wrap period of the plan's counters (2^width at the
 * kind's fastest rate): a poller that reads this often still folds
 * correctly when one of its reads comes late by as much again. */
static int eng_max_read_interval(const struct uncore_backend *base, const struct uncore_plan *plan,
				 uint64_t *ns)
{
	const struct engine *e = (const struct engine *)base;
	uint64_t best = UINT64_MAX;
	for (unsigned s = 0; plan && s < plan->nslots; s++) {
		const struct direct_kind *k = kind_of(e, plan->slots[s].box);
		if (!k)
			return uncore_fail(UNCORE_EINVAL, "slot %u: not a box of %s", s,
					   e->p->title);
		unsigned __int128 n = ((unsigned __int128)1 << k->width) * 1000000000u;
		uint64_t w = (uint64_t)(n / (k->max_rate ? k->max_rate : 1)) / 2;
		if (w < best)
			best = w;
	}
	*ns = best;
	return 0;
}

static int eng_stats(struct uncore_backend *base, struct uncore_backend_stats *out)
{
	struct engine *e = (struct engine *)base;
	out->reads = e->cfg.io->stats.reads;
	out->writes = e->cfg.io->stats.writes;
	out->syscalls = e->cfg.io->stats.syscalls;
	return 0;
}

static const struct uncore_backend_ops eng_ops = {
    .name = "direct",
    .acquire = eng_acquire,
    .release = eng_release,
    .program = eng_program,
    .start = eng_start,
    .stop = eng_stop,
    .read = eng_read,
    .unprogram = eng_unprogram,
    .destroy = eng_destroy,
    .max_read_interval = eng_max_read_interval,
    .stats = eng_stats,
};

int direct_engine_create(const struct direct_platform *p, const struct uncore_direct_config *cfg,
			 const struct uncore_machine *machine, uint64_t mmio_base,
			 struct uncore_backend **out)
{
	if (!p || !cfg || !cfg->io || !machine || !machine->plat || !out)
		return uncore_fail(UNCORE_EINVAL, "direct backend: no register access or machine");
	if (machine->plat->id != p->id)
		return uncore_fail(UNCORE_EINVAL, "%s direct backend: machine of platform %s",
				   p->title, machine->plat->name);
	struct engine *e = calloc(1, sizeof(*e));
	if (!e)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the direct backend");
	e->p = p;
	e->cfg = *cfg;
	/* The caller's strings need not outlive this call. */
	e->cfg.origin = NULL;
	e->cfg.absent_note = NULL;
	e->cfg.cpu_socket = NULL;
	if (cfg->lock_dir && !(e->cfg.lock_dir = e->lock_dir = strdup(cfg->lock_dir))) {
		free(e);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the direct backend");
	}
	e->mmio_base = mmio_base;
	e->base.ops = &eng_ops;
	e->base.machine = *machine;
	*out = &e->base;
	return 0;
}
