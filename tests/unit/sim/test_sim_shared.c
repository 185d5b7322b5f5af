/* One simulated machine used by two processes at once (MPI ranks on one
 * node): both see one consistent machine, concurrent accesses are neither
 * lost nor torn, the shared audit log gets every access as a whole line,
 * and a process dying with the lock held does not wedge the others. */
#include "sim_test.h"
#include "backend/direct/socket_lock.h"
#include "sim/sim_internal.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bind/settings.h"

/* The component's way: the environment read once (bind/settings.h), then
 * the machine it names. */
static int regio_from_env(struct uncore_regio **io)
{
	struct uncore_settings st;
	struct uncore_sim_options o;
	int rc = uncore_settings_read(&st);
	uncore_settings_sim(&st, &o);
	return rc < 0 ? rc : uncore_sim_regio_open(&o, io);
}

static char path[128], log_path[128];

static void make_paths(const char *tag)
{
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(path, sizeof(path), "%s/uncore-sim-test-%s-%d", dir, tag, (int)getpid());
	snprintf(log_path, sizeof(log_path), "/tmp/uncore-sim-test-%s-%d.jsonl", tag,
		 (int)getpid());
	unlink(path);
	unlink(log_path);
}

/* In a child: exit status 0 if all went well, else the failing step. */
#define CHILD_CHECK(cond, step)                                                                    \
	do {                                                                                       \
		if (!(cond))                                                                       \
			_exit(step);                                                               \
	} while (0)

static uint64_t child_rd(struct uncore_regio *io, struct uncore_reg r, int step)
{
	uint64_t v = 0;
	CHILD_CHECK(uncore_regio_read(io, &r, &v) == 0, step);
	return v;
}

static int wait_child(pid_t pid)
{
	int status = -1;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status)
				 : 100 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

TEST(two_processes_see_one_machine)
{
	make_paths("one");
	struct uncore_sim *sim;
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", path, &sim), 0);
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, "stream cbo ev=0x00 inc=1\n", "clocks"), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, msr_reg(0, 0xe01), HSWEP_PMON_CTL_EN);
	uncore_sim_advance(sim, 100);
	pid_t pid = fork();
	if (pid == 0) {
		struct uncore_sim *c;
		CHILD_CHECK(uncore_sim_open(path, &c) == 0, 2);
		struct uncore_regio *cio = uncore_sim_regio(c);
		CHILD_CHECK(child_rd(cio, msr_reg(0, 0xe08), 3) == 250, 4);
		CHILD_CHECK(child_rd(cio, msr_reg(0, 0xe01), 5) == HSWEP_PMON_CTL_EN, 6);
		struct uncore_reg r = msr_reg(0, 0xe11);
		CHILD_CHECK(uncore_regio_write(cio, &r, HSWEP_PMON_CTL_EN) == 0, 7);
		CHILD_CHECK(uncore_sim_advance(c, 100) == 0, 8);
		CHILD_CHECK(child_rd(cio, msr_reg(0, 0xe08), 9) == 500, 10);
		struct uncore_sim_topology t;
		CHILD_CHECK(uncore_sim_topology(c, &t) == 0 && !strcmp(t.scenario, "clocks") &&
				t.now_ns == 200,
			    11);
		uncore_sim_close(c);
		_exit(0);
	}
	CHECK_EQ_INT(wait_child(pid), 0);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 500);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe18)), 250);
	uint64_t now;
	uncore_sim_now(sim, &now);
	CHECK_EQ_U64(now, 200);
	CHECK_EQ_INT(uncore_sim_destroy(sim), 0);
	CHECK(access(path, F_OK) != 0);
}

