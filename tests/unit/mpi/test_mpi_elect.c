/* The MPI library's election (mpi/mpi_elect.c, compiled in here): on every
 * node each socket is read by exactly one rank, the lowest rank running on
 * that socket, or the node's first rank when none runs there; a rank reads
 * nothing else.  Cases worked out by hand. */
#include "harness.h"

#include "../../../mpi/mpi_elect.c"

#include <stdio.h>
#include <string.h>

struct want {
	const char *what;
	int nsize, nsockets;
	int pkgs[8];
	int reader[4]; /* expected rank of each socket */
};

static const struct want cases[] = {
    /* two ranks a socket: the lower of each pair */
    {"2 sockets, ranks 0,1 on 0 and 2,3 on 1", 4, 2, {0, 0, 1, 1}, {0, 2}},
    /* ranks placed out of order */
    {"ranks 0,1 on socket 1, rank 2 on 0", 3, 2, {1, 1, 0}, {2, 0}},
    /* a socket nobody runs on goes to the node's rank 0 */
    {"socket 1 empty", 2, 2, {0, 0}, {0, 0}},
    {"rank 0 elsewhere, socket 0 empty", 3, 3, {2, 1, 1}, {0, 1, 0}},
    /* placement unknown (-1: a simulated machine): rank 0 reads all */
    {"placement unknown", 4, 4, {-1, -1, -1, -1}, {0, 0, 0, 0}},
    /* one rank, two sockets */
    {"one rank", 1, 2, {1}, {0, 0}},
};

TEST(each_socket_is_read_by_one_rank)
{
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct want *w = &cases[c];
		int read_by[4];
		memset(read_by, -1, sizeof(read_by));
		harness_row = w->what;
		int total = 0;
		for (int me = 0; me < w->nsize; me++) {
			int mine[8], n = umpi_elect(w->pkgs, w->nsize, w->nsockets, me, mine, 8);
			total += n;
			for (int i = 0; i < n; i++) {
				CHECK(mine[i] >= 0 && mine[i] < w->nsockets);
				if (i)
					CHECK(mine[i] > mine[i - 1]);
				if (mine[i] >= 0 && mine[i] < 4) {
					CHECK_EQ_INT(read_by[mine[i]], -1); /* never twice */
					read_by[mine[i]] = me;
				}
			}
		}
		CHECK_EQ_INT(total, w->nsockets);
		for (int s = 0; s < w->nsockets; s++)
			CHECK_EQ_INT(read_by[s], w->reader[s]);
	}
	harness_row = NULL;
}

/* A rank never writes past the room it gives. */
TEST(mine_is_bounded)
{
	static const int pkgs[4] = {-1, -1, -1, -1};
	int mine[2] = {-7, -7};
	CHECK_EQ_INT(umpi_elect(pkgs, 4, 4, 0, mine, 1), 1);
	CHECK_EQ_INT(mine[0], 0);
	CHECK_EQ_INT(mine[1], -7);
}

int main(void)
{
	RUN(each_socket_is_read_by_one_rank);
	RUN(mine_is_bounded);
	return harness_done();
}
