/* The direct backend's read path over counters prepared at program time:
 * per counter its register (a PCI counter wider than a dword: one 8-byte
 * read of its two dwords, which is not atomic) and where its raw value
 * goes, so that a read is one register access per counter, with no lookup,
 * no mask (the fold masks: backend.h, read) and no second pass.  PCI
 * counters that count unfrozen get the tear check right after their first
 * read. */
#ifndef UNCORE_BACKEND_DIRECT_READ_OPS_H
#define UNCORE_BACKEND_DIRECT_READ_OPS_H

#include <stdint.h>

#include "access/regio.h"

/* tear: the bit of its socket when the register's dwords may tear while
 * the socket counts (re-checked unless the socket is frozen), else 0.
 * run: how many ops from this one on have its tear (at least 1), so that
 * a read with sockets unfrozen reads each run by one loop. */
struct direct_read_op {
	struct uncore_reg reg;
	uint32_t slot;
	uint32_t tear;
	uint32_t run;
};

/* Fill the runs of n ops whose other fields are set. */
void direct_read_ops_prepare(struct direct_read_op *op, unsigned n);

/* Read n counters, prepared in increasing slot order, into raw[slot] as
 * the registers hold them (the bits above a counter's width included):
 * one register access each.  A counter that cannot be read is
 * UNCORE_RAW_UNREAD (an MSR counter is read once more first).  Counters
 * whose tear bit is in `tearing` (their socket counts unfrozen) are read
 * again until two reads agree on the high dword (the torn-read rule).
 * 0 or the first error. */
int direct_read_ops(struct uncore_regio *io, const struct direct_read_op *op, unsigned n,
		    uint64_t *raw, uint32_t tearing);

#endif
