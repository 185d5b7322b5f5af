/* Register descriptions of the simulator's flat PMUs (sim_flat.h): where
 * each unit's controls and counters are, which bits are writable, and what
 * the counters count.  Addresses and fields come from the platform headers,
 * which cite the manuals: platform/skl/skl_regs.h (seed 001),
 * platform/nhm/nhm_regs.h (SDM 18.8.2, seed 002), platform/x7400/x7400_regs.h
 * (SDM 18.21, seeds 003/004).  Data only. */
#include "sim/sim_flat.h"

#include "access/regio.h"
#include "platform/nhm/nhm_regs.h"
#include "platform/skl/skl_regs.h"
#include "platform/x7400/x7400_regs.h"

#define N(a) ((uint8_t)(sizeof(a) / sizeof((a)[0])))

/* Skylake client (seed 001). */

static const char *const skl_imc_names[] = {
    "DRAM_GT_REQUESTS", "DRAM_IA_REQUESTS", "DRAM_IO_REQUESTS",
    "DRAM_DATA_READS",  "DRAM_DATA_WRITES",
};
/* Table 3-3, in the order of skl_imc_names. */
static const uint32_t skl_imc_offsets[] = {
    SKL_IMC_DRAM_GT_REQUESTS, SKL_IMC_DRAM_IA_REQUESTS, SKL_IMC_DRAM_IO_REQUESTS,
    SKL_IMC_DRAM_DATA_READS,  SKL_IMC_DRAM_DATA_WRITES,
};

#define SKL_EVSEL_FIELDS                                                                           \
	.input = SIM_FLAT_EVSEL, .space = UNCORE_SPACE_MSR, .counters = SKL_UNC_COUNTERS_PER_UNIT, \
	.width = SKL_UNC_PERFCTR_WIDTH, .ctl_rw = SKL_UNC_PERFEVTSEL_RW,                           \
	.ctl_en = SKL_UNC_PERFEVTSEL_EN, .ctl_ovf = SKL_UNC_PERFEVTSEL_OVF_EN,                     \
	.ctr_rw = SKL_UNC_PERFCTR_CTR_VAL, .ev = SKL_UNC_PERFEVTSEL_EVT_SEL,                       \
	.umask = SKL_UNC_PERFEVTSEL_UMASK, .edge = SKL_UNC_PERFEVTSEL_E,                           \
	.inv = SKL_UNC_PERFEVTSEL_INV, .thresh = SKL_UNC_PERFEVTSEL_THR

static const struct sim_flat_unit skl_units[] = {
    {.name = "cbo",
     .section = "SKL 2.4, Table 2-1",
     SKL_EVSEL_FIELDS,
     .max_instances = SKL_UNC_CBO_MAX,
     .ctl_base = SKL_MSR_UNC_CBO_0_PERFEVTSEL0,
     .ctr_base = SKL_MSR_UNC_CBO_0_PERFCTR0,
     .stride = SKL_UNC_CBO_MSR_STRIDE,
     .status_bit = 3,
     /* The pessimistic reading of GLOBAL_CTRL 3:0 (MODEL.md, Flat PMUs):
      * a slice counts only with its bit set, as the kernel's 0x2000001f
      * and LIKWID's bit per CBo have it; EN alone counts no CBo. */
     .slice_gate = 1},
    {.name = "arb",
     .section = "SKL 2.4, Table 2-1",
     SKL_EVSEL_FIELDS,
     .max_instances = 1,
     .ctl_base = SKL_MSR_UNC_ARB_PERFEVTSEL0,
     .ctr_base = SKL_MSR_UNC_ARB_PERFCTR0,
     .status_bit = 1},
    {.name = "clock",
     .section = "SKL 2.3, Tables 2-4, 2-5",
     .input = SIM_FLAT_CLOCK,
     .space = UNCORE_SPACE_MSR,
     .max_instances = 1,
     .counters = 1,
     .width = SKL_UNC_FIXED_CTR_WIDTH,
     .ctl_base = SKL_MSR_UNC_PERF_FIXED_CTRL,
     .ctr_base = SKL_MSR_UNC_PERF_FIXED_CTR,
     .ctl_rw = SKL_UNC_FIXED_CTRL_CNT_EN | SKL_UNC_FIXED_CTRL_OVF_EN,
     .ctl_en = SKL_UNC_FIXED_CTRL_CNT_EN,
     .ctl_ovf = SKL_UNC_FIXED_CTRL_OVF_EN,
     .ctr_rw = SKL_UNC_FIXED_CTR_CTR_VAL,
     .status_bit = 0},
    {.name = "imc",
     .section = "SKL 3.3, Table 3-3",
     .input = SIM_FLAT_FREE,
     .space = UNCORE_SPACE_MMIO,
     .max_instances = 1,
     .counters = SKL_IMC_COUNTERS,
     .width = SKL_IMC_COUNTER_WIDTH,
     .free_names = skl_imc_names,
     .mmio_offsets = skl_imc_offsets},
};

