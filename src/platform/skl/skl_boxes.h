/* Skylake client uncore box descriptors: one static, never-modified
 * descriptor per box kind (CBo, ARB, fixed UCLK counter, IMC) giving where
 * its counters and controls are (MSR base + stride, or MMIO offsets from
 * MCHBAR), their width, the bits software may write, and the fastest the
 * counters can advance (for the wrap period).  What a machine has (how many
 * CBos, MCHBAR) is found by discovery, not stored here. */
#ifndef UNCORE_SKL_BOXES_H
#define UNCORE_SKL_BOXES_H

#include <stdint.h>

#include "access/regio.h"

enum skl_box_kind {
	SKL_BOX_CBO = 0,
	SKL_BOX_ARB,
	SKL_BOX_CLOCK,
	SKL_BOX_IMC,
	SKL_BOX_KINDS
};

enum skl_reg_kind {
	SKL_REG_CTL = 0, /* PERFEVTSELy / FIXED_CTRL */
	SKL_REG_CTR,     /* PERFCTRy / FIXED_CTR / IMC counter */
};

#define SKL_NO_REG 0u

struct skl_box_desc {
	const char *name;    /* event-registry kind: "cbo" */
	const char *title;   /* the manual's name of the unit */
	const char *section; /* where the manual specifies it: "SKL 2.4" */
	uint8_t kind;        /* enum skl_box_kind */
	uint8_t space;       /* UNCORE_SPACE_MSR, or UNCORE_SPACE_MMIO (IMC) */
	uint8_t max_instances;
	uint8_t ncounters; /* per instance; for the IMC its five free-running counters */
	uint8_t width;     /* counter width in bits */
	uint8_t freerun;   /* no control register: counts always, cannot be stopped or zeroed */
	/* MSR boxes: counter/control k of instance i is base + stride * i + k. */
	uint32_t ctl_base; /* SKL_NO_REG for the IMC */
	uint32_t ctr_base;
	uint32_t stride;
	const uint16_t *mmio_offsets; /* IMC: counter k at MCHBAR + mmio_offsets[k] */
	uint64_t ctl_writable;        /* RW bits of the control register */
	uint64_t ctl_enable;          /* its local enable bit */
	uint64_t ctr_writable;        /* RW bits of the counter (0: read-only) */
	/* The most a counter can advance per second (design ceiling, see
	 * skl_boxes.c): the wrap period is 2^width / max_rate. */
	uint64_t max_rate;
};

/* The descriptor of a kind, or NULL. */
const struct skl_box_desc *skl_box(enum skl_box_kind kind);

/* The descriptor whose name is `name` (an event-registry box kind: "imc"),
 * or NULL. */
const struct skl_box_desc *skl_box_by_name(const char *name);

/* Register k (control or counter) of instance `inst`; `mchbar` is the
 * masked MCHBAR (IMC only).  0, or UNCORE_EINVAL / UNCORE_ERANGE /
 * UNCORE_ENODEV (IMC without a BAR) with the detail set. */
int skl_reg(const struct skl_box_desc *d, unsigned inst, enum skl_reg_kind kind, unsigned k,
	    uint64_t mchbar, struct uncore_reg *out);

/* Shortest time in which a counter of this box can wrap: 2^width / max_rate,
 * in nanoseconds. */
uint64_t skl_wrap_ns(const struct skl_box_desc *d);

#endif
