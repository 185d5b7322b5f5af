/* Direct backend for the Skylake client uncore (seed 001, "SKL"): CBo and
 * ARB counters and the fixed UCLK counter through MSRs, the IMC free-running
 * counters through MMIO; every write behind an allowlist of the registers
 * of the planned units and the global control's EN bit.
 *
 * The manual gives registers, not a recipe; the sequence follows 2.2.1 (EN:
 * "Globally enable all PMU counters.  Counters must also be locally
 * programmed and enabled"):
 *   program: global EN off, so nothing counts; each planned PERFEVTSEL =
 *            event | EN, FIXED_CTRL = CNT_EN (enabled locally, held by the
 *            global disable).
 *   start:   zero the planned counters (CTR_VAL is RW, Tables 2-5, 2-8),
 *            then global EN on: all counters start with one write.
 *   read:    with read_freeze, global EN off around the reads, so all MSR
 *            counters come from one instant, then on again.
 *   stop:    global EN off.   unprogram: EN off, planned controls 0.
 * The IMC counters cannot be programmed, zeroed or frozen (3.3: "free-
 * running and always-running"): the event-set layer takes the reading at
 * start as their origin and folds 32-bit wraps, provided reads come at
 * least as often as max_read_interval says. */
#include "backend/direct/direct.h"

#include "access/allowlist.h"
#include "common/uncore_error.h"
#include "backend/direct/socket_lock.h"
#include "platform/skl/skl_boxes.h"
#include "platform/skl/skl_regs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One programmable (MSR) counter of the plan. */
struct skl_counter {
	struct uncore_reg ctl, ctr;
	uint64_t ctl_value; /* with the local enable bit */
};

/* How to read one slot. */
struct skl_read {
	struct uncore_reg reg;
	uint64_t mask;
};

struct skl_backend {
	struct uncore_backend base;
	struct uncore_direct_config cfg;
	char *lock_dir; /* owned copy of cfg.lock_dir */
	uint64_t mchbar;
	struct uncore_regio *guarded; /* allowlisted view of cfg.io while programmed */
	const struct uncore_plan *plan;
	struct skl_counter *counters; /* the plan's MSR counters */
	unsigned ncounters;
	struct skl_read *reads; /* per slot */
	struct uncore_socket_lock *lock;
	int running;
};

static const struct uncore_reg global_ctrl = {
    .space = UNCORE_SPACE_MSR, .width = 8, .socket = 0, .addr = SKL_MSR_UNC_PERF_GLOBAL_CTRL};

static const struct skl_box_desc *desc_of(const struct uncore_machine *m, unsigned box)
{
	return box < m->plat->nboxes ? skl_box_by_name(m->plat->boxes[box]->kind) : NULL;
}

static int wr(struct skl_backend *b, const struct uncore_reg *r, uint64_t v)
{
	return uncore_regio_write(b->guarded, r, v);
}

/* Bind slot `s`: its read, and for an MSR counter its control. */
static int bind_slot(struct skl_backend *b, const struct uncore_slot *s, struct skl_read *rd)
{
	const struct uncore_machine *m = &b->base.machine;
	const struct skl_box_desc *d = desc_of(m, s->box);
	unsigned k = s->counter == UNCORE_SLOT_FIXED ? s->fixed_index : s->counter;
	int rc;

	if (!d)
		return uncore_fail(UNCORE_ENOSUPP, "no Skylake client register layout for %s boxes",
				   s->box < m->plat->nboxes ? m->plat->boxes[s->box]->name : "?");
	if (s->width != d->width)
		return uncore_fail(UNCORE_EINVAL,
				   "%s: the event tables say %u-bit counters, the register layout "
				   "%u bits (%s)",
				   d->title, s->width, d->width, d->section);
	rc = skl_reg(d, s->instance, SKL_REG_CTR, k, b->mchbar, &rd->reg);
	if (rc < 0)
		return rc;
	rd->mask = d->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << d->width) - 1;
	if (d->freerun)
		return 0;
	struct skl_counter *c = &b->counters[b->ncounters];
	rc = skl_reg(d, s->instance, SKL_REG_CTL, k, b->mchbar, &c->ctl);
	if (rc < 0)
		return rc;
	c->ctr = rd->reg;
	c->ctl_value = (s->ctl & d->ctl_writable) | d->ctl_enable;
	b->ncounters++;
	return 0;
}

/* The allowlist: both counters and controls of every planned MSR unit with
 * their RW bits (Tables 2-4, 2-5, 2-7, 2-8), and the global control's EN
 * bit, the only one we use (no PMI: counters are polled).  Nothing in MMIO
 * space: the IMC counters are read-only. */
