/* Event sets: what the PAPI component's control state holds.  A set is a
 * list of event strings and metric names (metrics/metrics.h), validated
 * together (parsed, encoded, compiled, scheduled) on every change so that
 * a bad or conflicting entry is refused at add time with the reason.
 *
 * An event's value is the sum of its counters over boxes and sockets, a
 * 64-bit count that survives wraparound (eventset/counter_fold.h).  A metric is
 * a composite entry: its terms are counted as events of the set and its
 * value, a double, is computed from them at every read; its bits are
 * returned in the uint64_t slot (the way PAPI passes PAPI_DATATYPE_FP64
 * values).  Terms that need different settings of one box are spread over
 * box instances or time-multiplexed: a set with multiplexed terms switches
 * settings at every read (uncore_set_read). */
#ifndef UNCORE_EVENTSET_EVENTSET_H
#define UNCORE_EVENTSET_EVENTSET_H

#include <stdint.h>
#include <string.h>

#include "backend/backend.h"
#include "eventset/clock.h"
#include "eventset/resolve.h"

struct uncore_set;

/* A set counting through backend `be` (not owned; it must outlive the set),
 * timed with the host clock until uncore_set_clock() says otherwise. */
int uncore_set_create(struct uncore_backend *be, struct uncore_set **out);
/* The same timed with `clock` (copied; NULL: the host clock), as
 * uncore_set_create and then uncore_set_clock. */
int uncore_set_create_clocked(struct uncore_backend *be, const struct uncore_clock *clock,
			      struct uncore_set **out);
void uncore_set_destroy(struct uncore_set *s);

/* The clock for intervals and multiplexing (copied). */
void uncore_set_clock(struct uncore_set *s, const struct uncore_clock *clock);

/* The set's clock (what its poller keeps time by). */
const struct uncore_clock *uncore_set_get_clock(const struct uncore_set *s);

/* Resolve a name against the set's backend (its own events first) and
 * platform (resolve.h): what the entry functions below take. */
int uncore_set_resolve(const struct uncore_set *s, const char *name, struct uncore_entry *out);

/* Replace the set's entries by entries[0..n) (copied).  All or nothing: on
 * error the set keeps its previous entries and the detail names the failing
 * entry and why.  Not while running (UNCORE_ESTATE). */
int uncore_set_assign_entries(struct uncore_set *s, const struct uncore_entry *entries, unsigned n);

/* The same from names: each resolved once, then assigned. */
int uncore_set_assign(struct uncore_set *s, const char *const *names, unsigned n);

/* Add one entry at the end (same rules as assign).  On success *index is
 * its position. */
int uncore_set_add_entry(struct uncore_set *s, const struct uncore_entry *entry, unsigned *index);
int uncore_set_add(struct uncore_set *s, const char *name, unsigned *index);

unsigned uncore_set_count(const struct uncore_set *s);

/* Entry i as resolved (NULL past the end). */
const struct uncore_entry *uncore_set_entry(const struct uncore_set *s, unsigned i);

/* PAPI_CPU_ATTACH: from now on every entry that names no socket (no
 * :socket=, no :cpu=) counts only the socket of CPU `cpu`, as ":cpu=N"
 * would; -1 lifts it.  Entries already in the set are checked again (all or
 * nothing).  UNCORE_ENODEV for a CPU this machine lacks (the detail gives
 * the valid range), UNCORE_ESTATE while running. */
int uncore_set_attach_cpu(struct uncore_set *s, int cpu);

/* The CPU the set is attached to, or -1. */
int uncore_set_attached_cpu(const struct uncore_set *s);

/* Program and start counting from zero. */
int uncore_set_start(struct uncore_set *s);

/* Current values, one per entry, in the order of the set; then, if the set
 * has time-multiplexed terms, switch to the next setting.  On an error of
 * the backend's read the values are still filled, with every counter that
 * could be read (the others as of their last read). */
int uncore_set_read(struct uncore_set *s, uint64_t *values);

/* A read by the poller (eventset/poller.h), to fold the counters: the
 * same as uncore_set_read, without the freeze around the backend's reads
 * (which would stop counting for their duration); 0 when not running. */
int uncore_set_poll(struct uncore_set *s, uint64_t *values);

/* Bring what the next read returns up to now, where the backend's plain
 * reads are of a published sample (backend.h, sample: the service
 * backend); nothing to do elsewhere.  PAPI_stop's final read calls it. */
int uncore_set_sample(struct uncore_set *s);

/* Final values (values may be NULL), then stop and release the boxes. */
int uncore_set_stop(struct uncore_set *s, uint64_t *values);

/* Zero the totals; counting continues if running. */
int uncore_set_reset(struct uncore_set *s);

