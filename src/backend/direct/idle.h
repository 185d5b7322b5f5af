/* A socket's boxes put to the idle state by a new holder (issue 29): a
 * process killed while counting (kill -9, out of memory) leaves its
 * counters enabled, and the next holder of the socket may program other
 * boxes, so that nobody would ever disable them.  So whoever takes a
 * socket's lock over from a holder that ended without releasing it
 * (socket_lock.h, uncore_socket_lock_stale) first resets every box of the
 * socket the direct backend programs, before programming its own: a box with a box
 * control frozen with its controls and counters reset (HSX PMON 2.1.2 a, d),
 * any other counter control written 0 (no enable), every fixed counter's
 * control 0.  Free-running boxes are only read and have nothing to reset. */
#ifndef UNCORE_BACKEND_DIRECT_IDLE_H
#define UNCORE_BACKEND_DIRECT_IDLE_H

#include "access/regio.h"
#include "backend/direct/engine.h"
#include "plan/machine.h"

/* Every box of socket `socket` of machine `m` (platform description p) that
 * the machine has, idle; each write checked against an allowlist of those
 * boxes' PMON controls (access/allowlist.h) and made through `io`.  Best
 * effort: every write is tried; 0, or the first error (detail set). */
int direct_idle_socket(const struct direct_platform *p, const struct uncore_machine *m,
		       unsigned socket, struct uncore_regio *io);

/* Sockets put idle so far by this process, for tests. */
unsigned long direct_idle_sockets(void);

#endif
