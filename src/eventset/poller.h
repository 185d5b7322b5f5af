/* The background poller: reads an event set at a fixed period while it runs,
 * so that no counter can wrap twice between two reads however long the
 * measured region is (a 32-bit free-running IMC counter of a Skylake client
 * wraps in seconds).  The owner serialises its own calls on the set with the
 * same mutex the poller takes. */
#ifndef UNCORE_EVENTSET_POLLER_H
#define UNCORE_EVENTSET_POLLER_H

#include <pthread.h>
#include <stdint.h>

#include "eventset/eventset.h"

struct uncore_poller;

/* Start reading `set` every `period_ns` under `lock`.  0, or an error. */
int uncore_poller_start(struct uncore_set *set, pthread_mutex_t *lock, uint64_t period_ns,
			struct uncore_poller **out);

/* Stop and join the thread (returns after any read in progress). */
void uncore_poller_stop(struct uncore_poller *p);

/* Reads made so far (for tests and --explain). */
uint64_t uncore_poller_reads(const struct uncore_poller *p);

/* The period to poll `set` at, from the PAPI_INTEL_UNCORE_POLL setting
 * (`env`: NULL or "auto": poll whenever a counter of the set can wrap,
 * at its safe read interval (uncore_set_max_read_interval); "off": never; a number: every
 * that many milliseconds).  0 in *period_ns means no poller. */
int uncore_poller_period(const struct uncore_set *set, const char *env, uint64_t *period_ns);

#endif
