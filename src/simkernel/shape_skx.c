/* Skylake-SP (and Cascade Lake, the same driver) and Ice Lake-SP as the Linux
 * uncore driver publishes them, read (not copied) from
 * arch/x86/events/intel/uncore_snbep.c:
 *
 * Skylake-SP: skx_msr_uncores (ubox: ivbep_uncore_ubox_format_group; cha:
 * skx_uncore_chabox_format_group, num_boxes from CAPID6 = the cores; iio and
 * iio_free_running: 6 boxes each; irp: 6; pcu: skx_uncore_pcu_format_group)
 * and skx_pci_uncores (imc: 6 channels, hswep_uncore_imc_events; m2m: 2;
 * upi: 3 links, skx_upi_uncore_formats_attr; m2pcie: 4; m3upi: 3).  The free-
 * running IIO events (skx_uncore_iio_freerunning_events): ioclk
 * event=0xff,umask=0x10; bw_in_port0-3 umask 0x20-0x23, bw_out_port0-3
 * 0x24-0x27, each .scale 3.814697266e-6 .unit MiB (4 bytes a count);
 * util_in/out_port0-3 0x30-0x37.
 *
 * Ice Lake-SP: icx_msr_uncores (ubox: skx_uncore_ubox; cha:
 * snr_uncore_chabox_format_group, num_boxes from CAPID6/7; iio:
 * snr_uncore_iio_format_group, 6; irp and m2pcie: ivbep formats, 6 each;
 * pcu: skx_uncore_pcu; iio_free_running: 6, icx_uncore_iio_freerunning_events
 * ioclk and bw_in_port0-7 umask 0x20-0x27), icx_pci_uncores (m2m: 4, skx
 * formats; upi: 3, icx_upi_uncore_formats_attr umask_ext4
 * config:8-15,32-55; m3upi: 3) and icx_mmio_uncores (imc: 4 controllers x
 * ICX_NUMBER_IMC_CHN = 3 channels = 12 boxes, snr_uncore_imc_events, a
 * stable fix replacing hswep_uncore_imc_events there (Zhengjun Xing; older
 * kernels count umask 0x03/0x0c); imc_free_running: 4, dclk umask 0x10,
 * read 0x20, write 0x21, ddrt_read 0x30, ddrt_write 0x31, .scale
 * 6.103515625e-5 MiB).
 *
 * Instance counts: the CHA count is the core count of the SKU (the kernel
 * reads it from CAPID6): a Xeon Platinum 8180 (28 cores) and a Xeon Platinum
 * 8380 (40 cores), two sockets each.  Rates: see the scenario comment of
 * each shape; every metric and preset over them is a closed form. */
#include "simkernel/shape_formats.h"

/* clang-format off */
static const struct shape_alias hsx_imc_events[] = {
	{"clockticks", "event=0x00,umask=0x00", NULL, NULL},
	{"cas_count_read", "event=0x04,umask=0x03", "6.103515625e-5", "MiB"},
	{"cas_count_write", "event=0x04,umask=0x0c", "6.103515625e-5", "MiB"},
};

static const struct shape_alias skx_iio_free_events[] = {
	{"ioclk", "event=0xff,umask=0x10", NULL, NULL},
	{"bw_in_port0", "event=0xff,umask=0x20", "3.814697266e-6", "MiB"},
	{"bw_in_port1", "event=0xff,umask=0x21", "3.814697266e-6", "MiB"},
	{"bw_in_port2", "event=0xff,umask=0x22", "3.814697266e-6", "MiB"},
	{"bw_in_port3", "event=0xff,umask=0x23", "3.814697266e-6", "MiB"},
	{"bw_out_port0", "event=0xff,umask=0x24", "3.814697266e-6", "MiB"},
	{"bw_out_port1", "event=0xff,umask=0x25", "3.814697266e-6", "MiB"},
	{"bw_out_port2", "event=0xff,umask=0x26", "3.814697266e-6", "MiB"},
	{"bw_out_port3", "event=0xff,umask=0x27", "3.814697266e-6", "MiB"},
	{"util_in_port0", "event=0xff,umask=0x30", NULL, NULL},
	{"util_out_port0", "event=0xff,umask=0x31", NULL, NULL},
	{"util_in_port1", "event=0xff,umask=0x32", NULL, NULL},
	{"util_out_port1", "event=0xff,umask=0x33", NULL, NULL},
	{"util_in_port2", "event=0xff,umask=0x34", NULL, NULL},
	{"util_out_port2", "event=0xff,umask=0x35", NULL, NULL},
	{"util_in_port3", "event=0xff,umask=0x36", NULL, NULL},
	{"util_out_port3", "event=0xff,umask=0x37", NULL, NULL},
};

