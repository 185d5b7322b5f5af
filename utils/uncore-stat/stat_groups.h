/* Metric groups (-g) of uncore-stat: the catalog of the platform the
 * component counts on (Haswell-EP on the simulator, else CPUID), group
 * lookup and listing (-g list), and --explain's metric lines (method and
 * description, from our library).  Counting them is stat_counters' job:
 * metrics are PAPI events whose values are doubles (PAPI_DATATYPE_FP64). */
#ifndef UNCORE_STAT_GROUPS_H
#define UNCORE_STAT_GROUPS_H

#include <stddef.h>
#include <stdio.h>

#include "stat_opts.h"

struct uncore_metric_catalog;
struct uncore_metric_group;

/* The metric catalog of the counted platform: `simulated` (the component's
 * description says SIMULATED) means Haswell-EP, else the CPU's platform.
 * 0; -1 with the reason in err (no platform, or no metrics on it). */
int stat_groups_catalog(int simulated, const struct uncore_metric_catalog **cat, char *err,
			size_t len);

/* "MEM, LLC, ..." into buf. */
void stat_groups_names(const struct uncore_metric_catalog *cat, char *buf, size_t len);

/* -g list: every group, its title and members. */
void stat_groups_list(const struct uncore_metric_catalog *cat, FILE *f);

/* Whether -g list was asked for. */
int stat_groups_want_list(const struct stat_opts *o);

/* The groups of o->groups, in order, into out[0..o->ngroups).  0; -1 with
 * the message (naming the groups there are) in err. */
int stat_groups_find(const struct uncore_metric_catalog *cat, const struct stat_opts *o,
		     const struct uncore_metric_group **out, char *err, size_t len);

/* --explain for the groups of `o`: each member's method (how it is measured
 * on this machine, its error bound, multiplexing) and description.  Exit
 * status: 0, STAT_EXIT_USAGE, 1. */
int stat_groups_explain(const struct stat_opts *o, FILE *out);

#endif
