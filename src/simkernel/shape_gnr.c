/* Granite Rapids and Sierra Forest (Sierra Forest runs gnr_uncore_init: the
 * same types) as the Linux uncore driver publishes them, read (not copied)
 * from arch/x86/events/intel/uncore_snbep.c and uncore_discovery.c, and the
 * same driver before two later fixes (the "old kernel" shape):
 *
 * gnr_uncores, from the discovery table: cha (spr_uncore_chabox), iio
 * (spr_uncore_iio: snr_uncore_iio_format_group), irp, imc, upi, cxlcm,
 * cxldp, b2cmi, b2cxl, b2upi, pciex16, pciex8 (the SPR raw format group,
 * umask_ext4 config:8-15,32-55), pcu, ubox, b2hot, mdf_sbo (no format group:
 * uncore_discovery.c's generic five files).  The IMC aliases of
 * gnr_uncore_imc: two command schedulers per channel,
 * cas_count_read_sch0 event=0x05,umask=0xcf, cas_count_read_sch1
 * event=0x06,umask=0xcf, cas_count_write_sch0 event=0x05,umask=0xf0,
 * cas_count_write_sch1 event=0x06,umask=0xf0, each 6.103515625e-5 MiB (commit
 * "perf/x86/intel/uncore: Add per-scheduler IMC CAS count events", lore
 * 20260210005225.20311-1-zide.chen@intel.com, which also removed
 * cas_count_read/cas_count_write there).
 *
 * The old kernel ("gnr-old"): the first Granite Rapids support ("perf/x86/
 * intel/uncore: Support Granite Rapids", UNCORE_GNR_NUM_UNCORE_TYPES 21)
 * ignored the UPI and B2UPI types (gnr_uncore_units_ignore) and published
 * cha, iio, irp, pcu, ubox, imc, b2cmi, b2cxl, mdf_sbo only, the IMC with
 * spr_uncore_imc's aliases: cas_count_read event=0x05,umask=0xcf and
 * cas_count_write event=0x05,umask=0xf0, which count command scheduler 0
 * only, about half of the traffic, with no error (the bug the per-scheduler
 * commit fixed; UPI, B2UPI, B2HOT, CXL and PCIe types came with "Add more
 * uncore types for Granite Rapids").
 *
 * Instance counts (the discovery table's, the SKU's): a Xeon 6980P (128
 * cores, a CHA each; 12 DDR5/MRDIMM channels, an IMC and a B2CMI each; 6 UPI
 * links with a B2UPI each; 12 IIO stacks with an IRP each) and a Xeon 6780E
 * (144 cores, a CHA each; 8 channels; 4 UPI links; 12 IIO stacks), two
 * sockets each. */
#include "simkernel/shape_formats.h"

/* clang-format off */
static const struct shape_alias gnr_imc_events[] = {
	{"clockticks", "event=0x01,umask=0x00", NULL, NULL},
	{"cas_count_read_sch0", "event=0x05,umask=0xcf", "6.103515625e-5", "MiB"},
	{"cas_count_read_sch1", "event=0x06,umask=0xcf", "6.103515625e-5", "MiB"},
	{"cas_count_write_sch0", "event=0x05,umask=0xf0", "6.103515625e-5", "MiB"},
	{"cas_count_write_sch1", "event=0x06,umask=0xf0", "6.103515625e-5", "MiB"},
};

/* spr_uncore_imc_events, as the old kernel gave Granite Rapids. */
static const struct shape_alias gnr_old_imc_events[] = {
	{"clockticks", "event=0x01,umask=0x00", NULL, NULL},
	{"cas_count_read", "event=0x05,umask=0xcf", "6.103515625e-5", "MiB"},
	{"cas_count_write", "event=0x05,umask=0xf0", "6.103515625e-5", "MiB"},
};

static const struct shape_alias gnr_iio_free_events[] = {
	{"ioclk", "event=0xff,umask=0x10", NULL, NULL},
	{"bw_in_port0", "event=0xff,umask=0x20", "3.814697266e-6", "MiB"},
	{"bw_in_port1", "event=0xff,umask=0x21", "3.814697266e-6", "MiB"},
	{"bw_in_port2", "event=0xff,umask=0x22", "3.814697266e-6", "MiB"},
	{"bw_in_port3", "event=0xff,umask=0x23", "3.814697266e-6", "MiB"},
	{"bw_in_port4", "event=0xff,umask=0x24", "3.814697266e-6", "MiB"},
	{"bw_in_port5", "event=0xff,umask=0x25", "3.814697266e-6", "MiB"},
	{"bw_in_port6", "event=0xff,umask=0x26", "3.814697266e-6", "MiB"},
	{"bw_in_port7", "event=0xff,umask=0x27", "3.814697266e-6", "MiB"},
	{"bw_out_port0", "event=0xff,umask=0x30", "3.814697266e-6", "MiB"},
	{"bw_out_port1", "event=0xff,umask=0x31", "3.814697266e-6", "MiB"},
	{"bw_out_port2", "event=0xff,umask=0x32", "3.814697266e-6", "MiB"},
	{"bw_out_port3", "event=0xff,umask=0x33", "3.814697266e-6", "MiB"},
	{"bw_out_port4", "event=0xff,umask=0x34", "3.814697266e-6", "MiB"},
	{"bw_out_port5", "event=0xff,umask=0x35", "3.814697266e-6", "MiB"},
	{"bw_out_port6", "event=0xff,umask=0x36", "3.814697266e-6", "MiB"},
	{"bw_out_port7", "event=0xff,umask=0x37", "3.814697266e-6", "MiB"},
};

