/* Ice Lake-SP (06_6AH, 06_6CH), as one object: counted through the kernel's
 * uncore PMUs (the perf backend), tables generated from Intel's perfmon data
 * (events/registry_xeon_sp.c), presets from Intel's metric formulas
 * (platform/xeon_sp.h). */
#include "platform/xeon_sp.h"

static const unsigned models[] = {0x6a, 0x6c, 0};

static const struct uncore_preset_def presets[] = {XSP_PRESETS_1SCH(icx)};

XSP_PLATFORM(icx, UNCORE_PLATFORM_ICX, "3rd gen Intel Xeon Scalable (Ice Lake-SP)", models, "icx", 0, 0);
