/* The election of libpapi_uncore_mpi: which rank of a node reads each of
 * its sockets, so that a job counts every socket once (README "MPI jobs and
 * threads").  Pure arithmetic on what the node's ranks gathered, so it is
 * tested without MPI (tests/unit/mpi/test_mpi_elect.c). */
#ifndef UNCORE_MPI_ELECT_H
#define UNCORE_MPI_ELECT_H

/* pkgs[r]: the package node rank r runs on (-1: unknown), r < nsize.  Per
 * socket s < nsockets: the lowest rank running on s reads it, else the
 * node's first rank (0).  Writes the sockets rank `me` reads into mine[],
 * in increasing order, at most `max`; returns how many. */
int umpi_elect(const int *pkgs, int nsize, int nsockets, int me, int *mine, int max);

#endif
