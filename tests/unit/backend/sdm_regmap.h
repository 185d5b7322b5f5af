/* The uncore MSRs of Nehalem, Xeon 7100/7400 and Skylake client, typed
 * here from the manuals, independently of src/platform/ (whose tables the
 * allowlist and the engine descriptions are made from): each register's
 * address, role, counter index and the bits the manual lets software
 * write.  The Haswell-EP counterpart is tests/integration/papi/support/
 * hsx_regmap.c and tests/unit/platform/hswep_manual_tables.h.
 *
 * Sources:
 *   Nehalem: Intel SDM Vol. 3B 18.8.2 (Figures 18-29 to 18-33: global
 *     control, status, overflow control, PerfEvtSel, fixed control; PMCs
 *     and the fixed counter 48 bits) and the Nehalem performance analysis
 *     guide (seed 002: MSR 396h, table 37; MSR 301h, table 28, one bit per
 *     state transition, 01h to 80h);
 *   Xeon 7100/7400: SDM 18.21 (seed 004, 30.14.1: eight CTR_CTL MSRs at
 *     107CCh-107D3h, count 31:0, event control 63:32; seed 003: the event
 *     masks end at bit 58, saturate bit 59) and 18.21.5 "Common Event
 *     Control Interface": MSR_EMON_L3_GL_CTL (107D8h) freeze bit 0,
 *     unfreeze bit 1, reset bit 2, GL_event_select 23:16 (bit 16 + n is
 *     CTR_CTLn), GL_event_status 55:48 (status, read);
 *   Skylake client: seed 001, Table 2-1 (addresses) and Tables 2-2 to 2-8
 *     (RW fields).  Table 2-3 prints CBO_CTR_OVF at bit "31" under
 *     "Reserved 63:4": bit 3 (31 is a misread; bit 2 is reserved). */
#ifndef UNCORE_TEST_SDM_REGMAP_H
#define UNCORE_TEST_SDM_REGMAP_H

#include <stddef.h>
#include <stdint.h>

#define B(n)     (UINT64_C(1) << (n))
#define F(hi, lo) (((UINT64_C(1) << ((hi) - (lo) + 1)) - 1) << (lo))

enum sdm_role {
	SDM_GLOBAL,    /* the socket's global control */
	SDM_STATUS,    /* status (read, or write-1-to-clear) */
	SDM_OVF,       /* overflow control */
	SDM_CTL,       /* event select of counter `index` */
	SDM_CTR,       /* counter `index` */
	SDM_CTR_CTL,   /* combined control and counter `index` (Xeon 7100/7400) */
	SDM_FIXED_CTL, /* the fixed counter's control */
	SDM_FIXED_CTR, /* the fixed counter */
	SDM_FILTER,    /* filter / match register `index` */
	SDM_CONFIG,    /* read-only configuration */
};

struct sdm_reg {
	uint32_t msr;
	const char *unit; /* the box: "unc", "cbo0".."cbo3", "arb", "emon" */
	enum sdm_role role;
	unsigned index;
	uint64_t writable; /* RW (or RW1C / WO) bits; 0: read-only */
	const char *name;
};

/* clang-format off */
static const struct sdm_reg sdm_nhm[] = {
	{0x391, "unc", SDM_GLOBAL, 0, F(7, 0) | B(32) | F(51, 48) | B(63), "MSR_UNCORE_PERF_GLOBAL_CTRL"},
	{0x392, "unc", SDM_STATUS, 0, 0, "MSR_UNCORE_PERF_GLOBAL_STATUS"},
	{0x393, "unc", SDM_OVF, 0, F(7, 0) | B(32) | B(61) | B(63), "MSR_UNCORE_PERF_GLOBAL_OVF_CTRL"},
	{0x394, "unc", SDM_FIXED_CTR, 0, F(47, 0), "MSR_UNCORE_FIXED_CTR0"},
	{0x395, "unc", SDM_FIXED_CTL, 0, B(0) | B(2), "MSR_UNCORE_FIXED_CTR_CTRL"},
	{0x396, "unc", SDM_FILTER, 0, F(39, 3) | F(47, 40) | F(63, 61), "MSR_UNCORE_ADDR_OPCODE_MATCH"},
	{0x301, "unc", SDM_FILTER, 1, F(7, 0), "MSR 301h (GQ snoop MESF)"},
#define NHM_PMC(n) {0x3b0 + (n), "unc", SDM_CTR, (n), F(47, 0), "MSR_UNCORE_PMC" #n}
#define NHM_SEL(n) {0x3c0 + (n), "unc", SDM_CTL, (n), \
		    F(7, 0) | F(15, 8) | B(17) | B(18) | B(20) | B(22) | B(23) | F(31, 24), \
		    "MSR_UNCORE_PERFEVTSEL" #n}
	NHM_PMC(0), NHM_PMC(1), NHM_PMC(2), NHM_PMC(3), NHM_PMC(4), NHM_PMC(5), NHM_PMC(6), NHM_PMC(7),
	NHM_SEL(0), NHM_SEL(1), NHM_SEL(2), NHM_SEL(3), NHM_SEL(4), NHM_SEL(5), NHM_SEL(6), NHM_SEL(7),
#undef NHM_PMC
#undef NHM_SEL
};