int uncore_set_running(const struct uncore_set *s);

/* Whether some counts may be short since start or reset: 0, or the error
 * of the fault that may have cost counts (a counter the stop's final read
 * could not read, a socket whose unfreeze failed and that stopped counting
 * until a later read), with *detail saying what (NULL: not wanted).  The
 * operation that met the fault returned that error itself; reads and stops
 * of a set stopped with counters unread keep returning it. */
int uncore_set_short(const struct uncore_set *s, const char **detail);

/* The notices since start (README "Nothing lost"): how many reads (any:
 * the caller's, the poller's, the stop's) came later after the previous
 * reading than one of the set's counters can wrap in at its fastest rate,
 * so that its count may lack whole wraps (the values are returned all the
 * same), or failed (the read returned its error; "a read failed: <the
 * detail, naming the register>", "the stop failed: ..."); *last (when not
 * NULL) says the last one's words ("may have lost 25 wraps of ...").  The
 * hint is the count's address, for a caller's one test per read. */
unsigned uncore_set_notices(const struct uncore_set *s, const char **last);
const unsigned *uncore_set_notice_hint(const struct uncore_set *s);

/* How often the set must be read while running so that no counter wraps
 * twice between reads (the backend's max_read_interval): *ns, or
 * UINT64_MAX when no counter of the set can wrap within hours.  A poller
 * reading at least this often keeps every total exact. */
int uncore_set_max_read_interval(const struct uncore_set *s, uint64_t *ns);

/* What an entry is. */
struct uncore_set_entry_info {
	int metric;         /* 1: a metric, its value a double (PAPI_DATATYPE_FP64) */
	int integer;        /* 1: the metric's integer form (":int"), its value an int64 */
	const char *units;  /* metric units, "" for events (counts) */
	/* 1: the value is a running sum since start or reset (events, amounts,
	 * amount forms; PAPI_VALUETYPE_RUNNING_SUM); 0: a metric's value over
	 * the interval since the previous read (PAPI_VALUETYPE_ABSOLUTE).
	 * src/metrics/README.md, "What a read returns". */
	int running_sum;
	const char *method; /* metric: how it is measured and its error bound; "" for events */
	unsigned nsettings; /* time-multiplexed settings of the whole set (1: none) */
};
int uncore_set_entry_info(const struct uncore_set *s, unsigned i,
			  struct uncore_set_entry_info *out);

/* A value of entry i as a double: the count, or the metric's value. */
static inline double uncore_set_value_double(const struct uncore_set_entry_info *info, uint64_t v)
{
	double d;
	if (!info->metric)
		return (double)v;
	memcpy(&d, &v, sizeof(d));
	return d;
}

/* Whether entry `i` was counted all the time (perf backend: the kernel may
 * multiplex uncore groups), as of the last read: the enabled and running
 * times of its least-counted counter (of a metric: over its terms' events;
 * with time-multiplexed settings, summed over the settings it was counted
 * in, the current one since it began); scaled = 1 when running < enabled,
 * the count then being scaled by enabled / running (perf(1)'s rule).  This
 * is the kernel's multiplexing, not the set's own settings (nsettings of
 * uncore_set_entry_info).  Backends that always count report scaled = 0
 * and zero times. */
struct uncore_event_status {
	uint64_t time_enabled, time_running;
	int scaled;
};
int uncore_set_event_status(struct uncore_set *s, unsigned i, struct uncore_event_status *out);

/* 1 when some entry's status may say scaled: a finished setting had a
 * scaled counter, or the backend's last read scaled a value (its
 * read_scaled; through shared counters, a value of the union, which may
 * be another set's).  One test, for every read; uncore_set_event_status
 * then says which entry. */
int uncore_set_any_scaled(const struct uncore_set *s);

/* The address of a flag, valid for the set's life, that every successful
 * uncore_set_read sets: 0 means uncore_set_any_scaled is 0, nonzero that it
 * may be 1.  A caller reading often tests it (one load) and calls
 * uncore_set_any_scaled only when it is set. */
const int *uncore_set_scaled_hint(const struct uncore_set *s);

/* The plan of the current setting (NULL when empty), for --explain output. */
const struct uncore_plan *uncore_set_plan(const struct uncore_set *s);

/* The name of event e of that plan: an entry's event string, or for a
 * metric's term the event as counted ("hswep_unc_cbo::UNC_C_TOR_INSERTS:
 * OPCODE:OPC_DRD", filter bits programmed directly shown as
 * {Cn_MSR_PMON_BOX_FILTER0=0x20000});
 * NULL past the end. */
const char *uncore_set_plan_event_name(const struct uncore_set *s, unsigned e);

#endif
