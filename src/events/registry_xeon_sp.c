/* The box types of the Xeon Scalable generations whose event tables are
 * generated from Intel's perfmon event data (libpfm4-events/events/perfmon/,
 * tools/gen_perfmon.py): Skylake-SP, Cascade Lake, Ice Lake-SP, Sapphire
 * Rapids, Emerald Rapids, Granite Rapids, Sierra Forest.  These generations
 * are counted through the kernel's uncore PMUs (the perf backend), so a box
 * type here is its control register as the tables' unit masks image it
 * (ucode = UMask << 8 | UMaskExt << 32, tools/gen_perfmon.py) with the name
 * of each field in the kernel's format files, and the kernel PMU family that
 * serves it.  Facts: Intel's event data (the tables), and the kernel's
 * arch/x86/events/intel/uncore_snbep.c (read for facts only): PMU names
 * (skx_uncores, icx_uncores, spr_uncores, gnr_uncores: "cha", "iio", "irp",
 * "m2pcie", "pcu", "ubox", "imc", "m2m", "upi", "m3upi", "mdf", "b2cmi",
 * ...), format fields (event config:0-7, umask config:8-15 with its
 * extensions, edge 18, inv 23, thresh 24-31, the IIO's ch_mask and
 * fc_mask, the Skylake-SP CHA filter fields in config1), fixed counters
 * selected by event 0xff (UNCORE_FIXED_EVENT). */
#include "events/table.h"

#include "events/perfmon/intel_perfmon_tables.h"

#define TABLE(t) .events = (t), .nevents = LIBPFM_ARRAY_SIZE(t)
#define MODS(m)  .mods = (m), .nmods = LIBPFM_ARRAY_SIZE(m)

/* The control register (every box of these generations: Intel's uncore
 * performance monitoring guides of SKX, ICX, SPR; the kernel's formats). */
#define XSP_EV_SEL 0x00000000000000ffULL
#define XSP_UMASK  0x000000000000ff00ULL
#define XSP_EDGE   (1ULL << 18)
#define XSP_EN     (1ULL << 22)
#define XSP_INV    (1ULL << 23)
#define XSP_THRESH 0x00000000ff000000ULL
/* Unit mask extensions (kernel: umask_ext config:8-15,32-43,45-55 of the
 * SKX UPI; umask_ext2 config:8-15,32-57 of the ICX CHA; umask_ext4
 * config:8-15,32-55 of ICX's UPI and SPR's raw boxes; umask_ext5
 * config:8-15,32-63 of the SPR CHA). */
#define XSP_EXT_SKX_UPI 0x00ffefff00000000ULL
#define XSP_EXT_ICX_CHA 0x03ffffff00000000ULL
#define XSP_EXT4        0x00ffffff00000000ULL
#define XSP_EXT_SPR_CHA 0xffffffff00000000ULL

#define XSP_FIELDS(ext) (XSP_EV_SEL | XSP_UMASK | (ext) | XSP_EDGE | XSP_INV | XSP_THRESH)

#define CTL(var, ext)                                                                              \
	static const struct uncore_ctl_layout var = {                                              \
	    .name = "PMON_CTL",                                                                    \
	    .ev_sel = XSP_EV_SEL,                                                                  \
	    .umask = XSP_UMASK | (ext),                                                            \
	    .en = XSP_EN,                                                                          \
	    .writable = XSP_FIELDS(ext),                                                           \
	}
CTL(ctl_u8, 0);
CTL(ctl_skx_upi, XSP_EXT_SKX_UPI);
CTL(ctl_icx_cha, XSP_EXT_ICX_CHA);
CTL(ctl_ext4, XSP_EXT4);
CTL(ctl_spr_cha, XSP_EXT_SPR_CHA);

/* The IIO's channel and function masks (kernel: skx_uncore_iio ch_mask
 * config:36-43, fc_mask config:44-46; snr_uncore_iio, used from ICX on,
 * ch_mask config:36-47, fc_mask config:48-50). */
static const struct uncore_ctl_field skx_iio_fields[] = {
    {.mask = 0x00000ff000000000ULL, .perf = "ch_mask"},
    {.mask = 0x0000700000000000ULL, .perf = "fc_mask"},
};
static const struct uncore_ctl_field icx_iio_fields[] = {
    {.mask = 0x0000fff000000000ULL, .perf = "ch_mask"},
    {.mask = 0x0007000000000000ULL, .perf = "fc_mask"},
};
static const struct uncore_ctl_layout ctl_skx_iio = {
    .name = "PMON_CTL",
    .ev_sel = XSP_EV_SEL,
    .umask = XSP_UMASK,
    .en = XSP_EN,
    .writable = XSP_FIELDS(0) | 0x00007ff000000000ULL,
    .fields = skx_iio_fields,
    .nfields = 2,
};
static const struct uncore_ctl_layout ctl_icx_iio = {
    .name = "PMON_CTL",
    .ev_sel = XSP_EV_SEL,
    .umask = XSP_UMASK,
    .en = XSP_EN,
    .writable = XSP_FIELDS(0) | 0x0007fff000000000ULL,
    .fields = icx_iio_fields,
    .nfields = 2,
};

