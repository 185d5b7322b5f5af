/* The MPI library's job report (mpi/mpi_report.c, compiled in here: the
 * library itself needs mpicc) from records of two nodes of two sockets,
 * each socket read by the rank the records name: the report lists, per node,
 * which rank read each socket and its values, and the job's totals as
 * README "MPI jobs and threads" defines them: a count is the sum over the
 * sockets, a rate (units ending "/s") the sum, any other metric (a ratio)
 * the mean over the sockets that have it; an error is no value.  Every
 * expected number is worked out by hand below. */
#include "harness.h"
#include "support/tmpdir.h"

#include "../../../mpi/mpi_report.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n = 0;
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Ranks 0-1 on node "a", 2-3 on node "b"; rank 1 reads both sockets of
 * a (rank 0 lost the election), ranks 2 and 3 one socket each of b. */
static const char records[] = "N\ta\t0\nN\ta\t1\nN\tb\t2\nN\tb\t3\n"
			      "S\ta\t0\t1\t2.0\nS\ta\t1\t1\t2.0\nS\tb\t0\t2\t2.0\nS\tb\t1\t3\t2.0\n"
			      /* event 0: a count */
			      "V\ta\t0\t0\tc\t1000\t\nV\ta\t1\t0\tc\t2000\t\n"
			      "V\tb\t0\t0\tc\t3000\t\nV\tb\t1\t0\tc\t4000\t\n"
			      /* event 1: a rate in GB/s */
			      "V\ta\t0\t1\tm\t1.5\tGB/s\nV\ta\t1\t1\tm\t2.5\tGB/s\n"
			      "V\tb\t0\t1\tm\t3.25\tGB/s\nV\tb\t1\t1\tm\t0.75\tGB/s\n"
			      /* event 2: a ratio; socket 1 of b could not count it */
			      "V\ta\t0\t2\tm\t0.5\t\nV\ta\t1\t2\tm\t0.25\t\n"
			      "V\tb\t0\t2\tm\t0.75\t\nV\tb\t1\t2\te\tno such box\t\n"
			      "P\tb\t3\tsocket 1: no such box\n";

TEST(job_totals_and_readers)
{
	const char *dir = test_mkdtemp("mpi-report");
	REQUIRE(dir);
	char path[600], csvpath[600], err[200] = "";
	snprintf(path, sizeof(path), "%s/job.json", dir);
	snprintf(csvpath, sizeof(csvpath), "%s/job.csv", dir);
	struct umpi_events ev = {.n = 3, .name = {"COUNT", "RATE", "RATIO"}};
	CHECK_EQ_INT(umpi_report_write(path, &ev, "SIMULATED", 4, records, err, sizeof(err)), 0);
	const char *j = slurp(path);
	/* Which rank read each socket, node by node. */
	CHECK_CONTAINS(j, "{\"node\": \"a\", \"ranks\": [0, 1], \"sockets\": [\n"
			  "      {\"socket\": 0, \"rank\": 1, \"seconds\": 2, \"values\": "
			  "{\"COUNT\": 1000, \"RATE\": 1.5, \"RATIO\": 0.5}},\n"
			  "      {\"socket\": 1, \"rank\": 1, \"seconds\": 2, \"values\": "
			  "{\"COUNT\": 2000, \"RATE\": 2.5, \"RATIO\": 0.25}}]}");
	CHECK_CONTAINS(j, "{\"node\": \"b\", \"ranks\": [2, 3], \"sockets\": [\n"
			  "      {\"socket\": 0, \"rank\": 2, \"seconds\": 2, \"values\": "
			  "{\"COUNT\": 3000, \"RATE\": 3.25, \"RATIO\": 0.75}},\n"
			  "      {\"socket\": 1, \"rank\": 3, \"seconds\": 2, \"values\": "
			  "{\"COUNT\": 4000, \"RATE\": 0.75, \"RATIO\": null}, \"errors\": "
			  "{\"RATIO\": \"no such box\"}}]}");
	/* COUNT: 1000 + 2000 + 3000 + 4000 = 10000.  RATE: 1.5 + 2.5 + 3.25 +
	 * 0.75 = 8 GB/s.  RATIO: (0.5 + 0.25 + 0.75) / 3 = 0.5 (the socket in
	 * error has none). */
	CHECK_CONTAINS(j, "\"total\": {\n    \"COUNT\": 10000,\n    \"RATE\": 8,\n"
			  "    \"RATIO\": 0.5\n  }");
	CHECK_CONTAINS(j, "{\"node\": \"b\", \"rank\": 3, \"problem\": \"socket 1: no such box\"}");
	const char *c = slurp(csvpath);
	CHECK_CONTAINS(c, "socket,a,1,1,,RATE,2.5,GB/s\n");
	CHECK_CONTAINS(c, "total,,,,,COUNT,10000,\ntotal,,,,,RATE,8,GB/s\ntotal,,,,,RATIO,0.5,\n");
	test_rmtree(dir);
}

