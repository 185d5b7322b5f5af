/* Derived metrics as native events: names ("hswep_unc_imc::MEM_BW_READS",
 * "hswep_metric::DRAM_BW:socket=1"), descriptions for listings, and named
 * groups (MEM, LLC, QPI, IO, POWER, per box) for tools such as uncore-stat.
 * Definitions come from metrics/<platform>.metrics (catalog.h); a metric
 * is measured by compiling it for a machine (compile.h), which the event
 * set does (eventset/eventset.h).  See src/metrics/README.md. */
#ifndef UNCORE_METRICS_METRICS_H
#define UNCORE_METRICS_METRICS_H

#include <stddef.h>

#include "metrics/catalog.h"

/* A metric named with its qualifiers. */
struct uncore_metric_ref {
	const struct uncore_metric_catalog *cat;
	const struct uncore_metric_def *def;
	int socket;   /* :socket=N, or UNCORE_ALL */
	int instance; /* :box=N (the metric's own box), or UNCORE_ALL */
	int integer;  /* :int: the integer form (uncore_metric_int_units) */
	int amount;   /* :amount: a rate's amount form (uncore_metric_amount_units) */
	/* :run: the metric over the whole time since start or reset (not
	 * since the previous read): a tool's whole-run value of a ratio or
	 * latency when it reads several times (src/metrics/README.md, "What a
	 * read returns"). */
	int run;
};

/* Whether a metric in `units` is an amount (bytes, requests: a sum of
 * counts times constants, read as a running sum since start or reset) or
 * not (a rate, a ratio, a latency: read over the interval since the
 * previous read).  src/metrics/README.md, "What a read returns";
 * test_catalog checks the rule against every formula. */
int uncore_metric_units_amount(const char *units);

/* The amount form of a rate ("PMU::NAME:amount", units ending in "/s"):
 * the rate times the time since start or reset, a running sum, in the
 * rate's units without "/s" (GB/s: GB).  0 and the units, or
 * UNCORE_ENOSUPP for a metric that is no rate. */
int uncore_metric_amount_units(const char *units, char *units_out, size_t len);

/* The integer form of a metric ("PMU::NAME:int"), for tools that read
 * every value as a long long (PAPI's high-level API, TAU): the double value
 * times `*scale`, rounded to the nearest integer, in `units_out`.  The
 * scale is chosen by the metric's units so that rounding loses nothing a
 * tool shows: GB/s as MB/s (10^6 bytes/s), GT/s as MT/s, MHz as kHz, ns as
 * ps, fractions and ratios as parts per million, counts and bytes as they
 * are (src/metrics/README.md, "Integer forms"). */
void uncore_metric_int_units(const char *units, double *scale, char *units_out, size_t len);

/* Parse "PMU::NAME[:socket=N][:box=N][:amount|:run][:int]" (names without regard to case;
 * ":socketN" and ":boxN" also, without '=', for tools that give '=' a
 * meaning of their own, such as the high-level API's "=instant") as a
 * metric of platform `plat`.  0; UNCORE_ENOEVENT when PMU::NAME is no
 * metric at all (the caller reports its own "unknown event"); when it is a
 * metric but cannot be used: UNCORE_ENOSUPP (a metric of another platform,
 * or unavailable here: the detail says why), UNCORE_ESYNTAX or
 * UNCORE_ERANGE (qualifiers). */
int uncore_metric_parse(const struct uncore_event_platform *plat, const char *name,
			struct uncore_metric_ref *out);

/* "pmu::NAME" of a definition. */
int uncore_metric_name(const struct uncore_metric_def *d, char *buf, size_t len);

/* One paragraph for listings: definition, units, the manual's formula and
 * section, what is evaluated when it differs, decisions, how it is
 * aggregated, how to finish an uncore part with the CPU component. */
int uncore_metric_describe(const struct uncore_metric_catalog *cat,
			   const struct uncore_metric_def *d, char *buf, size_t len);

/* Named groups of a catalog. */
unsigned uncore_metric_group_count(const struct uncore_metric_catalog *cat);
const struct uncore_metric_group *uncore_metric_group_at(const struct uncore_metric_catalog *cat,
							 unsigned i);
/* By name, any case; NULL with UNCORE_ENOEVENT in the detail (listing the
 * groups) when absent. */
const struct uncore_metric_group *uncore_metric_group_find(const struct uncore_metric_catalog *cat,
							   const char *name);

#endif