/* Free-running counters: nothing to program. */
static const struct uncore_ctl_layout ctl_free = {
    .name = "(free-running)",
};

/* Every event of Intel's data allows edge, invert and an 8-bit threshold
 * (the tables' modmsk: _SNBEP_UNC_ATTR_E | _I | _T8). */
static const struct uncore_mod_desc xsp_mods[] = {
    {.name = "e",
     .desc = "edge detect: count 0-to-1 transitions of the (thresholded) event",
     .attr = SNBEP_UNC_ATTR_E,
     .is_bool = 1,
     .reg = UNCORE_REG_CTL,
     .field = XSP_EDGE,
     .max = 1,
     .perf = "edge"},
    {.name = "i",
     .desc = "invert the threshold comparison: count when increment < t",
     .attr = SNBEP_UNC_ATTR_I,
     .is_bool = 1,
     .reg = UNCORE_REG_CTL,
     .field = XSP_INV,
     .max = 1,
     .perf = "inv"},
    {.name = "t",
     .desc = "threshold: count cycles the increment is >= t [0-255]",
     .attr = SNBEP_UNC_ATTR_T8,
     .reg = UNCORE_REG_CTL,
     .field = XSP_THRESH,
     .max = 255,
     .perf = "thresh"},
};

/* Skylake-SP / Cascade Lake CHA filters (Intel's data: "CHAFilter0" and
 * "CHAFilter1" values; the kernel's skx_uncore_cha formats put FILTER0 in
 * config1[31:0], FILTER1 in config1[63:32]: filter_tid config1:0-8,
 * filter_state 17-26; filter_rem 32, filter_loc 33, filter_all_op 35,
 * filter_nm 36, filter_not_nm 37, filter_opc0 41-50, filter_opc1 51-60,
 * filter_nc 62, filter_isoc 63). */
static const uint64_t skx_cha_f0[] = {0x1ffULL, 0x7fe0000ULL, 0};
static const char *const skx_cha_f0_perf[] = {"filter_tid", "filter_state"};
static const uint64_t skx_cha_f1[] = {1ULL << 0,    1ULL << 1,    1ULL << 3,  1ULL << 4,
				      1ULL << 5,    0x7fe00ULL,   0x1ff80000ULL, 1ULL << 30,
				      1ULL << 31,   0};
static const char *const skx_cha_f1_perf[] = {
    "filter_rem",  "filter_loc",  "filter_all_op", "filter_nm",   "filter_not_nm",
    "filter_opc0", "filter_opc1", "filter_nc",     "filter_isoc",
};
static const struct uncore_filter_desc skx_cha_filters[] = {
    {.name = "CHA_MSR_PMON_BOX_FILTER0", .fields = skx_cha_f0, .perf = skx_cha_f0_perf},
    {.name = "CHA_MSR_PMON_BOX_FILTER1", .fields = skx_cha_f1, .perf = skx_cha_f1_perf},
};

/* The CHA events that count only what a filter selects, whatever their
 * unit masks program in it (the kernel's skx_uncore_cha_extra_regs,
 * arch/x86/events/intel/uncore_snbep.c, with skx_cha_filter_mask): the
 * LLC lookups (event 0x34, umasks 0x03 0x05 0x09 0x11 0x31 0x91) on
 * FILTER0's state field; TOR inserts and occupancy (0x35, 0x36) on every
 * FILTER1 field (location, opcodes, nm/not_nm, nc, isoc).  So
 * UNC_CHA_TOR_INSERTS.IA_MISS (FILTER1 0: every opcode) never shares a box
 * with .IA_MISS_DRD (FILTER1 0x40433: demand reads), which would make it
 * count demand reads only. */
