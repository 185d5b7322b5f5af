/* A backend for the platforms the simulator does not model (Skylake client,
 * Nehalem): every slot of the programmed plan counts at a rate the test
 * gives (events per nanosecond of a clock the test advances), so metric
 * evaluation can be checked there too.  No registers are involved. */
#ifndef UNCORE_TEST_FAKE_BACKEND_H
#define UNCORE_TEST_FAKE_BACKEND_H

#include <stdint.h>

#include "backend/backend.h"
#include "eventset/clock.h"

/* Events per ns of slot `s` of a box of machine `m`. */
typedef double (*fake_rate_fn)(void *ctx, const struct uncore_machine *m,
			       const struct uncore_slot *s);

/* A backend for machine `m` (copied). */
int fake_backend_create(const struct uncore_machine *m, fake_rate_fn rate, void *ctx,
			struct uncore_backend **out);
void fake_backend_advance(struct uncore_backend *b, uint64_t ns);
/* Its clock, for uncore_set_clock(). */
void fake_backend_clock(struct uncore_backend *b, uint64_t tsc_hz, struct uncore_clock *out);

#endif
