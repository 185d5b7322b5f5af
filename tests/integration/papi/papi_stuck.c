/* States an event set must always have a way out of (issue 29), through
 * PAPI on the simulator (tests/integration/test_papi_stuck.sh).
 *
 *   papi_stuck stop-conflict [fits]
 *       thread B counts a QPI metric whose packet filters take turns
 *       (time-multiplexed settings); after each of its reads thread A asks
 *       to start a metric that needs one of those filter settings.  A is
 *       admitted or refused at PAPI_start with PAPI_ECNFLCT; whatever A got,
 *       every later read and stop of both succeeds (a conflict is found at
 *       start, never at a read or stop), both sets clean up and are
 *       destroyed, and each thread then counts a fresh set exactly.  With
 *       `fits`, A's event needs no filter and must be admitted every time.
 *   papi_stuck full
 *       a set that does not fit next to a running one is refused at
 *       PAPI_start with PAPI_ECNFLCT, on both backends, and starts later.
 *   papi_stuck unregistered THREADS
 *       threads start a set each and call PAPI_unregister_thread with it
 *       still running (one exits without unregistering); then
 *       PAPI_shutdown, PAPI_library_init again, and a fresh set counts
 *       exactly.
 *   papi_stuck fork CHILDREN
 *       while other threads read their sets in a loop, the main thread
 *       forks CHILDREN times; each child counts a set of its own with PAPI:
 *       it reads 0, the parent holding the sockets, and the component's
 *       description names the parent; the same after PAPI_shutdown and
 *       PAPI_library_init in the child on the direct backend (on the perf
 *       backend the child, a measurement group of its own, then counts
 *       beside its parent).  Every child must finish (a guard
 *       alarm kills a hung one) and exit 0.
 * Exit 0 when everything holds, 1 otherwise (each failure printed). */
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
#include "platform/hswep/hswep_boxes.h"

#define US 1000ull

static struct itest_sim sim;
static int failures;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void failf(const char *fmt, const char *a, const char *b, int rc)
{
	pthread_mutex_lock(&out_lock);
	if (failures++ < 30) {
		printf("FAIL ");
		printf(fmt, a, b);
		printf(": %s\n", PAPI_strerror(rc));
	}
	pthread_mutex_unlock(&out_lock);
}

static int ok(const char *what, const char *who, int rc)
{
	if (rc == PAPI_OK)
		return 1;
	failf("%s %s", what, who, rc);
	return 0;
}

static uint64_t ticks(unsigned boxes, uint64_t from, uint64_t to)
{
	uint64_t hz = sim.topo.clock_hz[HSWEP_CLK_UCLK];
	return boxes * (itest_cycles(to, hz) - itest_cycles(from, hz));
}

/* A fresh set of UBox clockticks counts exactly over 1000 us. */
static void fresh_exact(const char *who)
{
	int es = PAPI_NULL;
	long long v = -1;
	if (!ok("fresh set: create", who, PAPI_create_eventset(&es)) ||
	    !ok("fresh set: add", who, PAPI_add_named_event(es, "hswep_unc_ubo::UNC_U_CLOCKTICKS")))
		return;
	uint64_t t0 = 0;
	if (ok("fresh set: start", who, PAPI_start(es))) {
		t0 = itest_now(&sim);
		uncore_sim_advance(sim.sim, 1000 * US);
		if (ok("fresh set: stop", who, PAPI_stop(es, &v))) {
			uint64_t want = ticks(sim.topo.sockets, t0, itest_now(&sim));
			if ((uint64_t)v != want) {
				printf("FAIL fresh set %s: got %lld, want %llu\n", who, v,
				       (unsigned long long)want);
				failures++;
			} else
				printf("PASS fresh set %s counts exactly (%lld)\n", who, v);
		}
	}
	ok("fresh set: cleanup", who, PAPI_cleanup_eventset(es));
	ok("fresh set: destroy", who, PAPI_destroy_eventset(&es));
}

/* stop-conflict: the two threads take turns, told what to do by `cmd`. */
static pthread_barrier_t bar;
enum { CMD_START, CMD_READ, CMD_STOP, CMD_FRESH, CMD_QUIT };
static int cmd_a, cmd_b, last_rc_a;
static const char *metric_b = "hswep_unc_qpi::DRS_F_OR_E_FROM_QPI";
/* One of B's filter settings; and one that needs no filter. */
static const char *metric_a = "hswep_unc_qpi::DRS_DataC_M_FROM_QPI";
static const char *metric_a_fits = "hswep_unc_qpi::UNC_Q_CLOCKTICKS";

