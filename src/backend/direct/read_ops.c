/* The read path over prepared counter reads (see read_ops.h). */
#include "backend/direct/read_ops.h"

#include "backend/backend.h"
#include "common/uncore_error.h"

typedef int (*read_fn)(struct uncore_regio *, const struct uncore_reg *, uint64_t *);
typedef int (*twice_fn)(struct uncore_regio *, const struct uncore_reg *, uint64_t *, uint64_t *);

/* The high dwords of two readings of one PCI counter agree. */
static inline int same_high(uint64_t a, uint64_t b)
{
	return (uint32_t)(a >> 32) == (uint32_t)(b >> 32);
}

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
		if (same_high(*v, prev))
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
	return rc;
}

/* Where counter k of a turn goes: `dense` (op[i].slot == i) v walks with
 * op; otherwise v is raw and each op names its slot. */
#define UNCORE_SLOT(o, k) (dense ? (k) : (o)[k].slot)

/* Counters [op, op + n) without tear check, eight a turn: per counter the
 * call's three arguments, the call and the error test (6 instructions; no
 * mask: backend.h, read; issue 14).  A failure leaves the turn for reread
 * and the loop resumes after that counter.  Addresses are recomputed
 * after the failure from op, v and `at` (the asm): GCC would otherwise
 * keep each counter's addresses in callee-saved registers for it. */
static inline __attribute__((always_inline)) int read_loop(struct uncore_regio *io, read_fn read,
							   const struct direct_read_op *op,
							   unsigned n, uint64_t *v, const int dense)
{
	/* op < end7: eight more counters at least (end - 7 only when n > 7). */
	const struct direct_read_op *const end = op + n, *const end7 = n > 7 ? end - 7 : op;
	int first = 0, rc;
	unsigned at;
#define UNCORE_READ_ONE(k)                                                                         \
	do {                                                                                       \
		rc = read(io, &op[k].reg, &v[UNCORE_SLOT(op, k)]);                                 \
		if (__builtin_expect(rc < 0, 0)) {                                                 \
			at = k;                                                                    \
			goto fail;                                                                 \
		}                                                                                  \
	} while (0)
	for (;;) {
		for (; op < end7; op += 8, v += dense ? 8 : 0) {
			UNCORE_READ_ONE(0);
			UNCORE_READ_ONE(1);
			UNCORE_READ_ONE(2);
			UNCORE_READ_ONE(3);
			UNCORE_READ_ONE(4);
			UNCORE_READ_ONE(5);
			UNCORE_READ_ONE(6);
			UNCORE_READ_ONE(7);
		}
		for (; op < end; op++, v += dense ? 1 : 0)
			UNCORE_READ_ONE(0);
		return first;
	fail:
		__asm__("" : "+r"(op), "+r"(v));
		op += at;
		v += dense ? at : 0;
		if ((rc = reread(io, op, &v[UNCORE_SLOT(op, 0)], rc)) < 0 && !first)
			first = rc;
		op++; /* resume after the counter that failed */
		v += dense ? 1 : 0;
	}
#undef UNCORE_READ_ONE
}

/* A PCI counter's two dwords in one read, low then high: not atomic.
 * Counting unfrozen, the low dword may wrap before the high one is read
 * (a value 2^32 too high): read again until two reads agree on the high
 * dword; the later one is then whole (no carry reached the high dword
 * while it was read).  Counters [op, op + n) all tear (PCI counters:
 * engine.c): each one's two reads in one read_twice call (access/regio.h:
 * the second right after the first), eight a turn.  Per counter the
 * call's four arguments, the call, the error test and the high dwords'
 * compare; the first read goes to `t`, the second to its slot.  A failed
 * read (of a PCI counter: no reread) or a torn pair leaves the turn as in
 * read_loop. */
