/* The backend interface: what the event-set layer asks of a way of reaching
 * the counters.  The direct backend (backend/direct/: box programming over
 * the register-access interface, real devices or the simulator) and the
 * perf_event backend implement it.  A backend is bound to one machine; a
 * plan (core/sched.h) is programmed once, then started, read and stopped. */
#ifndef UNCORE_BACKEND_H
#define UNCORE_BACKEND_H

#include <stdint.h>

#include "core/machine.h"
#include "core/sched.h"

struct uncore_backend;

struct uncore_backend_ops {
	const char *name; /* "direct", "perf" */
	/* Take ownership of the boxes of `plan` and program them, counters
	 * stopped.  The plan must stay alive until unprogram. */
	int (*program)(struct uncore_backend *b, const struct uncore_plan *plan);
	/* Zero the programmed counters and start them. */
	int (*start)(struct uncore_backend *b);
	/* Stop them (values stay readable). */
	int (*stop)(struct uncore_backend *b);
	/* Raw values of every slot of the plan, each below 2^slot.width. */
	int (*read)(struct uncore_backend *b, uint64_t *raw);
	/* Stop, clear the boxes' programming and release them. */
	int (*unprogram)(struct uncore_backend *b);
	void (*destroy)(struct uncore_backend *b);
	/* Optional (NULL: no counter of this backend wraps within hours).  The
	 * longest time, in ns, that may pass between two reads of `plan`
	 * without losing a wrap (a raw value folds correctly only when the
	 * counter advanced less than 2^width since the last read), with a
	 * margin: what a background poller must read at least as often as. */
	int (*max_read_interval)(const struct uncore_backend *b, const struct uncore_plan *plan,
				 uint64_t *ns);
};

/* Accesses made so far, for benchmarks and tests. */
struct uncore_backend_stats {
	uint64_t reads, writes, syscalls;
};

struct uncore_backend {
	const struct uncore_backend_ops *ops;
	struct uncore_machine machine;
	int (*stats)(struct uncore_backend *b, struct uncore_backend_stats *out);
};

#endif
