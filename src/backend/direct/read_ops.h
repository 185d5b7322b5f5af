/* The direct backend's read path over counters prepared at program time:
 * per counter its register (a PCI counter wider than a dword: one 8-byte
 * read of its two dwords, which is not atomic), where its raw value goes
 * and its width mask, so that a read is one register access and one mask
 * per counter, with no lookup and no second pass.  PCI counters that count
 * unfrozen get the tear check afterwards. */
#ifndef UNCORE_BACKEND_DIRECT_READ_OPS_H
#define UNCORE_BACKEND_DIRECT_READ_OPS_H

#include <stdint.h>

#include "access/regio.h"

/* tear: the bit of its socket when the register's dwords may tear while
 * the socket counts (re-checked unless the socket is frozen), else 0. */
struct direct_read_op {
	struct uncore_reg reg;
	uint64_t mask;
	uint32_t slot;
	uint32_t tear;
};

/* Read n counters into raw[slot], masked: one register access each.  A
 * counter that cannot be read is UNCORE_RAW_UNREAD (an MSR counter is
 * read once more first); 0 or the first error. */
int direct_read_ops(struct uncore_regio *io, const struct direct_read_op *op, unsigned n,
		    uint64_t *raw);

/* The tear check of the n counters in `tear`, on the sockets that count
 * unfrozen (`frozen`: the others), after direct_read_ops read them: read
 * again until two reads agree on the high dword.  0 or the first error. */
int direct_recheck_tears(struct uncore_regio *io, const struct direct_read_op *const *tear,
			 unsigned n, uint64_t *raw, uint32_t frozen);

#endif
