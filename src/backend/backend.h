/* The backend interface: what the event-set layer asks of a way of reaching
 * the counters.  The direct backend (backend/direct/: box programming over
 * the register-access interface, real devices or the simulator) and the
 * perf_event backend implement it.  A backend is bound to one machine; a
 * plan (plan/sched.h) is programmed once, then started, read and stopped. */
#ifndef UNCORE_BACKEND_H
#define UNCORE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "plan/machine.h"
#include "plan/sched.h"

struct uncore_backend;

/* A slot read() could not read (see read). */
#define UNCORE_RAW_UNREAD UINT64_MAX

/* Accesses made so far, for benchmarks and tests. */
struct uncore_backend_stats {
	uint64_t reads, writes, syscalls;
};

/* How long a slot's counter was enabled and actually counting (perf:
 * time_enabled, time_running of its group).  running < enabled: the kernel
 * multiplexed it and the value read was scaled by enabled / running. */
struct uncore_slot_status {
	uint64_t time_enabled, time_running;
};

/* Ownership and programming are separate steps: acquire takes what a set
 * of plans needs (the direct backend: the sockets they use, held against
 * other processes, and the write allowlists of their boxes), program only
 * writes.  A set that takes turns between plans (a multiplexed metric's
 * settings) acquires them all once and reprograms at each change without
 * dropping a socket or rebuilding an allowlist. */
struct uncore_backend_ops {
	const char *name; /* "direct", "perf" */
	/* Optional (NULL: the backend owns nothing beyond what it programs).
	 * Take ownership of what `plans` use, adding to what was acquired
	 * before; nothing is written.  Until release, program and unprogram
	 * keep it.  The plans need not outlive the call. */
	int (*acquire)(struct uncore_backend *b, const struct uncore_plan *const *plans,
		       unsigned n);
	/* Optional with acquire: unprogram if programmed, then give back
	 * everything acquire took.  0 or unprogram's error (released all the
	 * same). */
	int (*release)(struct uncore_backend *b);
	/* Program `plan`, counters stopped.  What the plan uses beyond what
	 * was acquired is taken now (and given back by unprogram when nothing
	 * was acquired).  The plan must stay alive until unprogram. */
	int (*program)(struct uncore_backend *b, const struct uncore_plan *plan);
	/* Zero the programmed counters and start them. */
	int (*start)(struct uncore_backend *b);
	/* Stop them (values stay readable). */
	int (*stop)(struct uncore_backend *b);
	/* Raw values of every slot of the plan: the counter's reading in the
	 * low slot.width bits (value_bits when set).  The bits above may hold
	 * what the register has beyond the width folded at (reserved bits, a
	 * register wider than the tables fold at: HSX UBox and SBo); every
	 * consumer masks them away, as the folds do (counter_fold.h, the
	 * shared counters' fold), so a read costs no mask per counter (issue
	 * 14).  A fault on one box or socket costs no other its values: the
	 * slots that could not be read are UNCORE_RAW_UNREAD and the first
	 * error is returned (after a failed read a slot holding it is taken
	 * for unread). */
	int (*read)(struct uncore_backend *b, uint64_t *raw);
	/* Stop and clear the boxes' programming; what acquire took is kept. */
	int (*unprogram)(struct uncore_backend *b);
	void (*destroy)(struct uncore_backend *b);
	/* Optional (NULL: no counter of this backend wraps within hours).  The
	 * longest time, in ns, that may pass between two reads of `plan`
	 * without losing a wrap (a raw value folds correctly only when the
	 * counter advanced less than 2^width since the last read), with a
	 * margin: what a background poller must read at least as often as. */
	int (*max_read_interval)(const struct uncore_backend *b, const struct uncore_plan *plan,
				 uint64_t *ns);
	/* Optional (NULL: its counters never wrap, 64-bit totals): the time,
	 * in ns, in which each slot k of `plan` can wrap at its fastest count
	 * rate (2^width over it), into ns[k], UINT64_MAX for never: a read
	 * later than that after the previous one may have lost wraps (the wrap
	 * guard, share.c).  One call for every slot of the plan. */
	int (*wrap_ns)(const struct uncore_backend *b, const struct uncore_plan *plan, uint64_t *ns);
	/* Accesses made so far. */
	int (*stats)(struct uncore_backend *b, struct uncore_backend_stats *out);
	/* Optional (NULL: every slot counts all the time): slot `slot`'s times
	 * as of the last read. */
	int (*slot_status)(struct uncore_backend *b, unsigned slot, struct uncore_slot_status *out);
	/* Optional (NULL: read): read() into raw buffers that have
	 * UNCORE_RAW_HEADROOM words in front of raw[0] the backend may write,
	 * as the shared counters' hub allocates its own.  The perf backend
	 * reads a lone event group straight into them, the kernel's header
	 * (PERF_FORMAT_GROUP: nr and both times) in front of the values: no
	 * copy (issue 14).  Other callers (event sets on the backend itself,
	 * uncore-stat's) pass plain arrays to read. */
	int (*read_headroom)(struct uncore_backend *b, uint64_t *raw);
	/* Optional (NULL: every read reads the counters): bring what the next
	 * reads return up to now.  For a backend whose plain read returns a
	 * published sample (the service backend: a snapshot read, no system
	 * call), called where an interval begins or ends (an event set's
	 * start, stop, and PAPI_stop's final read), so that intervals are
	 * exact while a plain read is as old as the last sample. */
	int (*sample)(struct uncore_backend *b);
	/* Optional (NULL: nothing to do): socket `socket` was just taken over
	 * from a holder that ended without giving it back (socket_hold.h,
	 * uncore_socket_hold_take_stale), by the owner of the sockets
	 * (sockets_held_by_owner): what that holder left programmed is put
	 * idle before anything is programmed there.  Best effort. */
	void (*socket_taken_over)(struct uncore_backend *b, unsigned socket);
};

