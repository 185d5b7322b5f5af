/* Command-line options of uncore-stat: what to count, where (hardware or the
 * simulator), for how long, and how to print it.  Parsing only: no PAPI, no
 * side effects, so the option rules are easy to change and to test. */
#ifndef UNCORE_STAT_OPTS_H
#define UNCORE_STAT_OPTS_H

#include <stddef.h>
#include <stdio.h>

#define STAT_MAX_EVENTS 256 /* events named with -e (before per-socket expansion) */

enum stat_format { STAT_TEXT = 0, STAT_CSV, STAT_JSON };

struct stat_opts {
	const char *events[STAT_MAX_EVENTS]; /* -e, split at commas, in our spelling */
	unsigned nevents;
	char *event_buf[STAT_MAX_EVENTS]; /* the events' strings (freed by stat_opts_free) */
	unsigned nbufs;
	const char *groups[16]; /* -g: metric groups (or "list") */
	unsigned ngroups;
	int sim;                  /* --sim */
	const char *sim_model;    /* --sim-model: model name or instance path */
	const char *sim_kernel;   /* --sim-kernel: perf, or a shape (spr, skx, icx, gnr) */
	const char *sim_scenario; /* --sim-scenario: file, or a name in the scenario directory */
	int explain;              /* --explain: print what would be programmed, count nothing */
	enum stat_format format;  /* --csv, --json */
	long interval_ms;         /* -I: print every interval (0: only at the end) */
	double seconds;           /* -t: measure this long without a command (0: until SIGINT) */
	const char *output;       /* -o FILE ("-": stdout); default stderr, like perf stat */
	int no_expand;            /* --no-per-socket: do not add :socket=N columns */
	char **argv;              /* the command, NULL-terminated; NULL: interval mode */
	const char *plot;         /* --plot FILE.svg: draw the -I intervals */
	const char *plot_from;    /* --plot-from FILE.csv: draw a saved -I CSV, count nothing */
	int version;              /* --version */
	int list_events;          /* --list-events: the component's event names (completion) */
	const char *list_masks;   /* --list-masks EVENT: its unit masks and qualifiers (completion) */
};

/* Exit status of usage errors (bad options, bad events). */
#define STAT_EXIT_USAGE 2

/* Parse argv.  0 on success; 1 when the usage (--help) or the version
 * (--version, o->version set) is to be printed, exit 0; -1 on a usage
 * error, with the message in err. */
int stat_opts_parse(int argc, char **argv, struct stat_opts *o, char *err, size_t errlen);

void stat_opts_free(struct stat_opts *o);

void stat_usage(FILE *f);

#endif