TEST(concurrent_accesses_are_not_lost)
{
	make_paths("many");
	struct uncore_sim *sim;
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", path, &sim), 0);
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, "stream cbo ev=0x00 inc=1\n", "clocks"), 0);
	CHECK_EQ_INT(uncore_sim_set_log(sim, log_path), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, msr_reg(0, 0xe01), HSWEP_PMON_CTL_EN);
	enum { N = 2000 };
	pid_t pid = fork();
	struct uncore_sim *mine = sim;
	if (pid == 0)
		CHILD_CHECK(uncore_sim_open(path, &mine) == 0, 2);
	struct uncore_regio *mio = uncore_sim_regio(mine);
	uint64_t last = 0;
	int ok = 1;
	for (int i = 0; i < N; i++) {
		/* Each process: advance 2 ns, read the counter (never goes back),
		 * write its own filter register. */
		uncore_sim_advance(mine, 2);
		struct uncore_reg r = msr_reg(0, 0xe08);
		uint64_t v = 0;
		if (uncore_regio_read(mio, &r, &v) || v < last)
			ok = 0;
		last = v;
		r = msr_reg(0, pid == 0 ? 0xe15 : 0xe25);
		if (uncore_regio_write(mio, &r, (uint64_t)i & 0x3f))
			ok = 0;
	}
	if (pid == 0)
		_exit(ok ? 0 : 3);
	CHECK_EQ_INT(ok, 1);
	CHECK_EQ_INT(wait_child(pid), 0);
	uint64_t now;
	uncore_sim_now(sim, &now);
	CHECK_EQ_U64(now, 2 * 2 * N); /* every 2 ns advance of both processes */
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 2 * 2 * N * 5 / 2);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe15)), (N - 1) & 0x3f);
	/* 1 write before the fork, 2 accesses per iteration and process, and the
	 * two reads just made: every line whole. */
	CHECK_EQ_INT(uncore_sim_set_log(sim, NULL), 0);
	FILE *f = fopen(log_path, "r");
	char line[512];
	int lines = 0, whole = 0;
	while (f && fgets(line, sizeof(line), f)) {
		lines++;
		size_t len = strlen(line);
		whole += line[0] == '{' && len > 2 && line[len - 2] == '}' && line[len - 1] == '\n';
	}
	if (f)
		fclose(f);
	CHECK_EQ_INT(lines, 1 + 2 * 2 * N + 2);
	CHECK_EQ_INT(whole, lines);
	unlink(log_path);
	CHECK_EQ_INT(uncore_sim_destroy(sim), 0);
}

TEST(dead_lock_owner_is_recovered)
{
	make_paths("dead");
	struct uncore_sim *sim;
	CHECK_EQ_INT(uncore_sim_create("e5-2620v3-2s", path, &sim), 0);
	pid_t pid = fork();
	if (pid == 0) {
		struct uncore_sim *c;
		CHILD_CHECK(uncore_sim_open(path, &c) == 0, 2);
		CHILD_CHECK(sim_lock(c) == 0, 3);
		_exit(0); /* dies holding the machine's lock */
	}
	CHECK_EQ_INT(wait_child(pid), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, msr_reg(0, 0xe01), HSWEP_PMON_CTL_EN);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe01)), HSWEP_PMON_CTL_EN);
	CHECK_EQ_INT(sim->sh->recovered, 1);
	CHECK_EQ_INT(uncore_sim_destroy(sim), 0);
}

TEST(instance_file_errors)
{
	make_paths("err");
	struct uncore_sim *sim, *other;
	CHECK_EQ_INT(uncore_sim_open(path, &other), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "uncore-sim create");
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", path, &sim), 0);
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", path, &other), UNCORE_EBUSY);
	CHECK_EQ_INT(uncore_sim_create("no-such-model", NULL, &other), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "e7-8890v3-4s");
	CHECK_EQ_INT(uncore_sim_destroy(sim), 0);
	int fd = open(path, O_CREAT | O_WRONLY, 0600);
	CHECK(write(fd, "hello", 5) == 5);
	close(fd);
	CHECK_EQ_INT(uncore_sim_open(path, &other), UNCORE_EINVAL);
	unlink(path);
}

