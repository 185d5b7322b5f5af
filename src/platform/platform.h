/* The platform object: one `struct uncore_platform` per uncore generation
 * (src/platform/<gen>/<gen>.c), never modified at run time, read by every
 * layer so that no layer outside src/platform/ asks which processor it is on
 * (tests/integration/test_no_platform_tests.sh greps for it).  It holds the
 * generation's identification, what the direct backend must open, and each
 * layer's part of the generation: its box types and event tables (events),
 * its MSR allowlist table, its presets, the direct engine's discovery.  A
 * layer's part is defined in that layer; the platform points at it by a
 * declaration of an incomplete type, so no include goes up a layer. */
#ifndef UNCORE_PLATFORM_PLATFORM_H
#define UNCORE_PLATFORM_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

struct uncore_event_platform;  /* events/registry.h */
struct uncore_msr_table;       /* platform/msr_ranges.h */
struct uncore_direct_config;   /* backend/direct/direct.h */
struct uncore_backend;         /* backend/backend.h */
struct direct_platform;        /* backend/direct/engine.h */
struct uncore_regio;           /* access/regio.h */

enum uncore_platform_id {
	UNCORE_PLATFORM_NONE = 0,
	UNCORE_PLATFORM_HSWEP,  /* Xeon E5/E7 v3 (Haswell-EP/EX) */
	UNCORE_PLATFORM_SKL,    /* 6th generation Core (Skylake client) */
	UNCORE_PLATFORM_NHM,    /* Core i7 / Xeon 5500 (Nehalem) */
	UNCORE_PLATFORM_X7400,  /* Xeon 7100 / 7400 L3 (Tulsa / Dunnington) */
	/* Counted through the kernel's PMUs only, tables from Intel's data: */
	UNCORE_PLATFORM_SKX,    /* Xeon Scalable (Skylake-SP) */
	UNCORE_PLATFORM_CLX,    /* 2nd gen Xeon Scalable (Cascade Lake) */
	UNCORE_PLATFORM_ICX,    /* 3rd gen Xeon Scalable (Ice Lake-SP) */
	UNCORE_PLATFORM_SPR,    /* 4th gen Xeon Scalable (Sapphire Rapids) */
	UNCORE_PLATFORM_EMR,    /* 5th gen Xeon Scalable (Emerald Rapids) */
	UNCORE_PLATFORM_GNR,    /* Xeon 6 P-core (Granite Rapids) */
	UNCORE_PLATFORM_SRF,    /* Xeon 6 E-core (Sierra Forest) */
};

/* What the direct backend opens on real hardware (access/). */
#define UNCORE_ACCESS_MSR      0x1 /* MSRs, behind the platform's MSR table */
#define UNCORE_ACCESS_PCI      0x2 /* PCI configuration space: needed */
#define UNCORE_ACCESS_PCI_MMIO 0x4 /* PCI only to find an MMIO window (Skylake client MCHBAR):
				    * without it the MMIO boxes are absent, the rest counts */

#define UNCORE_PRESET_MAX_EVENTS 2

/* One uncore preset (PAPI_UNC_*) of a generation: its formula over the
 * generation's native events, cited to its manual (presets/presets.h). */
struct uncore_preset_def {
	const char *symbol;      /* "PAPI_UNC_DRAM_RD_BYTES" */
	const char *short_descr; /* a label */
	const char *long_descr;  /* a sentence, citing the manual */
	const char *postfix; /* PAPI postfix formula over N0.., or NULL: the one event's count */
	const char *events[UNCORE_PRESET_MAX_EVENTS]; /* NULL after the last */
};

/* What the first-machine checklist (scripts/first-machine.sh, through
 * `uncore-sim platform`) counts and tries on a machine of a generation, so
 * that the script names no generation.  A cousin's kit holds what differs
 * from its description's; a field it leaves NULL (0) is the description's
 * (utils/uncore-sim resolves both).  An event is a name as uncore-stat takes it,
 * or a preset's symbol ("PAPI_UNC_CLOCKTICKS:socket=0"): that preset's
 * event in the generation's own tables, so a cousin inherits it. */
enum uncore_kit_flag { UNCORE_KIT_INHERIT = 0, UNCORE_KIT_YES, UNCORE_KIT_NO };
struct uncore_platform_kit {
	const char *sim_scenario; /* the simulator scenario of the counting steps */
	const char *uclk;         /* the uncore clock of socket 0 ("" none) */
	const char *dclk;         /* a DRAM clock (one channel, socket 0; "" none) */
	const char *dram_reads;   /* the DRAM read event the streaming loop is counted by */
	const char *box_events;   /* one event per box kind, blank-separated: "boxes present" */
	const char *backends;     /* the backends that count it: "perf direct", "direct", "perf" */
	const char *perf_dram_reads; /* the kernel's name of dram_reads for perf stat ("" none) */
	const char *facts; /* the register experiments it has (first-machine.sh), words */
	/* Its uncore PCI functions, "DEVICE-ID:what" blank-separated (the
	 * description's IDs: a cousin's are mapped through its pci_ids). */
	const char *pci_functions;
	unsigned dclk_mhz_max;    /* the highest DRAM clock its memory runs at */
	/* Whether the simulated kernel (PAPI_INTEL_UNCORE_SIM_KERNEL=perf)
	 * models its PMUs on its simulator model. */
	enum uncore_kit_flag sim_perf;
};

