/* "Nothing lost": fold raw readings of a W-bit hardware counter (48 bits for
 * Haswell-EP PMON, 44 or 32 for others, 64 for free-running MSRs) into a
 * 64-bit running total.  Between two readings the counter may wrap at most
 * once (HSX PMON 1.5: "Counter Wraps and continues Counting"); the delta is
 * then (raw - last) mod 2^W, which is right for any single wrap, and the
 * 64-bit total itself only wraps after 2^64 events.  All inline: a start
 * prepares and a read folds every counter. */
#ifndef UNCORE_EVENTSET_COUNTER_FOLD_H
#define UNCORE_EVENTSET_COUNTER_FOLD_H

#include <stdint.h>

#include "common/uncore_error.h"

struct uncore_counter_fold {
	uint64_t mask;  /* 2^W - 1 */
	uint64_t last;  /* last raw reading, masked */
	uint64_t total; /* events since start / last reset */
	uint8_t width;  /* W */
	uint8_t running;
};

/* Prepare a fold for a `width`-bit counter (1..64): 0 or UNCORE_EINVAL. */
static inline int uncore_fold_init(struct uncore_counter_fold *f, unsigned width)
{
	if (width < 1 || width > 64)
		return uncore_fail(UNCORE_EINVAL, "counter width %u is not within 1..64 bits",
				   width);
	/* A shift by 64 is undefined in C: build the mask in two steps. */
	f->mask = width == 64 ? ~0ull : (1ull << width) - 1;
	f->width = (uint8_t)width;
	f->last = 0;
	f->total = 0;
	f->running = 0;
	return 0;
}

/* Start counting from `raw` (the counter's current reading): total = 0. */
static inline void uncore_fold_start(struct uncore_counter_fold *f, uint64_t raw)
{
	f->last = raw & f->mask;
	f->total = 0;
	f->running = 1;
}

/* total = 0 from the reading `raw`, running or not (PAPI_reset). */
static inline void uncore_fold_reset(struct uncore_counter_fold *f, uint64_t raw)
{
	f->last = raw & f->mask;
	f->total = 0;
}

/* The delta (raw - last) mod 2^W a reading would add, without folding it.
 * Inline, with uncore_fold_update: every read folds every counter. */
static inline uint64_t uncore_fold_delta(const struct uncore_counter_fold *f, uint64_t raw)
{
	return ((raw & f->mask) - f->last) & f->mask;
}

/* Take a reading while running: total += (raw - last) mod 2^W.  Returns the
 * new total.  Bits of `raw` above W (reserved bits) are ignored.  When not
 * running the reading is ignored and the frozen total returned. */
static inline uint64_t uncore_fold_update(struct uncore_counter_fold *f, uint64_t raw)
{
	if (!f->running)
		return f->total;
	f->total += uncore_fold_delta(f, raw);
	f->last = raw & f->mask;
	return f->total;
}

/* Fold a last reading and stop: later updates leave the total alone. */
static inline uint64_t uncore_fold_stop(struct uncore_counter_fold *f, uint64_t raw)
{
	uint64_t t = uncore_fold_update(f, raw);
	f->running = 0;
	return t;
}

#endif
