/* The sysfs format files the Linux uncore driver publishes, by format group,
 * as the shapes (shape_skx.c, shape_spr.c, shape_gnr.c) use them.  The file
 * name is the attribute's name (DEFINE_UNCORE_FORMAT_ATTR(var, name, fmt) in
 * arch/x86/events/intel/uncore_snbep.c: umask_ext4 is the file "umask",
 * thresh9 "thresh", filter_opc_0 "filter_opc0"); the text is fmt.  Static
 * data in a header: each shape file includes it once. */
#ifndef UNCORE_SIMKERNEL_SHAPE_FORMATS_H
#define UNCORE_SIMKERNEL_SHAPE_FORMATS_H

#include "simkernel/shape_internal.h"

/* clang-format off */
#define SHAPE_FMT(a) a, SHAPE_N(a)

/* snbep/ivbep/skx_uncore_formats_attr; uncore_discovery.c's
 * generic_uncore_formats_attr is the same five files. */
static const struct shape_format fmt_snbep[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15"}, {"edge", "config:18"},
	{"inv", "config:23"}, {"thresh", "config:24-31"},
};

/* ivbep_uncore_ubox_formats_attr (thresh5). */
static const struct shape_format fmt_ubox[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15"}, {"edge", "config:18"},
	{"inv", "config:23"}, {"thresh", "config:24-28"},
};

/* skx_uncore_iio_freerunning_formats_attr: the free-running PMUs. */
static const struct shape_format fmt_free[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15"},
};

/* skx_uncore_cha_formats_attr: tid_en config:19 and the CHA filter fields
 * (FILTER0 in config1[31:0], FILTER1 in config1[63:32]). */
static const struct shape_format fmt_skx_cha[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15"}, {"edge", "config:18"},
	{"tid_en", "config:19"}, {"inv", "config:23"}, {"thresh", "config:24-31"},
	{"filter_tid", "config1:0-8"}, {"filter_state", "config1:17-26"},
	{"filter_rem", "config1:32"}, {"filter_loc", "config1:33"},
	{"filter_nm", "config1:36"}, {"filter_all_op", "config1:35"},
	{"filter_not_nm", "config1:37"}, {"filter_opc0", "config1:41-50"},
	{"filter_opc1", "config1:51-60"}, {"filter_nc", "config1:62"},
	{"filter_isoc", "config1:63"},
};

/* skx_uncore_iio_formats_attr (thresh9, ch_mask, fc_mask). */
static const struct shape_format fmt_skx_iio[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15"}, {"edge", "config:18"},
	{"inv", "config:23"}, {"thresh", "config:24-35"}, {"ch_mask", "config:36-43"},
	{"fc_mask", "config:44-46"},
};

/* skx_uncore_pcu_formats_attr (also ICX's PCU, skx_uncore_pcu). */
static const struct shape_format fmt_skx_pcu[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15"}, {"edge", "config:18"},
	{"inv", "config:23"}, {"thresh", "config:24-31"}, {"occ_invert", "config:30"},
	{"occ_edge_det", "config:31"}, {"filter_band0", "config1:0-7"},
	{"filter_band1", "config1:8-15"}, {"filter_band2", "config1:16-23"},
	{"filter_band3", "config1:24-31"},
};

/* skx_upi_uncore_formats_attr (umask_ext: config:8-15,32-43,45-55). */
static const struct shape_format fmt_skx_upi[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15,32-43,45-55"}, {"edge", "config:18"},
	{"inv", "config:23"}, {"thresh", "config:24-31"},
};

/* snr_uncore_cha_formats_attr, ICX's CHA (umask_ext2 config:8-15,32-57,
 * tid_en config:19, filter_tid5 config1:0-9). */
static const struct shape_format fmt_snr_cha[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15,32-57"}, {"edge", "config:18"},
	{"tid_en", "config:19"}, {"inv", "config:23"}, {"thresh", "config:24-31"},
	{"filter_tid", "config1:0-9"},
};

/* snr_uncore_iio_formats_attr (ICX, SPR and on: ch_mask2, fc_mask2). */
static const struct shape_format fmt_snr_iio[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15"}, {"edge", "config:18"},
	{"inv", "config:23"}, {"thresh", "config:24-35"}, {"ch_mask", "config:36-47"},
	{"fc_mask", "config:48-50"},
};

/* icx_upi_uncore_formats_attr and spr_uncore_raw_formats_attr (umask_ext4
 * config:8-15,32-55). */
static const struct shape_format fmt_umask_ext4[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15,32-55"}, {"edge", "config:18"},
	{"inv", "config:23"}, {"thresh", "config:24-31"},
};

/* spr_uncore_cha_formats_attr (umask_ext5 config:8-15,32-63, tid_en2
 * config:16, filter_tid5 config1:0-9). */
static const struct shape_format fmt_spr_cha[] = {
	{"event", "config:0-7"}, {"umask", "config:8-15,32-63"}, {"tid_en", "config:16"},
	{"edge", "config:18"}, {"inv", "config:23"}, {"thresh", "config:24-31"},
	{"filter_tid", "config1:0-9"},
};
/* clang-format on */

#endif