static const struct sim_flat_reg skl_regs[] = {
    /* Table 2-6: read-only; "subtract one" (2.4.1): the CBos plus one. */
    {.name = "MSR_UNC_CBO_CONFIG",
     .addr = SKL_MSR_UNC_CBO_CONFIG,
     .kind = SIM_FLAT_REG_RO,
     .count_of = 0},
};

const struct sim_flat_desc sim_flat_skl = {
    .platform = "skl",
    .title = "Skylake client uncore (SKL)",
    .global = SIM_FLAT_GLOBAL_SKL,
    .global_ctl = SKL_MSR_UNC_PERF_GLOBAL_CTRL,
    /* Bit 4 is reserved in Table 2-2, yet Linux writes it on every
     * Skylake (skl_regs.h): the hardware takes it. */
    .global_rw = SKL_UNC_GLOBAL_CTRL_KERNEL | SKL_UNC_GLOBAL_CTRL_WAKE_ON_PMI |
		 SKL_UNC_GLOBAL_CTRL_FRZ_ON_PMI,
    .global_en = SKL_UNC_GLOBAL_CTRL_EN,
    .global_frz = SKL_UNC_GLOBAL_CTRL_FRZ_ON_PMI,
    .global_status = SKL_MSR_UNC_PERF_GLOBAL_STATUS,
    .status_rw = SKL_UNC_GLOBAL_STATUS_FIXED_CTR_OVF | SKL_UNC_GLOBAL_STATUS_ARB_CTR_OVF |
		 SKL_UNC_GLOBAL_STATUS_CBO_CTR_OVF,
    .units = skl_units,
    .nunits = N(skl_units),
    .regs = skl_regs,
    .nregs = N(skl_regs),
    /* Core i7-6700K host bridge 8086:191F (PCI ID of the 4-core S part). */
    .host_bridge_id = 0x191f8086u,
    .mchbar_offset = 0x48u,
};

/* Nehalem (SDM 18.8.2, seed 002). */

static const struct sim_flat_unit nhm_units[] = {
    {.name = "unc",
     .section = "SDM 18.8.2 (MSR_UNCORE_PERFEVTSELx, MSR_UNCORE_PMCx)",
     .input = SIM_FLAT_EVSEL,
     .space = UNCORE_SPACE_MSR,
     .max_instances = 1,
     .counters = NHM_UNCORE_COUNTERS,
     .width = NHM_UNCORE_WIDTH,
     .gidx = 0,
     .ctl_base = NHM_MSR_UNCORE_PERFEVTSEL0,
     .ctr_base = NHM_MSR_UNCORE_PMC0,
     .ctl_rw = NHM_EVTSEL_RW,
     .ctl_en = NHM_EVTSEL_EN,
     .ctl_action = NHM_EVTSEL_OCC_CTR_RST,
     .ctl_ovf = NHM_EVTSEL_PMI,
     .ctr_rw = NHM_CTR_VAL,
     .ev = NHM_EVTSEL_EVENT,
     .umask = NHM_EVTSEL_UMASK,
     .edge = NHM_EVTSEL_EDGE,
     .inv = NHM_EVTSEL_INV,
     .thresh = NHM_EVTSEL_CMASK},
    {.name = "fixed",
     .section = "SDM 18.8.2 (MSR_UNCORE_FIXED_CTR0, _CTR_CTRL)",
     .input = SIM_FLAT_CLOCK,
     .space = UNCORE_SPACE_MSR,
     .max_instances = 1,
     .counters = 1,
     .width = NHM_UNCORE_WIDTH,
     .gidx = 32,
     .ctl_base = NHM_MSR_UNCORE_FIXED_CTR_CTRL,
     .ctr_base = NHM_MSR_UNCORE_FIXED_CTR0,
     .ctl_rw = NHM_FIXED_CTRL_RW,
     .ctl_en = NHM_FIXED_CTRL_EN,
     .ctl_ovf = NHM_FIXED_CTRL_PMI,
     .ctr_rw = NHM_CTR_VAL},
};

static const struct sim_flat_reg nhm_regs[] = {
    {.name = "MSR_UNCORE_ADDR_OPCODE_MATCH",
     .addr = NHM_MSR_UNCORE_ADDR_OPCODE_MATCH,
     .rw = NHM_MATCH_RW,
     .count_of = -1},
    {.name = "MSR 301h (GQ snoop MESF)",
     .addr = NHM_MSR_UNCORE_GQ_SNOOP_MESF,
     .rw = NHM_GQ_SNOOP_MESF_RW,
     .count_of = -1},
};

