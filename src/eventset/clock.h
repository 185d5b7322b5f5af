/* The clock an event set measures its interval with (the SAMPLE interval
 * of HSX 1.7.1: TOTAL_INTERVAL, TSC, TSC_SPEED of the metrics) and by which
 * time-multiplexed terms are scaled.  On hardware: CLOCK_MONOTONIC and the
 * TSC frequency of the CPU; on the simulator: its virtual time and its
 * model's TSC, so that tests are exact. */
#ifndef UNCORE_EVENTSET_CLOCK_H
#define UNCORE_EVENTSET_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "common/uncore_error.h"

struct uncore_clock {
	int (*now_ns)(void *ctx, uint64_t *ns); /* NULL: CLOCK_MONOTONIC */
	void *ctx;
	uint64_t tsc_hz; /* TSC frequency; 0: unknown */
};

/* The host clock: CLOCK_MONOTONIC and the TSC frequency the processor's
 * brand string states ("@ 2.30GHz": on these processors the TSC runs at
 * the nominal frequency), or 0 when it states none. */
void uncore_clock_host(struct uncore_clock *out);

/* Read a clock: 0, or the error of its now_ns.  Inline, as the coarse
 * one: every read of an event set reads a clock. */
static inline int uncore_clock_now(const struct uncore_clock *c, uint64_t *ns)
{
	if (c && c->now_ns)
		return c->now_ns(c->ctx, ns);
	struct timespec ts;
	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return uncore_fail(UNCORE_EIO, "clock_gettime(CLOCK_MONOTONIC) failed");
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return 0;
}

/* The same to within a few milliseconds on the host (CLOCK_MONOTONIC_COARSE:
 * no TSC read, a few instructions), exact on the simulator: the wrap guard's
 * clock, read at every fold of the shared counters (share.c), for spans of
 * seconds. */
static inline int uncore_clock_now_coarse(const struct uncore_clock *c, uint64_t *ns)
{
	if (c && c->now_ns)
		return c->now_ns(c->ctx, ns);
	struct timespec ts;
	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) != 0)
		return uncore_fail(UNCORE_EIO, "clock_gettime(CLOCK_MONOTONIC_COARSE) failed");
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return 0;
}

/* A timed read that looks preempted half-way, so that its counts and its
 * instant may be apart: longer than 50 us and four times longer than
 * `best`, the shortest read known (0: none yet).  Such a read is made again
 * (an event set's own reads, set_read.c; a sample of uncored, server.c). */
static inline int uncore_read_preempted(uint64_t d, uint64_t best)
{
	return d > 50000 && (!best || d > 4 * best);
}

/* *window, how long such a read takes unpreempted, after one of `d` ns:
 * the shortest seen, drifting up slowly with unpreempted reads, so that
 * frequent preemption does not raise the bar that knows one. */
static inline void uncore_read_window_note(uint64_t *window, uint64_t d)
{
	uint64_t w = *window;
	if (!w || d < w)
		*window = d ? d : 1;
	else if (d - w && d <= 4 * w)
		*window = w + (d - w) / 16;
}

#endif