#define GNR_COMMON(ncha, nch)                                                                      \
	{"uncore_cha", ncha, SHAPE_FMT(fmt_spr_cha), NULL, 0},                                     \
	{"uncore_iio", 12, SHAPE_FMT(fmt_snr_iio), NULL, 0},                                       \
	{"uncore_irp", 12, SHAPE_FMT(fmt_umask_ext4), NULL, 0},                                    \
	{"uncore_pcu", 1, SHAPE_FMT(fmt_snbep), NULL, 0},                                          \
	{"uncore_ubox", 1, SHAPE_FMT(fmt_snbep), NULL, 0},                                         \
	{"uncore_b2cmi", nch, SHAPE_FMT(fmt_umask_ext4), NULL, 0},                                 \
	{"uncore_mdf_sbo", 4, SHAPE_FMT(fmt_snbep), NULL, 0},                                      \
	{"uncore_iio_free_running", 12, SHAPE_FMT(fmt_free), SHAPE_FMT(gnr_iio_free_events)}

static const struct shape_box gnr_boxes[] = {
	GNR_COMMON(128, 12),
	{"uncore_imc", 12, SHAPE_FMT(fmt_umask_ext4), SHAPE_FMT(gnr_imc_events)},
	{"uncore_upi", 6, SHAPE_FMT(fmt_umask_ext4), NULL, 0},
	{"uncore_b2upi", 6, SHAPE_FMT(fmt_umask_ext4), NULL, 0},
	{"uncore_b2hot", 1, SHAPE_FMT(fmt_snbep), NULL, 0},
};

static const struct shape_box gnr_old_boxes[] = {
	GNR_COMMON(128, 12),
	{"uncore_imc", 12, SHAPE_FMT(fmt_umask_ext4), SHAPE_FMT(gnr_old_imc_events)},
};

static const struct shape_box srf_boxes[] = {
	GNR_COMMON(144, 8),
	{"uncore_imc", 8, SHAPE_FMT(fmt_umask_ext4), SHAPE_FMT(gnr_imc_events)},
	{"uncore_upi", 4, SHAPE_FMT(fmt_umask_ext4), NULL, 0},
	{"uncore_b2upi", 4, SHAPE_FMT(fmt_umask_ext4), NULL, 0},
	{"uncore_b2hot", 1, SHAPE_FMT(fmt_snbep), NULL, 0},
};

/* Scenario (all three): channel i of socket s, scheduler 0 reads 10 M CAS/s
 * x (i+1) x (s+1), scheduler 1 reads 6 M, writes 4 M and 2 M (socket 0 of
 * the 6980P: 16 M x 78 = 1.248 G reads/s = 79.872 GB/s); CHA j of socket s
 * misses the LLC on 1 M demand data reads and 3 M requests a second
 * x (j+1) x (s+1), 150 M occupancy on the DRD misses; IO reads (PCIRDCUR)
 * 500 k, full-line IO writes 250 k; UPI link l sends 60 M data flits,
 * receives 45 M; IIO stack p reads 2 M, writes 1 M four-byte words of all
 * parts; clocks uniform: DCLK 3.2 GHz (DDR5-6400), CHA 2 GHz, UPI 2 GHz,
 * PCU 1 GHz, B2CMI 2 GHz. */
