/* Simulated machine models: real Haswell-EP/EX SKUs with their box counts,
 * per-socket uncore bus numbers and node IDs, clock frequencies, and the
 * BIOS-hidden or unpopulated devices a real board can have.  Data only. */
#ifndef UNCORE_SIM_MODELS_H
#define UNCORE_SIM_MODELS_H

#include <stddef.h>
#include <stdint.h>

#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"
#include "sim/sim_flat.h"
#include "sim/uncore_sim.h"

/* A PCI function hidden on every socket (BIOS option or fused off). */
struct sim_hidden_fn {
	uint8_t dev;
	uint8_t fn;
};

struct sim_model {
	struct uncore_sim_model_info info;
	uint8_t cores;
	uint8_t bus[HSWEP_MAX_PACKAGES];      /* uncore bus of each socket */
	uint8_t root_bus[HSWEP_MAX_PACKAGES]; /* its root bus (IRP at D5:F6): the next
					       * uncore bus above it is the socket's own */
	uint8_t node_id[HSWEP_MAX_PACKAGES]; /* node ID of each socket (CPUNODEID) */
	uint32_t present[HSWEP_BOX_KINDS];   /* instance masks */
	uint32_t populated_imc;              /* channels with DIMMs (others: "phantom") */
	uint8_t n_hidden;
	const struct sim_hidden_fn *hidden;
	uint64_t clock_hz[HSWEP_CLOCKS];
	uint8_t qpi_rate; /* QPI_RATE_STATUS.qpi_rate (Table 2-177) */
	uint8_t chop;     /* PCU CAPID4.chop (D30:F3 0x94 bits 7:6): 0 = 6-8 core die, 2 SBos */
	/* Flat-PMU models (Skylake client, Nehalem, Xeon 7100/7400): their
	 * register description; present[] then holds instance masks per unit
	 * of the description and clock_hz[] the units' clocks.  NULL: a
	 * Haswell-EP model. */
	const struct sim_flat_desc *flat;
	uint64_t mchbar; /* client IMC: MCHBAR base (SKL 3.3), 0 none */
};

size_t sim_model_count(void);
const struct sim_model *sim_model_at(size_t i);
const struct sim_model *sim_model_by_name(const char *name);
/* Whether PCI function dev.fn is hidden on this model. */
int sim_model_hidden(const struct sim_model *m, unsigned dev, unsigned fn);

#endif
