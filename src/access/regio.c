/* Generic helpers over the register-access interface. */
#include "access/regio.h"

#include <inttypes.h>
#include <stdio.h>

int uncore_regio_read_many(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *values,
			   size_t n)
{
	if (io->ops->read_many)
		return io->ops->read_many(io, r, values, n);
	for (size_t i = 0; i < n; i++) {
		int rc = io->ops->read(io, &r[i], &values[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
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
