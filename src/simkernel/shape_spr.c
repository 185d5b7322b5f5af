/* Sapphire Rapids and Emerald Rapids as the Linux uncore driver publishes
 * them (Emerald Rapids runs spr_uncore_init: the same types), read (not
 * copied) from arch/x86/events/intel/uncore_snbep.c and uncore_discovery.c:
 *
 * The boxes come from the discovery table; spr_uncores names and formats
 * them: cha (spr_uncore_chabox_format_group: umask_ext5 config:8-15,32-63,
 * tid_en2 config:16, filter_tid5 config1:0-9), iio
 * (snr_uncore_iio_format_group), irp, m2pcie, imc, m2m, upi, m3upi, mdf
 * (spr_uncore_raw_format_group: umask_ext4 config:8-15,32-55), pcu (no
 * format group: uncore_discovery.c generic_uncore_formats_attr, the five
 * snbep files); the free-running iio_free_running (one per IIO box;
 * spr_uncore_iio_freerunning_events: ioclk, bw_in_port0-7 umask 0x20-0x27,
 * bw_out_port0-7 0x30-0x37, 3.814697266e-6 MiB) and imc_free_running
 * (spr_uncore_imc_freerunning_events: dclk 0x10, read 0x20, write 0x21,
 * 6.103515625e-5 MiB).  The IMC aliases spr_uncore_imc_events (clockticks
 * event=0x01,umask=0x00; cas_count_read event=0x05,umask=0xcf;
 * cas_count_write event=0x05,umask=0xf0; 6.103515625e-5 MiB: 64 bytes a
 * CAS) from kernel commit "perf/x86/intel/uncore: Add events for Intel SPR
 * IMC PMU" (lore 20230419214241.2310385-1-eranian@google.com).  UPI and
 * M3UPI: four links (spr_upi_pci_offsets).  No CHA, UPI or M2M aliases.
 *
 * Instance counts (the discovery table's, i.e. the SKU's): a Xeon Platinum
 * 8480+ (56 cores, a CHA each; 8 DDR5 channels, one IMC PMU each, 4
 * controllers with an M2M each; 4 UPI links; 12 IIO stacks, an IRP and an
 * M2PCIe each) and a Xeon Platinum 8592+ (64 cores, otherwise the same), two
 * sockets each. */
#include "simkernel/shape_formats.h"

/* clang-format off */
static const struct shape_alias spr_imc_events[] = {
	{"clockticks", "event=0x01,umask=0x00", NULL, NULL},
	{"cas_count_read", "event=0x05,umask=0xcf", "6.103515625e-5", "MiB"},
	{"cas_count_write", "event=0x05,umask=0xf0", "6.103515625e-5", "MiB"},
};