/* The words in front of the raw buffers read_headroom fills (the perf read
 * format's header: nr, time_enabled, time_running). */
#define UNCORE_RAW_HEADROOM 3u

/* acquire and release for any backend: nothing to do without them. */
static inline int uncore_backend_acquire(struct uncore_backend *b,
					 const struct uncore_plan *const *plans, unsigned n);
static inline int uncore_backend_release(struct uncore_backend *b);

/* Events a backend offers beyond the event tables (perf: every PMU sysfs
 * describes, named by its aliases and format fields).  Their box types are
 * part of machine.plat (flag UNCORE_BOXF_KERNEL). */
struct uncore_event_source;
struct uncore_sched_event;
struct uncore_event_source_ops {
	/* 0 and `out` filled; 1 when `name` names none of its PMUs (try the
	 * tables); or an error with the detail set. */
	int (*parse)(struct uncore_event_source *src, const char *name,
		     struct uncore_sched_event *out);
	/* Enumerable events ("msr::tsc"), i < count. */
	unsigned (*count)(const struct uncore_event_source *src);
	int (*entry)(const struct uncore_event_source *src, unsigned i, char *name, size_t nlen,
		     char *desc, size_t dlen);
	/* The PMU names "pmu::event" may use: the first *nprimary name whole
	 * PMUs and families ("msr", "uncore_imc"), the others instances
	 * ("uncore_imc_0"). */
	const char *const *(*pmu_names)(const struct uncore_event_source *src, unsigned *n,
					unsigned *nprimary);
	/* Optional: a table event as this backend will count it, checked when
	 * it is added: 0 with ev->enc.counters narrowed to the counters the
	 * backend can give it (perf: the kernel's counter constraints, so that
	 * every plan is one the kernel accepts), or an error with the detail
	 * set (perf: an encoding the kernel would not program as asked). */
	int (*table_event)(struct uncore_event_source *src, struct uncore_sched_event *ev);
};
struct uncore_event_source {
	const struct uncore_event_source_ops *ops;
};

