/* The direct engine's state, shared by its two files: engine.c (bind,
 * claim, program, start, read, the backend's operations) and engine_stop.c
 * (stop, unprogram, release, destroy).  Private to src/backend/direct/:
 * everything else sees the engine as a struct uncore_backend (engine.h). */
#ifndef UNCORE_BACKEND_DIRECT_ENGINE_INTERNAL_H
#define UNCORE_BACKEND_DIRECT_ENGINE_INTERNAL_H

#include "backend/direct/claim.h"
#include "backend/direct/engine.h"
#include "backend/direct/msr_batch.h"
#include "backend/direct/read_ops.h"
#include "backend/direct/write_seq.h"

struct eng_box {
	const struct direct_kind *k;
	struct uncore_reg box_ctl; /* k->box_ctl */
	uint64_t box_ctl_last;     /* the value last written (one bit per write) */
	/* Its registers, asked of its kind at once when bound (box_regs): its
	 * slots and filters find theirs here (nregs 0: asked one by one). */
	struct direct_box_reg regs[DIRECT_MAX_BOX_REGS];
	unsigned nregs;
};

struct eng_counter {
	const struct direct_kind *k;
	unsigned box; /* index in plan->boxes */
	struct uncore_reg ctl, ctr;
	uint64_t ctl_value; /* with the local enable */
	uint64_t enable;    /* that enable */
};

struct eng_filter {
	unsigned box;
	struct uncore_reg reg;
	uint64_t value;
};

/* A claimed box's registers (claim_boxes): asked of its kind once, when it
 * is claimed; bind_box takes them from here. */
struct eng_claimed {
	struct direct_claim_box at;
	unsigned nregs;
	int ask; /* while claiming: still to be asked of its kind */
	struct direct_box_reg regs[DIRECT_MAX_BOX_REGS];
};

struct engine {
	struct uncore_backend base;
	const struct direct_platform *p;
	/* The kind of each box type of the machine (NULL: none here), found
	 * once when the engine is made: kind_of is asked per slot and box. */
	const struct direct_kind **kinds;
	struct uncore_direct_config cfg;
	char *lock_dir; /* owned copy of cfg.lock_dir */
	uint64_t mmio_base;
	struct direct_claim claim; /* sockets held, allowlisted views of cfg.io */
	struct eng_claimed *claimed; /* the claim's boxes' registers */
	unsigned nclaimed;
	/* The read path's freeze and thaw writes, per socket with counters,
	 * checked against the allowlist when prepared: the read writes them
	 * without a second look (with a batch operation, their copies in the
	 * batch's ops). */
	struct uncore_regio_op freeze[UNCORE_MACHINE_MAX_SOCKETS], thaw[UNCORE_MACHINE_MAX_SOCKETS];
	unsigned nfreeze, nthaw;
	const struct uncore_plan *plan;
	struct eng_box *boxes; /* one per plan->boxes */
	struct eng_counter *counters;
	unsigned ncounters;
	struct eng_filter *filters;
	unsigned nfilters;
	/* The read path: every counter not in the MSR batch, in slot order
	 * (read_ops.h); those whose dwords may tear have tear != 0. */
	struct direct_read_op *ops;
	unsigned nops;
	uint32_t tear_sockets; /* OR of their tear bits */
	/* With a batch operation (cfg.io->ops->batch): the MSR counters, with
	 * the freeze and thaw writes (msr_batch.h). */
	int batched;
	struct direct_msr_batch batch;
	uint64_t used[UNCORE_MACHINE_MAX_SOCKETS]; /* global "used" bits per socket */
	uint32_t sockets;                          /* sockets with programmable counters */
	int running;
	/* A read's unfreeze failed: some socket may stay frozen until an
	 * unfreeze works; the next read retries it, the poller's too (issue 29). */
	int thaw_pending;
	struct direct_wseq seq; /* program's and start's box writes (seq_begin) */
};

/* engine.c: a register write (or its place in the sequence being written
 * down), a counter control write (twice where the kind asks), a box
 * control write (bit by bit where the kind asks), every socket with
 * programmable counters to its `step` value. */
int eng_wr(struct engine *e, const struct uncore_reg *r, uint64_t v);
int eng_wr_ctl(struct engine *e, const struct eng_counter *c, uint64_t v);
int eng_wr_box_ctl(struct engine *e, struct eng_box *b, uint64_t bits);
int eng_set_global(struct engine *e, enum direct_global_step step, struct uncore_regio *io,
		   uint32_t *done);

/* engine.c: a binding let go (what program made: boxes, counters,
 * filters, reads; the claim too unless acquire took it); every planned box
 * and filter cleared (STOP, boxes frozen and reset or controls 0, filters
 * 0, RELEASE: what a failed program leaves and unprogram does; best
 * effort, the first error); and the backend operations of the engine's
 * other sequences (backend.h). */
void eng_release_binding(struct engine *e);
int eng_clear_all(struct engine *e);
int eng_acquire(struct uncore_backend *base, const struct uncore_plan *const *plans, unsigned n);
void eng_socket_taken_over(struct uncore_backend *base, unsigned socket);
int eng_program(struct uncore_backend *base, const struct uncore_plan *plan);
int eng_start(struct uncore_backend *base);
int eng_read(struct uncore_backend *base, uint64_t *raw);
int eng_wrap_ns(const struct uncore_backend *base, const struct uncore_plan *plan, uint64_t *ns);
int eng_max_read_interval(const struct uncore_backend *base, const struct uncore_plan *plan,
			  uint64_t *ns);
int eng_stats(struct uncore_backend *base, struct uncore_backend_stats *out);

/* engine_stop.c: the ending sequences' backend operations. */
int eng_stop(struct uncore_backend *base);
int eng_unprogram(struct uncore_backend *base);
int eng_release(struct uncore_backend *base);
void eng_destroy(struct uncore_backend *base);

/* The first error of a best-effort sequence. */
static inline void keep_first(int *first, int rc)
{
	if (*first == 0)
		*first = rc;
}

#endif
