/* Skylake client uncore box descriptors (see skl_boxes.h).  Addresses and
 * fields: 6th Generation Intel Core Uncore PMU Reference Manual (seed 001,
 * "SKL"), Tables 1-2, 2-1 to 2-8 and 3-3.
 *
 * Rate ceilings (max_rate), which the manual does not give; they are design
 * bounds chosen to be safe, not measurements:
 *  - IMC: each count is one request / 64-byte transfer summed over channels
 *    (Table 3-3).  The fastest memory the S-platform parts support is two
 *    DDR4-2133 channels, 34.1 GB/s (Intel ARK, "Max Memory Bandwidth", e.g.
 *    Core i7-6700K), i.e. 533 million 64-byte transfers per second.  We
 *    allow twice that and more, 1.1e9/s (overclocked DDR4 to ~4300 MT/s;
 *    request counters that count partial writes one by one): a 32-bit
 *    counter then wraps after 2^32 / 1.1e9 = 3.9 s at the earliest.
 *  - CBo / ARB: events tick with UCLK; occupancy events add the number of
 *    valid tracker entries each cycle.  Bound: 64 per cycle at 5 GHz,
 *    3.2e11/s: a 44-bit counter wraps after 55 s at the earliest.
 *  - Fixed counter: one per UCLK cycle, at most 5 GHz: 48 bits last 15.6 h. */
#include "platform/skl/skl_boxes.h"

#include "common/uncore_error.h"
#include "platform/skl/skl_regs.h"
#include "platform/skl_mchbar.h"

#include <inttypes.h>
#include <string.h>

/* SKL Table 3-3, in the order of the event table's counter bits 32..36
 * (DRAM_GT_REQUESTS .. DRAM_DATA_WRITES, libpfm4-events/README.client.md). */
static const uint16_t skl_imc_offsets[SKL_IMC_COUNTERS] = {
    SKL_IMC_DRAM_GT_REQUESTS, SKL_IMC_DRAM_IA_REQUESTS, SKL_IMC_DRAM_IO_REQUESTS,
    SKL_IMC_DRAM_DATA_READS,  SKL_IMC_DRAM_DATA_WRITES,
};

static const struct skl_box_desc skl_boxes[SKL_BOX_KINDS] = {
    [SKL_BOX_CBO] =
	{
	    .name = "cbo",
	    .title = "C-Box (LLC slice)",
	    .section = "SKL 2.4",
	    .kind = SKL_BOX_CBO,
	    .space = UNCORE_SPACE_MSR,
	    .max_instances = SKL_UNC_CBO_MAX,
	    .ncounters = SKL_UNC_COUNTERS_PER_UNIT,
	    .width = SKL_UNC_PERFCTR_WIDTH,
	    .ctl_base = SKL_MSR_UNC_CBO_0_PERFEVTSEL0,
	    .ctr_base = SKL_MSR_UNC_CBO_0_PERFCTR0,
	    .stride = SKL_UNC_CBO_MSR_STRIDE,
	    .ctl_writable = SKL_UNC_PERFEVTSEL_RW,
	    .ctl_enable = SKL_UNC_PERFEVTSEL_EN,
	    .ctr_writable = SKL_UNC_PERFCTR_CTR_VAL,
	    .max_rate = UINT64_C(320000000000),
	},
    [SKL_BOX_ARB] =
	{
	    .name = "arb",
	    .title = "ARB (arbitration unit)",
	    .section = "SKL 2.4",
	    .kind = SKL_BOX_ARB,
	    .space = UNCORE_SPACE_MSR,
	    .max_instances = 1,
	    .ncounters = SKL_UNC_COUNTERS_PER_UNIT,
	    .width = SKL_UNC_PERFCTR_WIDTH,
	    .ctl_base = SKL_MSR_UNC_ARB_PERFEVTSEL0,
	    .ctr_base = SKL_MSR_UNC_ARB_PERFCTR0,
	    .ctl_writable = SKL_UNC_PERFEVTSEL_RW,
	    .ctl_enable = SKL_UNC_PERFEVTSEL_EN,
	    .ctr_writable = SKL_UNC_PERFCTR_CTR_VAL,
	    .max_rate = UINT64_C(320000000000),
	},
    [SKL_BOX_CLOCK] =
	{
	    .name = "clock",
	    .title = "fixed UCLK counter",
	    .section = "SKL 2.3",
	    .kind = SKL_BOX_CLOCK,
	    .space = UNCORE_SPACE_MSR,
	    .max_instances = 1,
	    .ncounters = 1,
	    .width = SKL_UNC_FIXED_CTR_WIDTH,
	    .ctl_base = SKL_MSR_UNC_PERF_FIXED_CTRL,
	    .ctr_base = SKL_MSR_UNC_PERF_FIXED_CTR,
	    .ctl_writable = SKL_UNC_FIXED_CTRL_CNT_EN | SKL_UNC_FIXED_CTRL_OVF_EN,
	    .ctl_enable = SKL_UNC_FIXED_CTRL_CNT_EN,
	    .ctr_writable = SKL_UNC_FIXED_CTR_CTR_VAL,
	    .max_rate = UINT64_C(5000000000),
	},
    [SKL_BOX_IMC] =
	{
	    .name = "imc",
	    .title = "IMC free-running request counters",
	    .section = "SKL 3.3",
	    .kind = SKL_BOX_IMC,
	    .space = UNCORE_SPACE_MMIO,
	    .max_instances = 1,
	    .ncounters = SKL_IMC_COUNTERS,
	    .width = SKL_IMC_COUNTER_WIDTH,
	    .freerun = 1,
	    .mmio_offsets = skl_imc_offsets,
	    .max_rate = UINT64_C(1100000000),
	},
};

