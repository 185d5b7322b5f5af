/* The shapes of the Linux uncore driver on processors we have no tables for
 * (simkernel/shape_kernel.h), as data.  Facts read (not copied) from
 * arch/x86/events/intel/uncore_snbep.c:
 *
 * Sapphire Rapids: spr_uncore_raw_formats_attr (event config:0-7, umask
 * config:8-15,32-55 "umask_ext4", edge config:18, inv config:23, thresh
 * config:24-31) for the IMC, M2M, UPI and M3UPI PMUs; the CHA's own list
 * (umask_ext5 config:8-15,32-63, tid_en2 config:16, filter_tid5
 * config1:0-9); spr_uncore_imc_events (clockticks event=0x01,umask=0x00;
 * cas_count_read event=0x05,umask=0xcf and cas_count_write
 * event=0x05,umask=0xf0, each .scale 6.103515625e-5 .unit MiB: 64 bytes a
 * CAS), added by kernel commit "perf/x86/intel/uncore: Add events for Intel
 * SPR IMC PMU" (lore 20230419214241.2310385-1-eranian@google.com); four UPI
 * boxes (spr_upi_pci_offsets).  No CHA, UPI or M2M aliases exist.
 *
 * Skylake-SP: snbep_uncore_formats_attr (event config:0-7, umask
 * config:8-15, edge, inv, thresh config:24-31) for the IMC; skx_uncore_imc
 * takes hswep_uncore_imc_events (clockticks event=0x00,umask=0x00;
 * cas_count_read event=0x04,umask=0x03; cas_count_write
 * event=0x04,umask=0x0c; .scale 6.103515625e-5 .unit MiB); six IMC
 * channels per socket; three UPI links (skx_uncore_upi, umask_ext
 * config:8-15,32-43,45-55).
 *
 * Ice Lake-SP: skx_uncore_format_group for the IMC; icx_uncore_imc, twelve
 * boxes (four controllers of ICX_NUMBER_IMC_CHN = 3 channels), takes
 * snr_uncore_imc_events (clockticks event=0x00,umask=0x00; cas_count_read
 * event=0x04,umask=0x0f; cas_count_write event=0x04,umask=0x30; .scale
 * 6.103515625e-5 .unit MiB), a stable fix replacing hswep_uncore_imc_events
 * there (Zhengjun Xing; older kernels count the wrong unit masks).
 *
 * Granite Rapids: the SPR formats; gnr_uncore_imc_events, two command
 * schedulers per channel: cas_count_read_sch0 event=0x05,umask=0xcf,
 * cas_count_read_sch1 event=0x06,umask=0xcf, cas_count_write_sch0
 * event=0x05,umask=0xf0, cas_count_write_sch1 event=0x06,umask=0xf0, each
 * 6.103515625e-5 MiB (commit "perf/x86/intel/uncore: Add per-scheduler IMC
 * CAS count events", lore 20260210005225.20311-1-zide.chen@intel.com).
 *
 * The instance counts are those of one SKU each (a Xeon Platinum 8480+: 56
 * cores, a CHA each, 8 DDR5 channels; a Xeon Platinum 8380: 40 cores; a Xeon Gold 6148: 20 cores, 6
 * DDR4 channels; a 32-core Xeon 6 with 8 channels); the kernel takes them from the discovery table
 * or the SKU at boot. */
#include "simkernel/shape_internal.h"
#include "simkernel/shape_kernel.h"

#include <string.h>

/* clang-format off */
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct shape_format spr_raw_formats[] = {
	{"event", "config:0-7"},
	{"umask", "config:8-15,32-55"},
	{"edge", "config:18"},
	{"inv", "config:23"},
	{"thresh", "config:24-31"},
};

static const struct shape_format spr_cha_formats[] = {
	{"event", "config:0-7"},
	{"umask", "config:8-15,32-63"},
	{"tid_en", "config:16"},
	{"edge", "config:18"},
	{"inv", "config:23"},
	{"thresh", "config:24-31"},
	{"filter_tid", "config1:0-9"},
};

static const struct shape_alias spr_imc_aliases[] = {
	{"clockticks", "event=0x01,umask=0x00", NULL, NULL},
	{"cas_count_read", "event=0x05,umask=0xcf", "6.103515625e-5", "MiB"},
	{"cas_count_write", "event=0x05,umask=0xf0", "6.103515625e-5", "MiB"},
};

