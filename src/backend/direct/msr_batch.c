/* A read's MSR accesses as one batch (see msr_batch.h). */
#include "backend/direct/msr_batch.h"

#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"

/* The reads are added before the writes are known: they wait at this
 * offset, past room for every socket's freeze. */
#define READS_AT UNCORE_MACHINE_MAX_SOCKETS

int direct_msr_batch_init(struct direct_msr_batch *b, unsigned max)
{
	memset(b, 0, sizeof(*b));
	b->ops = calloc((size_t)max + 2 * UNCORE_MACHINE_MAX_SOCKETS, sizeof(*b->ops));
	b->slot = calloc(max ? max : 1, sizeof(*b->slot));
	b->mask = calloc(max ? max : 1, sizeof(*b->mask));
	b->max = max;
	if (!b->ops || !b->slot || !b->mask)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for %u MSR counters", max);
	return 0;
}

int direct_msr_batch_add(struct direct_msr_batch *b, const struct uncore_reg *r, unsigned slot,
			 uint64_t mask)
{
	if (b->nreads >= b->max)
		return uncore_fail(UNCORE_EINVAL, "MSR batch: room for %u counters", b->max);
	b->ops[READS_AT + b->nreads] = (struct uncore_regio_op){.reg = *r};
	b->slot[b->nreads] = slot;
	b->mask[b->nreads] = mask;
	b->nreads++;
	return 0;
}

void direct_msr_batch_finish(struct direct_msr_batch *b, const struct uncore_regio_op *freeze,
			     unsigned nfreeze, const struct uncore_regio_op *thaw, unsigned nthaw)
{
	memmove(&b->ops[nfreeze], &b->ops[READS_AT], b->nreads * sizeof(*b->ops));
	memcpy(b->ops, freeze, nfreeze * sizeof(*b->ops));
	memcpy(&b->ops[nfreeze + b->nreads], thaw, nthaw * sizeof(*b->ops));
	b->nfreeze = nfreeze;
	b->nthaw = nthaw;
}

int direct_msr_batch_collect(struct direct_msr_batch *b, struct uncore_regio *io, unsigned first,
			     unsigned n, int failed, uint64_t *raw)
{
	int first_rc = 0;
	unsigned lo = first > b->nfreeze ? first : b->nfreeze;
	unsigned hi = first + n < b->nfreeze + b->nreads ? first + n : b->nfreeze + b->nreads;
	for (unsigned i = lo; i < hi; i++) {
		struct uncore_regio_op *op = &b->ops[i];
		unsigned r = i - b->nfreeze;
		uint64_t *v = &raw[b->slot[r]];
		if (__builtin_expect(failed && op->err != 0, 0) &&
		    (op->err = uncore_regio_read(io, &op->reg, &op->value)) < 0) {
			*v = UNCORE_RAW_UNREAD;
			if (!first_rc)
				first_rc = op->err;
			continue;
		}
		*v = op->value & b->mask[r];
	}
	return first_rc;
}

void direct_msr_batch_free(struct direct_msr_batch *b)
{
	free(b->ops);
	free(b->slot);
	free(b->mask);
	memset(b, 0, sizeof(*b));
}
