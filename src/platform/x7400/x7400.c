/* Xeon 7400 (Dunnington, 06_1DH) and Xeon 7100 (Tulsa, NetBurst family 0xF
 * model 6), SDM Vol. 3B 18.21: the same L3/FSB EMON registers, each with
 * its own event tables.  MSRs only. */
#include "platform/platform.h"

extern const struct uncore_event_platform uncore_events_x7400, uncore_events_x7100;
extern const struct uncore_msr_table uncore_x7400_msr_table, uncore_x7100_msr_table;
extern const struct direct_platform direct_platform_x7400; /* backend/direct/desc_x7400.c */
int uncore_direct_open_msr(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out);

static const unsigned x7400_models[] = {0x1d, 0};
static const unsigned x7100_models[] = {0x06, 0};

const struct uncore_platform uncore_platform_x7400 = {
    .id = UNCORE_PLATFORM_X7400,
    .name = "x7400",
    .title = "Intel Xeon 7400 (Dunnington)",
    .family = 6,
    .models = x7400_models,
    .events = &uncore_events_x7400,
    .msr_table = &uncore_x7400_msr_table,
    .access = UNCORE_ACCESS_MSR,
    .direct = &direct_platform_x7400,
    .direct_open = uncore_direct_open_msr,
    .sim_model = "x7460-4s",
};

const struct uncore_platform uncore_platform_x7100 = {
    .id = UNCORE_PLATFORM_X7400,
    .name = "x7100",
    .title = "Intel Xeon 7100 (Tulsa)",
    .family = 0xf,
    .models = x7100_models,
    .events = &uncore_events_x7100,
    .msr_table = &uncore_x7100_msr_table,
    .access = UNCORE_ACCESS_MSR,
    .direct = &direct_platform_x7400,
    .direct_open = uncore_direct_open_msr,
    .sim_model = "x7140m-4s",
};