static const struct shape_box skx_boxes[] = {
	{"uncore_ubox", 1, SHAPE_FMT(fmt_ubox), NULL, 0},
	{"uncore_cha", 28, SHAPE_FMT(fmt_skx_cha), NULL, 0},
	{"uncore_iio", 6, SHAPE_FMT(fmt_skx_iio), NULL, 0},
	{"uncore_iio_free_running", 6, SHAPE_FMT(fmt_free), SHAPE_FMT(skx_iio_free_events)},
	{"uncore_irp", 6, SHAPE_FMT(fmt_snbep), NULL, 0},
	{"uncore_pcu", 1, SHAPE_FMT(fmt_skx_pcu), NULL, 0},
	{"uncore_imc", 6, SHAPE_FMT(fmt_snbep), SHAPE_FMT(hsx_imc_events)},
	{"uncore_m2m", 2, SHAPE_FMT(fmt_snbep), NULL, 0},
	{"uncore_upi", 3, SHAPE_FMT(fmt_skx_upi), NULL, 0},
	{"uncore_m2pcie", 4, SHAPE_FMT(fmt_snbep), NULL, 0},
	{"uncore_m3upi", 3, SHAPE_FMT(fmt_snbep), NULL, 0},
};

/* Scenario: channel i of socket s reads 20 M CAS/s x (i+1) x (s+1) (socket 0:
 * 420 M/s over its 6 channels = 26.88 GB/s), writes 8 M; CHA j of socket s
 * misses the LLC on 1 M demand data reads a second x (j+1) x (s+1) and 3 M
 * requests of any kind (TOR inserts IA_MISS, FILTER1 opcode 0x40433 for
 * DRD); UPI link l sends 50 M data flits and receives 40 M; IIO stack p reads
 * 2 M and writes 1 M four-byte words of part 0; clocks: CHA 2.4 GHz, DCLK
 * 1.333 GHz, UPI 1.2 GHz, PCU 1 GHz, M2M 2.4 GHz (uniform). */