static void *turns(void *arg)
{
	int is_a = arg != NULL, es = PAPI_NULL, running = 0;
	const char *who = is_a ? "A" : "B";
	long long v[2];
	PAPI_register_thread();
	if (ok("create", who, PAPI_create_eventset(&es)))
		ok("add", is_a ? metric_a : metric_b,
		   PAPI_add_named_event(es, is_a ? metric_a : metric_b));
	for (;;) {
		pthread_barrier_wait(&bar);
		int cmd = is_a ? cmd_a : cmd_b, rc = PAPI_OK;
		if (cmd == CMD_QUIT)
			break;
		switch (cmd) {
		case CMD_START:
			rc = PAPI_start(es);
			running = rc == PAPI_OK;
			if (!is_a)
				ok("PAPI_start", who, rc);
			else if (rc != PAPI_OK && rc != PAPI_ECNFLCT)
				failf("PAPI_start %s %s: want PAPI_OK or PAPI_ECNFLCT", who, "", rc);
			last_rc_a = is_a ? rc : last_rc_a;
			break;
		case CMD_READ:
			if (running)
				ok("PAPI_read", who, PAPI_read(es, v));
			break;
		case CMD_STOP:
			if (running)
				ok("PAPI_stop", who, PAPI_stop(es, v));
			running = 0;
			break;
		case CMD_FRESH:
			fresh_exact(who);
			break;
		}
		if (!running) {
			int st = 0;
			PAPI_state(es, &st);
			if (!(st & PAPI_STOPPED)) {
				printf("FAIL thread %s: PAPI says state %#x after a refused start "
				       "or a stop, want PAPI_STOPPED\n",
				       who, st);
				failures++;
			}
		}
		pthread_barrier_wait(&bar);
	}
	ok("cleanup", who, PAPI_cleanup_eventset(es));
	ok("destroy", who, PAPI_destroy_eventset(&es));
	PAPI_unregister_thread();
	return NULL;
}

static void both(int a, int b)
{
	cmd_a = a;
	cmd_b = b;
	uncore_sim_advance(sim.sim, 100 * US);
	pthread_barrier_wait(&bar);
	if (a != CMD_QUIT) /* the threads leave after the first */
		pthread_barrier_wait(&bar);
}

#define IDLE (-1)

static int run_stop_conflict(int fits)
{
	pthread_t ta, tb;
	int admitted = 0, refused = 0;
	if (fits)
		metric_a = metric_a_fits;
	pthread_barrier_init(&bar, NULL, 3);
	pthread_create(&tb, NULL, turns, NULL);
	pthread_create(&ta, NULL, turns, (void *)1);
	/* A asks to start after B's k-th read: B's filter setting then is its
	 * k-th (modulo its number of settings). */
	for (int k = 0; k < 8 && failures == 0; k++) {
		both(IDLE, CMD_START);
		for (int r = 0; r < k; r++)
			both(IDLE, CMD_READ);
		both(CMD_START, IDLE);
		last_rc_a == PAPI_OK ? admitted++ : refused++;
		for (int r = 0; r < 7; r++)
			both(CMD_READ, CMD_READ);
		both(CMD_STOP, IDLE);
		both(IDLE, CMD_STOP);
	}
	both(CMD_FRESH, IDLE);
	both(IDLE, CMD_FRESH);
	both(CMD_QUIT, CMD_QUIT);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&bar);
	printf("%s admitted %d times, refused at start %d times (of 8)\n", metric_a, admitted,
	       refused);
	if (fits && admitted != 8) {
		printf("FAIL %s needs no filter, yet was refused\n", metric_a);
		failures++;
	}
	if (failures == 0)
		printf("PASS %s next to %s: B reads and stops every time, A %s\n", metric_a,
		       metric_b,
		       fits ? "admitted every time and read and stopped"
			    : "admitted or refused at start (PAPI then says STOPPED)");
	return failures ? 1 : 0;
}

/* full: A takes the four counters of every iMC channel; B's fifth iMC
 * event is refused at PAPI_start with PAPI_ECNFLCT (the perf backend said
 * PAPI_EINVAL before, issue 29), and starts once A has stopped. */
static int b_rc[2];

