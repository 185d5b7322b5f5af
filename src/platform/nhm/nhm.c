/* Nehalem (Core i7 / Xeon 5500) as one object: identification (SDM Vol. 4
 * table 2-1: 06_1AH, 06_1EH, 06_1FH; 06_2EH is Nehalem-EX, a different
 * uncore, not this one) and its parts in each layer: an uncore of MSRs
 * only (SDM 18.8.2). */
#include "platform/platform.h"

extern const struct uncore_event_platform uncore_events_nhm; /* events/registry_nhm.c */
extern const struct uncore_msr_table uncore_nhm_msr_table;   /* nhm_msr_ranges.c */
extern const struct direct_platform direct_platform_nhm;     /* backend/direct/desc_nhm.c */
int uncore_direct_open_msr(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out);

static const unsigned models[] = {0x1a, 0x1e, 0x1f, 0};

const struct uncore_platform uncore_platform_nhm = {
    .id = UNCORE_PLATFORM_NHM,
    .name = "nhm",
    .title = "Intel Core i7 / Xeon 5500 (Nehalem)",
    .family = 6,
    .models = models,
    .events = &uncore_events_nhm,
    .msr_table = &uncore_nhm_msr_table,
    .access = UNCORE_ACCESS_MSR,
    .direct = &direct_platform_nhm,
    .direct_open = uncore_direct_open_msr,
    .sim_model = "x5570-2s",
};
