/* Emerald Rapids (06_CFH; the kernel runs spr_uncore_init on it), as one
 * object: counted through the kernel's uncore PMUs (the perf backend),
 * tables generated from Intel's perfmon data (events/registry_xeon_sp.c),
 * presets from Intel's metric formulas (platform/xeon_sp.h). */
#include "platform/xeon_sp.h"

static const unsigned models[] = {0xcf, 0};

static const struct uncore_preset_def presets[] = {XSP_PRESETS_1SCH(emr)};

XSP_PLATFORM(emr, UNCORE_PLATFORM_EMR, "5th gen Intel Xeon Scalable (Emerald Rapids)", models, "emr", 0, 0);