static void *full_b(void *arg)
{
	int es = PAPI_NULL;
	long long v;
	(void)arg;
	PAPI_register_thread();
	if (ok("create", "B", PAPI_create_eventset(&es)) &&
	    ok("add", "B", PAPI_add_named_event(es, "hswep_unc_imc::UNC_M_RPQ_INSERTS"))) {
		pthread_barrier_wait(&bar);
		b_rc[0] = PAPI_start(es);
		pthread_barrier_wait(&bar); /* A stops */
		pthread_barrier_wait(&bar);
		b_rc[1] = PAPI_start(es);
		if (b_rc[1] == PAPI_OK)
			ok("stop", "B", PAPI_stop(es, &v));
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_unregister_thread();
	return NULL;
}

static int run_full(void)
{
	static const char *const a_ev[] = {
	    "hswep_unc_imc::UNC_M_CAS_COUNT:RD", "hswep_unc_imc::UNC_M_CAS_COUNT:WR",
	    "hswep_unc_imc::UNC_M_ACT_COUNT:RD", "hswep_unc_imc::UNC_M_PRE_COUNT:PAGE_MISS"};
	int es = PAPI_NULL;
	long long v[4];
	pthread_t tb;
	pthread_barrier_init(&bar, NULL, 2);
	pthread_create(&tb, NULL, full_b, NULL);
	int up = ok("create", "A", PAPI_create_eventset(&es));
	for (int i = 0; up && i < 4; i++)
		up = ok("add", a_ev[i], PAPI_add_named_event(es, a_ev[i]));
	up = up && ok("start", "A", PAPI_start(es));
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	if (up)
		ok("stop", "A", PAPI_stop(es, v));
	pthread_barrier_wait(&bar);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&bar);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	if (b_rc[0] != PAPI_ECNFLCT || b_rc[1] != PAPI_OK) {
		printf("FAIL a fifth iMC event next to four: PAPI_start gave %s (want PAPI_ECNFLCT), "
		       "after the others stopped %s (want PAPI_OK)\n",
		       PAPI_strerror(b_rc[0]), PAPI_strerror(b_rc[1]));
		return 1;
	}
	printf("PASS a fifth iMC event next to four is refused at PAPI_start with PAPI_ECNFLCT, "
	       "and starts once they stopped\n");
	return failures ? 1 : 0;
}

/* unregistered: threads leave with their sets running. */
static void *leaver(void *arg)
{
	int tid = (int)(long)arg, es = PAPI_NULL;
	long long v;
	PAPI_register_thread();
	if (ok("create", "leaver", PAPI_create_eventset(&es)) &&
	    ok("add", "leaver", PAPI_add_named_event(es, "hswep_unc_cbo::UNC_C_CLOCKTICKS")) &&
	    ok("start", "leaver", PAPI_start(es)))
		ok("read", "leaver", PAPI_read(es, &v));
	if (tid != 0)
		ok("PAPI_unregister_thread with a running set", "", PAPI_unregister_thread());
	return NULL;
}

static int run_unregistered(int n)
{
	pthread_t th[64];
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < n; i++)
			pthread_create(&th[i], NULL, leaver, (void *)(long)i);
		for (int i = 0; i < n; i++)
			pthread_join(th[i], NULL);
		PAPI_shutdown();
		if (itest_papi_init() < 0 ||
		    PAPI_thread_init((unsigned long (*)(void))pthread_self) != PAPI_OK) {
			printf("FAIL PAPI init after PAPI_shutdown\n");
			return 1;
		}
		fresh_exact("after PAPI_shutdown with unregistered threads' sets running");
	}
	if (failures == 0)
		printf("PASS PAPI_shutdown after %d threads left with running sets, 3 rounds\n", n);
	return failures ? 1 : 0;
}

/* fork: readers keep reading while the main thread forks. */
static atomic_int stop_readers, readers_started;

