/* The Xeon 7100 / 7400 L3 and caching bus controller EMON for the direct
 * engine (engine.h): eight MSRs, each an event control field (63:32) over
 * a 32-bit count (31:0): CTL0/1 GBSQ, CTL2/3 GSNPQ, CTL4-7 FSB, one set per
 * package (SDM 18.21, seeds 003/004; registers in
 * platform/x7400/x7400_regs.h).  There is no enable bit: "Counting starts
 * after software writes a non-zero value to one or more of the upper 32
 * bits" (18.21.2-18.21.4).  MSR_EMON_L3_GL_CTL (18.21.5) freezes, unfreezes
 * and resets the counters named by its event select: the planned counters
 * are frozen before their controls are written, zeroed by writing the
 * control again with a zero count, and unfrozen with one write.
 *
 * Rate ceiling: 32-bit counters that count at most once per clock of the
 * event logic (18.21.4: "A duration event increments at most once per
 * cycle"); the fastest 7100/7400 part runs at 3.5 GHz, so 4e9/s: a wrap
 * after 1.07 s at the earliest, hence the poller. */
#include "backend/direct/engine.h"

#include "platform/x7400/x7400_regs.h"

#define EMON_KIND                                                                                  \
	.space = UNCORE_SPACE_MSR, .max_instances = 1, .width = X7400_EMON_WIDTH, .combined = 1,   \
	.ctl_writable = X7400_CTR_CTL_MASK, .ctr_writable = X7400_CTR_CTL_COUNT,                   \
	.max_rate = UINT64_C(4000000000)

static const struct direct_kind emon_kinds[] = {
    {.kind = "gbsq",
     .title = "GBSQ event counters (MSR_EMON_L3_CTR_CTL0/1)",
     .section = "SDM 18.21.2",
     EMON_KIND,
     .ncounters = 2,
     .gbit = X7400_EMON_GBSQ_FIRST,
     .ctl_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_GBSQ_FIRST,
     .ctr_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_GBSQ_FIRST},
    {.kind = "gsnpq",
     .title = "GSNPQ event counters (MSR_EMON_L3_CTR_CTL2/3)",
     .section = "SDM 18.21.3",
     EMON_KIND,
     .ncounters = 2,
     .gbit = X7400_EMON_GSNPQ_FIRST,
     .ctl_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_GSNPQ_FIRST,
     .ctr_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_GSNPQ_FIRST},
    {.kind = "fsb",
     .title = "FSB event counters (MSR_EMON_L3_CTR_CTL4-7)",
     .section = "SDM 18.21.4",
     EMON_KIND,
     .ncounters = 4,
     .gbit = X7400_EMON_FSB_FIRST,
     .ctl_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_FSB_FIRST,
     .ctr_base = X7400_MSR_EMON_L3_CTR_CTL0 + X7400_EMON_FSB_FIRST},
};

const struct direct_platform direct_platform_x7400 = {
    .title = "Xeon 7100/7400 EMON",
    .kinds = emon_kinds,
    .nkinds = sizeof(emon_kinds) / sizeof(emon_kinds[0]),
    .global_msr = X7400_MSR_EMON_L3_GL_CTL,
    .global_writable = X7400_GL_CTL_RW,
    /* GL_event_select bit 16 + n names CTLn (the used mask's bit n): the
     * freeze command holds the planned counters, unfreeze lets them count,
     * and unprogram unfreezes them (their controls are 0 by then). */
    .counting = X7400_GL_UNFREEZE_CMD,
    .held = X7400_GL_FREEZE_CMD,
    .used_mask = 0xff,
    .used_shift = X7400_GL_SELECT_SHIFT,
    .used_when_held = 1,
    .release_counting = 1,
};
