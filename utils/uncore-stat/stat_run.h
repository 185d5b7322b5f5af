/* Running a measurement: start the counters, run the command (or wait for
 * -t seconds or SIGINT), print a report every -I interval and one for the
 * whole run.  Signals are blocked and waited for atomically (ppoll), so a
 * Ctrl-C or the command's exit is never missed. */
#ifndef UNCORE_STAT_RUN_H
#define UNCORE_STAT_RUN_H

#include "stat_counters.h"
#include "stat_opts.h"
#include "stat_output.h"

/* Catch SIGINT/SIGTERM/SIGCHLD and block them until the measurement waits
 * for them: called first thing, so a Ctrl-C while PAPI initialises (which
 * takes a while) still ends the run with a report instead of being lost. */
void stat_run_prepare(void);

/* The exit status for uncore-stat: the command's (128+N when killed by
 * signal N; 126/127 when it cannot be run), 0 without a command, 1 when
 * counting failed. */
int stat_run(struct stat_counters *c, const struct stat_opts *o, struct stat_output *out);

#endif
