/* What a direct backend owns, apart from what it has programmed: the
 * sockets it holds (socket_hold.h) and the allowlisted views of the
 * register access through which every write goes (access/allowlist.h),
 * covering the PMON registers of the boxes claimed.  Taking ownership is
 * separate from programming (backend.h, acquire): a set that takes turns
 * between plans (multiplexed metric settings) claims all their boxes once
 * and reprograms without dropping a socket or rebuilding an allowlist.
 * The platform says which registers a box has through two callbacks. */
#ifndef UNCORE_BACKEND_DIRECT_CLAIM_H
#define UNCORE_BACKEND_DIRECT_CLAIM_H

#include <stdint.h>

#include "access/allowlist.h"
#include "backend/direct/direct.h"
#include "backend/direct/socket_hold.h"
#include "plan/sched.h"

/* A box instance claimed. */
struct direct_claim_box {
	uint16_t socket;
	uint8_t box; /* index in the machine's box types */
	uint8_t instance;
};

struct direct_claim_ops {
	/* Every PMON register of the n boxes claimed with the bits the
	 * platform may write, then the global control of each socket with
	 * registers to write: (*r)[0..*nr) with their masks (*mask)[...],
	 * allocated here, freed by the claim; the last *nglobal of them are
	 * the global controls (the read path's freeze and thaw view);
	 * *sockets: those sockets (they are then held; a box only read,
	 * free-running counters, needs none).  One call for the whole claim:
	 * 0, or an error with the detail set (nothing allocated). */
	int (*add_boxes)(void *ctx, const struct direct_claim_box *boxes, unsigned n,
			 struct uncore_reg **r, uint64_t **mask, unsigned *nr, unsigned *nglobal,
			 uint32_t *sockets);
	/* Optional: every box of socket s put idle (backend/direct/idle.h),
	 * called when the claim has just taken the socket's lock over from a
	 * holder that was killed, before any programming.  Best effort (its
	 * error is not the claim's). */
	void (*idle_socket)(const void *ctx, unsigned socket, struct uncore_regio *io);
};

struct direct_claim {
	struct direct_claim_box *boxes;
	unsigned nboxes;
	uint32_t sockets; /* held (or, without socket locks, used) */
	struct uncore_socket_hold *holds[UNCORE_MACHINE_MAX_SOCKETS];
	struct uncore_regio *guarded;        /* writes to the claimed boxes and globals */
	struct uncore_regio *guarded_global; /* the global controls alone (the read path) */
	/* Taken by the backend's acquire: program and unprogram keep it (else
	 * program takes what its plan needs and unprogram gives it back). */
	int kept;
	/* The sockets are held by the backend's owner (backend.h,
	 * sockets_held_by_owner), set before each direct_claim_add: the claim
	 * takes no hold, and refuses a socket not held in this process. */
	int held_by_owner;
};

/* Extend the claim to the boxes of `plans`: the sockets newly needed are
 * held (a socket taken over from a killed holder is put idle first,
 * ops->idle_socket) - or, held_by_owner, found held in this process -
 * then both allowlisted views are rebuilt over every box claimed.
 * When every box is claimed already nothing is taken or built.  On failure
 * the claim is as it was.  io: the device access the views wrap. */
int direct_claim_add(struct direct_claim *c, const struct uncore_direct_config *cfg,
		     const struct direct_claim_ops *ops, void *ctx,
		     const struct uncore_plan *const *plans, unsigned nplans);

/* Whether every box of `plan` is claimed. */
int direct_claim_covers(const struct direct_claim *c, const struct uncore_plan *plan);

/* Give everything back (the claim is empty again). */
void direct_claim_drop(struct direct_claim *c);

#endif