#define SKX_CHA_F1_ALL 0xdffffe3bULL /* the fields of skx_cha_f1 */
#define SKX_LOOKUP(um) {0xffff, ((um) << 8) | 0x34, 0, 0x7fe0000ULL}
static const struct uncore_filter_claim skx_cha_claims[] = {
    SKX_LOOKUP(0x03), SKX_LOOKUP(0x05), SKX_LOOKUP(0x09),         SKX_LOOKUP(0x11),
    SKX_LOOKUP(0x31), SKX_LOOKUP(0x91), {0xff, 0x35, 1, SKX_CHA_F1_ALL}, {0xff, 0x36, 1, SKX_CHA_F1_ALL},
};

/* A box type: generation g, Intel's unit k (the table's PMU g_unc_k), its
 * kernel PMU family, the most instances of a socket (a top part), generic
 * counters and its control layout. */
#define BOX_FIELDS(g, k, pmu, n, ngen, ctlv, what)                                                 \
	.name = #g "_unc_" #k, .kind = #k, .desc = what,                                           \
	.manual = "Intel perfmon event data (" #g "), libpfm4-events/events/perfmon", .ninstances = (n), \
	.perf_pmu = (pmu), .ngeneric = (ngen), .counter_width = 48, .ctl = &(ctlv),                \
	TABLE(intel_##g##_unc_##k##_pe), MODS(xsp_mods)

#define BOX(g, k, pmu, n, ngen, ctlv, what)                                                        \
	static const struct uncore_box_type g##_##k = {BOX_FIELDS(g, k, pmu, n, ngen, ctlv, what)}

/* With the fixed counter Intel's data lists (Counter "FIXED": cntmsk bit 32). */
#define BOX_FIXED(g, k, pmu, n, ngen, ctlv, what)                                                  \
	static const struct uncore_box_type g##_##k = {                                            \
	    BOX_FIELDS(g, k, pmu, n, ngen, ctlv, what), .nfixed = 1, .fixed_width = 48,            \
	    .cntmsk_fixed = 1ULL << 32, .flags = UNCORE_BOXF_FIXED_FF}

/* Free-running counters (the tables' cntmsk bit = counter index): listed;
 * the kernel names each counter by an event and umask of its own, which
 * these tables do not carry: no perf PMU serves them here. */
#define BOX_FREE(g, k, nctr, cmask, what)                                                          \
	static const struct uncore_box_type g##_##k = {                                            \
	    .name = #g "_unc_" #k, .kind = #k, .desc = what,                                       \
	    .manual = "Intel perfmon event data (" #g "), libpfm4-events/events/perfmon",          \
	    .ninstances = 16, .nfixed = (nctr), .fixed_width = 36, .cntmsk_fixed = (cmask),        \
	    .ctl = &ctl_free, .flags = UNCORE_BOXF_FREERUN, TABLE(intel_##g##_unc_##k##_pe)}

#define D_CHA    "Caching and Home Agent (LLC slice, snoop filter, home agent), one per core tile"
#define D_IIO    "Integrated IO (PCIe root stack): traffic between IO devices and memory"
#define D_IRP    "IO coherency (IRP) of each IO stack"
#define D_IMC    "Integrated memory controller, one PMU per DDR channel"
#define D_M2M    "Mesh to memory: traffic between the mesh and a memory controller"
#define D_UPI    "UPI link layer: traffic on each socket-to-socket link"
#define D_M3UPI  "Mesh to UPI: the mesh side of the UPI links"
#define D_PCU    "Power control unit: frequency and power-state residencies"
#define D_UBO    "UBox: system configuration, interrupts and locks"
#define D_M2PCIE "Mesh to PCIe: the mesh side of each IO stack"
#define D_MDF    "Mesh die fabric: traffic between dies"
#define D_CXLCM  "CXL cache and memory of a CXL port"
#define D_CXLDP  "CXL data path of a CXL port"
#define D_HBM    "High-bandwidth memory controller and its mesh agent"
#define D_B2CMI  "Mesh to memory (B2CMI): traffic between the mesh and a memory controller"
#define D_B2HOT  "B2HOT: home agent traffic"
#define D_B2UPI  "Mesh to UPI (B2UPI)"
#define D_B2CXL  "Mesh to CXL (B2CXL)"
#define D_CMS    "CHA mesh stop (CMS)"
#define D_FREE   "Free-running counters (not programmable)"

/* Skylake-SP and Cascade Lake (skx_uncores: 28 CHAs, 6 IIO stacks, 6
 * channels, 2 M2Ms, 3 UPI links on a top part). */
#define SKX_GEN(g)                                                                                 \
	static const struct uncore_box_type g##_cha = {                                            \
	    BOX_FIELDS(g, cha, "uncore_cha", 28, 4, ctl_u8, D_CHA), .filters = skx_cha_filters,    \
	    .nfilters = 2, .claims = skx_cha_claims,                                               \
	    .nclaims = sizeof(skx_cha_claims) / sizeof(skx_cha_claims[0])};                        \
	BOX(g, iio, "uncore_iio", 6, 4, ctl_skx_iio, D_IIO);                                       \
	BOX_FIXED(g, imc, "uncore_imc", 6, 4, ctl_u8, D_IMC);                                      \
	BOX(g, irp, "uncore_irp", 6, 2, ctl_u8, D_IRP);                                            \
	BOX(g, m2m, "uncore_m2m", 2, 4, ctl_u8, D_M2M);                                            \
	BOX(g, m3upi, "uncore_m3upi", 3, 3, ctl_u8, D_M3UPI);                                      \
	BOX(g, pcu, "uncore_pcu", 1, 4, ctl_u8, D_PCU);                                            \
	BOX_FIXED(g, ubo, "uncore_ubox", 1, 2, ctl_u8, D_UBO);                                     \
	BOX(g, upi, "uncore_upi", 3, 4, ctl_skx_upi, D_UPI);                                       \
	static const struct uncore_box_type *const g##_boxes[] = {                                 \
	    &g##_cha, &g##_iio, &g##_imc, &g##_irp, &g##_m2m, &g##_m3upi, &g##_pcu, &g##_ubo, &g##_upi}

