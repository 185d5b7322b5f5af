/* Cascade Lake (06_55H from stepping 5: Intel's perfmon mapfile.csv lists
 * GenuineIntel-6-55-[56789ABCDEF] for CLX); the kernel drives it as Skylake-
 * SP (skx_uncores), so the skx simulated kernel stands for it, as one
 * object: counted through the kernel's uncore PMUs (the perf backend),
 * tables generated from Intel's perfmon data (events/registry_xeon_sp.c),
 * presets from Intel's metric formulas (platform/xeon_sp.h). */
#include "platform/xeon_sp.h"

static const unsigned models[] = {0x55, 0};

static const struct uncore_preset_def presets[] = {XSP_PRESETS_1SCH(clx)};

XSP_PLATFORM(clx, UNCORE_PLATFORM_CLX, "2nd gen Intel Xeon Scalable (Cascade Lake)", models, "skx", 5, 15);
