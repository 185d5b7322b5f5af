/* A read's MSR accesses as one batch, for a register access with a batch
 * operation (access/regio.h; msr-safe: one ioctl for every socket): the
 * freeze writes, the MSR counter reads, the thaw writes, in that order in
 * one array, so that a read submits [freeze | reads] (and the thaw too when
 * nothing else is read between), or the reads alone without a freeze, and
 * the thaw after the PCI and MMIO reads.  msr-safe runs each CPU's ops in
 * array order, so a socket's freeze precedes its reads and its thaw
 * follows them.  Built once when a plan is programmed; the freeze and thaw
 * values are the ones checked against the allowlist then and never change. */
#ifndef UNCORE_BACKEND_DIRECT_MSR_BATCH_H
#define UNCORE_BACKEND_DIRECT_MSR_BATCH_H

#include <stdint.h>

#include "access/regio.h"
#include "backend/backend.h"
#include "plan/machine.h"

struct direct_msr_batch {
	struct uncore_regio_op *ops; /* [freeze | reads | thaw] */
	uint32_t *slot;              /* the plan slot of read i (ops[nfreeze + i]) */
	uint64_t *mask;              /* its width mask */
	unsigned nfreeze, nreads, nthaw, max;
};

/* Room for `max` counter reads and a freeze and a thaw per socket: 0 or
 * UNCORE_ENOMEM.  Then add each MSR counter with its slot and mask, then
 * finish with the writes (op.write set, values checked).  Free with
 * direct_msr_batch_free either way. */
int direct_msr_batch_init(struct direct_msr_batch *b, unsigned max);
int direct_msr_batch_add(struct direct_msr_batch *b, const struct uncore_reg *r, unsigned slot,
			 uint64_t mask);
void direct_msr_batch_finish(struct direct_msr_batch *b, const struct uncore_regio_op *freeze,
			     unsigned nfreeze, const struct uncore_regio_op *thaw, unsigned nthaw);

/* After ops [first, first + n) went as one batch (uncore_regio_batch;
 * `failed`: it returned an error): its reads into raw[slot], masked; a read
 * the batch did not make is made once more on its own (a transient fault
 * costs nothing), else it is UNCORE_RAW_UNREAD.  0 or the first error of a
 * read; the writes' results are in their ops' err, for the caller. */
int direct_msr_batch_collect(struct direct_msr_batch *b, struct uncore_regio *io, unsigned first,
			     unsigned n, int failed, uint64_t *raw);

void direct_msr_batch_free(struct direct_msr_batch *b);

#endif
