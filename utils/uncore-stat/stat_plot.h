/* --plot: a picture of an interval run (-I), as an SVG file any browser
 * shows.  Every event (as a rate, per second, or in bytes/s when its
 * counts move bytes: stat_units.h) and every metric (in its
 * units) gets one panel with one line per socket over time; the title names
 * the command and the backend (SIMULATED when it is), and a last interval
 * shorter than the others is drawn dashed and labelled.  Written by hand
 * (no plotting program needed on the node; README.md says why).  The data
 * come from the reports as they are printed, or from a CSV that -I --csv
 * saved (--plot-from). */
#ifndef UNCORE_STAT_PLOT_H
#define UNCORE_STAT_PLOT_H

#include <stdio.h>

#include "stat_output.h"

struct stat_plot;

/* A new, empty plot; NULL when out of memory. */
struct stat_plot *stat_plot_new(void);
void stat_plot_free(struct stat_plot *p);

/* Record one report: intervals are drawn, the run's total is not. */
void stat_plot_add(struct stat_plot *p, const struct stat_report *r);

/* Read a CSV written by uncore-stat -I --csv (one schema for events and
 * metrics: "kind,time_s,seconds,type,group,name,socket,value,units,
 * simulated,partial").  0, or -1 with the reason. */
int stat_plot_read_csv(struct stat_plot *p, FILE *f, char *err, size_t len);

/* Write the SVG.  interval_s: the intended interval (0: take the longest
 * span seen), to tell a short last interval.  0, or -1 with the reason. */
int stat_plot_write(const struct stat_plot *p, const char *path, double interval_s, char *err,
		    size_t len);

#endif