SKX_GEN(skx);
SKX_GEN(clx);

/* Ice Lake-SP (icx_uncores: 40 CHAs, 6 IIO stacks, 12 channels, 4 M2Ms,
 * 3 UPI links). */
static const struct uncore_box_type icx_cha = {
    BOX_FIELDS(icx, cha, "uncore_cha", 40, 4, ctl_icx_cha, D_CHA)};
BOX(icx, iio, "uncore_iio", 6, 4, ctl_icx_iio, D_IIO);
BOX_FREE(icx, iio_free, 17, 0x1ffffULL, D_FREE " of each IIO stack: IO clock, bandwidth in and out per port");
BOX_FIXED(icx, imc, "uncore_imc", 12, 4, ctl_u8, D_IMC);
BOX_FREE(icx, imc_free, 5, 0x1fULL, D_FREE " of each memory controller");
BOX(icx, irp, "uncore_irp", 6, 2, ctl_u8, D_IRP);
BOX(icx, m2m, "uncore_m2m", 4, 4, ctl_ext4, D_M2M);
BOX(icx, m2pcie, "uncore_m2pcie", 6, 4, ctl_u8, D_M2PCIE);
BOX(icx, m3upi, "uncore_m3upi", 3, 4, ctl_u8, D_M3UPI);
BOX(icx, pcu, "uncore_pcu", 1, 4, ctl_u8, D_PCU);
BOX_FIXED(icx, ubo, "uncore_ubox", 1, 2, ctl_u8, D_UBO);
BOX(icx, upi, "uncore_upi", 3, 4, ctl_ext4, D_UPI);
static const struct uncore_box_type *const icx_boxes[] = {
    &icx_cha, &icx_iio,    &icx_iio_free, &icx_imc, &icx_imc_free, &icx_irp,
    &icx_m2m, &icx_m2pcie, &icx_m3upi,    &icx_pcu, &icx_ubo,      &icx_upi,
};

/* Sapphire Rapids and Emerald Rapids (spr_uncores, from the discovery
 * table: up to 60 / 64 CHAs, 12 IO stacks, 8 channels, 4 M2Ms, 4 UPI links). */
