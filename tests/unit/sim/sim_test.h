/* Helpers for the simulator tests: register access through the regio
 * interface only (as the real backends do), with failures reported at the
 * caller's line. */
#ifndef UNCORE_TEST_SIM_TEST_H
#define UNCORE_TEST_SIM_TEST_H

#include "../../harness.h"
#include "access/regio.h"
#include "common/uncore_error.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"
#include "sim/uncore_sim.h"

static inline struct uncore_reg msr_reg(unsigned socket, uint64_t addr)
{
	return (struct uncore_reg){.space = UNCORE_SPACE_MSR, .width = 8, .socket = (uint16_t)socket,
				   .addr = addr};
}

static inline struct uncore_reg pci_reg(unsigned bus, unsigned dev, unsigned fn, uint64_t off)
{
	return (struct uncore_reg){.space = UNCORE_SPACE_PCI, .width = 4, .bdf = UNCORE_BDF(bus, dev, fn),
				   .addr = off};
}

/* Write, checking success; on failure the detail is printed. */
#define WR(io, reg, value)                                                                         \
	do {                                                                                       \
		struct uncore_reg r_ = (reg);                                                      \
		int rc_ = uncore_regio_write((io), &r_, (value));                                  \
		if (rc_)                                                                           \
			HARNESS_FAIL_AT("write failed: %s: %s", uncore_error_name(rc_),            \
					uncore_error_detail());                                    \
	} while (0)

static inline uint64_t rd_or_die(struct uncore_regio *io, struct uncore_reg r, int *rc)
{
	uint64_t v = 0xdeadbeef;
	*rc = uncore_regio_read(io, &r, &v);
	return v;
}

#define RD(io, reg)                                                                                \
	({                                                                                         \
		int rc_;                                                                           \
		uint64_t v_ = rd_or_die((io), (reg), &rc_);                                        \
		if (rc_)                                                                           \
			HARNESS_FAIL_AT("read failed: %s: %s", uncore_error_name(rc_),             \
					uncore_error_detail());                                    \
		v_;                                                                                \
	})

/* A box register through the shared descriptors. */
static inline struct uncore_reg box_reg(enum hswep_box_kind kind, unsigned inst,
					enum hswep_reg_kind rk, unsigned index, unsigned socket,
					unsigned bus)
{
	struct uncore_reg r = {0};
	hswep_reg(hswep_box(kind), inst, rk, index, socket, bus, &r);
	return r;
}

/* A 48-bit PCI counter read low dword then high dword. */
static inline uint64_t rd_pci_ctr(struct uncore_regio *io, struct uncore_reg lo, int *rc)
{
	struct uncore_reg hi = lo;
	hi.addr += 4;
	uint64_t l = 0, h = 0;
	*rc = uncore_regio_read(io, &lo, &l);
	if (!*rc)
		*rc = uncore_regio_read(io, &hi, &h);
	return h << 32 | l;
}

#endif
