/* The report of a job that dies (README "MPI jobs and threads", "A job
 * that dies"): each rank keeps its part of the report in a file of its own,
 * <report>.parts/rank-<R>, rewritten whole (a new file renamed over the old)
 * at MPI_Init, at the end of each interval, on MPI_Abort and on the signals
 * a launcher ends a job with; after writing its part a rank rebuilds the
 * report from every part there (one rebuild at a time, flock on
 * <report>.parts/lock).  So when a rank is killed the job's report still
 * exists, with every other rank's counts up to its end and the killed rank's
 * up to its last interval, and says which ranks and sockets are missing
 * (mpi_report.h, records X).  A part holds the records of mpi_report.h. */
#ifndef UNCORE_MPI_PARTS_H
#define UNCORE_MPI_PARTS_H

#include <stddef.h>

#include "mpi_events.h"

/* <report>.parts into `out`; -1 when it does not fit. */
int umpi_parts_dir(const char *report, char *out, size_t len);

/* Rank 0 at MPI_Init, before every rank's first part: the directory made,
 * a previous job's parts removed.  0, or -1 with `err` set. */
int umpi_parts_reset(const char *dir, char *err, size_t len);

/* Rank `rank`'s part replaced by `text` (`n` bytes).  0, or -1. */
int umpi_part_write(const char *dir, int rank, const char *text, size_t n);

/* The report at `report` rebuilt from every part in `dir`.  0, or -1 with
 * `err` set. */
int umpi_parts_rebuild(const char *dir, const char *report, const struct umpi_events *ev,
		       const char *origin, int nranks, char *err, size_t len);

/* At a job's normal end, once its report is written from every rank's
 * records: the parts and their directory removed. */
void umpi_parts_remove(const char *dir);

#endif