static const struct shape_alias spr_iio_free_events[] = {
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

static const struct shape_alias spr_imc_free_events[] = {
	{"dclk", "event=0xff,umask=0x10", NULL, NULL},
	{"read", "event=0xff,umask=0x20", "6.103515625e-5", "MiB"},
	{"write", "event=0xff,umask=0x21", "6.103515625e-5", "MiB"},
};

#define SPR_BOXES(ncha)                                                                            \
	{"uncore_cha", ncha, SHAPE_FMT(fmt_spr_cha), NULL, 0},                                     \
	{"uncore_iio", 12, SHAPE_FMT(fmt_snr_iio), NULL, 0},                                       \
	{"uncore_irp", 12, SHAPE_FMT(fmt_umask_ext4), NULL, 0},                                    \
	{"uncore_m2pcie", 12, SHAPE_FMT(fmt_umask_ext4), NULL, 0},                                 \
	{"uncore_pcu", 1, SHAPE_FMT(fmt_snbep), NULL, 0},                                          \
	{"uncore_imc", 8, SHAPE_FMT(fmt_umask_ext4), SHAPE_FMT(spr_imc_events)},                   \
	{"uncore_m2m", 4, SHAPE_FMT(fmt_umask_ext4), NULL, 0},                                     \
	{"uncore_upi", 4, SHAPE_FMT(fmt_umask_ext4), NULL, 0},                                     \
	{"uncore_m3upi", 4, SHAPE_FMT(fmt_umask_ext4), NULL, 0},                                   \
	{"uncore_iio_free_running", 12, SHAPE_FMT(fmt_free), SHAPE_FMT(spr_iio_free_events)},      \
	{"uncore_imc_free_running", 4, SHAPE_FMT(fmt_free), SHAPE_FMT(spr_imc_free_events)}

static const struct shape_box spr_boxes[] = {SPR_BOXES(56)};
static const struct shape_box emr_boxes[] = {SPR_BOXES(64)};

/* Scenario (both): channel i of socket s reads 10 M CAS/s x (i+1) x (s+1)
 * (socket 0: 360 M/s over 8 channels = 23.04 GB/s), writes 5 M; CHA j of
 * socket s misses the LLC on 1 M demand data reads and 3 M requests a
 * second x (j+1) x (s+1), with 150 M occupancy a second on the DRD misses
 * (a 150-cycle latency at the CHA clock); IO reads (PCIRDCUR) 500 k, full-
 * line IO writes 250 k, partial 100 k; UPI link l sends 60 M data flits,
 * receives 45 M; IIO stack p reads 2 M and writes 1 M four-byte words; clocks
 * uniform: DCLK 2.4 GHz (DDR5-4800), CHA 2 GHz, UPI 2 GHz, PCU 1 GHz. */
static const struct shape_rate spr_rates[] = {
	{"uncore_imc", 0xcf05, 10000000, 0, NULL, 0},
	{"uncore_imc", 0xf005, 5000000, 0, NULL, 0},
	{"uncore_imc", 0x0001, 2400000000u, 1, NULL, 0},
	{"uncore_cha", 0x0001, 2000000000u, 1, "UNC_CHA_CLOCKTICKS", 0},
	{"uncore_cha", 0xc001fe00000135ull, 3000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS", 0},
	{"uncore_cha", 0xc817fe00000135ull, 1000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD", 0},
	{"uncore_cha", 0xc817fe00000136ull, 150000000, 0, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD", 0},
	{"uncore_cha", 0xc8f3ff00000435ull, 500000, 0, "UNC_CHA_TOR_INSERTS.IO_PCIRDCUR", 0},
	{"uncore_cha", 0xcc43ff00000435ull, 250000, 0, "UNC_CHA_TOR_INSERTS.IO_ITOM", 0},
	{"uncore_cha", 0xcd43ff00000435ull, 100000, 0, "UNC_CHA_TOR_INSERTS.IO_ITOMCACHENEAR", 0},
	{"uncore_upi", 0x0f02, 60000000, 0, "UNC_UPI_TxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0f03, 45000000, 0, "UNC_UPI_RxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0001, 2000000000u, 1, "UNC_UPI_CLOCKTICKS", 0},
	{"uncore_iio", 0x0483, 2000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS", 0},
	{"uncore_iio", 0x0183, 1000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.ALL_PARTS", 0},
	{"uncore_pcu", 0x0001, 1000000000u, 1, "UNC_P_CLOCKTICKS", 0},
	{"uncore_m2m", 0x0001, 2000000000u, 1, "UNC_M2M_CLOCKTICKS", 0},
};

const struct uncore_shape uncore_shape_spr = {
	.name = "spr", .gen = "spr",
	.title = "Sapphire Rapids-shaped PMUs (2 x 56 CPUs, 56 CHAs, 8 IMC channels, 4 UPI links)",
	.source = "arch/x86/events/intel/uncore_snbep.c, spr_uncores (discovery table)",
	.sockets = 2, .cpus_per_socket = 56,
	.boxes = spr_boxes, .nboxes = SHAPE_N(spr_boxes),
	.rates = spr_rates, .nrates = SHAPE_N(spr_rates),
};

const struct uncore_shape uncore_shape_emr = {
	.name = "emr", .gen = "emr",
	.title = "Emerald Rapids-shaped PMUs (2 x 64 CPUs, 64 CHAs, 8 IMC channels, 4 UPI links)",
	.source = "arch/x86/events/intel/uncore_snbep.c, spr_uncores (EMR runs spr_uncore_init)",
	.sockets = 2, .cpus_per_socket = 64,
	.boxes = emr_boxes, .nboxes = SHAPE_N(emr_boxes),
	.rates = spr_rates, .nrates = SHAPE_N(spr_rates),
};
/* clang-format on */
