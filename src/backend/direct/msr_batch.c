/* MSR counter reads grouped by socket (see msr_batch.h). */
#include "backend/direct/msr_batch.h"

#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"

int direct_msr_batch_init(struct direct_msr_batch *b, unsigned max)
{
	memset(b, 0, sizeof(*b));
	if (max == 0)
		return 0;
	b->regs = calloc(max, sizeof(*b->regs));
	b->slot = calloc(max, sizeof(*b->slot));
	b->values = calloc(max, sizeof(*b->values));
	if (!b->regs || !b->slot || !b->values)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for %u MSR counters", max);
	return 0;
}

int direct_msr_batch_add(struct direct_msr_batch *b, const struct uncore_reg *r, unsigned slot)
{
	if (r->socket >= UNCORE_MACHINE_MAX_SOCKETS)
		return uncore_fail(UNCORE_EINVAL, "MSR counter on socket %u: at most %d sockets",
				   r->socket, UNCORE_MACHINE_MAX_SOCKETS);
	b->regs[b->n] = *r;
	b->slot[b->n] = slot;
	b->n++;
	return 0;
}

void direct_msr_batch_finish(struct direct_msr_batch *b)
{
	/* Stable insertion sort by socket: the scheduler's slots come sorted by
	 * socket already, so this is one pass in practice. */
	for (unsigned i = 1; i < b->n; i++) {
		struct uncore_reg r = b->regs[i];
		unsigned slot = b->slot[i], j = i;
		for (; j > 0 && b->regs[j - 1].socket > r.socket; j--) {
			b->regs[j] = b->regs[j - 1];
			b->slot[j] = b->slot[j - 1];
		}
		b->regs[j] = r;
		b->slot[j] = slot;
	}
	b->ngroups = 0;
	for (unsigned i = 0; i < b->n; i++)
		if (i == 0 || b->regs[i].socket != b->regs[i - 1].socket)
			b->group_first[b->ngroups++] = i;
	b->group_first[b->ngroups] = b->n;
}

int direct_msr_batch_read(const struct direct_msr_batch *b, struct uncore_regio *io, uint64_t *raw)
{
	int first_rc = 0;
	for (unsigned g = 0; g < b->ngroups; g++) {
		unsigned first = b->group_first[g], n = b->group_first[g + 1] - first;
		int rc = uncore_regio_read_many(io, &b->regs[first], &b->values[first], n);
		if (rc == 0)
			continue;
		/* One failing register fails the whole batch: read the socket's
		 * registers one by one, so that only the failing ones are lost
		 * (and a transient fault costs nothing). */
		for (unsigned i = first; i < first + n; i++) {
			rc = uncore_regio_read(io, &b->regs[i], &b->values[i]);
			if (rc < 0) {
				b->values[i] = UNCORE_RAW_UNREAD;
				if (!first_rc)
					first_rc = rc;
			}
		}
	}
	for (unsigned i = 0; i < b->n; i++)
		raw[b->slot[i]] = b->values[i];
	return first_rc;
}

void direct_msr_batch_free(struct direct_msr_batch *b)
{
	free(b->regs);
	free(b->slot);
	free(b->values);
	memset(b, 0, sizeof(*b));
}
