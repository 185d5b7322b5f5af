/* A name resolved once.  Every path that takes an event or metric name from
 * a user (PAPI_add_named_event, a native code, uncore-stat's -e) turns it
 * into an entry here, and from then on passes the entry, never the string:
 * the box type, instance, socket, unit masks, modifiers and encoding of a
 * table event (or a backend's own event, such as a kernel PMU's), or the
 * catalog definition and qualifiers of a metric. */
#ifndef UNCORE_EVENTSET_RESOLVE_H
#define UNCORE_EVENTSET_RESOLVE_H

#include "events/parse.h"
#include "metrics/metrics.h"
#include "plan/sched.h"

struct uncore_event_source;

enum uncore_entry_kind {
	UNCORE_ENTRY_EVENT = 0, /* ev: a counted event */
	UNCORE_ENTRY_METRIC,    /* metric: computed from counted terms */
};

struct uncore_entry {
	enum uncore_entry_kind kind;
	int from_source;                 /* EVENT from the backend's event source (kernel PMU) */
	struct uncore_sched_event ev;    /* EVENT: ref and encoding; ev.name is not set */
	struct uncore_metric_ref metric; /* METRIC */
	char name[UNCORE_EVENT_MAX_LEN + 1]; /* as the user gave it, for messages and listings */
};

/* Resolve `name` against the backend's event source `src` (NULL: none),
 * then the tables of `plat`, then its metrics, in that order.  0 and *out,
 * or the error of the first place that knows the name (UNCORE_ENOEVENT with
 * the tables' detail when none does). */
int uncore_resolve(const struct uncore_event_platform *plat, struct uncore_event_source *src,
		   const char *name, struct uncore_entry *out);

/* The same for a name already in our spelling (events/spelling.h: the
 * caller spelled it, as uncore_native_code does for its own lookups), so
 * that it is spelled once.  entry.name is then the spelled name. */
int uncore_resolve_spelled(const struct uncore_event_platform *plat,
			   struct uncore_event_source *src, const char *name,
			   struct uncore_entry *out);

#endif
