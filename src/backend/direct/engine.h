/* The one direct engine: the programming sequences of the direct backend
 * (hold the sockets, allowlist, freeze or disable, reset, program, enable,
 * read, stop, unprogram) written once over per-platform descriptions, as
 * the kernel's uncore driver runs one set of generic operations over a
 * static descriptor per box type.  A platform is data: one
 * struct direct_kind per box kind (where its registers are, its widths and
 * writable bits, its quirks) and a global-control hook saying which value
 * the socket's global control takes at each step.  Descriptions:
 * desc_hswep.c (Haswell-EP), desc_skl.c (Skylake client), desc_nhm.c
 * (Nehalem), desc_x7400.c (Xeon 7100/7400). */
#ifndef UNCORE_BACKEND_DIRECT_ENGINE_H
#define UNCORE_BACKEND_DIRECT_ENGINE_H

#include <stdint.h>

#include "access/allowlist.h"
#include "backend/direct/direct.h"

/* Which register of a box instance. */
enum direct_reg_role {
	DIRECT_REG_CTL = 0,   /* counter control k (fixed counter: its control) */
	DIRECT_REG_CTR,       /* counter k (fixed / free-running counter k) */
	DIRECT_REG_FILTER,    /* filter register k */
	DIRECT_REG_FIXED_CTL, /* the fixed counter's control (a kind with nfixed) */
	DIRECT_REG_FIXED_CTR, /* the fixed counter */
	DIRECT_REG_BOX_CTL,   /* the box control (a kind with box_ctl) */
};

/* The steps at which the engine writes a socket's global control. */
enum direct_global_step {
	DIRECT_GLOBAL_PROGRAM = 0, /* before the first box write: nothing may count */
	DIRECT_GLOBAL_START,       /* after the counters are zeroed: count */
	DIRECT_GLOBAL_STOP,        /* stop counting (values stay readable) */
	DIRECT_GLOBAL_READ_FREEZE, /* before a read: hold every counter of the socket */
	DIRECT_GLOBAL_READ_THAW,   /* after it: count again */
	DIRECT_GLOBAL_RELEASE,     /* after unprogram cleared the controls: leave it as found */
	DIRECT_GLOBAL_STEPS
};

struct direct_kind;

/* One write of a planned filter: its value for filter register `reg`. */
struct direct_filter_write {
	uint8_t reg;
	uint64_t value;
};
#define DIRECT_MAX_FILTER_WRITES 4 /* registers one planned filter may span */

/* One register of a box instance asked for with others (direct_kind_regs):
 * its role and index in, its address and writable bits out. */
struct direct_box_reg {
	enum direct_reg_role role;
	unsigned idx;
	struct uncore_reg reg;
	uint64_t writable;
};
#define DIRECT_MAX_BOX_REGS 32 /* every register of the largest box kind */

/* A box instance whose registers are asked for (direct_kind_regs). */
struct direct_box_at {
	unsigned socket, inst;
};

/* One box kind.  Generic addressing covers counter k of instance i at
 * base + stride * i + k (MSR) or mmio_base + mmio_offsets[k] (MMIO); a
 * kind with other addressing sets `reg`. */