static void *reader(void *arg)
{
	int es = PAPI_NULL;
	long long v[2];
	(void)arg;
	PAPI_register_thread();
	if (ok("create", "reader", PAPI_create_eventset(&es)) &&
	    ok("add", "reader", PAPI_add_named_event(es, "hswep_unc_cbo::UNC_C_CLOCKTICKS")) &&
	    ok("start", "reader", PAPI_start(es))) {
		atomic_fetch_add(&readers_started, 1);
		while (!atomic_load(&stop_readers))
			if (!ok("read", "reader", PAPI_read(es, v)))
				break;
		ok("stop", "reader", PAPI_stop(es, v));
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_unregister_thread();
	return NULL;
}

/* The child: a set of its own; the parent holds every socket, so it reads 0
 * there, and its component says who counts them. */
static int child(void)
{
	int es = PAPI_NULL, rc;
	long long v = -1;
	alarm(20); /* a hung child is killed and counted as a failure */
	rc = PAPI_create_eventset(&es);
	if (rc == PAPI_OK)
		rc = PAPI_add_named_event(es, "hswep_unc_ubo::UNC_U_CLOCKTICKS");
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	if (rc == PAPI_OK)
		rc = PAPI_read(es, &v);
	if (rc == PAPI_OK)
		rc = PAPI_stop(es, &v);
	if (rc != PAPI_OK) {
		printf("FAIL child %d: %s\n", (int)getpid(), PAPI_strerror(rc));
		return 1;
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	int cidx = PAPI_get_component_index("intel_uncore");
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	char want[64];
	snprintf(want, sizeof(want), "counted by PID %d", (int)getppid());
	if (v != 0 || !ci || !strstr(ci->description, want)) {
		printf("FAIL child %d: read %lld (want 0: the parent holds the sockets), "
		       "description \"%s\" (want \"%s\")\n",
		       (int)getpid(), v, ci ? ci->description : "", want);
		return 1;
	}
	/* Counters of its own: a new PAPI.  The parent still holds the
	 * sockets, so they read 0 here too, now because the socket locks say
	 * so (the child's copies of them were not taken as its own). */
	PAPI_shutdown();
	if (itest_papi_init() < 0)
		return 1;
	v = -1;
	rc = PAPI_create_eventset(&es);
	if (rc == PAPI_OK)
		rc = PAPI_add_named_event(es, "hswep_unc_ubo::UNC_U_CLOCKTICKS");
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	if (rc == PAPI_OK)
		rc = PAPI_stop(es, &v);
	ci = PAPI_get_component_info(PAPI_get_component_index("intel_uncore"));
	/* On the perf backend the child is a measurement group of its own
	 * (README "MPI jobs and threads": a process alone), which the kernel
	 * lets count beside its parent: no socket is anyone else's. */
	if (ci && strstr(ci->description, "perf backend")) {
		if (rc != PAPI_OK || strstr(ci->description, "counted by")) {
			printf("FAIL child %d after PAPI_library_init, a group of its own on the perf "
			       "backend: %s, description \"%s\" (want no socket counted by another)\n",
			       (int)getpid(), PAPI_strerror(rc), ci->description);
			return 1;
		}
		PAPI_shutdown();
		return 0;
	}
	if (rc != PAPI_OK || v != 0 || !ci || !strstr(ci->description, want)) {
		printf("FAIL child %d after PAPI_library_init: %s, read %lld (want 0), description "
		       "\"%s\" (want \"%s\")\n",
		       (int)getpid(), PAPI_strerror(rc), v, ci ? ci->description : "", want);
		return 1;
	}
	PAPI_shutdown();
	return 0;
}

static int run_fork(int n)
{
	pthread_t th[2];
	int good = 0;
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, reader, NULL);
	while (atomic_load(&readers_started) < 2 && failures == 0)
		usleep(1000); /* the sockets are the parent's from here on */
	for (int i = 0; i < n; i++) {
		usleep(1000 + (unsigned)(i % 7) * 300);
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			int rc = child();
			fflush(stdout);
			_exit(rc);
		}
		int st = 0;
		if (pid < 0 || waitpid(pid, &st, 0) != pid) {
			printf("FAIL fork %d\n", i);
			failures++;
			continue;
		}
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			good++;
		else if (failures++ < 30)
			printf("FAIL child %d of %d: %s %d\n", i, n,
			       WIFSIGNALED(st) ? "killed by signal" : "exit status",
			       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
	atomic_store(&stop_readers, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("%s %d of %d children forked while two threads were reading counted with "
	       "PAPI and exited 0\n",
	       good == n ? "PASS" : "FAIL", good, n);
	return good == n && failures == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: papi_stuck stop-conflict | unregistered THREADS | fork N\n");
		return 2;
	}
	int n = argc > 2 ? atoi(argv[2]) : 4;
	if (strcmp(argv[1], "stop-conflict") != 0 && strcmp(argv[1], "full") != 0 &&
	    (n < 1 || n > (strcmp(argv[1], "fork") == 0 ? 1000 : 64)))
		return 2;
	if (itest_sim_create("e5-2699v3-2s", &sim) != 0 ||
	    itest_load(&sim, "hswep-clocks.scn") != 0)
		return 1;
	int rc = 1;
	if (itest_papi_init() < 0 ||
	    PAPI_thread_init((unsigned long (*)(void))pthread_self) != PAPI_OK)
		printf("FAIL PAPI init\n");
	else if (strcmp(argv[1], "stop-conflict") == 0)
		rc = run_stop_conflict(argc > 2 && strcmp(argv[2], "fits") == 0);
	else if (strcmp(argv[1], "full") == 0)
		rc = run_full();
	else if (strcmp(argv[1], "unregistered") == 0)
		rc = run_unregistered(n);
	else if (strcmp(argv[1], "fork") == 0)
		rc = run_fork(n);
	PAPI_shutdown();
	itest_sim_destroy(&sim);
	return rc;
}
