/* The election (see mpi_elect.h). */
#include "mpi_elect.h"

int umpi_elect(const int *pkgs, int nsize, int nsockets, int me, int *mine, int max)
{
	int n = 0;
	for (int s = 0; s < nsockets; s++) {
		int elected = 0;
		for (int r = 0; r < nsize; r++)
			if (pkgs[r] == s) {
				elected = r;
				break;
			}
		if (elected == me && n < max)
			mine[n++] = s;
	}
	return n;
}