struct uncore_backend {
	/* ops and the fields every read touches first, in one cache line;
	 * the machine (kilobytes) after them. */
	const struct uncore_backend_ops *ops;
	/* Width of the raw values read() returns: 0 for each slot's counter
	 * width; 64 when the backend returns 64-bit totals (perf). */
	uint8_t value_bits;
	/* With value_bits 64: a failed read() still marks the slots it could
	 * not read UNCORE_RAW_UNREAD and the others are valid (the shared
	 * counters' views over the direct backend); 0: after a failed read no
	 * value is valid (perf). */
	int marks_unread;
	/* Set by the one owner of the sockets, the shared counters
	 * (eventset/share.h), when it holds every socket it has the backend
	 * program: the backend then takes no hold of its own (the direct
	 * backend checks that each socket it writes is held in this process
	 * and refuses one that is not); 0: a backend used alone holds what it
	 * programs itself. */
	int sockets_held_by_owner;
	/* Set by the backend when counting may have stopped for a while on
	 * part of the machine (an unfreeze that failed): the counts of that
	 * span are lost.  The event set takes it (and clears it) after each
	 * operation and reports the loss (eventset.h). */
	int counting_interrupted;
	/* Set by every successful read(): 1 when a value it returned was
	 * scaled (perf: a group the kernel multiplexed counted less than its
	 * enabled time), so that the set's per-read check is one test
	 * (uncore_set_any_scaled); backends that always count leave it 0. */
	int read_scaled;
	/* Set by the event set around a read that only folds (the poller's,
	 * uncore_set_poll): such a read needs no common instant, and a freeze
	 * would stop every counter for the read's duration (HSX 2.1.3 a), so
	 * backends read without one. */
	int fold_only_read;
	/* 1 when read() freezes the counters for its duration (the direct
	 * backend's read freeze, HSX 2.1.3 a), so that counts stop between its
	 * first and last access: the event set leaves that span out of the
	 * time its metrics divide by (eventset.c, read_timed). */
	int read_freezes;
	/* Set by a reader around one read() that freezes (the event set's,
	 * set_read.c): the clock read() takes its freeze and thaw instants
	 * with, next to those writes (src/metrics/README.md, "Counting time"),
	 * and its argument; NULL: none taken.  read() then sets read_ns[0]
	 * just after its freeze writes, read_ns[1] just before its thaw
	 * writes, and read_timed to 1.  A reader that sets read_now clears
	 * read_timed first: a read that reads no register leaves it 0. */
	int (*read_now)(void *ctx, uint64_t *ns);
	void *read_now_ctx;
	uint64_t read_ns[2];
	int read_timed;
	char interrupted_detail[160]; /* counting_interrupted's */
	/* Set by a view of the shared counters when a read came later than a
	 * counter of its set can wrap in (the wrap guard): its counts may
	 * lack whole wraps; wraps_detail says how many of which counter.
	 * The event set takes it (and clears it) after each operation. */
	int wraps_lost;
	char wraps_detail[240];
	/* NULL, or the events beyond the tables. */
	struct uncore_event_source *events;
	struct uncore_machine machine;
	/* 1 for a view of the shared counters (eventset/share.h,
	 * uncore_share_is_view: asked on every start and read, so a field
	 * rather than a call comparing ops tables). */
	uint8_t is_share_view;
};

static inline int uncore_backend_acquire(struct uncore_backend *b,
					 const struct uncore_plan *const *plans, unsigned n)
{
	return b->ops->acquire ? b->ops->acquire(b, plans, n) : 0;
}

/* Without acquire (NULL): unprogram, since release promises it. */
static inline int uncore_backend_release(struct uncore_backend *b)
{
	return b->ops->release ? b->ops->release(b) : b->ops->unprogram(b);
}

#endif
