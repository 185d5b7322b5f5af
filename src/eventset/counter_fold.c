/* Counter folding (see counter_fold.h): unsigned subtraction masked to the
 * counter width gives the delta across at most one wrap; the 64-bit total
 * itself only wraps after 2^64 events. */
#include "eventset/counter_fold.h"

#include "common/uncore_error.h"

int uncore_fold_init(struct uncore_counter_fold *f, unsigned width)
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

void uncore_fold_start(struct uncore_counter_fold *f, uint64_t raw)
{
	f->last = raw & f->mask;
	f->total = 0;
	f->running = 1;
}

uint64_t uncore_fold_stop(struct uncore_counter_fold *f, uint64_t raw)
{
	uint64_t t = uncore_fold_update(f, raw);
	f->running = 0;
	return t;
}

void uncore_fold_reset(struct uncore_counter_fold *f, uint64_t raw)
{
	f->last = raw & f->mask;
	f->total = 0;
}
