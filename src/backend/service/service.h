/* The service backend: counting through uncored, the node service
 * (src/service/), for processes that may not program the uncore
 * themselves.  The machine is the service's; each event of a plan is sent
 * by its canonical name (events/parse.h, uncore_event_format) and the
 * service validates and counts it as the component would; a read asks for
 * a fresh sample and copies the event's 64-bit totals out of the
 * snapshot the service publishes (service/snapshot.h). */
#ifndef UNCORE_BACKEND_SERVICE_H
#define UNCORE_BACKEND_SERVICE_H

#include "backend/backend.h"

/* Connect to the service listening at `path` as a process of measurement
 * group `group` (bind/group.h's key; NULL or "": alone): 0 and a backend, or
 * UNCORE_ENODEV (no service there: nothing listens), UNCORE_EPERM, or
 * UNCORE_EIO (it does not answer as uncored does), the detail saying so.
 * `origin` (room for 200 bytes) gets where the counts come from. */
int uncore_service_open(const char *path, const char *group, struct uncore_backend **out,
			char *origin, size_t len);

/* The service's clock as a clock function (eventset/clock.h; ctx: the
 * backend uncore_service_open made): the instant of the snapshot's last
 * sample, which is when the values a plain read returns were read.  An
 * event set on the service times its metrics by it, so that a rate's
 * counts and time are of the same instants whenever the set reads (issue
 * 27: against the reader's own clock, a PAPI_read between two samples
 * divided counts up to 100 ms old by the time up to now).  On the
 * service's clock: CLOCK_MONOTONIC on a real node, a simulated node's time
 * behind `uncored --sim`.  Never fails. */
int uncore_service_now(void *ctx, uint64_t *ns);

#endif
