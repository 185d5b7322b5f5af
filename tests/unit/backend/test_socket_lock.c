/* Socket ownership: a child takes socket 0; the parent is refused with the
 * child's PID and command named; after kill -9 of the child the parent
 * gets the socket (the kernel dropped the lock with the process). */
#include "common/uncore_error.h"
#include "backend/direct/socket_lock.h"
#include "harness.h"
#include "support/lock_owner.h"
#include "support/tmpdir.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *dir;

TEST(second_process_refused_until_owner_dies)
{
	pid_t child = test_spawn_lock_owner(dir, 0, "uncore-owner");
	REQUIRE(child >= 0);
	struct uncore_socket_lock *l = NULL;
	char pid_text[32];
	snprintf(pid_text, sizeof(pid_text), "PID %ld (uncore-owner)", (long)child);
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 0, &l), UNCORE_EBUSY);
	CHECK_CONTAINS(uncore_error_detail(), pid_text);
	CHECK_CONTAINS(uncore_error_detail(), "socket 0");
	CHECK_CONTAINS(uncore_error_detail(), "socket0.lock");

	/* Another socket is free meanwhile. */
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 1, &l), 0);
	uncore_socket_lock_release(l);

	kill(child, SIGKILL);
	int st;
	waitpid(child, &st, 0);
	CHECK(WIFSIGNALED(st));
	l = NULL;
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 0, &l), 0);
	CHECK(l != NULL);
	CHECK_CONTAINS(uncore_socket_lock_path(l), "/socket0.lock");

	/* A second acquire in the same process is refused too, and says so. */
	struct uncore_socket_lock *again;
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 0, &again), UNCORE_EBUSY);
	CHECK_CONTAINS(uncore_error_detail(), "this process");
	uncore_socket_lock_release(l);
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 0, &again), 0);
	uncore_socket_lock_release(again);
	uncore_socket_lock_release(NULL);
}

TEST(released_lock_leaves_no_owner_text)
{
	struct uncore_socket_lock *l;
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 5, &l), 0);
	char path[600];
	snprintf(path, sizeof(path), "%s", uncore_socket_lock_path(l));
	struct stat st;
	CHECK_EQ_INT(stat(path, &st), 0);
	CHECK(st.st_size > 0);
	CHECK_EQ_INT(st.st_mode & 0777, 0666);
	uncore_socket_lock_release(l);
	CHECK_EQ_INT(stat(path, &st), 0);
	CHECK_EQ_INT(st.st_size, 0);
}

/* A group's lock (socket_lock.h, acquire_as): its own file beside the
 * node's, the group and user recorded; another group is told who holds the
 * node's lock; the group's file goes with its holder. */
TEST(groups_locks_and_records)
{
	struct uncore_socket_lock *node, *grp, *other;
	struct uncore_lock_owner o;
	char who[64], note[240], want[64];
	CHECK_EQ_INT(uncore_socket_lock_acquire_as(dir, 6, NULL, "openmpi:77", &node), 0);
	CHECK_EQ_INT(uncore_socket_lock_acquire_as(dir, 6, "g0123", "openmpi:77", &grp), 0);
	CHECK_CONTAINS(uncore_socket_lock_path(grp), "/socket6.g0123.lock");
	CHECK_EQ_INT(uncore_socket_lock_acquire_as(dir, 6, "g0124", "process:1", &other), 0);
	CHECK_EQ_INT(uncore_socket_lock_owner(dir, 6, NULL, &o), 0);
	CHECK_EQ_INT((int)o.pid, (int)getpid());
	CHECK_EQ_INT((int)o.uid, (int)getuid());
	CHECK_EQ_STR(o.group, "openmpi:77");
	CHECK_EQ_INT(uncore_socket_lock_foreign(dir, 6, "openmpi:77", who, sizeof(who), note,
						sizeof(note)),
		     0);
	CHECK_EQ_INT(uncore_socket_lock_foreign(dir, 6, "process:1", who, sizeof(who), note,
						sizeof(note)),
		     1);
	snprintf(want, sizeof(want), "PID %ld (", (long)getpid());
	CHECK_CONTAINS(who, want);
	CHECK_CONTAINS(note, "measurement group openmpi:77");
	CHECK_CONTAINS(note, "uncored");
	char path[600];
	struct stat st;
	snprintf(path, sizeof(path), "%s", uncore_socket_lock_path(grp));
	uncore_socket_lock_release(grp);
	CHECK(stat(path, &st) != 0); /* removed by its last holder */
	CHECK_EQ_INT(uncore_socket_lock_acquire_as(dir, 6, "g0123", "openmpi:77", &grp), 0);
	uncore_socket_lock_release(grp);
	uncore_socket_lock_release(other);
	uncore_socket_lock_release(node);
	CHECK_EQ_INT(uncore_socket_lock_foreign(dir, 6, "process:1", who, sizeof(who), note,
						sizeof(note)),
		     0); /* free */
}

TEST(directory_is_created_and_default_is_chosen)
{
	char sub[600], buf[600];
	snprintf(sub, sizeof(sub), "%s/made/here", dir);
	struct uncore_socket_lock *l;
	/* Only the last component is created. */
	CHECK_EQ_INT(uncore_socket_lock_acquire(sub, 0, &l), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), UNCORE_LOCK_DIR_ENV);
	snprintf(sub, sizeof(sub), "%s/made", dir);
	CHECK_EQ_INT(uncore_socket_lock_acquire(sub, 0, &l), 0);
	struct stat st;
	CHECK_EQ_INT(stat(sub, &st), 0);
	CHECK_EQ_INT(st.st_mode & 07777, 01777);
	uncore_socket_lock_release(l);

	CHECK_EQ_INT(uncore_socket_lock_default_dir(sub, "/nowhere", buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, sub);
	CHECK_EQ_INT(uncore_socket_lock_acquire(buf, 3, &l), 0);
	CHECK_CONTAINS(uncore_socket_lock_path(l), sub);
	uncore_socket_lock_release(l);
	CHECK_EQ_INT(uncore_socket_lock_default_dir("", NULL, buf, sizeof(buf)), 0);
	CHECK(strstr(buf, "/papi-uncore") != NULL);
	printf("  default lock directory here: %s\n", buf);
	char tiny[8];
	CHECK_EQ_INT(uncore_socket_lock_default_dir(NULL, NULL, tiny, sizeof(tiny)),
		     UNCORE_ENOSPACE);
}

int main(void)
{
	dir = test_mkdtemp("lock");
	if (!dir)
		return 1;
	RUN(second_process_refused_until_owner_dies);
	RUN(released_lock_leaves_no_owner_text);
	RUN(groups_locks_and_records);
	RUN(directory_is_created_and_default_is_chosen);
	test_rmtree(dir);
	return harness_done();
}
