/* Skylake-SP (SDM Vol. 4 table 2-1: 06_55H, steppings 0-4; later steppings
 * are Cascade Lake, clx/clx.c), as one object: counted through the kernel's
 * uncore PMUs (the perf backend), tables generated from Intel's perfmon data
 * (events/registry_xeon_sp.c), presets from Intel's metric formulas
 * (platform/xeon_sp.h). */
#include "platform/xeon_sp.h"

static const unsigned models[] = {0x55, 0};

static const struct uncore_preset_def presets[] = {XSP_PRESETS_1SCH(skx)};

XSP_PLATFORM(skx, UNCORE_PLATFORM_SKX, "Intel Xeon Scalable (Skylake-SP)", models, "skx", 0, 4);
