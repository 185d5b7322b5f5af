/* Generic helpers over the register-access interface. */
#include "access/regio.h"

#include "common/uncore_error.h"

#include <inttypes.h>
#include <stdio.h>

int uncore_regio_read_twice_by_reads(struct uncore_regio *io, const struct uncore_reg *r,
				     uint64_t *first, uint64_t *second)
{
	int rc = io->ops->read(io, r, first);
	return rc < 0 ? rc : io->ops->read(io, r, second);
}

int uncore_regio_batch(struct uncore_regio *io, struct uncore_regio_op *ops, size_t n)
{
	if (io->ops->batch)
		return io->ops->batch(io, ops, n);
	struct uncore_saved_error first = {0};
	for (size_t i = 0; i < n; i++) {
		struct uncore_regio_op *op = &ops[i];
		op->err = op->write ? io->ops->write(io, &op->reg, op->value)
				    : io->ops->read(io, &op->reg, &op->value);
		if (op->err && !first.code)
			uncore_error_save(&first, op->err); /* its detail, not a later one's */
	}
	return first.code ? uncore_error_restore(&first) : 0;
}

int uncore_regio_read_many(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *values,
			   size_t n)
{
	/* In chunks: the ops live on the stack. */
	struct uncore_regio_op ops[64];
	int first = 0;
	for (size_t i = 0; i < n;) {
		size_t k = n - i < 64 ? n - i : 64;
		for (size_t j = 0; j < k; j++)
			ops[j] = (struct uncore_regio_op){.reg = r[i + j]};
		int rc = uncore_regio_batch(io, ops, k);
		for (size_t j = 0; j < k; j++)
			if (!ops[j].err)
				values[i + j] = ops[j].value;
		if (rc && !first)
			first = rc;
		i += k;
	}
	return first;
}

void uncore_regio_destroy(struct uncore_regio *io)
{
	if (io && io->ops && io->ops->destroy)
		io->ops->destroy(io);
}

int uncore_reg_format(const struct uncore_reg *r, char *buf, size_t len)
{
	switch (r->space) {
	case UNCORE_SPACE_MSR:
		return snprintf(buf, len, "msr 0x%" PRIx64 " socket %u", r->addr, r->socket);
	case UNCORE_SPACE_PCI:
		return snprintf(buf, len, "pci %02x:%02x.%x+0x%" PRIx64, UNCORE_BDF_BUS(r->bdf),
				UNCORE_BDF_DEV(r->bdf), UNCORE_BDF_FN(r->bdf), r->addr);
	case UNCORE_SPACE_MMIO:
		return snprintf(buf, len, "mmio 0x%" PRIx64 " socket %u", r->addr, r->socket);
	default:
		return snprintf(buf, len, "space %u addr 0x%" PRIx64, r->space, r->addr);
	}
}
