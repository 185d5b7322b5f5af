/* Kaby Lake, Coffee Lake and Comet Lake client (7th to 10th generation
 * Core) as a cousin of Skylake client: the same uncore PMU, which the Linux
 * kernel drives with the Skylake client code (arch/x86/events/intel/
 * uncore.c: KABYLAKE_L, KABYLAKE, COMETLAKE_L and COMETLAKE match
 * skl_uncore_init).  Coffee Lake reports Kaby Lake's models (SDM Vol. 4
 * table 2-1: 06_8EH, 06_9EH; Comet Lake 06_A5H, 06_A6H).  Skylake client's
 * parts (platform/skl/skl.h) under this identification; its PMU names stay
 * Skylake client's (skl_unc_*), as libpfm4 and the kernel name them. */
#include "platform/skl/skl.h"

static const unsigned models[] = {0x8e, 0x9e, 0xa5, 0xa6, 0};

const struct uncore_platform uncore_platform_kbl = {
    .id = UNCORE_PLATFORM_SKL,
    .name = "kbl",
    .title = "7th-10th generation Intel Core (Kaby Lake, Coffee Lake, Comet Lake client)",
    .family = 6,
    .models = models,
    UNCORE_SKL_CLIENT_PARTS,
    .sim_model = "i7-7700k",
};
