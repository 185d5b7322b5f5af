/* The rate-driven test backend (see fake_backend.h). */
#include "fake_backend.h"

#include "common/uncore_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct fake {
	struct uncore_backend base; /* first: the backend is the fake */
	fake_rate_fn rate;
	void *ctx;
	const struct uncore_plan *plan;
	uint64_t now, start, stop;
	int running;
};

static int program(struct uncore_backend *b, const struct uncore_plan *plan)
{
	((struct fake *)b)->plan = plan;
	return 0;
}

static int start(struct uncore_backend *b)
{
	struct fake *f = (struct fake *)b;
	f->start = f->now;
	f->running = 1;
	return 0;
}

static int stop(struct uncore_backend *b)
{
	struct fake *f = (struct fake *)b;
	f->stop = f->now;
	f->running = 0;
	return 0;
}

static int read_slots(struct uncore_backend *b, uint64_t *raw)
{
	struct fake *f = (struct fake *)b;
	uint64_t t = (f->running ? f->now : f->stop) - f->start;
	for (unsigned k = 0; f->plan && k < f->plan->nslots; k++) {
		const struct uncore_slot *s = &f->plan->slots[k];
		double v = floor(f->rate(f->ctx, &b->machine, s) * (double)t);
		uint64_t mask = s->width >= 64 ? ~0ull : (1ull << s->width) - 1;
		raw[k] = (uint64_t)v & mask;
	}
	return 0;
}

static int unprogram(struct uncore_backend *b)
{
	((struct fake *)b)->plan = NULL;
	return 0;
}

static void destroy(struct uncore_backend *b)
{
	free(b);
}

static const struct uncore_backend_ops ops = {
    .name = "fake",
    .program = program,
    .start = start,
    .stop = stop,
    .read = read_slots,
    .unprogram = unprogram,
    .destroy = destroy,
};

int fake_backend_create(const struct uncore_machine *m, fake_rate_fn rate, void *ctx,
			struct uncore_backend **out)
{
	struct fake *f = calloc(1, sizeof(*f));
	if (!f)
		return uncore_fail(UNCORE_ENOMEM, "out of memory");
	f->base.ops = &ops;
	f->base.machine = *m;
	f->rate = rate;
	f->ctx = ctx;
	*out = &f->base;
	return 0;
}

void fake_backend_advance(struct uncore_backend *b, uint64_t ns)
{
	((struct fake *)b)->now += ns;
}

static int fake_now(void *ctx, uint64_t *ns)
{
	*ns = ((struct fake *)ctx)->now;
	return 0;
}

void fake_backend_clock(struct uncore_backend *b, uint64_t tsc_hz, struct uncore_clock *out)
{
	memset(out, 0, sizeof(*out));
	out->now_ns = fake_now;
	out->ctx = b;
	out->tsc_hz = tsc_hz;
}