/* A kit that states the checklist's every string and sim_perf (a
 * generation that is its own description), in this order; more fields
 * (pci_functions, dclk_mhz_max) may follow it. */
#define UNCORE_KIT(scenario, backends_, sim_perf_, uclk_, dclk_, dram, perf_dram, boxes, facts_) \
	.sim_scenario = scenario, .backends = backends_, .sim_perf = sim_perf_, .uclk = uclk_,    \
	.dclk = dclk_, .dram_reads = dram, .perf_dram_reads = perf_dram, .box_events = boxes,      \
	.facts = facts_

struct uncore_platform {
	enum uncore_platform_id id;
	const char *name;       /* "hswep": the prefix of its PMU names */
	const char *title;      /* "Intel Xeon E5/E7 v3 (Haswell-EP)" */
	unsigned family;        /* CPUID display family */
	const unsigned *models; /* display models, 0-terminated */
	/* Identification beyond family and model (platform/cpu.c): needs_l3,
	 * only a part with a level-3 cache (CPUID leaf 4, else 2) is this
	 * generation; not_models (0-terminated, or NULL), models of this family
	 * that look like it and are not; not_why, the clause that "No supported
	 * uncore" adds for either ("; ..."), from its HARDWARE-DECISIONS.md. */
	unsigned needs_l3;
	const unsigned *not_models;
	const char *not_why;
	/* Steppings it covers (Cascade Lake is Skylake-SP's model from
	 * stepping 5); both 0: every stepping. */
	unsigned stepping_min, stepping_max;
	/* Its box types and event tables (events/registry_<gen>.c). */
	const struct uncore_event_platform *events;
	/* Its uncore MSRs and their writable bits: the allowlist (msr_ranges.h). */
	const struct uncore_msr_table *msr_table;
	/* What the direct backend opens (UNCORE_ACCESS_*) and its discovery
	 * of a machine of this generation behind cfg->io, the engine's
	 * description of its boxes (backend/direct/);
	 * NULL: the direct backend does not program this generation. */
	unsigned access;
	const struct direct_platform *direct;
	int (*direct_open)(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out);
	/* UNCORE_ACCESS_PCI_MMIO: where the MMIO counters are, found through
	 * PCI configuration space: 0 with base and size, or an error. */
	int (*mmio_window)(struct uncore_regio *pci, uint64_t *base, uint64_t *size);
	/* Its presets, each formula cited to the manual; none: 0. */
	const struct uncore_preset_def *presets;
	unsigned npresets;
	/* A cousin of a generation whose boxes sit in PCI configuration space
	 * (Broadwell-EP of Haswell-EP): the PCI device IDs of its functions
	 * that differ from its description's, as pairs {described, its own},
	 * ending with {0, 0}; NULL: the description's IDs are its own. */
	const uint16_t (*pci_ids)[2];
	/* The simulator model that stands for it (uncore-sim models). */
	const char *sim_model;
	/* The simulated kernel that stands for it (simkernel/shape_kernel.h:
	 * "spr"), for a generation counted through the kernel only; or NULL. */
	const char *sim_kernel;
	/* The first-machine checklist's facts of it; a cousin's: what differs. */
	const struct uncore_platform_kit *kit;
};

/* The generations (one data file each, src/platform/<gen>/<gen>.c). */
extern const struct uncore_platform uncore_platform_hswep, uncore_platform_skl,
    uncore_platform_nhm, uncore_platform_x7400, uncore_platform_x7100;
extern const struct uncore_platform uncore_platform_skx, uncore_platform_clx, uncore_platform_icx,
    uncore_platform_spr, uncore_platform_emr, uncore_platform_gnr, uncore_platform_srf;

/* Every generation, in a fixed order (listings); NULL past the end. */
const struct uncore_platform *uncore_platform_at(unsigned i);

/* The generation called `name` ("hswep"), or NULL. */
const struct uncore_platform *uncore_platform_by_name(const char *name);

/* The generation whose description `p` takes: the first listed with p's
 * id (a cousin's: wsm -> nhm, kbl -> skl, bdx -> hswep, x7100 -> x7400);
 * p itself otherwise. */
const struct uncore_platform *uncore_platform_description(const struct uncore_platform *p);

/* All generations, for listings and error messages. */
const struct uncore_platform *const *uncore_platforms(size_t *count);

/* The PCI device ID that platform `p` has where its description says
 * `described` (uncore_platform.pci_ids); `described` when p is NULL or
 * lists none. */
uint16_t uncore_pci_device_id(const struct uncore_platform *p, uint16_t described);

/* Whether the simulated kernel (PAPI_INTEL_UNCORE_SIM_KERNEL=perf) models
 * p's PMUs: its kit's sim_perf, a cousin's from its description's kit
 * unless it says otherwise. */
int uncore_platform_sim_perf(const struct uncore_platform *p);

/* "hswep (6/0x3f), skl (6/0x4e,0x5e), ..." for messages. */
int uncore_platforms_describe(char *buf, size_t len);

#endif
