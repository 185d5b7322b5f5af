/* Granite Rapids (06_ADH, 06_AEH); two command schedulers per memory
 * channel, as one object: counted through the kernel's uncore PMUs (the perf
 * backend), tables generated from Intel's perfmon data
 * (events/registry_xeon_sp.c), presets from Intel's metric formulas
 * (platform/xeon_sp.h). */
#include "platform/xeon_sp.h"

static const unsigned models[] = {0xad, 0xae, 0};

static const struct uncore_preset_def presets[] = {XSP_PRESETS_2SCH(gnr)};

XSP_PLATFORM(gnr, UNCORE_PLATFORM_GNR, "Intel Xeon 6 P-core (Granite Rapids)", models, "gnr", 0, 0);
