/* A programming sequence written down before it is made (engine.c: program's
 * and start's box writes, made by one uncore_regio_write_seq call through
 * the allowlist).  box[i] names the box whose box control write i finishes
 * (or -1), prev[i] the value that box control had before: what a sequence
 * that fails part way undoes. */
#ifndef DIRECT_WRITE_SEQ_H
#define DIRECT_WRITE_SEQ_H

#include "access/regio.h"
#include "common/uncore_error.h"

#include <stdlib.h>

struct direct_wseq {
	int on; /* writes are written down, not made */
	struct uncore_regio_op *op;
	int *box;
	uint64_t *prev;
	unsigned n, cap;
};

/* The write of `v` to `r` appended: 0, or UNCORE_ENOMEM. */
static inline int direct_wseq_add(struct direct_wseq *q, const struct uncore_reg *r, uint64_t v)
{
	if (q->n == q->cap) {
		unsigned cap = q->cap ? 2 * q->cap : 64;
		struct uncore_regio_op *op = realloc(q->op, cap * sizeof(*op));
		if (op)
			q->op = op;
		int *box = op ? realloc(q->box, cap * sizeof(*box)) : NULL;
		if (box)
			q->box = box;
		uint64_t *prev = box ? realloc(q->prev, cap * sizeof(*prev)) : NULL;
		if (!prev)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for %u register writes",
					   cap);
		q->prev = prev;
		q->cap = cap;
	}
	q->op[q->n] = (struct uncore_regio_op){.reg = *r, .value = v, .write = 1};
	q->box[q->n++] = -1;
	return 0;
}

static inline void direct_wseq_begin(struct direct_wseq *q)
{
	q->on = 1;
	q->n = 0;
}

static inline void direct_wseq_free(struct direct_wseq *q)
{
	free(q->op);
	free(q->box);
	free(q->prev);
}

#endif