static const struct shape_box spr_boxes[] = {
	{"uncore_cha", 56, spr_cha_formats, N(spr_cha_formats), NULL, 0},
	{"uncore_imc", 8, spr_raw_formats, N(spr_raw_formats), spr_imc_aliases, N(spr_imc_aliases)},
	{"uncore_m2m", 4, spr_raw_formats, N(spr_raw_formats), NULL, 0},
	{"uncore_upi", 4, spr_raw_formats, N(spr_raw_formats), NULL, 0},
	{"uncore_m3upi", 4, spr_raw_formats, N(spr_raw_formats), NULL, 0},
};

/* Reads 10 M CAS/s x (channel + 1) x (socket + 1), writes half that: socket
 * 0 reads 360 M CAS/s = 23.04 GB/s over its 8 channels. */
static const struct shape_rate spr_rates[] = {
	{"uncore_imc", 0xcf05, 10000000, 0},
	{"uncore_imc", 0xf005, 5000000, 0},
	{"uncore_imc", 0x0001, 2400000000u, 1}, /* DDR5-4800: DCLK 2400 MHz */
};

static const struct shape_format skx_formats[] = {
	{"event", "config:0-7"},
	{"umask", "config:8-15"},
	{"edge", "config:18"},
	{"inv", "config:23"},
	{"thresh", "config:24-31"},
};

static const struct shape_format skx_upi_formats[] = {
	{"event", "config:0-7"},
	{"umask", "config:8-15,32-43,45-55"},
	{"edge", "config:18"},
	{"inv", "config:23"},
	{"thresh", "config:24-31"},
};

static const struct shape_alias skx_imc_aliases[] = {
	{"clockticks", "event=0x00,umask=0x00", NULL, NULL},
	{"cas_count_read", "event=0x04,umask=0x03", "6.103515625e-5", "MiB"},
	{"cas_count_write", "event=0x04,umask=0x0c", "6.103515625e-5", "MiB"},
};

static const struct shape_box skx_boxes[] = {
	{"uncore_cha", 20, skx_formats, N(skx_formats), NULL, 0},
	{"uncore_imc", 6, skx_formats, N(skx_formats), skx_imc_aliases, N(skx_imc_aliases)},
	{"uncore_m2m", 2, skx_formats, N(skx_formats), NULL, 0},
	{"uncore_upi", 3, skx_upi_formats, N(skx_upi_formats), NULL, 0},
};

/* Socket 0 reads 20 M CAS/s x 21 = 26.88 GB/s over its 6 channels. */
static const struct shape_rate skx_rates[] = {
	{"uncore_imc", 0x0304, 20000000, 0},
	{"uncore_imc", 0x0c04, 8000000, 0},
	{"uncore_imc", 0x0000, 1333000000u, 1}, /* DDR4-2666: DCLK 1333 MHz */
};

static const struct shape_alias icx_imc_aliases[] = {
	{"clockticks", "event=0x00,umask=0x00", NULL, NULL},
	{"cas_count_read", "event=0x04,umask=0x0f", "6.103515625e-5", "MiB"},
	{"cas_count_write", "event=0x04,umask=0x30", "6.103515625e-5", "MiB"},
};

static const struct shape_box icx_boxes[] = {
	{"uncore_cha", 40, skx_formats, N(skx_formats), NULL, 0},
	{"uncore_imc", 12, skx_formats, N(skx_formats), icx_imc_aliases, N(icx_imc_aliases)},
	{"uncore_upi", 3, skx_upi_formats, N(skx_upi_formats), NULL, 0},
};

/* Socket 0 reads 5 M CAS/s x 78 = 24.96 GB/s over its 12 channels. */
static const struct shape_rate icx_rates[] = {
	{"uncore_imc", 0x0f04, 5000000, 0},
	{"uncore_imc", 0x3004, 2000000, 0},
	{"uncore_imc", 0x0000, 1600000000u, 1}, /* DDR4-3200: DCLK 1600 MHz */
};

static const struct shape_alias gnr_imc_aliases[] = {
	{"clockticks", "event=0x01,umask=0x00", NULL, NULL},
	{"cas_count_read_sch0", "event=0x05,umask=0xcf", "6.103515625e-5", "MiB"},
	{"cas_count_read_sch1", "event=0x06,umask=0xcf", "6.103515625e-5", "MiB"},
	{"cas_count_write_sch0", "event=0x05,umask=0xf0", "6.103515625e-5", "MiB"},
	{"cas_count_write_sch1", "event=0x06,umask=0xf0", "6.103515625e-5", "MiB"},
};

