/* An MPI program that knows nothing of PAPI (tests/integration/test_mpi.sh
 * runs it with LD_PRELOAD=libpapi_uncore_mpi.so): after MPI_Init, rank 0
 * creates DIR/ready and waits (at most 60 s) for DIR/go, which the script
 * creates after advancing the simulated machines' time; then every rank
 * finalizes.  With "regions", every rank also wraps the wait in the region
 * "wait" of papi_uncore_mpi.h, referenced weakly so that the program is
 * not linked with the library (LD_PRELOAD provides it).  With "two", a
 * region "first" wraps that wait, then rank 0 creates DIR/ready2 and waits
 * for DIR/go2 outside any region (a job whose last region ended before
 * its end).
 * Usage: mpi_idle DIR [regions|two] */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "papi_uncore_mpi.h"

#pragma weak papi_uncore_mpi_region_begin
#pragma weak papi_uncore_mpi_region_end

/* Rank 0 creates DIR/ready<k> (holding its PID) and waits (at most 60 s)
 * for DIR/go<k>; every rank waits for it. */
static void handshake(int rank, const char *dir, const char *k)
{
	char ready[512], go[512];
	snprintf(ready, sizeof(ready), "%s/ready%s", dir, k);
	snprintf(go, sizeof(go), "%s/go%s", dir, k);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		FILE *f = fopen(ready, "w");
		if (f) {
			fprintf(f, "%d\n", (int)getpid()); /* for a test that stops it */
			fclose(f);
		}
		for (int i = 0; i < 6000 && access(go, F_OK) != 0; i++)
			nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
	}
	MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	int rank, two = argc > 2 && strcmp(argv[2], "two") == 0,
		  regions = argc > 2 && (two || strcmp(argv[2], "regions") == 0) &&
			    papi_uncore_mpi_region_begin;
	const char *rname = two ? "first" : "wait";
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc < 2) {
		MPI_Finalize();
		return 2;
	}
	if (regions)
		papi_uncore_mpi_region_begin(rname);
	handshake(rank, argv[1], "");
	if (regions)
		papi_uncore_mpi_region_end(rname);
	if (two)
		handshake(rank, argv[1], "2");
	MPI_Finalize();
	return 0;
}
