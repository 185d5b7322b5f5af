/* Event sets: what the PAPI component's control state holds.  A set is a
 * list of event strings, validated together (parsed, encoded, scheduled) on
 * every change so that a bad or conflicting event is refused at add time
 * with the reason.  While running it folds each counter's raw readings into
 * 64-bit totals (core/counter_fold.h), so counts survive wraparound, and an
 * event's value is the sum of its counters over boxes and sockets. */
#ifndef UNCORE_CORE_EVENTSET_H
#define UNCORE_CORE_EVENTSET_H

#include <stdint.h>

#include "backend/backend.h"

struct uncore_set;

/* A set counting through backend `be` (not owned; it must outlive the set). */
int uncore_set_create(struct uncore_backend *be, struct uncore_set **out);
void uncore_set_destroy(struct uncore_set *s);

/* Replace the set's events by `names[0..n)`.  All or nothing: on error the
 * set keeps its previous events and the detail names the failing event and
 * why.  Not while running (UNCORE_ESTATE). */
int uncore_set_assign(struct uncore_set *s, const char *const *names, unsigned n);

/* Add one event at the end (same rules as assign).  On success *index is
 * its position. */
int uncore_set_add(struct uncore_set *s, const char *name, unsigned *index);

unsigned uncore_set_count(const struct uncore_set *s);

/* Program and start counting from zero. */
int uncore_set_start(struct uncore_set *s);

/* Current totals, one per event, in the order of the set. */
int uncore_set_read(struct uncore_set *s, uint64_t *values);

/* Final totals (values may be NULL), then stop and release the boxes. */
int uncore_set_stop(struct uncore_set *s, uint64_t *values);

/* Zero the totals; counting continues if running. */
int uncore_set_reset(struct uncore_set *s);

int uncore_set_running(const struct uncore_set *s);

/* Whether event `e` was counted all the time (perf backend: the kernel may
 * multiplex uncore groups), as of the last read: the enabled and running
 * times of its least-counted slot; scaled = 1 when running < enabled, its
 * value then being the count scaled by enabled / running (perf(1)'s rule).
 * Backends that always count report scaled = 0 and zero times. */
struct uncore_event_status {
	uint64_t time_enabled, time_running;
	int scaled;
};
int uncore_set_event_status(struct uncore_set *s, unsigned e, struct uncore_event_status *out);

/* The plan of the current events (NULL when empty), for --explain output. */
const struct uncore_plan *uncore_set_plan(const struct uncore_set *s);

#endif
