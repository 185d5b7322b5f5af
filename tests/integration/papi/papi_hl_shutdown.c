/* PAPI's high-level API against a PAPI_shutdown from another thread, on the
 * simulator (tests/integration/test_papi_hl.sh; papi-patches/README.md,
 * patch 50).
 *
 *   papi_hl_shutdown THREADS ROUNDS OUTPUT_DIRECTORY
 *       every round is a child process (once deactivated, PAPI's high-level
 *       API stays so for the life of the process): THREADS threads begin and
 *       end a region in a loop from one barrier on, so that they also run the
 *       high-level API's lazy initialisation at once, and thread 0 calls
 *       PAPI_shutdown after a number of regions that changes with the round.
 *       Checked: a region call that returned before the shutdown began
 *       succeeded; one that began after it returned fails; after a thread's
 *       first failure, its PAPI_hl_region_begin, PAPI_hl_read and
 *       PAPI_hl_region_end fail with PAPI_EMISC (deactivated); and no round
 *       crashes or hangs (each has ROUND_SECONDS).  Before patch 50 the
 *       clean-up of the thread whose read failed first freed the data the
 *       other threads were using: SIGSEGV or SIGABRT in about one round of
 *       six with 8 threads.
 * Exit 0 when every round holds, 1 otherwise (each failure printed). */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "itest.h"
#include "papi.h"

#define MAXT          64
#define ROUND_SECONDS 20
#define EVENT         "hswep_unc_imc::UNC_M_CAS_COUNT:RD"

static pthread_barrier_t bar;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static int failures, shutdown_at;
/* shutting: PAPI_shutdown has begun; shut: it has returned. */
static atomic_int shutting, shut;

static void fail(int tid, int i, const char *what, int rc, const char *why)
{
	pthread_mutex_lock(&out_lock);
	if (failures++ < 20)
		printf("FAIL thread %d region %d %s: %d %s (%s)\n", tid, i, what, rc,
		       PAPI_strerror(rc), why);
	pthread_mutex_unlock(&out_lock);
}

static void shut_down(void)
{
	atomic_store(&shutting, 1);
	PAPI_shutdown(); /* the other threads are inside the high-level API */
	atomic_store(&shut, 1);
}

static void *regions(void *arg)
{
	int tid = (int)(long)arg, i;
	pthread_barrier_wait(&bar);
	for (i = 0; i < 1000000; i++) {
		if (tid == 0 && i == shutdown_at)
			shut_down();
		int after = atomic_load(&shut);
		int rc = PAPI_hl_region_begin("loop");
		const char *what = "PAPI_hl_region_begin";
		if (rc == PAPI_OK) {
			rc = PAPI_hl_region_end("loop");
			what = "PAPI_hl_region_end";
		}
		if (rc == PAPI_OK && after)
			fail(tid, i, what, rc, "succeeded after PAPI_shutdown returned");
		else if (rc != PAPI_OK && !atomic_load(&shutting))
			fail(tid, i, what, rc, "failed before PAPI_shutdown began");
		if (rc != PAPI_OK)
			break;
	}
	if (tid == 0 && !atomic_load(&shutting))
		shut_down(); /* its loop failed before: the others must end too */
	if (i == 1000000)
		fail(tid, i, "the loop", PAPI_OK, "never failed");
	int rc = PAPI_hl_region_begin("after");
	if (rc != PAPI_EMISC)
		fail(tid, i, "PAPI_hl_region_begin after a failure", rc, "want PAPI_EMISC");
	rc = PAPI_hl_read("loop");
	if (rc != PAPI_EMISC)
		fail(tid, i, "PAPI_hl_read after a failure", rc, "want PAPI_EMISC");
	rc = PAPI_hl_region_end("loop");
	if (rc != PAPI_EMISC)
		fail(tid, i, "PAPI_hl_region_end after a failure", rc, "want PAPI_EMISC");
	return NULL;
}

static int round_in_child(int nthreads, int round, const char *outdir)
{
	struct itest_sim sim;
	pthread_t th[MAXT];
	/* The high-level API reads these at its first region. */
	setenv("PAPI_EVENTS", EVENT, 1);
	setenv("PAPI_OUTPUT_DIRECTORY", outdir, 1);
	if (itest_sim_create("e5-2699v3-2s", &sim) != 0) {
		printf("FAIL round %d: cannot create the simulated machine\n", round);
		return 1;
	}
	shutdown_at = 50 + round * 7 % 100;
	pthread_barrier_init(&bar, NULL, (unsigned)nthreads);
	for (int i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, regions, (void *)(long)i);
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&bar);
	if (PAPI_hl_region_begin("main") != PAPI_EMISC)
		fail(-1, 0, "PAPI_hl_region_begin of the main thread", PAPI_OK, "want PAPI_EMISC");
	itest_sim_destroy(&sim);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: papi_hl_shutdown THREADS ROUNDS OUTPUT_DIRECTORY\n");
		return 2;
	}
	int nthreads = atoi(argv[1]), rounds = atoi(argv[2]);
	int crashed = 0, hung = 0, broken = 0;
	if (nthreads < 1 || nthreads > MAXT || rounds < 1)
		return 2;
	for (int r = 0; r < rounds; r++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			alarm(ROUND_SECONDS);
			exit(round_in_child(nthreads, r, argv[3]));
		}
		int status;
		if (waitpid(pid, &status, 0) != pid) {
			perror("waitpid");
			return 1;
		}
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
			hung++;
			printf("FAIL round %d: still running after %d s\n", r, ROUND_SECONDS);
		} else if (WIFSIGNALED(status)) {
			crashed++;
			printf("FAIL round %d: killed by signal %d (%s)\n", r, WTERMSIG(status),
			       strsignal(WTERMSIG(status)));
		} else if (WEXITSTATUS(status) != 0) {
			broken++;
		}
	}
	printf("%d threads, %d rounds: %d crashed, %d hung, %d broke the contract\n", nthreads,
	       rounds, crashed, hung, broken);
	return crashed || hung || broken ? 1 : 0;
}