static const struct shape_rate gnr_rates[] = {
	{"uncore_imc", 0xcf05, 10000000, 0, "UNC_M_CAS_COUNT_SCH0.RD", 0},
	{"uncore_imc", 0xcf06, 6000000, 0, "UNC_M_CAS_COUNT_SCH1.RD", 0},
	{"uncore_imc", 0xf005, 4000000, 0, "UNC_M_CAS_COUNT_SCH0.WR", 0},
	{"uncore_imc", 0xf006, 2000000, 0, "UNC_M_CAS_COUNT_SCH1.WR", 0},
	{"uncore_imc", 0x0001, 3200000000u, 1, NULL, 0},
	{"uncore_cha", 0x0001, 2000000000u, 1, "UNC_CHA_CLOCKTICKS", 0},
	{"uncore_cha", 0xc001fe00000135ull, 3000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS", 0},
	{"uncore_cha", 0xc817fe00000135ull, 1000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD", 0},
	{"uncore_cha", 0xc817fe00000136ull, 150000000, 0, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD", 0},
	{"uncore_cha", 0xc8f3ff00000435ull, 500000, 0, "UNC_CHA_TOR_INSERTS.IO_PCIRDCUR", 0},
	{"uncore_cha", 0xcc43ff00000435ull, 250000, 0, "UNC_CHA_TOR_INSERTS.IO_ITOM", 0},
	{"uncore_upi", 0x0f02, 60000000, 0, "UNC_UPI_TxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0f03, 45000000, 0, "UNC_UPI_RxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0001, 2000000000u, 1, "UNC_UPI_CLOCKTICKS", 0},
	{"uncore_iio", 0x70ff000000483ull, 2000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS", 0},
	{"uncore_iio", 0x70ff000000183ull, 1000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.ALL_PARTS", 0},
	{"uncore_pcu", 0x0001, 1000000000u, 1, "UNC_P_CLOCKTICKS", 0},
	{"uncore_b2cmi", 0x0001, 2000000000u, 1, "UNC_B2CMI_CLOCKTICKS", 0},
};

/* Sierra Forest names the demand data reads DRD_OPT (its own encoding). */
static const struct shape_rate srf_rates[] = {
	{"uncore_imc", 0xcf05, 10000000, 0, "UNC_M_CAS_COUNT_SCH0.RD", 0},
	{"uncore_imc", 0xcf06, 6000000, 0, "UNC_M_CAS_COUNT_SCH1.RD", 0},
	{"uncore_imc", 0xf005, 4000000, 0, "UNC_M_CAS_COUNT_SCH0.WR", 0},
	{"uncore_imc", 0xf006, 2000000, 0, "UNC_M_CAS_COUNT_SCH1.WR", 0},
	{"uncore_imc", 0x0001, 3200000000u, 1, NULL, 0},
	{"uncore_cha", 0x0001, 2000000000u, 1, "UNC_CHA_CLOCKTICKS", 0},
	{"uncore_cha", 0xc001fe00000135ull, 3000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS", 0},
	{"uncore_cha", 0xc827fe00000135ull, 1000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_OPT", 0},
	{"uncore_cha", 0xc827fe00000136ull, 150000000, 0, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD_OPT", 0},
	{"uncore_cha", 0xc8f3ff00000435ull, 500000, 0, "UNC_CHA_TOR_INSERTS.IO_PCIRDCUR", 0},
	{"uncore_cha", 0xcc43ff00000435ull, 250000, 0, "UNC_CHA_TOR_INSERTS.IO_ITOM", 0},
	{"uncore_upi", 0x0f02, 60000000, 0, "UNC_UPI_TxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0f03, 45000000, 0, "UNC_UPI_RxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0001, 2000000000u, 1, "UNC_UPI_CLOCKTICKS", 0},
	{"uncore_iio", 0x70ff000000483ull, 2000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS", 0},
	{"uncore_iio", 0x70ff000000183ull, 1000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.ALL_PARTS", 0},
	{"uncore_pcu", 0x0001, 1000000000u, 1, "UNC_P_CLOCKTICKS", 0},
	{"uncore_b2cmi", 0x0001, 2000000000u, 1, "UNC_B2CMI_CLOCKTICKS", 0},
};

const struct uncore_shape uncore_shape_gnr = {
	.name = "gnr", .gen = "gnr",
	.title = "Granite Rapids-shaped PMUs (2 x 128 CPUs, 128 CHAs, 12 IMC channels with "
		 "2 schedulers each, 6 UPI links)",
	.source = "arch/x86/events/intel/uncore_snbep.c, gnr_uncores (discovery table)",
	.sockets = 2, .cpus_per_socket = 128,
	.boxes = gnr_boxes, .nboxes = SHAPE_N(gnr_boxes),
	.rates = gnr_rates, .nrates = SHAPE_N(gnr_rates),
};

/* The old kernel counts the same machine: its rates are gnr's (the UPI rows
 * match no PMU there, as on that kernel). */
const struct uncore_shape uncore_shape_gnr_old = {
	.name = "gnr-old", .gen = "gnr",
	.title = "Granite Rapids-shaped PMUs of a kernel before the per-scheduler IMC events "
		 "(cas_count_read/_write count scheduler 0 only; no UPI PMUs)",
	.source = "arch/x86/events/intel/uncore_snbep.c, gnr_uncores of \"Support Granite "
		  "Rapids\"",
	.sockets = 2, .cpus_per_socket = 128,
	.boxes = gnr_old_boxes, .nboxes = SHAPE_N(gnr_old_boxes),
	.rates = gnr_rates, .nrates = SHAPE_N(gnr_rates),
};

const struct uncore_shape uncore_shape_srf = {
	.name = "srf", .gen = "srf",
	.title = "Sierra Forest-shaped PMUs (2 x 144 CPUs, 144 CHAs, 8 IMC channels with "
		 "2 schedulers each, 4 UPI links)",
	.source = "arch/x86/events/intel/uncore_snbep.c, gnr_uncores (SRF runs gnr_uncore_init)",
	.sockets = 2, .cpus_per_socket = 144,
	.boxes = srf_boxes, .nboxes = SHAPE_N(srf_boxes),
	.rates = srf_rates, .nrates = SHAPE_N(srf_rates),
};
/* clang-format on */