TEST(selection_from_the_environment)
{
	make_paths("env");
	struct uncore_sim *sim;
	CHECK_EQ_INT(uncore_sim_create("e7-8890v3-4s", path, &sim), 0);
	setenv(UNCORE_SIM_ENV_SIM, path, 1);
	setenv(UNCORE_SIM_ENV_SCENARIO, scenario_path("idle.scn"), 1);
	setenv(UNCORE_SIM_ENV_LOG, log_path, 1);
	struct uncore_regio *io;
	CHECK_EQ_INT(regio_from_env(&io), 0);
	CHECK_EQ_STR(io->ops->name, "sim");
	struct uncore_sim *envsim = uncore_sim_from_regio(io);
	CHECK(envsim != NULL);
	char desc[200];
	uncore_sim_describe(envsim, desc, sizeof(desc));
	CHECK_CONTAINS(desc, "SIMULATED uncore: model e7-8890v3-4s");
	CHECK_CONTAINS(desc, "scenario idle");
	RD(io, msr_reg(3, 0x700));
	uncore_regio_destroy(io); /* closes its machine */
	struct stat st;
	CHECK(stat(log_path, &st) == 0 && st.st_size > 0);
	/* A model name instead of a path: a private machine. */
	setenv(UNCORE_SIM_ENV_SIM, "e5-2620v3-2s", 1);
	unsetenv(UNCORE_SIM_ENV_SCENARIO);
	unsetenv(UNCORE_SIM_ENV_LOG);
	CHECK_EQ_INT(regio_from_env(&io), 0);
	uncore_sim_describe(uncore_sim_from_regio(io), desc, sizeof(desc));
	CHECK_CONTAINS(desc, "e5-2620v3-2s");
	uncore_regio_destroy(io);
	setenv(UNCORE_SIM_ENV_SIM, "nonsense", 1);
	CHECK_EQ_INT(regio_from_env(&io), UNCORE_EINVAL);
	unsetenv(UNCORE_SIM_ENV_SIM);
	uncore_sim_destroy(sim);
	unlink(log_path);
}

TEST(lock_directory_is_per_machine_and_goes_with_it)
{
	make_paths("locks");
	struct uncore_sim *a, *b, *priv;
	char da[PATH_MAX + 8], db[PATH_MAX + 8], dp[16] = "x";
	char path_b[sizeof(path) + 4];
	snprintf(path_b, sizeof(path_b), "%s-b", path);
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", path, &a), 0);
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", path_b, &b), 0);
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", NULL, &priv), 0);
	CHECK_EQ_INT(uncore_sim_lock_dir(a, da, sizeof(da)), 0);
	CHECK_EQ_INT(uncore_sim_lock_dir(b, db, sizeof(db)), 0);
	CHECK_EQ_INT(uncore_sim_lock_dir(priv, dp, sizeof(dp)), 0);
	CHECK_EQ_STR(dp, "");
	CHECK(da[0] == '/');
	CHECK(strstr(da, ".locks") != NULL);
	CHECK(strcmp(da, db) != 0);
	/* Another process attached to the same machine names the same directory. */
	struct uncore_sim *again;
	char dagain[PATH_MAX + 8];
	CHECK_EQ_INT(uncore_sim_open(path, &again), 0);
	CHECK_EQ_INT(uncore_sim_lock_dir(again, dagain, sizeof(dagain)), 0);
	CHECK_EQ_STR(dagain, da);
	uncore_sim_close(again);
	char tiny[8];
	CHECK_EQ_INT(uncore_sim_lock_dir(a, tiny, sizeof(tiny)), UNCORE_ENOSPACE);
	/* The lock files made there disappear with the machine. */
	struct uncore_socket_lock *l;
	CHECK_EQ_INT(uncore_socket_lock_acquire(da, 1, &l), 0);
	uncore_socket_lock_release(l);
	struct stat st;
	CHECK_EQ_INT(stat(da, &st), 0);
	CHECK_EQ_INT(uncore_sim_destroy(a), 0);
	CHECK(stat(da, &st) != 0);
	CHECK_EQ_INT(uncore_sim_destroy(b), 0);
	uncore_sim_destroy(priv);
}

int main(void)
{
	RUN(two_processes_see_one_machine);
	RUN(concurrent_accesses_are_not_lost);
	RUN(dead_lock_owner_is_recovered);
	RUN(instance_file_errors);
	RUN(selection_from_the_environment);
	RUN(lock_directory_is_per_machine_and_goes_with_it);
	return harness_done();
}