const struct skl_box_desc *skl_box(enum skl_box_kind kind)
{
	return (unsigned)kind < SKL_BOX_KINDS ? &skl_boxes[kind] : NULL;
}

const struct skl_box_desc *skl_box_by_name(const char *name)
{
	for (unsigned k = 0; name && k < SKL_BOX_KINDS; k++)
		if (strcmp(skl_boxes[k].name, name) == 0)
			return &skl_boxes[k];
	return NULL;
}

int skl_reg(const struct skl_box_desc *d, unsigned inst, enum skl_reg_kind kind, unsigned k,
	    uint64_t mchbar, struct uncore_reg *out)
{
	if (!d || !out || (kind != SKL_REG_CTL && kind != SKL_REG_CTR))
		return uncore_fail(UNCORE_EINVAL, "skl_reg: no box or register kind");
	if (inst >= d->max_instances || k >= d->ncounters)
		return uncore_fail(UNCORE_ERANGE,
				   "%s: instance %u counter %u does not exist (%u instances of %u "
				   "counters)",
				   d->title, inst, k, d->max_instances, d->ncounters);
	memset(out, 0, sizeof(*out));
	out->space = d->space;
	out->socket = 0; /* client parts: one package */
	if (d->space == UNCORE_SPACE_MMIO) {
		if (kind == SKL_REG_CTL)
			return uncore_fail(UNCORE_EINVAL,
					   "%s: free-running counters have no control register",
					   d->title);
		if (mchbar == 0 || (mchbar & ~SKL_MCHBAR_MASK))
			return uncore_fail(UNCORE_ENODEV,
					   "%s: no valid MCHBAR (0x%" PRIx64 ") to address them",
					   d->title, mchbar);
		out->width = 4; /* Table 1-2: 32-bit counters, one dword load */
		out->addr = mchbar + d->mmio_offsets[k];
		return 0;
	}
	out->width = 8;
	out->addr =
	    (kind == SKL_REG_CTL ? d->ctl_base : d->ctr_base) + (uint64_t)d->stride * inst + k;
	return 0;
}

uint64_t skl_wrap_ns(const struct skl_box_desc *d)
{
	/* 2^width * 1e9 overflows 64 bits for width 48: do it in 128. */
	unsigned __int128 n = ((unsigned __int128)1 << d->width) * 1000000000u;
	return (uint64_t)(n / (d->max_rate ? d->max_rate : 1));
}