static int build_allowlist(struct skl_backend *b, struct uncore_allowlist *al)
{
	const struct uncore_plan *p = b->plan;
	int rc = 0;

	for (unsigned i = 0; i < p->nboxes && rc == 0; i++) {
		const struct skl_box_desc *d = desc_of(&b->base.machine, p->boxes[i].box);
		if (!d || d->freerun)
			continue;
		for (unsigned k = 0; k < d->ncounters && rc == 0; k++) {
			struct uncore_reg ctl, ctr;
			rc = skl_reg(d, p->boxes[i].instance, SKL_REG_CTL, k, 0, &ctl);
			if (rc == 0)
				rc = skl_reg(d, p->boxes[i].instance, SKL_REG_CTR, k, 0, &ctr);
			if (rc == 0)
				rc = uncore_allowlist_add(al, &ctl, d->ctl_writable);
			if (rc == 0)
				rc = uncore_allowlist_add(al, &ctr, d->ctr_writable);
		}
	}
	if (rc == 0 && b->ncounters)
		rc = uncore_allowlist_add(al, &global_ctrl, SKL_UNC_GLOBAL_CTRL_EN);
	return rc;
}

static void release_binding(struct skl_backend *b)
{
	if (b->guarded)
		uncore_regio_destroy(b->guarded);
	b->guarded = NULL;
	uncore_socket_lock_release(b->lock);
	b->lock = NULL;
	free(b->counters);
	free(b->reads);
	b->counters = NULL;
	b->reads = NULL;
	b->ncounters = 0;
	b->plan = NULL;
	b->running = 0;
}

/* Global disable, then every planned control cleared: the state program()
 * starts from after a failure and unprogram() leaves behind. */
static int clear_counters(struct skl_backend *b)
{
	int rc = 0;
	if (b->ncounters)
		rc = wr(b, &global_ctrl, 0);
	for (unsigned c = 0; c < b->ncounters && rc == 0; c++)
		rc = wr(b, &b->counters[c].ctl, 0);
	return rc;
}

static int skl_program(struct uncore_backend *base, const struct uncore_plan *plan)
{
	struct skl_backend *b = (struct skl_backend *)base;
	struct uncore_allowlist *al = NULL;
	int rc;

	if (b->plan)
		return uncore_fail(UNCORE_EBUSY,
				   "another event set of this process is counting on the "
				   "uncore; stop it before starting this one");
	b->counters = calloc(plan->nslots ? plan->nslots : 1, sizeof(*b->counters));
	b->reads = calloc(plan->nslots ? plan->nslots : 1, sizeof(*b->reads));
	if (!b->counters || !b->reads) {
		release_binding(b);
		return uncore_fail(UNCORE_ENOMEM, "out of memory binding %u counters",
				   plan->nslots);
	}
	b->plan = plan;
	for (unsigned s = 0; s < plan->nslots; s++) {
		rc = bind_slot(b, &plan->slots[s], &b->reads[s]);
		if (rc < 0)
			goto fail;
	}
	/* The package is ours while programmed (backend/direct/socket_lock.h); reading
	 * free-running counters alone disturbs nobody and needs no lock. */
	if (b->ncounters && !b->cfg.no_socket_lock) {
		rc = uncore_socket_lock_acquire(b->cfg.lock_dir, 0, &b->lock);
		if (rc < 0)
			goto fail;
	}
	rc = uncore_allowlist_create(&al);
	if (rc == 0)
		rc = build_allowlist(b, al);
	if (rc == 0)
		rc = uncore_allowlist_wrap(al, b->cfg.io, 0, &b->guarded);
	uncore_allowlist_free(al);
	if (rc < 0)
		goto fail;

	/* 2.2.1: EN off first, so no counter runs while it is being set up. */
	if (b->ncounters)
		rc = wr(b, &global_ctrl, 0);
	for (unsigned c = 0; c < b->ncounters && rc == 0; c++)
		rc = wr(b, &b->counters[c].ctl, b->counters[c].ctl_value);
	if (rc < 0) {
		char detail[512];
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
		clear_counters(b); /* best effort: leave nothing half-programmed */
		uncore_fail(rc, "%s", detail);
		goto fail;
	}
	return 0;
fail:
	release_binding(b);
	return rc;
}

static int skl_start(struct uncore_backend *base)
{
	struct skl_backend *b = (struct skl_backend *)base;
	int rc = 0;

	if (!b->plan)
		return uncore_fail(UNCORE_ESTATE, "start before program");
	/* Zeroed while globally disabled (program or stop left EN off). */
	for (unsigned c = 0; c < b->ncounters && rc == 0; c++)
		rc = wr(b, &b->counters[c].ctr, 0);
	if (rc == 0 && b->ncounters)
		rc = wr(b, &global_ctrl, SKL_UNC_GLOBAL_CTRL_EN);
	if (rc == 0)
		b->running = 1;
	return rc;
}

