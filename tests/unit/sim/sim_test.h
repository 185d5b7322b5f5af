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
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_MSR, .width = 8, .socket = (uint16_t)socket, .addr = addr};
}

static inline struct uncore_reg pci_reg(unsigned bus, unsigned dev, unsigned fn, uint64_t off)
{
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_PCI, .width = 4, .bdf = UNCORE_BDF(bus, dev, fn), .addr = off};
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

#include <stdlib.h>

/* A file of the scenario library: $SRCDIR/src/sim/scenarios/<name>, or
 * derived from this header's own path when SRCDIR is not set. */
static inline const char *scenario_path(const char *name)
{
	static char buf[1024];
	const char *src = getenv("SRCDIR");
	if (src && src[0]) {
		snprintf(buf, sizeof(buf), "%s/src/sim/scenarios/%s", src, name);
		return buf;
	}
	const char *me = __FILE__;
	const char *cut = strstr(me, "tests/unit/sim/");
	snprintf(buf, sizeof(buf), "%.*ssrc/sim/scenarios/%s", cut ? (int)(cut - me) : 0, me, name);
	return buf;
}

static inline struct uncore_sim *sim_new(const char *model, const char *scenario_text)
{
	struct uncore_sim *sim = NULL;
	if (uncore_sim_create(model, NULL, &sim) != 0) {
		HARNESS_FAIL_AT("create %s: %s", model, uncore_error_detail());
		return NULL;
	}
	if (scenario_text && uncore_sim_load_scenario_text(sim, scenario_text, "test") != 0)
		HARNESS_FAIL_AT("scenario: %s", uncore_error_detail());
	return sim;
}

/* Check that an access fails with `code`. */
#define WR_FAILS(io, reg, value, code)                                                             \
	do {                                                                                       \
		struct uncore_reg r_ = (reg);                                                      \
		CHECK_EQ_INT(uncore_regio_write((io), &r_, (value)), (code));                      \
	} while (0)
#define RD_FAILS(io, reg, code)                                                                    \
	do {                                                                                       \
		struct uncore_reg r_ = (reg);                                                      \
		uint64_t v_;                                                                       \
		CHECK_EQ_INT(uncore_regio_read((io), &r_, &v_), (code));                           \
	} while (0)
