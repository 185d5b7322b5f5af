/* The simulator's "flat" PMU family: uncores whose counters are a handful of
 * MSRs (and MMIO registers) behind one global control, with no boxes to
 * freeze one by one: Skylake client (seed 001), Nehalem (SDM 18.8.2, seed
 * 002) and Xeon 7100/7400 (SDM 18.21, seeds 003/004).  A model of this
 * family points at one static description (sim_flat_desc.c); the register
 * semantics and counting are in sim_flat.c.  Behaviour and decisions:
 * MODEL.md, "Flat PMUs". */
#ifndef UNCORE_SIM_FLAT_H
#define UNCORE_SIM_FLAT_H

#include <stdint.h>

#define SIM_FLAT_MAX_UNITS  6
#define SIM_FLAT_MAX_INSTS  4
#define SIM_FLAT_MAX_CTRS   8
#define SIM_FLAT_MAX_EXTRAS 4

/* What a unit's counters count. */
enum sim_flat_input {
	SIM_FLAT_EVSEL = 0, /* streams selected by ev= and umask= (PERFEVTSEL layout) */
	SIM_FLAT_ATTRS,     /* streams whose match= attributes the event mask matches (EMON) */
	SIM_FLAT_CLOCK,     /* one per cycle of the unit's clock (fixed UCLK counters) */
	SIM_FLAT_FREE,      /* free-running registers fed by `free` statements (client IMC) */
};

/* How the global control gates and reports (one per platform). */
enum sim_flat_global {
	SIM_FLAT_GLOBAL_SKL = 0, /* one EN bit for every counter; W1C status per unit (SKL 2.2) */
	SIM_FLAT_GLOBAL_NHM,     /* an enable bit per counter; RO status, WO clear (SDM 18.8.2) */
	SIM_FLAT_GLOBAL_EMON, /* freeze/unfreeze/reset commands over a counter select (18.21.5) */
};

/* One field of an EMON event mask (images of the control field). */
enum sim_flat_field_kind {
	SIM_FLAT_FIELD_ANY_BIT = 0, /* matches when mask and occurrence share a bit */
	SIM_FLAT_FIELD_ZERO_ANY,    /* 0 in the mask matches anything, else equal */
};
struct sim_flat_field {
	uint32_t mask;
	uint32_t enable; /* ZERO_ANY: bit that enables the comparison (0: the field itself) */
	uint8_t kind;
};

struct sim_flat_unit {
	const char *name;    /* scenario box name: "cbo", "gbsq" */
	const char *section; /* where the manual specifies it */
	uint8_t input;       /* enum sim_flat_input */
	uint8_t space;       /* UNCORE_SPACE_MSR or UNCORE_SPACE_MMIO */
	uint8_t max_instances;
	uint8_t counters;
	uint8_t width;
	uint8_t clock;      /* index into the model's clock_hz */
	uint8_t combined;   /* EMON: control (63:32) and count (31:0) in one MSR */
	uint8_t gidx;       /* global bit index of counter 0 (enable, status, select) */
	uint8_t status_bit; /* SKL: the unit's GLOBAL_STATUS bit */
	uint8_t slice_gate; /* SKL CBo: instance i counts only while global bit i is set */
	uint32_t ctl_base, ctr_base, stride; /* counter k of instance i: base + stride*i + k */
	uint64_t ctl_rw;     /* writable control bits (a reserved bit faults, #GP) */
	uint64_t ctl_en;     /* local enable (0: a non-zero control field counts) */
	uint64_t ctl_must1;  /* bits a non-zero control must set (FSB bit 58) */
	uint64_t ctl_action; /* bits that act and read back 0 (NHM OCC_CTR_RST) */
	uint64_t ctl_ovf;    /* overflow indication enable (SKL OVF_EN, NHM PMI) */
	uint64_t ctr_rw;
	/* PERFEVTSEL fields (SIM_FLAT_EVSEL). */
	uint64_t ev, umask, edge, inv, thresh;
	/* EMON event-mask fields (SIM_FLAT_ATTRS). */
	const struct sim_flat_field *fields;
	uint8_t nfields;
	uint8_t any_field; /* 1: one matching field suffices (FSB), 0: all must match */
	/* SIM_FLAT_FREE: register names (scenario `free`) and MMIO offsets from the BAR. */
	const char *const *free_names;
	const uint32_t *mmio_offsets;
};

/* Other registers: read-only identification, match registers. */
enum sim_flat_reg_kind { SIM_FLAT_REG_RW = 0, SIM_FLAT_REG_RO };
struct sim_flat_reg {
	const char *name;
	uint32_t addr;
	uint8_t kind;
	uint64_t rw;     /* writable bits */
	int8_t count_of; /* reset value = instances of unit count_of + 1 (SKL CBO_CONFIG), or -1 */
	uint64_t reset;
};

struct sim_flat_desc {
	const char *platform; /* platform/cpu.h name: "skl", "nhm", "x7400" */
	const char *title;
	uint8_t global; /* enum sim_flat_global */
	uint32_t global_ctl;
	uint64_t global_rw;
	uint64_t global_en;     /* SKL: the EN bit */
	uint64_t global_frz;    /* SKL FRZ_ON_PMI / NHM PMI_FRZ */
	uint32_t global_status; /* 0: none (EMON reports in GL_CTL) */
	uint64_t status_rw;     /* SKL: W1C bits */
	uint32_t ovf_ctrl;      /* NHM: write-1-to-clear register, else 0 */
	uint64_t ovf_ctrl_rw;
	const struct sim_flat_unit *units;
	uint8_t nunits;
	const struct sim_flat_reg *regs;
	uint8_t nregs;
	/* Client host bridge (PCI 0:0.0) with MCHBAR at mchbar_offset. */
	uint32_t host_bridge_id; /* vendor | device << 16, 0: no PCI */
	uint32_t mchbar_offset;
};

extern const struct sim_flat_desc sim_flat_skl, sim_flat_nhm, sim_flat_x7400, sim_flat_x7100;

/* Per-socket state, in the shared machine. */
struct sim_flat_socket {
	uint64_t global_ctl;
	uint64_t global_status;
	uint32_t frozen; /* EMON: bit gidx+k frozen by GL_freeze_cmd */
	uint64_t t_ps;
	uint64_t ctl[SIM_FLAT_MAX_UNITS][SIM_FLAT_MAX_INSTS][SIM_FLAT_MAX_CTRS];
	uint64_t ctr[SIM_FLAT_MAX_UNITS][SIM_FLAT_MAX_INSTS][SIM_FLAT_MAX_CTRS];
	uint8_t edge_prev[SIM_FLAT_MAX_UNITS][SIM_FLAT_MAX_INSTS];
	uint64_t reg[SIM_FLAT_MAX_EXTRAS];
};

#endif
