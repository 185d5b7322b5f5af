/* The counting side of uncore-stat, through PAPI's public API only: the
 * user's events become PAPI events of the intel_uncore component (an event
 * that names no socket is added once per socket with :socket=N, so it can be
 * shown per socket; its total is their sum), are started, read and stopped,
 * and each reading becomes rows (struct stat_row) for the output. */
#ifndef UNCORE_STAT_COUNTERS_H
#define UNCORE_STAT_COUNTERS_H

#include <stdint.h>

#include "stat_opts.h"

#define STAT_MAX_SOCKETS 8
#define STAT_MAX_PAPI    1024 /* PAPI events after per-socket expansion */

/* One event as the user named it. */
struct stat_event {
	const char *name;
	int socket;   /* the socket it names (:socket=N), or -1 */
	int expanded; /* counted once per socket (":socket=N" added) */
	unsigned n;   /* its PAPI events: papi[0..n), one per socket when expanded */
	unsigned papi[STAT_MAX_SOCKETS];
};

/* One line of a report: an event (or, with the metrics library, a derived
 * metric) per socket and in total. */
struct stat_row {
	const char *name;
	uint32_t sockets; /* bit s: count[s] is known */
	uint64_t count[STAT_MAX_SOCKETS];
	uint64_t total;
};

struct stat_counters {
	int eventset;
	int cidx;         /* intel_uncore's component index */
	char origin[256]; /* the component's description */
	int simulated;    /* the counts come from the simulator */
	unsigned nsockets;
	unsigned nevents;
	struct stat_event ev[STAT_MAX_EVENTS];
	unsigned npapi;
	char *papi_names[STAT_MAX_PAPI];
	long long values[STAT_MAX_PAPI];
};

/* Initialise PAPI (the environment must already select the backend), find
 * intel_uncore, and add the events.  0; STAT_EXIT_USAGE when an event is
 * bad (the reason printed on stderr); 1 on other failures (printed). */
int stat_counters_open(struct stat_counters *c, const struct stat_opts *o);

int stat_counters_start(struct stat_counters *c);

/* Counts since start into out[0..npapi). 0 or 1 (error printed). */
int stat_counters_read(struct stat_counters *c, long long *out);

/* Final counts, then stop. 0 or 1 (error printed). */
int stat_counters_stop(struct stat_counters *c, long long *out);

void stat_counters_close(struct stat_counters *c);

/* Rows of the events from `now - before` (before may be NULL: from zero). */
void stat_counters_rows(const struct stat_counters *c, const long long *now,
			const long long *before, struct stat_row *rows);

#endif