static const struct shape_rate skx_rates[] = {
	{"uncore_imc", 0x0304, 20000000, 0, NULL, 0},
	{"uncore_imc", 0x0c04, 8000000, 0, NULL, 0},
	{"uncore_imc", 0x0000, 1333000000u, 1, NULL, 0},
	{"uncore_cha", 0x0000, 2400000000u, 1, "UNC_CHA_CLOCKTICKS", 0},
	{"uncore_cha", 0x2135, 3000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS", 0},
	{"uncore_cha", 0x2135, 1000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD", 0x40433ull << 32},
	{"uncore_cha", 0x2136, 150000000, 0, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD", 0x40433ull << 32},
	{"uncore_upi", 0x0f02, 50000000, 0, "UNC_UPI_TxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0f03, 40000000, 0, "UNC_UPI_RxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0001, 1200000000u, 1, "UNC_UPI_CLOCKTICKS", 0},
	{"uncore_iio", 0x701000000483ull, 2000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0", 0},
	{"uncore_iio", 0x701000000183ull, 1000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART0", 0},
	{"uncore_pcu", 0x0000, 1000000000u, 1, "UNC_P_CLOCKTICKS", 0},
	{"uncore_m2m", 0x0000, 2400000000u, 1, "UNC_M2M_CLOCKTICKS", 0},
};

static const struct shape_alias icx_imc_events[] = {
	{"clockticks", "event=0x00,umask=0x00", NULL, NULL},
	{"cas_count_read", "event=0x04,umask=0x0f", "6.103515625e-5", "MiB"},
	{"cas_count_write", "event=0x04,umask=0x30", "6.103515625e-5", "MiB"},
};

static const struct shape_alias icx_imc_free_events[] = {
	{"dclk", "event=0xff,umask=0x10", NULL, NULL},
	{"read", "event=0xff,umask=0x20", "6.103515625e-5", "MiB"},
	{"write", "event=0xff,umask=0x21", "6.103515625e-5", "MiB"},
	{"ddrt_read", "event=0xff,umask=0x30", "6.103515625e-5", "MiB"},
	{"ddrt_write", "event=0xff,umask=0x31", "6.103515625e-5", "MiB"},
};

static const struct shape_alias icx_iio_free_events[] = {
	{"ioclk", "event=0xff,umask=0x10", NULL, NULL},
	{"bw_in_port0", "event=0xff,umask=0x20", "3.814697266e-6", "MiB"},
	{"bw_in_port1", "event=0xff,umask=0x21", "3.814697266e-6", "MiB"},
	{"bw_in_port2", "event=0xff,umask=0x22", "3.814697266e-6", "MiB"},
	{"bw_in_port3", "event=0xff,umask=0x23", "3.814697266e-6", "MiB"},
	{"bw_in_port4", "event=0xff,umask=0x24", "3.814697266e-6", "MiB"},
	{"bw_in_port5", "event=0xff,umask=0x25", "3.814697266e-6", "MiB"},
	{"bw_in_port6", "event=0xff,umask=0x26", "3.814697266e-6", "MiB"},
	{"bw_in_port7", "event=0xff,umask=0x27", "3.814697266e-6", "MiB"},
};

static const struct shape_box icx_boxes[] = {
	{"uncore_ubox", 1, SHAPE_FMT(fmt_ubox), NULL, 0},
	{"uncore_cha", 40, SHAPE_FMT(fmt_snr_cha), NULL, 0},
	{"uncore_iio", 6, SHAPE_FMT(fmt_snr_iio), NULL, 0},
	{"uncore_irp", 6, SHAPE_FMT(fmt_snbep), NULL, 0},
	{"uncore_m2pcie", 6, SHAPE_FMT(fmt_snbep), NULL, 0},
	{"uncore_pcu", 1, SHAPE_FMT(fmt_skx_pcu), NULL, 0},
	{"uncore_iio_free_running", 6, SHAPE_FMT(fmt_free), SHAPE_FMT(icx_iio_free_events)},
	{"uncore_m2m", 4, SHAPE_FMT(fmt_snbep), NULL, 0},
	{"uncore_upi", 3, SHAPE_FMT(fmt_umask_ext4), NULL, 0},
	{"uncore_m3upi", 3, SHAPE_FMT(fmt_snbep), NULL, 0},
	{"uncore_imc", 12, SHAPE_FMT(fmt_snbep), SHAPE_FMT(icx_imc_events)},
	{"uncore_imc_free_running", 4, SHAPE_FMT(fmt_free), SHAPE_FMT(icx_imc_free_events)},
};

/* Scenario: channel i of socket s reads 5 M CAS/s x (i+1) x (s+1) (socket 0:
 * 390 M/s over its 12 channels = 24.96 GB/s), writes 2 M; CHA j misses on
 * 1 M demand data reads and 3 M requests a second x (j+1) x (s+1); UPI link
 * l sends 60 M data flits, receives 45 M; IIO stack p reads 2 M, writes 1 M
 * four-byte words of part 0; CHA TOR inserts of IO reads (PCIRDCUR) 500 k
 * (200 k hitting the LLC, 300 k missing), full-line IO writes (ITOM) 250 k
 * (100 k + 150 k), and ITOMCACHENEAR 40 k + 60 k (Intel's ICX io_bandwidth
 * metrics name the hit and miss events); clocks uniform. */
static const struct shape_rate icx_rates[] = {
	{"uncore_imc", 0x0f04, 5000000, 0, NULL, 0},
	{"uncore_imc", 0x3004, 2000000, 0, NULL, 0},
	{"uncore_imc", 0x0000, 1600000000u, 1, NULL, 0},
	{"uncore_cha", 0x0000, 2400000000u, 1, "UNC_CHA_CLOCKTICKS", 0},
	{"uncore_cha", 0xc001fe00000135ull, 3000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS", 0},
	{"uncore_cha", 0xc817fe00000135ull, 1000000, 0, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD", 0},
	{"uncore_cha", 0xc817fe00000136ull, 150000000, 0, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD", 0},
	{"uncore_cha", 0xc8f3ff00000435ull, 500000, 0, "UNC_CHA_TOR_INSERTS.IO_PCIRDCUR", 0},
	{"uncore_cha", 0xcc43ff00000435ull, 250000, 0, "UNC_CHA_TOR_INSERTS.IO_ITOM", 0},
	{"uncore_cha", 0xc8f3fd00000435ull, 200000, 0, "UNC_CHA_TOR_INSERTS.IO_HIT_PCIRDCUR", 0},
	{"uncore_cha", 0xc8f3fe00000435ull, 300000, 0, "UNC_CHA_TOR_INSERTS.IO_MISS_PCIRDCUR", 0},
	{"uncore_cha", 0xcc43fd00000435ull, 100000, 0, "UNC_CHA_TOR_INSERTS.IO_HIT_ITOM", 0},
	{"uncore_cha", 0xcc43fe00000435ull, 150000, 0, "UNC_CHA_TOR_INSERTS.IO_MISS_ITOM", 0},
	{"uncore_cha", 0xcd43fd00000435ull, 40000, 0, "UNC_CHA_TOR_INSERTS.IO_HIT_ITOMCACHENEAR", 0},
	{"uncore_cha", 0xcd43fe00000435ull, 60000, 0, "UNC_CHA_TOR_INSERTS.IO_MISS_ITOMCACHENEAR", 0},
	{"uncore_upi", 0x0f02, 60000000, 0, "UNC_UPI_TxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0f03, 45000000, 0, "UNC_UPI_RxL_FLITS.ALL_DATA", 0},
	{"uncore_upi", 0x0001, 1400000000u, 1, "UNC_UPI_CLOCKTICKS", 0},
	{"uncore_iio", 0x7001000000483ull, 2000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0", 0},
	{"uncore_iio", 0x7001000000183ull, 1000000, 0, "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART0", 0},
	{"uncore_pcu", 0x0000, 1000000000u, 1, "UNC_P_CLOCKTICKS", 0},
	{"uncore_m2m", 0x0000, 2400000000u, 1, "UNC_M2M_CLOCKTICKS", 0},
};

/* The CHA events whose counts the filter (config1) selects: the kernel's
 * skx_uncore_cha_extra_regs (uncore_snbep.c): LLC lookups 0x34 with umasks
 * 0x03, 0x05, 0x09, 0x11, 0x31, 0x91 (mask 0xffff), TOR inserts 0x35 and
 * occupancy 0x36, 0x38 (mask 0xff).  CHA clockticks (event 0x00) is none:
 * counted whatever filter the box holds for the other events. */
static const struct shape_filtered skx_filtered[] = {
	{"uncore_cha", 0x0334, 0xffff}, {"uncore_cha", 0x0534, 0xffff},
	{"uncore_cha", 0x0934, 0xffff}, {"uncore_cha", 0x1134, 0xffff},
	{"uncore_cha", 0x3134, 0xffff}, {"uncore_cha", 0x9134, 0xffff},
	{"uncore_cha", 0x35, 0xff},     {"uncore_cha", 0x36, 0xff},
	{"uncore_cha", 0x38, 0xff},
};

const struct uncore_shape uncore_shape_skx = {
	.name = "skx", .gen = "skx",
	.title = "Skylake-SP-shaped PMUs (2 x 28 CPUs, 28 CHAs, 6 IMC channels, 3 UPI links)",
	.source = "arch/x86/events/intel/uncore_snbep.c, skx_msr_uncores/skx_pci_uncores",
	.sockets = 2, .cpus_per_socket = 28,
	.boxes = skx_boxes, .nboxes = SHAPE_N(skx_boxes),
	.rates = skx_rates, .nrates = SHAPE_N(skx_rates),
	.filtered = skx_filtered, .nfiltered = SHAPE_N(skx_filtered),
};

const struct uncore_shape uncore_shape_icx = {
	.name = "icx", .gen = "icx",
	.title = "Ice Lake-SP-shaped PMUs (2 x 40 CPUs, 40 CHAs, 12 IMC boxes, 3 UPI links)",
	.source = "arch/x86/events/intel/uncore_snbep.c, icx_msr_uncores/icx_pci_uncores/"
		  "icx_mmio_uncores",
	.sockets = 2, .cpus_per_socket = 40,
	.boxes = icx_boxes, .nboxes = SHAPE_N(icx_boxes),
	.rates = icx_rates, .nrates = SHAPE_N(icx_rates),
};
/* clang-format on */
