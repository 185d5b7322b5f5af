/* Metric groups over the kernel's event aliases, for processors we have no
 * tables for (Skylake-SP through Granite Rapids).  The kernel's uncore
 * driver names few events: on every Xeon since Haswell-EP its IMC PMUs have
 * cas_count_read and cas_count_write with .scale 6.103515625e-5 and .unit
 * MiB (one CAS moves 64 bytes); CHA, UPI and M2M have format fields but no
 * aliases.  So the groups are what those aliases allow: DRAM read, write
 * and total bandwidth per socket, in GB/s (10^9 bytes/s, as everywhere in
 * this project).  uncore-stat computes them itself from the box-summed
 * aliases (uncore_imc::cas_count_read:socket=N, through PAPI) and the
 * alias's .scale/.unit (through our library): they are not PAPI events. */
#ifndef UNCORE_STAT_KGROUPS_H
#define UNCORE_STAT_KGROUPS_H

#include <stddef.h>

struct uncore_metric_catalog;

#define STAT_KMAX_TERMS    4
#define STAT_KMAX_VARIANTS 2

struct stat_kterm {
	const char *family; /* kernel PMU family: "uncore_imc" */
	const char *alias;  /* its events/ alias: "cas_count_read" */
};

/* The terms one kernel generation names the metric's counts by. */
struct stat_kvariant {
	unsigned nterms;
	struct stat_kterm terms[STAT_KMAX_TERMS];
};

/* value per socket = sum over terms of count x bytes per count / seconds /
 * 10^9, with the first variant whose aliases all exist. */
struct stat_kmetric {
	const char *name; /* "kernel_metric::DRAM_READ_BW" */
	const char *title;
	unsigned nvariants;
	struct stat_kvariant v[STAT_KMAX_VARIANTS];
};

/* A kernel metric on the counted machine: its terms' event names and the
 * bytes of one count of each. */
struct stat_kresolved {
	unsigned nterms;
	char event[STAT_KMAX_TERMS][128]; /* "uncore_imc::cas_count_read" */
	double bytes[STAT_KMAX_TERMS];
};

/* The groups as a catalog, for listing and lookup; its platform names the
 * processor seen (the simulated kernel when `simulated`). */
const struct uncore_metric_catalog *stat_kgroups_catalog(int simulated);

/* The kernel metric called `name` (any case), or NULL. */
const struct stat_kmetric *stat_kmetric_find(const char *name);

/* Resolve m on the counted machine (our library's view of the kernel's
 * PMUs): the first variant whose aliases all exist, the bytes of a count
 * from each alias's .scale and .unit as the kernel publishes them (MiB =
 * 2^20 bytes, MB = 10^6, ...).  0; -1 with the reason in err (no such
 * PMU or alias, not a byte unit, or a kernel whose alias is known to
 * count part of the traffic on this processor). */
int stat_kmetric_resolve(const struct stat_kmetric *m, struct stat_kresolved *out, char *err,
			 size_t len);

/* Release what stat_kterm_bytes opened. */
void stat_kgroups_close(void);

#endif