const struct sim_flat_desc sim_flat_nhm = {
    .platform = "nhm",
    .title = "Nehalem uncore PMU (SDM 18.8.2)",
    .global = SIM_FLAT_GLOBAL_NHM,
    .global_ctl = NHM_MSR_UNCORE_PERF_GLOBAL_CTRL,
    .global_rw = NHM_GLOBAL_CTRL_RW,
    .global_frz = NHM_GLOBAL_CTRL_PMI_FRZ,
    .global_status = NHM_MSR_UNCORE_PERF_GLOBAL_STATUS,
    .ovf_ctrl = NHM_MSR_UNCORE_PERF_GLOBAL_OVF_CTRL,
    .ovf_ctrl_rw = NHM_GLOBAL_OVF_CTRL_RW,
    .units = nhm_units,
    .nunits = N(nhm_units),
    .regs = nhm_regs,
    .nregs = N(nhm_regs),
};

/* Xeon 7100 / 7400 EMON (SDM 18.21, seeds 003/004). */

static const struct sim_flat_field gbsq_fields[] = {
    {.mask = X7400_GBSQ_AGENT},
    {.mask = X7400_GBSQ_FLOW},
    {.mask = X7400_GBSQ_TYPE},
    {.mask = X7400_GBSQ_SNOOP},
    {.mask = X7400_GBSQ_L3_STATE},
    {.mask = X7400_GBSQ_CORE_MOD, .kind = SIM_FLAT_FIELD_ZERO_ANY},
    {.mask = X7400_GBSQ_FILL_EVICT, .kind = SIM_FLAT_FIELD_ZERO_ANY},
    {.mask = X7400_GBSQ_CROSS, .kind = SIM_FLAT_FIELD_ZERO_ANY},
};
static const struct sim_flat_field gsnpq_fields[] = {
    {.mask = X7400_GSNPQ_AGENT},
    {.mask = X7400_GSNPQ_TYPE},
    {.mask = X7400_GSNPQ_SNOOP},
    {.mask = X7400_GSNPQ_L2_STATE},
    {.mask = X7400_GSNPQ_CORE_MOD, .enable = X7400_GSNPQ_CORE_EN, .kind = SIM_FLAT_FIELD_ZERO_ANY},
    {.mask = X7400_GSNPQ_BLOCK, .kind = SIM_FLAT_FIELD_ZERO_ANY},
};
static const struct sim_flat_field fsb_fields[] = {
    {.mask = X7400_FSB_SUBMASK},
};

#define EMON_UNIT                                                                                  \
	.input = SIM_FLAT_ATTRS, .space = UNCORE_SPACE_MSR, .max_instances = 1,                    \
	.width = X7400_EMON_WIDTH, .combined = 1, .ctl_rw = X7400_CTR_CTL_RW,                      \
	.ctr_rw = X7400_CTR_CTL_COUNT

static const struct sim_flat_unit emon_units[] = {
    {.name = "gbsq",
     .section = "SDM 18.21.2 (MSR_EMON_L3_CTR_CTL0/1)",
     EMON_UNIT,
     .counters = 2,
     .gidx = X7400_EMON_GBSQ_FIRST,
     .clock = 0,
     .ctl_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_GBSQ_FIRST,
     .ctr_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_GBSQ_FIRST,
     .fields = gbsq_fields,
     .nfields = N(gbsq_fields)},
    {.name = "gsnpq",
     .section = "SDM 18.21.3 (MSR_EMON_L3_CTR_CTL2/3)",
     EMON_UNIT,
     .counters = 2,
     .gidx = X7400_EMON_GSNPQ_FIRST,
     .clock = 0,
     .ctl_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_GSNPQ_FIRST,
     .ctr_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_GSNPQ_FIRST,
     .fields = gsnpq_fields,
     .nfields = N(gsnpq_fields)},
    {.name = "fsb",
     .section = "SDM 18.21.4 (MSR_EMON_L3_CTR_CTL4-7)",
     EMON_UNIT,
     .counters = 4,
     .gidx = X7400_EMON_FSB_FIRST,
     .clock = 1,
     .ctl_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_FSB_FIRST,
     .ctr_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_FSB_FIRST,
     .ctl_must1 = X7400_CTR_CTL_FSB_MUST1,
     .fields = fsb_fields,
     .nfields = N(fsb_fields),
     .any_field = 1},
};

#define EMON_DESC(plat, ttl)                                                                       \
	{                                                                                          \
		.platform = plat, .title = ttl, .global = SIM_FLAT_GLOBAL_EMON,                    \
		.global_ctl = X7400_MSR_EMON_L3_GL_CTL, .global_rw = X7400_GL_CTL_RW,              \
		.units = emon_units, .nunits = N(emon_units),                                      \
	}

const struct sim_flat_desc sim_flat_x7400 = EMON_DESC("x7400", "Xeon 7400 L3/FSB EMON (SDM 18.21)");
const struct sim_flat_desc sim_flat_x7100 = EMON_DESC("x7100", "Xeon 7100 L3/FSB EMON (SDM 18.21)");
