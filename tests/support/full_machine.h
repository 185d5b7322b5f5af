/* A machine with every instance of every box type of a platform: what the
 * metric tests compile against when no simulator is needed. */
#ifndef UNCORE_TEST_FULL_MACHINE_H
#define UNCORE_TEST_FULL_MACHINE_H

#include "metrics/catalog.h"
#include "plan/machine.h"

/* `sockets` sockets (node IDs 0, 1, ...), each with every box instance. */
struct uncore_machine test_full_machine(const struct uncore_event_platform *plat, unsigned sockets);

/* One platform with metrics, for tests that go over every metric: its
 * catalog and a full machine of it (Haswell-EP two sockets, the rest one). */
struct test_catalog_case {
	const struct uncore_event_platform *plat;
	const struct uncore_metric_catalog *cat;
	struct uncore_machine m;
};

/* The next built-in platform from *i on that has metrics, in the
 * registry's order (a generation added is covered without naming it):
 * 1 with *c filled and *i past it, 0 past the last.
 *   for (unsigned i = 0; test_next_catalog(&i, &c);) ... */
int test_next_catalog(unsigned *i, struct test_catalog_case *c);

#endif
