/* libpapi_uncore_mpi: uncore counts of an MPI job with no code change
 * (LD_PRELOAD or link with -lpapi_uncore_mpi; README "MPI jobs and
 * threads").  MPI_Init elects one rank per node and socket, which counts
 * PAPI_INTEL_UNCORE_MPI_EVENTS on its socket until MPI_Finalize; rank 0
 * then writes the job report PAPI_INTEL_UNCORE_MPI_REPORT (JSON, and CSV
 * beside it).
 *
 * Regions add rows to the report: the counts between begin and end of a
 * name, summed over every time the region is entered, per node and socket.
 * Any rank may call them (they are not collective); only the elected ranks'
 * calls count, so each socket is counted once.  Fortran:
 *   call papi_uncore_mpi_region_begin('solve')
 *   call papi_uncore_mpi_region_end('solve')
 * Return: 0, or -1 when the name is empty or too long, a region is ended
 * that was not begun, or there are too many regions (64). */
#ifndef PAPI_UNCORE_MPI_H
#define PAPI_UNCORE_MPI_H

#ifdef __cplusplus
extern "C" {
#endif

int papi_uncore_mpi_region_begin(const char *name);
int papi_uncore_mpi_region_end(const char *name);

#ifdef __cplusplus
}
#endif

#endif
