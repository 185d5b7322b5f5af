/* The one register-access interface.  The MSR (/dev/cpu/N/msr, msr-safe), PCI
 * configuration space, MMIO and simulator implementations all provide it, so
 * the box-programming code that runs on the simulator is the code that runs
 * on hardware.  Addresses are bound once (struct uncore_reg) when an event set
 * is built; the read path only walks prepared registers. */
#ifndef UNCORE_REGIO_H
#define UNCORE_REGIO_H

#include <stddef.h>
#include <stdint.h>

enum uncore_space {
	UNCORE_SPACE_MSR = 0,  /* model-specific register, 64-bit */
	UNCORE_SPACE_PCI = 1,  /* PCI configuration space, 32-bit dwords */
	UNCORE_SPACE_MMIO = 2, /* memory-mapped register (client IMC), 32 or 64-bit */
};

/* PCI bus/device/function packed as in lspci "bb:dd.f" (segment 0). */
#define UNCORE_BDF(bus, dev, fn) ((uint32_t)(((bus)&0xffu) << 8 | ((dev)&0x1fu) << 3 | ((fn)&0x7u)))
#define UNCORE_BDF_BUS(bdf)      (((bdf) >> 8) & 0xffu)
#define UNCORE_BDF_DEV(bdf)      (((bdf) >> 3) & 0x1fu)
#define UNCORE_BDF_FN(bdf)       ((bdf)&0x7u)

/* One register.  `socket` selects the package for MSR space (the
 * implementation maps it to the CPU it uses for that socket); for PCI the bus
 * number in `bdf` already names the socket and `socket` is informational. */
struct uncore_reg {
	uint8_t space;   /* enum uncore_space */
	uint8_t width;   /* access width in bytes: 4 or 8 */
	uint16_t socket; /* package (socket) id */
	uint32_t bdf;    /* PCI: UNCORE_BDF(bus, dev, fn); otherwise 0 */
	uint64_t addr;   /* MSR index, PCI config offset, or MMIO physical address */
};

struct uncore_regio;

/* One access of a batch (uncore_regio_batch): a read or a write of `reg`.
 * The implementation never changes reg, write or a write's value. */
struct uncore_regio_op {
	struct uncore_reg reg;
	uint64_t value; /* a write: the value written; a read: the value read (on success) */
	int32_t err;    /* out: 0 done, or why not (a negative UNCORE_E* code) */
	uint8_t write;  /* 1: write `value`, 0: read */
};

struct uncore_regio_ops {
	const char *name; /* "msr", "msr-safe", "pci-libpci", "pci-sysfs", "mmio", "sim",
			   * "allowlist" */
	/* Read `r`; on success store the value and return 0, else a negative
	 * UNCORE_E* code with the detail set. */
	int (*read)(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value);
	/* Write `r`; 0 or a negative UNCORE_E* code. */
	int (*write)(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value);
	/* Optional: n accesses, reads and writes, at once (msr-safe: one
	 * batch ioctl).  The accesses of one socket are made in array order
	 * (those of different sockets may run concurrently); each op's err
	 * says whether it was made: a failed batch may have made none (msr-safe
	 * checks its whole batch before running any op), and each op failed
	 * carries the code.  0 when every op was made, else the code of the
	 * first op failed with its detail set.  NULL: uncore_regio_batch()
	 * makes them one by one, in order, each even when another failed. */
	int (*batch)(struct uncore_regio *io, struct uncore_regio_op *ops, size_t n);
	/* Optional: n writes (ops[i].write set) in array order, stopping at
	 * the first that fails: 0, or that write's code with its detail set;
	 * *done says how many were made.  Exactly the writes, in the order,
	 * that n calls of write stopping at a failure make (a programming
	 * sequence asks for that order, unlike batch).  NULL:
	 * uncore_regio_write_seq() calls write n times. */
	int (*write_seq)(struct uncore_regio *io, const struct uncore_regio_op *ops, size_t n,
			 size_t *done);
	/* Optional: read `r` twice, back to back, exactly as two consecutive
	 * read calls would (for the torn-read rule of a PCI counter, whose
	 * two reads are then as close together as the device allows): the
	 * first into *first; only when it succeeded, the second into
	 * *second.  0, or the code of the read that failed (a value is
	 * stored only by a read that succeeded).  Stats as for two reads:
	 * stats.reads grows by one for each read made (so a wrapper can
	 * tell whether the second was made), syscalls as two reads.  NULL:
	 * uncore_regio_read_twice() makes two read calls. */
	int (*read_twice)(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *first,
			  uint64_t *second);
	/* Release the implementation's resources (not the struct's memory when
	 * it is embedded; see each implementation). */
	void (*destroy)(struct uncore_regio *io);
};

/* Counters every implementation keeps, for benchmarks and tests. */
struct uncore_regio_stats {
	uint64_t reads;    /* register reads */
	uint64_t writes;   /* register writes */
	uint64_t syscalls; /* system calls made for them (0 for the simulator) */
};

struct uncore_regio {
	const struct uncore_regio_ops *ops;
	void *impl;
	struct uncore_regio_stats stats;
};

static inline int uncore_regio_read(struct uncore_regio *io, const struct uncore_reg *r,
				    uint64_t *value)
{
	return io->ops->read(io, r, value);
}

static inline int uncore_regio_write(struct uncore_regio *io, const struct uncore_reg *r,
				     uint64_t value)
{
	return io->ops->write(io, r, value);
}

/* n writes in order, stopping at the first failure (the write_seq
 * operation, or write n times): one call for a programming sequence. */
static inline int uncore_regio_write_seq(struct uncore_regio *io, const struct uncore_regio_op *ops,
					 size_t n, size_t *done)
{
	if (io->ops->write_seq)
		return io->ops->write_seq(io, ops, n, done);
	int rc = 0;
	size_t i = 0;
	for (; i < n && rc == 0; i++)
		if ((rc = io->ops->write(io, &ops[i].reg, ops[i].value)) < 0)
			break;
	*done = i;
	return rc;
}

/* Two reads through read: what uncore_regio_read_twice() does for an
 * implementation without read_twice. */
int uncore_regio_read_twice_by_reads(struct uncore_regio *io, const struct uncore_reg *r,
				     uint64_t *first, uint64_t *second);

/* Read `r` twice, back to back (see the read_twice operation). */
static inline int uncore_regio_read_twice(struct uncore_regio *io, const struct uncore_reg *r,
					  uint64_t *first, uint64_t *second)
{
	if (io->ops->read_twice)
		return io->ops->read_twice(io, r, first, second);
	return uncore_regio_read_twice_by_reads(io, r, first, second);
}

/* n accesses with the implementation's batch operation, or one by one
 * (see the batch operation). */
int uncore_regio_batch(struct uncore_regio *io, struct uncore_regio_op *ops, size_t n);

/* Read n registers through uncore_regio_batch: 0, or the first error (the
 * registers read have their values). */
int uncore_regio_read_many(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *values,
			   size_t n);

void uncore_regio_destroy(struct uncore_regio *io);

/* "msr 0xe01 socket 0", "pci 7f:14.0+0xa0": for logs and error details. */
int uncore_reg_format(const struct uncore_reg *r, char *buf, size_t len);

#endif
