/* The events the PMPI library counts: PAPI_INTEL_UNCORE_MPI_EVENTS, event
 * names and metric group names separated by ';'.  A group (uncore-stat -g's
 * groups, metrics/<platform>.metrics) stands for its member metrics; everything
 * else is an event or metric name, kept exactly as given (the report keys
 * its totals by it). */
#ifndef UNCORE_MPI_EVENTS_H
#define UNCORE_MPI_EVENTS_H

#include <stddef.h>

#define UMPI_MAX_EVENTS 64

struct umpi_events {
	unsigned n;
	char *name[UMPI_MAX_EVENTS]; /* as given, or a group's member */
};

/* Split and expand `spec`.  0, or -1 with `err` saying what was wrong
 * (empty list, too many events). */
int umpi_events_parse(const char *spec, struct umpi_events *out, char *err, size_t len);
void umpi_events_free(struct umpi_events *ev);

/* The i-th platform's <summary PMU>::COUNTING_TIME (src/metrics/README.md,
 * "What a read returns"), for i = 0, 1, ... until it returns -1: the time
 * base of a set's interval values, tried in turn (only the machine's own
 * platform's is added). */
int umpi_counting_time_name(unsigned i, char *out, size_t len);

#endif
