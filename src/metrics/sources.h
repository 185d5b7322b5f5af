/* The metric definition files (metrics/<platform>.metrics) compiled into the
 * library: the generated build/gen/metrics/metrics_data.c (made by
 * scripts/embed-metrics.py) defines this table, one entry per file,
 * terminated by an entry with file == NULL. */
#ifndef UNCORE_METRICS_SOURCES_H
#define UNCORE_METRICS_SOURCES_H

struct uncore_metric_source {
	const char *file; /* "hswep.metrics" */
	const char *text; /* the whole file */
};

extern const struct uncore_metric_source uncore_metric_sources[];

#endif
