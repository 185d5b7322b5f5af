/* The read path over prepared counter reads (see read_ops.h). */
#include "backend/direct/read_ops.h"

#include "backend/backend.h"
#include "common/uncore_error.h"

/* The rest of the tear check of one counter (direct_recheck_tears): its last two
 * reads disagreed on the high dword (*v holds the later); up to three more. */
static int __attribute__((noinline))
retry_tear(struct uncore_regio *io, const struct direct_read_op *op, uint64_t *v)
{
	for (int tries = 0; tries < 3; tries++) {
		uint64_t prev = *v;
		int rc = uncore_regio_read(io, &op->reg, v);
		if (rc < 0)
			return rc;
		*v &= op->mask;
		if ((*v >> 32) == (prev >> 32))
			return 0;
	}
	return uncore_fail(UNCORE_EIO,
			   "PCI counter %02x:%02x.%x+0x%x kept changing between its two halves",
			   UNCORE_BDF_BUS(op->reg.bdf), UNCORE_BDF_DEV(op->reg.bdf),
			   UNCORE_BDF_FN(op->reg.bdf), (unsigned)op->reg.addr);
}

/* A PCI counter's two dwords in one read, low then high: not atomic.
 * Frozen, the one read is the value.  Counting, the low dword may wrap
 * before the high one is read (a value 2^32 too high): read again until
 * two reads agree on the high dword; the later one is then whole (no carry
 * reached the high dword while it was read).  The read loop made the first
 * read; this is the check, for every such counter of the sockets that
 * count unfrozen (`frozen`: the others): 0 or the first error. */
int direct_recheck_tears(struct uncore_regio *io, const struct direct_read_op *const *tear,
			 unsigned n, uint64_t *raw, uint32_t frozen)
{
	uint32_t counting = ~frozen;
	int first = 0;
	for (const struct direct_read_op *const *t = tear, *const *end = t + n; t < end; t++) {
		const struct direct_read_op *op = *t;
		uint64_t *v = &raw[op->slot], prev = *v;
		if (!(op->tear & counting) || prev == UNCORE_RAW_UNREAD)
			continue;
		int rc = uncore_regio_read(io, &op->reg, v);
		if (rc == 0) {
			*v &= op->mask;
			if ((*v >> 32) == (prev >> 32))
				continue;
			rc = retry_tear(io, op, v);
			if (rc == 0)
				continue;
		}
		*v = UNCORE_RAW_UNREAD;
		if (!first)
			first = rc;
	}
	return first;
}

/* A counter read that failed (rc): an MSR counter is read once more, as
 * a socket's MSR batch that fails is read again register by register (a
 * transient fault costs nothing); 0, or the error with *v
 * UNCORE_RAW_UNREAD. */
static int __attribute__((noinline))
reread(struct uncore_regio *io, const struct direct_read_op *op, uint64_t *v, int rc)
{
	if (op->reg.space == UNCORE_SPACE_MSR)
		rc = uncore_regio_read(io, &op->reg, v);
	if (rc < 0)
		*v = UNCORE_RAW_UNREAD;
	else
		*v &= op->mask;
	return rc;
}

/* The loop of the read path: per counter one register access and one
 * mask.  A counter that cannot be read is UNCORE_RAW_UNREAD; 0 or the
 * first error. */
int direct_read_ops(struct uncore_regio *io, const struct direct_read_op *op, unsigned n,
		    uint64_t *raw)
{
	int (*const read)(struct uncore_regio *, const struct uncore_reg *, uint64_t *) =
	    io->ops->read;
	int first = 0;
	for (const struct direct_read_op *end = op + n; op < end; op++) {
		uint64_t *v = &raw[op->slot];
		int rc = read(io, &op->reg, v);
		if (__builtin_expect(rc < 0, 0)) {
			if ((rc = reread(io, op, v, rc)) < 0 && !first)
				first = rc;
			continue;
		}
		*v &= op->mask;
	}
	return first;
}
