/* The PMPI library's watcher thread (mpi_parts.h): it calls `tick` at the
 * end of every interval, and once with the signal's number when the process
 * gets one of the signals a launcher or a batch system ends a job with
 * (SIGTERM, SIGINT, SIGHUP, SIGXCPU, SIGUSR1, SIGUSR2) where the process
 * leaves it to its default action (ending it; a signal the application
 * handles or ignores is left alone); then it puts back the default and
 * sends the signal again, so the process ends as it would have without
 * us.  The handler itself only writes a byte to a pipe: all the work is in
 * the thread, where taking locks and allocating are safe. */
#ifndef UNCORE_MPI_WATCH_H
#define UNCORE_MPI_WATCH_H

/* seconds > 0: the interval; 0: no intervals (signals only).  0, or -1 when
 * the thread cannot be started (nothing installed then). */
int umpi_watch_start(double seconds, void (*tick)(int signo));

/* The thread stopped and joined, the previous handlers back; for
 * MPI_Finalize.  A tick under way finishes first. */
void umpi_watch_stop(void);

/* PAPI_INTEL_UNCORE_MPI_INTERVAL's value: seconds (decimal, > 0, at most a
 * day) or "off" (0); NULL or empty: the default, 10.  -1 for anything else. */
double umpi_watch_interval(const char *text);

#endif
