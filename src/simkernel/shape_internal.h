/* Internals of the shaped kernels (simkernel/shape_kernel.h): what one
 * generation's uncore driver publishes, as data (shape_tables.c), and the
 * constant rates its fake counters count at. */
#ifndef UNCORE_SIMKERNEL_SHAPE_INTERNAL_H
#define UNCORE_SIMKERNEL_SHAPE_INTERNAL_H

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
 * (socket + 1), or per_s everywhere when uniform (clocks). */
struct shape_rate {
	const char *family;
	uint64_t config; /* attr.config as the formats pack the alias */
	uint64_t per_s;
	int uniform;
};

struct uncore_shape {
	const char *name;   /* "spr" */
	const char *title;  /* "Sapphire Rapids (2 sockets, ...)" */
	const char *source; /* where the shape comes from */
	unsigned sockets, cpus_per_socket;
	const struct shape_box *boxes;
	unsigned nboxes;
	const struct shape_rate *rates;
	unsigned nrates;
};

#define SHAPE_FIRST_TYPE 40 /* PMU type numbers of the fake tree start here */

#endif