/* The same registers on the 7100 and the 7400. */
static const struct sdm_reg sdm_x7400[] = {
#define EMON(n) {0x107cc + (n), "emon", SDM_CTR_CTL, (n), F(31, 0) | F(58, 32) | B(59), "MSR_EMON_L3_CTR_CTL" #n}
	EMON(0), EMON(1), EMON(2), EMON(3), EMON(4), EMON(5), EMON(6), EMON(7),
#undef EMON
	{0x107d8, "emon", SDM_GLOBAL, 0, B(0) | B(1) | B(2) | F(23, 16), "MSR_EMON_L3_GL_CTL"},
};

static const struct sdm_reg sdm_skl[] = {
	/* Bit 4 is "reserved" in Table 2-2, but every Linux Skylake writes it
	 * (EN | bits 4:0): the one device fact where the kernel wins,
	 * src/platform/skl/HARDWARE-DECISIONS.md S1. */
	{0xe01, "unc", SDM_GLOBAL, 0, F(4, 0) | B(29) | B(30) | B(31), "MSR_UNC_PERF_GLOBAL_CTRL"},
	{0xe02, "unc", SDM_STATUS, 0, B(0) | B(1) | B(3), "MSR_UNC_PERF_GLOBAL_STATUS"},
	{0x394, "clock", SDM_FIXED_CTL, 0, B(20) | B(22), "MSR_UNC_PERF_FIXED_CTRL"},
	{0x395, "clock", SDM_FIXED_CTR, 0, F(47, 0), "MSR_UNC_PERF_FIXED_CTR"},
	{0x396, "unc", SDM_CONFIG, 0, 0, "MSR_UNC_CBO_CONFIG"},
#define SKL_SEL F(7, 0) | F(15, 8) | B(18) | B(20) | B(22) | B(23) | F(28, 24)
	{0x3b0, "arb", SDM_CTR, 0, F(43, 0), "MSR_UNC_ARB_PERFCTR0"},
	{0x3b1, "arb", SDM_CTR, 1, F(43, 0), "MSR_UNC_ARB_PERFCTR1"},
	{0x3b2, "arb", SDM_CTL, 0, SKL_SEL, "MSR_UNC_ARB_PERFEVTSEL0"},
	{0x3b3, "arb", SDM_CTL, 1, SKL_SEL, "MSR_UNC_ARB_PERFEVTSEL1"},
#define SKL_CBO(c) \
	{0x700 + 0x10 * (c), "cbo" #c, SDM_CTL, 0, SKL_SEL, "MSR_UNC_CBO_" #c "_PERFEVTSEL0"}, \
	{0x701 + 0x10 * (c), "cbo" #c, SDM_CTL, 1, SKL_SEL, "MSR_UNC_CBO_" #c "_PERFEVTSEL1"}, \
	{0x706 + 0x10 * (c), "cbo" #c, SDM_CTR, 0, F(43, 0), "MSR_UNC_CBO_" #c "_PERFCTR0"}, \
	{0x707 + 0x10 * (c), "cbo" #c, SDM_CTR, 1, F(43, 0), "MSR_UNC_CBO_" #c "_PERFCTR1"}
	SKL_CBO(0), SKL_CBO(1), SKL_CBO(2), SKL_CBO(3),
#undef SKL_CBO
#undef SKL_SEL
};
/* clang-format on */

#undef B
#undef F

#endif