/* One node, one socket: the totals are that socket's values, whatever
 * the kind (a mean of one, a sum of one). */
TEST(one_socket_totals_are_its_values)
{
	const char *dir = test_mkdtemp("mpi-report1");
	REQUIRE(dir);
	char path[600], err[200] = "";
	snprintf(path, sizeof(path), "%s/one", dir);
	struct umpi_events ev = {.n = 2, .name = {"C", "R"}};
	static const char one[] = "N\tn\t0\nS\tn\t0\t0\t1.0\n"
				  "V\tn\t0\t0\tc\t7\t\nV\tn\t0\t1\tm\t0.125\t\n";
	CHECK_EQ_INT(umpi_report_write(path, &ev, "x", 1, one, err, sizeof(err)), 0);
	CHECK_CONTAINS(slurp(path), "\"total\": {\n    \"C\": 7,\n    \"R\": 0.125\n  }");
	char csv[700];
	snprintf(csv, sizeof(csv), "%s/one.csv", dir);
	CHECK_CONTAINS(slurp(csv), "total,,,,,R,0.125,\n");
	/* An unwritable path: an error naming it, never a crash. */
	snprintf(path, sizeof(path), "%s/no/such/dir/r.json", dir);
	CHECK_EQ_INT(umpi_report_write(path, &ev, "x", 1, one, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "cannot write the report");
	test_rmtree(dir);
}

/* A job that died (mpi_parts.h): rank 1 finished, rank 0 ended by a
 * signal, rank 2 last said it was running (killed), rank 3 never wrote a
 * part.  Missing: ranks 2 and 3, and socket 0 of b that rank 2 counted;
 * the origin from the O record when none is given. */
TEST(missing_ranks_and_sockets)
{
	const char *dir = test_mkdtemp("mpi-report2");
	REQUIRE(dir);
	char path[600], csv[700], err[200] = "";
	snprintf(path, sizeof(path), "%s/died.json", dir);
	snprintf(csv, sizeof(csv), "%s/died.csv", dir);
	struct umpi_events ev = {.n = 1, .name = {"C"}};
	static const char died[] = "N\ta\t0\nS\ta\t0\t0\t3.0\nV\ta\t0\t0\tc\t30\t\n"
				   "O\ta\t0\tSIMULATED here\nX\ta\t0\tended\tsignal 15 (Terminated)\n"
				   "N\ta\t1\nX\ta\t1\tfinished\t\n"
				   "N\tb\t2\nS\tb\t0\t2\t1.5\nV\tb\t0\t0\tc\t15\t\n"
				   "X\tb\t2\trunning\tcounted 3 times\n";
	CHECK_EQ_INT(umpi_report_write(path, &ev, "", 4, died, err, sizeof(err)), 0);
	const char *j = slurp(path);
	CHECK_CONTAINS(j, "\"origin\": \"SIMULATED here\"");
	CHECK_CONTAINS(j, "\"complete\": false,\n  \"missing\": {\"ranks\": [\n"
			  "    {\"rank\": 2, \"node\": \"b\", \"last\": \"counted 3 times\"},\n"
			  "    {\"rank\": 3, \"node\": null, \"last\": \"no record\"}],\n"
			  "    \"sockets\": [\n"
			  "    {\"node\": \"b\", \"socket\": 0, \"rank\": 2, \"seconds\": 1.5}]}");
	CHECK_CONTAINS(j, "\"total\": {\n    \"C\": 45\n  }");
	const char *c = slurp(csv);
	CHECK_CONTAINS(c, "missing,b,0,2,,,,\nmissing,b,,2,,,,\nmissing,,,3,,,,\n");
	/* Every rank finished: complete, nothing missing. */
	static const char fine[] = "N\ta\t0\nS\ta\t0\t0\t3.0\nV\ta\t0\t0\tc\t30\t\n"
				   "X\ta\t0\tfinished\t\n";
	CHECK_EQ_INT(umpi_report_write(path, &ev, "x", 1, fine, err, sizeof(err)), 0);
	CHECK_CONTAINS(slurp(path), "\"complete\": true,\n  \"missing\": {\"ranks\": [],\n"
				    "    \"sockets\": []}");
	test_rmtree(dir);
}

int main(void)
{
	RUN(job_totals_and_readers);
	RUN(missing_ranks_and_sockets);
	RUN(one_socket_totals_are_its_values);
	return harness_done();
}
