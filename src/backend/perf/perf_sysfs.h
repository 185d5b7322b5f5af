/* The kernel's perf PMUs as sysfs describes them under
 * /sys/bus/event_source/devices (the root is a parameter so tests use fake
 * trees): each PMU's type number, cpumask (the CPU per socket its events
 * must be opened on), format fields and event aliases (events/<name> with
 * optional .scale and .unit).  Read once; plain data afterwards. */
#ifndef UNCORE_BACKEND_PERF_SYSFS_H
#define UNCORE_BACKEND_PERF_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#include "backend/perf/perf_format.h"

#define UNCORE_PERF_PMU_ROOT "/sys/bus/event_source/devices"

struct uncore_perf_alias {
	char name[64];
	char terms[192]; /* "event=0x04,umask=0x03" */
	char scale[40];  /* "6.103515625e-5", or "" */
	char unit[24];   /* "MiB", or "" */
};

struct uncore_perf_pmu {
	char name[64];
	uint32_t type;
	int has_cpumask;   /* cpumask (or cpus) file present */
	char cpumask[512]; /* its CPU list, "" when absent */
	unsigned nfields;
	struct uncore_perf_field *fields;
	unsigned naliases;
	struct uncore_perf_alias *aliases;
};

struct uncore_perf_sysfs {
	char root[256];
	/* From uncore_perf_sysfs_list: names and alias counts only (no type
	 * but the software PMU's, no cpumask, fields or aliases). */
	int listed_only;
	unsigned npmus;
	struct uncore_perf_pmu *pmus; /* sorted by name, numbers in numeric order */
};

/* Read every PMU under `root` (NULL: UNCORE_PERF_PMU_ROOT).  0, or
 * UNCORE_ENODEV (no such directory: the kernel has no perf_event), or
 * UNCORE_ENOMEM.  A PMU whose files cannot be parsed is skipped (its
 * formats or aliases are what make it usable). */
int uncore_perf_sysfs_read(const char *root, struct uncore_perf_sysfs **out);
void uncore_perf_sysfs_free(struct uncore_perf_sysfs *s);

/* What start-up needs and no more: the PMUs under `root` by name, each
 * countable one with the number of aliases its events/ lists in naliases
 * (aliases stays NULL).  Opens directories, not files, so that a program
 * that never counts a kernel event pays no more (bench/README.md,
 * start-up); uncore_perf_sysfs_read reads the rest when it is used.
 * Errors as uncore_perf_sysfs_read. */
int uncore_perf_sysfs_list(const char *root, struct uncore_perf_sysfs **out);

/* The PMU called `name` (exact), or NULL. */
const struct uncore_perf_pmu *uncore_perf_sysfs_find(const struct uncore_perf_sysfs *s,
						     const char *name);

/* The format field `name` of `pmu`, or NULL. */
const struct uncore_perf_field *uncore_perf_pmu_field(const struct uncore_perf_pmu *pmu,
						      const char *name);

/* The event alias `name` of `pmu` (any case), or NULL. */
const struct uncore_perf_alias *uncore_perf_pmu_alias(const struct uncore_perf_pmu *pmu,
						      const char *name);

/* Add the terms "event=0x04,umask=0x03,edge" (format fields by name, bare
 * name = 1; config, config1, config2 as raw words) to cfg[0..2].  0, or
 * UNCORE_ENOMOD (unknown field: the detail lists the PMU's fields),
 * UNCORE_ERANGE (value too wide for its field), UNCORE_ESYNTAX. */
int uncore_perf_pmu_add_terms(const struct uncore_perf_pmu *pmu, const char *terms,
			      uint64_t cfg[UNCORE_PERF_NCONFIG]);

/* "event,umask,edge,..." : the PMU's format field names, for messages. */
void uncore_perf_pmu_field_list(const struct uncore_perf_pmu *pmu, char *buf, size_t len);

/* Whether a PMU can count system-wide by config words alone; if not, *why
 * says what it is (tracepoints, probes, breakpoints, trace units). */
int uncore_perf_pmu_countable(const struct uncore_perf_pmu *pmu, const char **why);

/* Compare PMU names with embedded numbers in numeric order (uncore_imc_2 <
 * uncore_imc_10). */
int uncore_perf_name_cmp(const char *a, const char *b);

#endif
