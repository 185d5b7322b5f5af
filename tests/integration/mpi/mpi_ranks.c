/* An instrumented MPI program as users write them: every rank adds the
 * same uncore events (argv[2..]) to its own PAPI event set and counts the
 * same interval; rank 0 prints each rank's values and their sum over ranks
 * (what TAU's "total" shows), which must count each socket once.  DIR/ready
 * and DIR/go as in mpi_idle.c.  Usage: mpi_ranks DIR EVENT... */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXEV 8

int main(int argc, char **argv)
{
	char ready[512], go[512];
	int rank, size, es = PAPI_NULL, n = argc - 2, rc;
	long long v[MAXEV] = {0}, *all;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (n < 1 || n > MAXEV) {
		MPI_Finalize();
		return 2;
	}
	snprintf(ready, sizeof(ready), "%s/ready", argv[1]);
	snprintf(go, sizeof(go), "%s/go", argv[1]);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
	    PAPI_create_eventset(&es) != PAPI_OK) {
		printf("rank %d: PAPI init failed\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (int i = 0; i < n; i++)
		if ((rc = PAPI_add_named_event(es, argv[2 + i])) != PAPI_OK) {
			printf("rank %d: %s: %s\n", rank, argv[2 + i], PAPI_strerror(rc));
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	if ((rc = PAPI_start(es)) != PAPI_OK) {
		printf("rank %d: PAPI_start: %s\n", rank, PAPI_strerror(rc));
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		FILE *f = fopen(ready, "w");
		if (f)
			fclose(f);
		for (int i = 0; i < 6000 && access(go, F_OK) != 0; i++)
			nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if ((rc = PAPI_stop(es, v)) != PAPI_OK) {
		printf("rank %d: PAPI_stop: %s\n", rank, PAPI_strerror(rc));
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	all = calloc((size_t)size * MAXEV, sizeof(*all));
	MPI_Gather(v, MAXEV, MPI_LONG_LONG, all, MAXEV, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		for (int i = 0; i < n; i++) {
			long long sum = 0;
			for (int r = 0; r < size; r++) {
				printf("rank %d %s %lld\n", r, argv[2 + i], all[r * MAXEV + i]);
				sum += all[r * MAXEV + i];
			}
			printf("sum %s %lld\n", argv[2 + i], sum);
		}
	}
	free(all);
	MPI_Finalize();
	return 0;
}