static int skl_stop(struct uncore_backend *base)
{
	struct skl_backend *b = (struct skl_backend *)base;
	int rc = 0;

	if (!b->plan)
		return 0;
	if (b->ncounters)
		rc = wr(b, &global_ctrl, 0);
	if (rc == 0)
		b->running = 0;
	return rc;
}

static int skl_read(struct uncore_backend *base, uint64_t *raw)
{
	struct skl_backend *b = (struct skl_backend *)base;
	const struct uncore_plan *p = b->plan;
	int frozen = b->cfg.read_freeze && b->running && b->ncounters;
	int rc = 0;

	if (!p)
		return uncore_fail(UNCORE_ESTATE, "read before program");
	if (frozen)
		rc = wr(b, &global_ctrl, 0);
	for (unsigned s = 0; s < p->nslots && rc == 0; s++) {
		uint64_t v = 0;
		rc = uncore_regio_read(b->cfg.io, &b->reads[s].reg, &v);
		raw[s] = v & b->reads[s].mask;
	}
	if (frozen) {
		int rc2 = wr(b, &global_ctrl, SKL_UNC_GLOBAL_CTRL_EN);
		if (rc == 0)
			rc = rc2;
	}
	return rc;
}

static int skl_unprogram(struct uncore_backend *base)
{
	struct skl_backend *b = (struct skl_backend *)base;
	int rc;

	if (!b->plan)
		return 0;
	rc = clear_counters(b);
	release_binding(b);
	return rc;
}

static void skl_destroy(struct uncore_backend *base)
{
	struct skl_backend *b = (struct skl_backend *)base;
	if (!b)
		return;
	skl_unprogram(base);
	if (b->cfg.own_io)
		uncore_regio_destroy(b->cfg.io);
	free(b->lock_dir);
	free(b);
}

/* Half the shortest wrap period of the plan's counters: a poller that
 * reads this often still folds correctly when one of its reads comes late
 * by as much again. */
static int skl_max_read_interval(const struct uncore_backend *base, const struct uncore_plan *plan,
				 uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (unsigned s = 0; plan && s < plan->nslots; s++) {
		const struct skl_box_desc *d = desc_of(&base->machine, plan->slots[s].box);
		if (!d)
			return uncore_fail(UNCORE_EINVAL, "slot %u: not a Skylake client box", s);
		uint64_t w = skl_wrap_ns(d) / 2;
		if (w < best)
			best = w;
	}
	*ns = best;
	return 0;
}

static int skl_stats(struct uncore_backend *base, struct uncore_backend_stats *out)
{
	struct skl_backend *b = (struct skl_backend *)base;
	out->reads = b->cfg.io->stats.reads;
	out->writes = b->cfg.io->stats.writes;
	out->syscalls = b->cfg.io->stats.syscalls;
	return 0;
}

static const struct uncore_backend_ops skl_ops = {
    .name = "direct",
    .program = skl_program,
    .start = skl_start,
    .stop = skl_stop,
    .read = skl_read,
    .unprogram = skl_unprogram,
    .destroy = skl_destroy,
    .max_read_interval = skl_max_read_interval,
};

int uncore_direct_create_skl(const struct uncore_direct_config *cfg,
			     const struct uncore_machine *machine, uint64_t mchbar,
			     struct uncore_backend **out)
{
	struct skl_backend *b;

	if (!cfg || !cfg->io || !machine || !machine->plat || !out)
		return uncore_fail(UNCORE_EINVAL, "direct backend: no register access or machine");
	if (machine->plat->id != UNCORE_PLATFORM_SKL || machine->nsockets != 1)
		return uncore_fail(UNCORE_EINVAL,
				   "Skylake client direct backend: machine of platform %s with %u "
				   "sockets (want skl, 1)",
				   machine->plat->name, machine->nsockets);
	b = calloc(1, sizeof(*b));
	if (!b)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the direct backend");
	b->cfg = *cfg;
	/* The caller's strings need not outlive this call. */
	b->cfg.origin = NULL;
	b->cfg.absent_note = NULL;
	b->cfg.cpu_socket = NULL;
	if (cfg->lock_dir && !(b->cfg.lock_dir = b->lock_dir = strdup(cfg->lock_dir))) {
		free(b);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the direct backend");
	}
	b->mchbar = mchbar;
	b->base.ops = &skl_ops;
	b->base.machine = *machine;
	b->base.stats = skl_stats;
	*out = &b->base;
	return 0;
}
