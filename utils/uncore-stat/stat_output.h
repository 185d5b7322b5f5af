/* Reports of uncore-stat in three formats: text (a table per socket and in
 * total), CSV and JSON lines.  A report is a list of rows over one span of
 * time: an interval (-I) or the whole run.  Every format says SIMULATED when
 * the counts come from the simulator.  Rows are plain data (stat_row), so
 * the metrics of -g groups (stat_metric_row) have their own shapes. */
#ifndef UNCORE_STAT_OUTPUT_H
#define UNCORE_STAT_OUTPUT_H

#include <stdio.h>

#include "stat_counters.h"

struct stat_plot;
#include "stat_opts.h"

struct stat_report {
	const char *origin; /* the component's description */
	int simulated;
	unsigned nsockets;
	const char *command; /* "sleep 1", or NULL for an interval without command */
	int final;           /* 1: the whole run; 0: one interval of -I */
	int partial;         /* an interval shorter than -I: the last one */
	int whole_run_note;  /* final of -I with metrics: their whole-run values are
			      * rates over the run or NaN (stat_run.c) */
	/* final with metrics whose terms take turns: the set's settings (> 1)
	 * and the reads of the run (each switches them); 0: none. */
	unsigned mux_settings, mux_reads;
	double mux_poll_ms; /* how often it was read to switch them */
	double at;           /* seconds since the start, at the end of the span */
	double seconds;      /* length of the span */
	int sim_time;        /* times are on the simulator's clock (a shared instance) */
	/* NULL, or the component's notice of a read in the span that came too
	 * late for a counter's wraps ("may have lost N wraps of ...",
	 * bind/notices.h): said in the span's report, in every format. */
	const char *notice;
	/* NULL, or why the span's counts are not known (issue 29): its read
	 * failed ("PAPI_read: a read failed: <register> ..."; the rows are
	 * left out and the next interval's counts cover this span too), or
	 * the run ended on a fault that persisted.  A row of type "fault" in
	 * CSV, "fault" in JSON, a "!!" line in text. */
	const char *fault;
	unsigned nrows;
	const struct stat_row *rows;
	/* Metric groups (-g): groups[0..ngroups) index mrows. */
	unsigned ngroups;
	const struct stat_group_view *groups;
	const struct stat_metric_row *mrows;
};

struct stat_output {
	enum stat_format format;
	FILE *f;
	int own; /* f was opened by us */
	int header_done;
	int metric_header_done;
	int partial_seen;       /* a partial last interval was reported */
	double partial_seconds; /* its length */
	struct stat_plot *plot; /* --plot: every report is also recorded here */
};

/* Open the destination: path NULL = stderr (perf stat's habit: the command
 * keeps stdout), "-" = stdout.  0 or -1 (message printed). */
int stat_output_open(struct stat_output *out, enum stat_format format, const char *path);
void stat_output_report(struct stat_output *out, const struct stat_report *r);
void stat_output_close(struct stat_output *out);

#endif
