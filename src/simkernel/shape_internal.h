/* Internals of the shaped kernels (simkernel/shape_kernel.h): what one
 * generation's uncore driver publishes, as data (shape_skx.c, shape_spr.c, shape_gnr.c), and the
 * constant rates its fake counters count at. */
#ifndef UNCORE_SIMKERNEL_SHAPE_INTERNAL_H
#define UNCORE_SIMKERNEL_SHAPE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

struct shape_format {
	const char *name;
	const char *format; /* the text of format/<name> */
};

struct shape_alias {
	const char *name;
	const char *terms;
	const char *scale; /* or NULL */
	const char *unit;  /* or NULL */
};

/* One PMU kind: instances <family>_0 .. <family>_<n-1>, each covering every
 * socket (cpumask: the first CPU of each socket). */
struct shape_box {
	const char *family; /* "uncore_imc" */
	unsigned n;
	const struct shape_format *formats;
	unsigned nformats;
	const struct shape_alias *aliases;
	unsigned naliases;
};

/* Counts per second of one event of a family: per_s x (instance + 1) x
 * (socket + 1), or per_s everywhere when uniform (clocks).  An event is
 * matched by (config, config1) exactly, as the formats pack it (config1
 * only for the shape's filtered events, struct shape_filtered): a kernel
 * alias, or an event of Intel's data (its name in `event`, its encoding
 * that of our generated table: tests/unit/simkernel/test_shape_kernel.c). */
struct shape_rate {
	const char *family;
	uint64_t config;
	uint64_t per_s;
	int uniform;
	const char *event;  /* Intel's name ("UNC_CHA_TOR_INSERTS.IA_MISS"), NULL: an alias */
	uint64_t config1;   /* filter values (SKX CHA FILTER1 in config1[63:32]) */
};

/* An event whose count the box's filter (config1) selects, as the kernel's
 * extra_regs list them: (config & mask) == value.  The kernel programs the
 * filter register only for those (e.g. skx_cha_hw_config walks
 * skx_uncore_cha_extra_regs, arch/x86/events/intel/uncore_snbep.c); any
 * other event counts what it counts whatever config1 holds. */
struct shape_filtered {
	const char *family;
	uint64_t value, mask;
};

struct uncore_shape {
	const char *name;   /* "spr" */
	const char *gen;    /* the generation of our tables ("skx" .. "srf"), for tests */
	const char *title;  /* "Sapphire Rapids (2 sockets, ...)" */
	const char *source; /* where the shape comes from */
	unsigned sockets, cpus_per_socket;
	const struct shape_box *boxes;
	unsigned nboxes;
	const struct shape_rate *rates;
	unsigned nrates;
	/* The filtered events (NULL: config1 is matched exactly for every
	 * event, as on shapes whose rates never name a filter). */
	const struct shape_filtered *filtered;
	unsigned nfiltered;
};

#define SHAPE_FIRST_TYPE 40 /* PMU type numbers of the fake tree start here */

/* The shapes, one file per driver family (shape_skx.c: skx, icx;
 * shape_spr.c: spr, emr; shape_gnr.c: gnr, gnr-old, srf). */
extern const struct uncore_shape uncore_shape_skx, uncore_shape_icx, uncore_shape_spr,
    uncore_shape_emr, uncore_shape_gnr, uncore_shape_gnr_old, uncore_shape_srf;

#define SHAPE_N(a) (sizeof(a) / sizeof((a)[0]))

#endif