struct direct_kind {
	const char *kind;    /* event-registry kind: "cbo" */
	const char *title;   /* the manual's name of the unit */
	const char *section; /* where the manual specifies it */
	uint8_t space;       /* UNCORE_SPACE_MSR or UNCORE_SPACE_MMIO */
	uint8_t max_instances;
	uint8_t ncounters; /* generic counters, or the fixed / free-running ones */
	uint8_t width;
	uint8_t fixed; /* the box's counters are its fixed counters (slot counter FIXED) */
	/* A fixed counter beside generic ones (Nehalem): one, at these MSRs. */
	uint8_t nfixed;
	uint8_t fixed_gbit;
	uint32_t fixed_ctl, fixed_ctr;
	uint64_t fixed_ctl_writable, fixed_ctl_enable;
	uint8_t freerun;  /* read-only counters: nothing to program, zero or freeze */
	uint8_t combined; /* control and count in one register (EMON 63:32 / 31:0) */
	uint8_t gbit;     /* bit of counter 0 in the platform's global "used" mask */
	uint32_t ctl_base, ctr_base, stride;
	const uint16_t *mmio_offsets;
	uint64_t ctl_writable; /* control bits the allowlist lets us write */
	uint64_t ctl_enable;   /* local enable, OR-ed into every programmed control (0: none) */
	uint64_t ctr_writable; /* counter bits the allowlist lets us write (0: read-only) */
	/* Filter registers (MSR), written when an event depends on them. */
	uint8_t nfilters;
	const uint32_t *filter_msr;
	const uint64_t *filter_writable;
	/* The most a counter advances per second (design ceiling, cited at
	 * the description): the wrap bound of max_read_interval.  Or, with
	 * clock_hz, the fastest clock of the box's counters times each
	 * event's most increments per cycle (its Max. Inc/Cyc in the tables). */
	uint64_t max_rate;
	uint64_t clock_hz;
	/* A box control (HSX PMON 2.1.2): the box is frozen and reset through
	 * it, not through the global control: frozen with its controls and
	 * counters reset before programming, its counters reset while frozen
	 * at start, unfrozen to count, frozen at stop.  must1: bits every
	 * value carries; one_bit: one newly set bit per write (HSX SBo), the
	 * freeze first, then the others lowest first, must1 among them. */
	uint8_t box_ctl;
	uint8_t box_ctl_one_bit;
	uint64_t box_ctl_must1, box_ctl_frz, box_ctl_rst_ctrl, box_ctl_rst_ctrs;
	/* No box control and no global hold: the controls are written 0 at
	 * program, with their enable at start (after the counters are zeroed)
	 * and without it at stop (HSX UBox, 2.1.2 d note). */
	uint8_t enable_at_start;
	uint8_t ctl_write_twice;   /* every counter control written twice (an erratum) */
	uint8_t write_all_filters; /* every filter of a planned box, not only those used */
	uint8_t layout;            /* the platform's own index of the kind, for its hooks */
	/* Optional: other addressing (0 or an error with the detail set); m
	 * (may be NULL) gives the machine's buses. */
	int (*reg)(const struct direct_kind *k, const struct uncore_machine *m, unsigned socket,
		   unsigned inst, enum direct_reg_role role, unsigned idx, uint64_t mmio_base,
		   struct uncore_reg *out);
	/* Optional: the bits of a register software may write (else the
	 * fields above).  A kind with it programs controls as planned and
	 * lets the allowlist refuse a bit outside them. */
	uint64_t (*writable)(const struct direct_kind *k, enum direct_reg_role role, unsigned idx);
	/* Optional: reg and writable of n registers of each of nat box
	 * instances in one call (direct_kind_regs: a claim asks for every
	 * register of every box of the kind it claims). */
	int (*regs)(const struct direct_kind *k, const struct uncore_machine *m,
		    const struct direct_box_at *at, unsigned nat, struct direct_box_reg *regs,
		    unsigned n);
	/* Optional: the register writes of planned filter `filter` with
	 * `value` (else one write, to filter register `filter`): how many, or
	 * an error with the detail set. */
	int (*filter_writes)(const struct direct_kind *k, unsigned filter, uint64_t value,
			     struct direct_filter_write out[DIRECT_MAX_FILTER_WRITES]);
};

/* The engine's description of a generation's uncore (the platform
 * object's `direct`, platform/platform.h). */
