/* The MSR counters of a programmed plan grouped by socket, so that a read
 * fetches a whole socket's MSR counters with one uncore_regio_read_many
 * call: one batch ioctl with msr-safe (issue: "one system call reads a whole
 * socket's MSR counters"), a plain loop of reads elsewhere.  Built once when
 * a plan is programmed; the read path only walks the prepared arrays. */
#ifndef UNCORE_BACKEND_DIRECT_MSR_BATCH_H
#define UNCORE_BACKEND_DIRECT_MSR_BATCH_H

#include <stdint.h>

#include "access/regio.h"
#include "backend/backend.h"
#include "plan/machine.h"

struct direct_msr_batch {
	unsigned n;              /* MSR counters in the plan */
	struct uncore_reg *regs; /* grouped by socket, in slot order within a socket */
	unsigned *slot;          /* the plan slot of regs[i] */
	uint64_t *values;        /* scratch for one read */
	unsigned ngroups;        /* sockets with MSR counters */
	unsigned group_first[UNCORE_MACHINE_MAX_SOCKETS + 1]; /* group g: [first[g], first[g+1]) */
};

/* Room for `max` counters: 0 or UNCORE_ENOMEM.  Then add each MSR counter
 * with its slot, and finish (groups them by socket, keeping the order of
 * the adds within a socket).  Free with direct_msr_batch_free either way. */
int direct_msr_batch_init(struct direct_msr_batch *b, unsigned max);
int direct_msr_batch_add(struct direct_msr_batch *b, const struct uncore_reg *r, unsigned slot);
void direct_msr_batch_finish(struct direct_msr_batch *b);

/* Read every group (one read_many call per socket) into raw[slot], unmasked.
 * 0 or the first error (the detail set by the register access); a register
 * that could not be read is UNCORE_RAW_UNREAD, the others are read. */
int direct_msr_batch_read(const struct direct_msr_batch *b, struct uncore_regio *io, uint64_t *raw);

void direct_msr_batch_free(struct direct_msr_batch *b);

#endif