#define SPR_GEN(g, ncha)                                                                           \
	BOX(g, cha, "uncore_cha", ncha, 4, ctl_spr_cha, D_CHA);                                    \
	BOX(g, cxlcm, "uncore_cxlcm", 8, 8, ctl_ext4, D_CXLCM);                                    \
	BOX(g, cxldp, "uncore_cxldp", 8, 4, ctl_ext4, D_CXLDP);                                    \
	BOX(g, iio, "uncore_iio", 16, 4, ctl_icx_iio, D_IIO);                                      \
	BOX_FREE(g, iio_free, 17, 0x1ffffULL, D_FREE " of each IIO stack");                        \
	BOX(g, imc, "uncore_imc", 16, 4, ctl_ext4, D_IMC);                                         \
	BOX(g, irp, "uncore_irp", 16, 2, ctl_ext4, D_IRP);                                         \
	BOX(g, m2hbm, "uncore_m2hbm", 16, 4, ctl_ext4, D_HBM);                                     \
	BOX(g, m2m, "uncore_m2m", 4, 4, ctl_ext4, D_M2M);                                          \
	BOX(g, m2pcie, "uncore_m2pcie", 16, 4, ctl_ext4, D_M2PCIE);                                \
	BOX(g, m3upi, "uncore_m3upi", 4, 4, ctl_ext4, D_M3UPI);                                    \
	BOX(g, mchbm, "uncore_mchbm", 16, 4, ctl_ext4, D_HBM);                                     \
	BOX(g, mdf, "uncore_mdf", 16, 4, ctl_ext4, D_MDF);                                         \
	BOX(g, pcu, "uncore_pcu", 1, 4, ctl_ext4, D_PCU);                                          \
	BOX(g, ubo, "uncore_ubox", 1, 2, ctl_ext4, D_UBO);                                         \
	BOX(g, upi, "uncore_upi", 4, 4, ctl_ext4, D_UPI);                                          \
	static const struct uncore_box_type *const g##_boxes[] = {                                 \
	    &g##_cha,   &g##_cxlcm, &g##_cxldp,  &g##_iio,   &g##_iio_free, &g##_imc,              \
	    &g##_irp,   &g##_m2hbm, &g##_m2m,    &g##_m2pcie, &g##_m3upi,   &g##_mchbm,            \
	    &g##_mdf,   &g##_pcu,   &g##_ubo,    &g##_upi}

SPR_GEN(spr, 60);
SPR_GEN(emr, 64);

/* Granite Rapids and Sierra Forest (gnr_uncores: up to 128 / 144 CHAs, 12
 * channels with a B2CMI each, 6 UPI links). */
#define GNR_GEN(g, ncha)                                                                           \
	BOX(g, b2cmi, "uncore_b2cmi", 16, 4, ctl_ext4, D_B2CMI);                                   \
	BOX(g, b2cxl, "uncore_b2cxl", 16, 4, ctl_ext4, D_B2CXL);                                   \
	BOX(g, b2hot, "uncore_b2hot", 1, 4, ctl_ext4, D_B2HOT);                                    \
	BOX(g, b2upi, "uncore_b2upi", 6, 4, ctl_ext4, D_B2UPI);                                    \
	BOX(g, cha, "uncore_cha", ncha, 4, ctl_spr_cha, D_CHA);                                    \
	BOX(g, chacms, "uncore_chacms", ncha, 4, ctl_ext4, D_CMS);                                 \
	BOX(g, cxlcm, "uncore_cxlcm", 8, 8, ctl_ext4, D_CXLCM);                                    \
	BOX(g, cxldp, "uncore_cxldp", 8, 4, ctl_ext4, D_CXLDP);                                    \
	BOX(g, iio, "uncore_iio", 16, 4, ctl_icx_iio, D_IIO);                                      \
	BOX(g, imc, "uncore_imc", 16, 4, ctl_ext4, D_IMC);                                         \
	BOX(g, irp, "uncore_irp", 16, 4, ctl_ext4, D_IRP);                                         \
	BOX(g, mdf, "uncore_mdf_sbo", 16, 4, ctl_ext4, D_MDF);                                     \
	BOX(g, pcu, "uncore_pcu", 1, 4, ctl_ext4, D_PCU);                                          \
	BOX(g, ubo, "uncore_ubox", 1, 2, ctl_ext4, D_UBO);                                         \
	BOX(g, upi, "uncore_upi", 6, 4, ctl_ext4, D_UPI);                                          \
	static const struct uncore_box_type *const g##_boxes[] = {                                 \
	    &g##_b2cmi, &g##_b2cxl,  &g##_b2hot, &g##_b2upi, &g##_cha, &g##_chacms, &g##_cxlcm,    \
	    &g##_cxldp, &g##_iio,    &g##_imc,   &g##_irp,   &g##_mdf, &g##_pcu,    &g##_ubo,      \
	    &g##_upi}

GNR_GEN(gnr, 128);
GNR_GEN(srf, 144);

#define EVENT_PLATFORM(g)                                                                          \
	extern const struct uncore_platform uncore_platform_##g;                                   \
	const struct uncore_event_platform uncore_events_##g = {                                   \
	    .platform = &uncore_platform_##g,                                                      \
	    .name = #g,                                                                            \
	    .boxes = g##_boxes,                                                                    \
	    .nboxes = LIBPFM_ARRAY_SIZE(g##_boxes),                                                \
	    .from_intel_perfmon = 1,                                                               \
	}

EVENT_PLATFORM(skx);
EVENT_PLATFORM(clx);
EVENT_PLATFORM(icx);
EVENT_PLATFORM(spr);
EVENT_PLATFORM(emr);
EVENT_PLATFORM(gnr);
EVENT_PLATFORM(srf);