static const struct shape_box gnr_boxes[] = {
	{"uncore_cha", 32, spr_cha_formats, N(spr_cha_formats), NULL, 0},
	{"uncore_imc", 8, spr_raw_formats, N(spr_raw_formats), gnr_imc_aliases, N(gnr_imc_aliases)},
	{"uncore_upi", 4, spr_raw_formats, N(spr_raw_formats), NULL, 0},
};

/* Reads: scheduler 0 10 M, scheduler 1 6 M CAS/s x (channel + 1) x
 * (socket + 1); writes 4 M and 2 M: socket 0 reads 576 M CAS/s = 36.864 GB/s. */
static const struct shape_rate gnr_rates[] = {
	{"uncore_imc", 0xcf05, 10000000, 0},
	{"uncore_imc", 0xcf06, 6000000, 0},
	{"uncore_imc", 0xf005, 4000000, 0},
	{"uncore_imc", 0xf006, 2000000, 0},
	{"uncore_imc", 0x0001, 3200000000u, 1}, /* DDR5-6400: DCLK 3200 MHz */
};

static const struct uncore_shape shapes[] = {
	{
		.name = "spr",
		.title = "Sapphire Rapids-shaped PMUs (2 x 56 CPUs, 8 IMC channels)",
		.source = "arch/x86/events/intel/uncore_snbep.c, spr_uncores",
		.sockets = 2, .cpus_per_socket = 56,
		.boxes = spr_boxes, .nboxes = N(spr_boxes),
		.rates = spr_rates, .nrates = N(spr_rates),
	},
	{
		.name = "skx",
		.title = "Skylake-SP-shaped PMUs (2 x 20 CPUs, 6 IMC channels)",
		.source = "arch/x86/events/intel/uncore_snbep.c, skx_msr_uncores/skx_pci_uncores",
		.sockets = 2, .cpus_per_socket = 20,
		.boxes = skx_boxes, .nboxes = N(skx_boxes),
		.rates = skx_rates, .nrates = N(skx_rates),
	},
	{
		.name = "icx",
		.title = "Ice Lake-SP-shaped PMUs (2 x 40 CPUs, 12 IMC boxes)",
		.source = "arch/x86/events/intel/uncore_snbep.c, icx_msr_uncores/icx_mmio_uncores",
		.sockets = 2, .cpus_per_socket = 40,
		.boxes = icx_boxes, .nboxes = N(icx_boxes),
		.rates = icx_rates, .nrates = N(icx_rates),
	},
	{
		.name = "gnr",
		.title = "Granite Rapids-shaped PMUs (2 x 32 CPUs, 8 IMC channels, 2 schedulers each)",
		.source = "arch/x86/events/intel/uncore_snbep.c, gnr_uncores",
		.sockets = 2, .cpus_per_socket = 32,
		.boxes = gnr_boxes, .nboxes = N(gnr_boxes),
		.rates = gnr_rates, .nrates = N(gnr_rates),
	},
};
/* clang-format on */

size_t uncore_shape_count(void)
{
	return N(shapes);
}

const struct uncore_shape *uncore_shape_at(size_t i)
{
	return i < N(shapes) ? &shapes[i] : NULL;
}

const struct uncore_shape *uncore_shape_find(const char *name)
{
	for (size_t i = 0; name && i < N(shapes); i++)
		if (strcmp(shapes[i].name, name) == 0)
			return &shapes[i];
	return NULL;
}

const char *uncore_shape_name(const struct uncore_shape *s)
{
	return s->name;
}

const char *uncore_shape_title(const struct uncore_shape *s)
{
	return s->title;
}

uint64_t uncore_shape_rate(const struct uncore_shape *s, const char *family, unsigned inst,
			   unsigned socket, uint64_t config)
{
	for (unsigned i = 0; i < s->nrates; i++) {
		const struct shape_rate *r = &s->rates[i];
		if (r->config != config || strcmp(r->family, family) != 0)
			continue;
		return r->uniform ? r->per_s : r->per_s * (inst + 1) * (socket + 1);
	}
	return 0;
}
