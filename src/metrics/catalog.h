/* The metric catalog of a platform: everything one metrics/<platform>.metrics
 * file declares (metrics with the manual's formula text, the filter
 * registers and control bits the notation names, constants, box clocks,
 * groups), parsed once from the text embedded in the library and never
 * changed afterwards.  The file format is described in src/metrics/README.md. */
#ifndef UNCORE_METRICS_CATALOG_H
#define UNCORE_METRICS_CATALOG_H

#include <stdint.h>

#include "events/registry.h"

/* One metric as listed: a manual symbol with its variable substituted
 * (PCT_CYCLES_DRAM_RANK3_IN_CKE), or one of our summaries. */
struct uncore_metric_def {
	const char *name;
	const char *box;     /* box kind ("imc"), or NULL for a platform summary */
	const char *pmu;     /* native-event PMU: the box type's name or the summary PMU */
	const char *section; /* "HSX 2.6.6" */
	const char *title;   /* the manual's definition */
	const char *units;
	const char *formula;  /* the manual's equation, verbatim */
	const char *expr;     /* what is evaluated: fix, uncore part or formula */
	const char *decision; /* our reading where the manual is wrong or unclear, or "" */
	const char *combine;  /* uncore part of a metric needing a core event: how to finish it */
	const char *unavailable; /* cannot be measured on this platform: why (NULL: it can) */
	unsigned line;           /* of the stanza in the file */
};

/* A filter register as the notation names it, bound to a box filter. */
struct uncore_metric_field {
	const char *name; /* "opc" */
	uint64_t mask;    /* in the register's own bit numbering */
	int raw;          /* may be programmed directly when no modifier or unit mask
			   * sets it (the event always applies it, per the manual) */
};

#define UNCORE_METRIC_MAX_FIELDS 12
#define UNCORE_METRIC_MAX_ALIAS  4

struct uncore_metric_reg {
	const char *name; /* "Cn_MSR_PMON_BOX_FILTER1" */
	const char *box;  /* box kind */
	int filter;       /* index in the box type's filters[]; -1 for an alias */
	unsigned shift;   /* where the register sits in that 64-bit filter value */
	int whole;        /* unspecified fields are 0 (match/mask pairs) */
	unsigned nfields;
	struct uncore_metric_field fields[UNCORE_METRIC_MAX_FIELDS];
	unsigned nalias; /* alias: the registers that may hold the field */
	const char *alias[UNCORE_METRIC_MAX_ALIAS];
};

struct uncore_metric_control {
	const char *name; /* the manual's control-bit name: "edge_det" */
	const char *mod;  /* our modifier: "e" */
};

struct uncore_metric_const {
	const char *name;
	const char *expr;
};

struct uncore_metric_clock {
	const char *box;   /* kind */
	const char *event; /* its clock event, as the manual names it */
};

/* A constant counting box instances: QPI_LINKS, IMC_CHANNELS (1.7.1). */
struct uncore_metric_count {
	const char *name;
	const char *box;
};

struct uncore_metric_group {
	const char *name;
	const char *title;
	unsigned nmembers;
	const char **members; /* native event names */
};

struct uncore_metric_catalog {
	const char *platform; /* "hswep" */
	const char *file;
	const char *manual;      /* short name of the manual, for sections */
	const char *summary_pmu; /* "hswep_metric" */
	const struct uncore_event_platform *plat;
	unsigned ndefs, nregs, ncontrols, nconsts, nclocks, nspread, ngroups, ncounts;
	struct uncore_metric_def *defs;
	struct uncore_metric_reg *regs;
	struct uncore_metric_control *controls;
	struct uncore_metric_const *consts;
	struct uncore_metric_clock *clocks;
	struct uncore_metric_count *counts;
	const char **spread;        /* box kinds whose instances share traffic evenly */
	const char **spread_reason; /* the manual's reason, for the event info */
	struct uncore_metric_group *groups;
	char **pool; /* every string above, NULL-terminated */
};

/* Parse one metric file.  0 and a catalog (free with
 * uncore_metric_catalog_free), or UNCORE_ESYNTAX naming file and line. */
int uncore_metric_catalog_parse(const char *file, const char *text,
				struct uncore_metric_catalog **out);
void uncore_metric_catalog_free(struct uncore_metric_catalog *c);

/* The catalog of a built-in platform, parsed from its embedded file the
 * first time the platform is asked for (never, in a process that does not
 * use it) and kept for the life of the process.  0, UNCORE_ENOEVENT when
 * the platform has no metrics, or the parse error of a broken file. */
int uncore_metric_catalog_get(const struct uncore_event_platform *plat,
			      const struct uncore_metric_catalog **out);

/* Built-in metric file i (0, 1, ...: in the order embedded), parsed now
 * if it was not: *file its name and 0 with *out, UNCORE_ERANGE past the
 * last file, or its parse error.  For the tests that check every file. */
int uncore_metric_catalog_builtin(unsigned i, const char **file,
				  const struct uncore_metric_catalog **out);

/* How many built-in files have been parsed so far (start-up costs nothing
 * until metrics of a platform are used: tests and benchmarks check it). */
unsigned uncore_metric_catalog_nparsed(void);

/* 1 when catalog c holds the metrics of platform `plat`: its own, or one
 * a backend built around the same tables (same name: the perf backend's
 * tables plus the kernel's PMUs); else 0. */
int uncore_metric_catalog_serves(const struct uncore_metric_catalog *c,
				 const struct uncore_event_platform *plat);

/* Lookups (names compared without regard to case).  NULL when absent. */
const struct uncore_metric_def *uncore_metric_def_find(const struct uncore_metric_catalog *c,
						       const char *box, const char *name);
const struct uncore_metric_reg *uncore_metric_reg_find(const struct uncore_metric_catalog *c,
						       const char *name);
const struct uncore_metric_const *uncore_metric_const_find(const struct uncore_metric_catalog *c,
							   const char *name);
const char *uncore_metric_control_mod(const struct uncore_metric_catalog *c, const char *name);
const char *uncore_metric_count_box(const struct uncore_metric_catalog *c, const char *name);
const char *uncore_metric_clock_event(const struct uncore_metric_catalog *c, const char *box);
/* The spread reason of a box kind, or NULL when its instances may differ. */
const char *uncore_metric_spread_reason(const struct uncore_metric_catalog *c, const char *box);

/* The box type of kind `kind` ("imc", any case) on the catalog's platform. */
const struct uncore_box_type *uncore_metric_box(const struct uncore_metric_catalog *c,
						const char *kind);

#endif
