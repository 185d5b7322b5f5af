/* Who programs the sockets a run reads 0 on, when that is another
 * measurement group (README "MPI jobs and threads"): PAPI's component
 * description has room for the holder's PID only; its lock records the
 * user and the group. */
#ifndef STAT_HOLDERS_H
#define STAT_HOLDERS_H

#include <stdio.h>

/* One warning per holder of another group, on `err`: "uncore-stat:
 * warning: sockets 0, 1 are programmed by PID 42 (a.out), user alice,
 * measurement group openmpi:37: ...uncored...".  Nothing when there is
 * none, or on the perf backend (the kernel lets groups share). */
void stat_holders_note(FILE *err);

#endif