static inline __attribute__((always_inline)) int tear_loop(struct uncore_regio *io, twice_fn twice,
							   const struct direct_read_op *op,
							   unsigned n, uint64_t *v, const int dense)
{
	const struct direct_read_op *const end = op + n, *const end7 = n > 7 ? end - 7 : op;
	uint64_t t;
	int first = 0, rc;
	unsigned at;
#define UNCORE_TEAR_ONE(k)                                                                         \
	do {                                                                                       \
		rc = twice(io, &op[k].reg, &t, &v[UNCORE_SLOT(op, k)]);                            \
		if (__builtin_expect(rc < 0 || !same_high(t, v[UNCORE_SLOT(op, k)]), 0)) {         \
			at = k;                                                                    \
			goto fail;                                                                 \
		}                                                                                  \
	} while (0)
	for (;;) {
		for (; op < end7; op += 8, v += dense ? 8 : 0) {
			UNCORE_TEAR_ONE(0);
			UNCORE_TEAR_ONE(1);
			UNCORE_TEAR_ONE(2);
			UNCORE_TEAR_ONE(3);
			UNCORE_TEAR_ONE(4);
			UNCORE_TEAR_ONE(5);
			UNCORE_TEAR_ONE(6);
			UNCORE_TEAR_ONE(7);
		}
		for (; op < end; op++, v += dense ? 1 : 0)
			UNCORE_TEAR_ONE(0);
		return first;
	fail:
		__asm__("" : "+r"(op), "+r"(v));
		op += at;
		v += dense ? at : 0;
		/* Both read and torn (the high dwords differ): the rest of the
		 * check. */
		if (rc == 0)
			rc = retry_tear(io, op, &v[UNCORE_SLOT(op, 0)]);
		if (rc < 0) {
			v[UNCORE_SLOT(op, 0)] = UNCORE_RAW_UNREAD;
			if (!first)
				first = rc;
		}
		op++; /* resume after the counter that failed */
		v += dense ? 1 : 0;
	}
#undef UNCORE_TEAR_ONE
}

/* With some sockets counting unfrozen (`tearing`): the runs of counters
 * of one tear bit (read_ops.h) each read by the loop that fits it, so
 * no counter tests its own tear bit. */
static inline __attribute__((always_inline)) int
read_runs(struct uncore_regio *io, read_fn read, twice_fn twice, const struct direct_read_op *op,
	  unsigned n, uint64_t *raw, uint32_t tearing, const int dense)
{
	int first = 0, rc;
	for (const struct direct_read_op *end = op + n; op < end;) {
		unsigned run = op->run;
		uint64_t *v = dense ? raw + op->slot : raw;
		if (op->tear & tearing)
			rc = tear_loop(io, twice, op, run, v, dense);
		else
			rc = read_loop(io, read, op, run, v, dense);
		if (rc < 0 && !first)
			first = rc;
		op += run;
	}
	return first;
}

#undef UNCORE_SLOT

/* With the ops in slot order (read_ops.h), op[i].slot == i for every i
 * exactly when the last one's is n - 1 (no MSR batch took some slots).
 * Not inlined: GCC allocates each loop's registers better on its own. */
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

static int __attribute__((noinline))
read_tearing_dense(struct uncore_regio *io, read_fn read, twice_fn twice,
		   const struct direct_read_op *op, unsigned n, uint64_t *raw, uint32_t tearing)
{
	return read_runs(io, read, twice, op, n, raw, tearing, 1);
}

static int __attribute__((noinline))
read_tearing_sparse(struct uncore_regio *io, read_fn read, twice_fn twice,
		    const struct direct_read_op *op, unsigned n, uint64_t *raw, uint32_t tearing)
{
	return read_runs(io, read, twice, op, n, raw, tearing, 0);
}

void direct_read_ops_prepare(struct direct_read_op *op, unsigned n)
{
	for (unsigned i = n; i-- > 0;)
		op[i].run = i + 1 < n && op[i + 1].tear == op[i].tear ? op[i + 1].run + 1 : 1;
}

int direct_read_ops(struct uncore_regio *io, const struct direct_read_op *op, unsigned n,
		    uint64_t *raw, uint32_t tearing)
{
	read_fn read = io->ops->read;
	if (!n)
		return 0;
	int dense = op[n - 1].slot == n - 1;
	if (tearing) {
		/* Without read_twice, two read calls (access/regio.h). */
		twice_fn twice =
		    io->ops->read_twice ? io->ops->read_twice : uncore_regio_read_twice_by_reads;
		return dense ? read_tearing_dense(io, read, twice, op, n, raw, tearing)
			     : read_tearing_sparse(io, read, twice, op, n, raw, tearing);
	}
	return dense ? read_dense(io, read, op, n, raw) : read_sparse(io, read, op, n, raw);
}
