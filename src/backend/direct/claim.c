/* A direct backend's ownership (claim.h): the boxes claimed, the sockets
 * held and the two allowlisted views, rebuilt only when the claim grows. */
#include "backend/direct/claim.h"

#include "common/uncore_error.h"

#include <stdlib.h>
#include <string.h>

static int claimed(const struct direct_claim_box *boxes, unsigned n,
		   const struct uncore_boxprog *bp)
{
	for (unsigned i = 0; i < n; i++)
		if (boxes[i].socket == bp->socket && boxes[i].box == bp->box &&
		    boxes[i].instance == bp->instance)
			return 1;
	return 0;
}

int direct_claim_covers(const struct direct_claim *c, const struct uncore_plan *plan)
{
	for (unsigned i = 0; i < plan->nboxes; i++)
		if (!claimed(c->boxes, c->nboxes, &plan->boxes[i]))
			return 0;
	return 1;
}

/* The boxes claimed and those of `plans` not claimed yet: 0 with *out and
 * *n (*out NULL when nothing is new), or an error. */
static int union_boxes(const struct direct_claim *c, const struct uncore_plan *const *plans,
		       unsigned nplans, struct direct_claim_box **out, unsigned *n)
{
	unsigned total = c->nboxes;
	for (unsigned p = 0; p < nplans; p++)
		total += plans[p]->nboxes;
	struct direct_claim_box *all = calloc(total ? total : 1, sizeof(*all));
	if (!all)
		return uncore_fail(UNCORE_ENOMEM, "out of memory claiming %u boxes", total);
	if (c->nboxes)
		memcpy(all, c->boxes, c->nboxes * sizeof(*all));
	unsigned k = c->nboxes;
	for (unsigned p = 0; p < nplans; p++)
		for (unsigned i = 0; i < plans[p]->nboxes; i++) {
			const struct uncore_boxprog *bp = &plans[p]->boxes[i];
			if (claimed(all, k, bp))
				continue;
			all[k].socket = bp->socket;
			all[k].box = (uint8_t)bp->box;
			all[k].instance = (uint8_t)bp->instance;
			k++;
		}
	if (k == c->nboxes) {
		free(all);
		all = NULL;
	}
	*out = all;
	*n = k;
	return 0;
}

/* The allowlisted views over `boxes` (the sockets whose boxes have
 * registers to write in *sockets), each list built once, in one call. */
static int build_views(const struct uncore_direct_config *cfg, const struct direct_claim_ops *ops,
		       void *ctx, const struct direct_claim_box *boxes, unsigned n,
		       uint32_t *sockets, struct uncore_regio **guarded,
		       struct uncore_regio **guarded_global)
{
	struct uncore_reg *r = NULL;
	uint64_t *mask = NULL;
	unsigned nr = 0, ng = 0;
	*sockets = 0;
	int rc = ops->add_boxes(ctx, boxes, n, &r, &mask, &nr, &ng, sockets);
	if (rc == 0)
		rc = uncore_allowlist_wrap_regs(r, mask, nr, cfg->io, 0, guarded);
	if (rc == 0 && (rc = uncore_allowlist_wrap_regs(&r[nr - ng], &mask[nr - ng], ng, cfg->io,
							0, guarded_global)) < 0) {
		uncore_regio_destroy(*guarded);
		*guarded = NULL;
	}
	free(r);
	free(mask);
	return rc;
}

int direct_claim_add(struct direct_claim *c, const struct uncore_direct_config *cfg,
		     const struct direct_claim_ops *ops, void *ctx,
		     const struct uncore_plan *const *plans, unsigned nplans)
{
	struct direct_claim_box *boxes = NULL;
	struct uncore_regio *guarded = NULL, *guarded_global = NULL;
	struct uncore_socket_hold *taken[UNCORE_MACHINE_MAX_SOCKETS] = {0};
	uint32_t sockets;
	unsigned n = 0;
	int rc = union_boxes(c, plans, nplans, &boxes, &n);
	if (rc < 0 || !boxes)
		return rc;
	rc = build_views(cfg, ops, ctx, boxes, n, &sockets, &guarded, &guarded_global);
	/* The sockets are ours before the first write (socket_hold.h): held
	 * here, or by the owner, who took them first (one owner: a socket is
	 * taken once, where the other holder is learnt). */
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS && rc == 0 && !cfg->no_socket_lock; s++) {
		if (!(sockets & ~c->sockets & (1u << s)))
			continue;
		if (!c->held_by_owner)
			rc = uncore_socket_hold_acquire(cfg->lock_dir, s, &taken[s]);
		else if (!uncore_socket_hold_node_held(cfg->lock_dir, s))
			rc = uncore_fail(UNCORE_ESTATE,
					 "socket %u: its registers would be written without the "
					 "socket held (the shared counters hold what they program; "
					 "this is a bug in papi-uncore, please report it)",
					 s);
	}
	if (rc < 0) {
		for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
			uncore_socket_hold_release(taken[s]);
		if (guarded)
			uncore_regio_destroy(guarded);
		if (guarded_global)
			uncore_regio_destroy(guarded_global);
		free(boxes);
		return rc;
	}
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		if (taken[s]) {
			c->holds[s] = taken[s];
			/* After a killed holder: what it left enabled is cleared. */
			if (ops->idle_socket && uncore_socket_hold_take_stale(taken[s]))
				ops->idle_socket(ctx, s, cfg->io);
		}
	if (c->guarded)
		uncore_regio_destroy(c->guarded);
	if (c->guarded_global)
		uncore_regio_destroy(c->guarded_global);
	free(c->boxes);
	c->boxes = boxes;
	c->nboxes = n;
	c->sockets |= sockets;
	c->guarded = guarded;
	c->guarded_global = guarded_global;
	return 0;
}

void direct_claim_drop(struct direct_claim *c)
{
	if (c->guarded)
		uncore_regio_destroy(c->guarded);
	if (c->guarded_global)
		uncore_regio_destroy(c->guarded_global);
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		uncore_socket_hold_release(c->holds[s]);
	free(c->boxes);
	memset(c, 0, sizeof(*c));
}
