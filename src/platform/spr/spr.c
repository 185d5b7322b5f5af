/* Sapphire Rapids (06_8FH), as one object: counted through the kernel's
 * uncore PMUs (the perf backend), tables generated from Intel's perfmon data
 * (events/registry_xeon_sp.c), presets from Intel's metric formulas
 * (platform/xeon_sp.h). */
#include "platform/xeon_sp.h"

static const unsigned models[] = {0x8f, 0};

static const struct uncore_preset_def presets[] = {XSP_PRESETS_1SCH(spr)};

XSP_PLATFORM(spr, UNCORE_PLATFORM_SPR, "4th gen Intel Xeon Scalable (Sapphire Rapids)", models, "spr", 0, 0);
