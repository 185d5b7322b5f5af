/* The read path over prepared counter reads (see read_ops.h). */
#include "backend/direct/read_ops.h"

#include "backend/backend.h"
#include "common/uncore_error.h"

typedef int (*read_fn)(struct uncore_regio *, const struct uncore_reg *, uint64_t *);

/* The rest of the tear check of one counter: its last two reads disagreed
 * on the high dword (*v holds the later); up to three more. */
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

/* The loops of a read without tear check, four counters a turn: per
 * counter the call's three arguments, the call, the error test and the
 * mask (about 9 instructions).  A failure leaves the turn for reread and
 * the loop resumes after that counter.  `dense`: op[i].slot == i, the
 * reads go to raw[i] with no slot lookup. */
static inline __attribute__((always_inline)) int read_loop(struct uncore_regio *io, read_fn read,
							   const struct direct_read_op *op,
							   unsigned n, uint64_t *raw,
							   const int dense)
{
	/* op < end3: four more counters at least (end - 3 only when n > 3). */
	const struct direct_read_op *const end = op + n, *const end3 = n > 3 ? end - 3 : op;
	int first = 0, rc;
#define UNCORE_SLOT(o, k) (dense ? (k) : (o)[k].slot)
#define UNCORE_READ_ONE(k)                                                                         \
	do {                                                                                       \
		rc = read(io, &op[k].reg, &v[UNCORE_SLOT(op, k)]);                                 \
		/* Nothing derived from op or v is kept across the call (GCC would                 \
		 * keep the next counter's addresses in callee-saved registers and                 \
		 * copy them: two more per counter). */                                            \
		__asm__("" : "+r"(op), "+r"(v));                                                   \
		if (__builtin_expect(rc < 0, 0)) {                                                 \
			at = k;                                                                    \
			goto fail;                                                                 \
		}                                                                                  \
		v[UNCORE_SLOT(op, k)] &= op[k].mask;                                               \
	} while (0)
	for (;;) {
		uint64_t *v = raw;
		unsigned at;
		for (; op < end3; op += 4, v += dense ? 4 : 0) {
			UNCORE_READ_ONE(0);
			UNCORE_READ_ONE(1);
			UNCORE_READ_ONE(2);
			UNCORE_READ_ONE(3);
		}
		for (; op < end; op++, v += dense ? 1 : 0)
			UNCORE_READ_ONE(0);
		return first;
	fail:
		op += at;
		v += dense ? at : 0;
		if ((rc = reread(io, op, &v[UNCORE_SLOT(op, 0)], rc)) < 0 && !first)
			first = rc;
		op++;
		raw = v + (dense ? 1 : 0);
	}
#undef UNCORE_READ_ONE
#undef UNCORE_SLOT
}

/* With the ops in slot order (read_ops.h), op[i].slot == i for every i
 * exactly when the last one's is n - 1 (no MSR batch took some slots).
 * Not inlined: GCC allocates the loop's registers better on its own. */
static int __attribute__((noinline))
read_dense(struct uncore_regio *io, read_fn read, const struct direct_read_op *op, unsigned n,
	   uint64_t *raw)
{
	return read_loop(io, read, op, n, raw, 1);
}

static int __attribute__((noinline))
read_sparse(struct uncore_regio *io, read_fn read, const struct direct_read_op *op, unsigned n,
	    uint64_t *raw)
{
	return read_loop(io, read, op, n, raw, 0);
}

/* A PCI counter's two dwords in one read, low then high: not atomic.
 * Frozen, the one read is the value.  Counting, the low dword may wrap
 * before the high one is read (a value 2^32 too high): read again until
 * two reads agree on the high dword; the later one is then whole (no carry
 * reached the high dword while it was read).  Each counter of a socket in
 * `tearing` gets its second read right after its first. */
static int read_tearing(struct uncore_regio *io, read_fn read, const struct direct_read_op *op,
			unsigned n, uint64_t *raw, uint32_t tearing)
{
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
		if (!(op->tear & tearing))
			continue;
		uint64_t prev = *v;
		rc = read(io, &op->reg, v);
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

int direct_read_ops(struct uncore_regio *io, const struct direct_read_op *op, unsigned n,
		    uint64_t *raw, uint32_t tearing)
{
	read_fn read = io->ops->read;
	if (!n)
		return 0;
	if (tearing)
		return read_tearing(io, read, op, n, raw, tearing);
	if (op[n - 1].slot == n - 1)
		return read_dense(io, read, op, n, raw);
	return read_sparse(io, read, op, n, raw);
}
