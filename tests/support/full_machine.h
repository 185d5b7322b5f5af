/* A machine with every instance of every box type of a platform: what the
 * metric tests compile against when no simulator is needed. */
#ifndef UNCORE_TEST_FULL_MACHINE_H
#define UNCORE_TEST_FULL_MACHINE_H

#include "plan/machine.h"

/* `sockets` sockets (node IDs 0, 1, ...), each with every box instance. */
struct uncore_machine test_full_machine(const struct uncore_event_platform *plat, unsigned sockets);

#endif
