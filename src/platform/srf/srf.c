/* Sierra Forest (06_AFH); two command schedulers per memory channel, as
 * Granite Rapids, as one object: counted through the kernel's uncore PMUs
 * (the perf backend), tables generated from Intel's perfmon data
 * (events/registry_xeon_sp.c), presets from Intel's metric formulas
 * (platform/xeon_sp.h). */
#include "platform/xeon_sp.h"

static const unsigned models[] = {0xaf, 0};

static const struct uncore_preset_def presets[] = {XSP_PRESETS_2SCH(srf)};

XSP_PLATFORM(srf, UNCORE_PLATFORM_SRF, "Intel Xeon 6 E-core (Sierra Forest)", models, "srf", 0, 0);
