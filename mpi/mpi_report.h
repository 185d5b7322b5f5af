/* The job report of libpapi_uncore_mpi, written by rank 0 from the records
 * every rank sent (one text line each, tab-separated; uncore_mpi.c makes
 * them): JSON at `path`, CSV beside it (path with .json replaced by .csv,
 * or .csv appended), each written whole (a new file renamed over the old,
 * so a reader never sees half a report).  Format: README "MPI jobs and
 * threads". */
#ifndef UNCORE_MPI_REPORT_H
#define UNCORE_MPI_REPORT_H

#include <stddef.h>

#include "mpi_events.h"

/* Record lines:
 *   N node rank                           a rank and its node
 *   S node socket rank seconds            a socket counted by rank, for seconds
 *   V node socket event kind value units  kind c (count), m (metric), e (value = error)
 *   R node socket rank region calls event kind value
 *   P node rank text                      a rank's problem (JSON "problems")
 *   O node rank text                      the component's description (the
 *                                         report's origin when none is given)
 *   X node rank state text                how the rank is: "running" (its part
 *                                         of the report, mpi_parts.h, was written
 *                                         while it ran), "ended" (by a signal or
 *                                         MPI_Abort, said by text) or "finished"
 * A rank with no X "finished" or "ended" is missing (killed, or its records
 * are from before the job's end), and so are the sockets it counted: the
 * report lists them (JSON "complete" and "missing", CSV scope "missing").
 * 0, or -1 with `err` set (a file that cannot be written). */
int umpi_report_write(const char *path, const struct umpi_events *ev, const char *origin,
		      int nranks, const char *records, char *err, size_t len);

#endif