struct direct_platform {
	const char *title;
	const struct direct_kind *kinds;
	unsigned nkinds;
	/* The socket's global control register and the bits we may write in
	 * it (beyond them the allowlist refuses). */
	uint32_t global_msr;
	uint64_t global_writable;
	/* Its value "counting" (START, READ_THAW) and "held" (PROGRAM, STOP,
	 * READ_FREEZE): the fixed bits, plus the socket's used counters (bit
	 * gbit + k of each programmed counter) masked by used_mask and shifted
	 * left by used_shift - in both values with used_when_held, else only
	 * when counting.  RELEASE writes the counting value when
	 * release_counting (a freeze command must not outlive us), else
	 * nothing. */
	uint64_t counting, held;
	uint64_t used_mask;
	uint8_t used_shift;
	uint8_t used_when_held;
	uint8_t release_counting;
	/* Steps (bit 1 << step) at which the global control is not written:
	 * boxes with their own control freeze themselves there. */
	uint8_t global_skip;
	/* START writes the global control before the boxes' start writes (a
	 * global freeze left by anyone is cleared first, HSX 2.1.2 f), not
	 * after them. */
	uint8_t global_start_first;
};

/* The description of a box kind by event-registry kind name, or NULL. */
const struct direct_kind *direct_kind_find(const struct direct_platform *p, const char *kind);

/* A register of a box kind: the kind's own addressing or the generic one;
 * m (may be NULL) gives the machine's PCI buses. */
int direct_kind_reg(const struct direct_kind *k, const struct uncore_machine *m, unsigned socket,
		    unsigned inst, enum direct_reg_role role, unsigned idx, uint64_t mmio_base,
		    struct uncore_reg *out);

/* The bits of a register of a box kind software may write (the allowlist's
 * mask; a PCI register's dwords are masked by the engine). */
uint64_t direct_kind_writable(const struct direct_kind *k, enum direct_reg_role role, unsigned idx);

/* The n registers role/idx of each of the nat box instances at[], with
 * their writable bits, asked at once: regs holds nat lists of n, end to end
 * (regs[a * n + i] for at[a]), each with its roles and indexes in.  The
 * kind's regs hook (which has no MMIO registers), or direct_kind_reg and
 * direct_kind_writable of each.  0 or the first error. */
int direct_kind_regs(const struct direct_kind *k, const struct uncore_machine *m,
		     const struct direct_box_at *at, unsigned nat, uint64_t mmio_base,
		     struct direct_box_reg *regs, unsigned n);

/* The registers of a box of kind k, in one list for direct_kind_regs: its
 * box control, each counter's control and (with `all`, or when the control
 * is not the counter too) data register, its fixed counters, its filters.
 * At most DIRECT_MAX_BOX_REGS; 0 when they do not fit. */
static inline unsigned direct_kind_box_query(const struct direct_kind *k, struct direct_box_reg *q,
					     int all)
{
	unsigned n = 0, per_counter = all || !k->combined ? 2 : 1;
	if ((k->box_ctl ? 1 : 0) + per_counter * k->ncounters + 2 * k->nfixed + k->nfilters >
	    DIRECT_MAX_BOX_REGS)
		return 0;
	if (k->box_ctl)
		q[n++] = (struct direct_box_reg){.role = DIRECT_REG_BOX_CTL};
	for (unsigned c = 0; c < k->ncounters; c++) {
		q[n++] = (struct direct_box_reg){.role = DIRECT_REG_CTL, .idx = c};
		if (all || !k->combined)
			q[n++] = (struct direct_box_reg){.role = DIRECT_REG_CTR, .idx = c};
	}
	for (unsigned f = 0; f < k->nfixed; f++) {
		q[n++] = (struct direct_box_reg){.role = DIRECT_REG_FIXED_CTL, .idx = f};
		q[n++] = (struct direct_box_reg){.role = DIRECT_REG_FIXED_CTR, .idx = f};
	}
	for (unsigned f = 0; f < k->nfilters; f++)
		q[n++] = (struct direct_box_reg){.role = DIRECT_REG_FILTER, .idx = f};
	return n;
}

/* The engine as a backend for `machine` (platform p), over cfg->io;
 * mmio_base: the base of MMIO counters (Skylake client MCHBAR), 0 none. */
int direct_engine_create(const struct direct_platform *p, const struct uncore_direct_config *cfg,
			 const struct uncore_machine *machine, uint64_t mmio_base,
			 struct uncore_backend **out);

/* The platform descriptions. */
extern const struct direct_platform direct_platform_hswep, direct_platform_skl, direct_platform_nhm,
    direct_platform_x7400;

#endif
