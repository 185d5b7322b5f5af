/* Socket ownership: a child takes socket 0; the parent is refused with the
 * child's PID and command named; after kill -9 of the child the parent
 * gets the socket (the kernel dropped the lock with the process).  A
 * holder whose record is empty or names an exited PID is described as
 * such; a lock file that cannot be opened is named. */
#include "common/uncore_error.h"
#include "backend/direct/socket_lock.h"
#include "harness.h"
#include "support/lock_owner.h"
#include "support/tmpdir.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
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
	/* Taken over from a killed holder: said, for the boxes to be put idle. */
	CHECK_EQ_INT(uncore_socket_lock_stale(l), 1);

	/* A second acquire in the same process is refused too, and says so. */
	struct uncore_socket_lock *again;
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 0, &again), UNCORE_EBUSY);
	CHECK_CONTAINS(uncore_error_detail(), "this process");
	uncore_socket_lock_release(l);
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 0, &again), 0);
	/* After a release (the record cleared): nothing to put idle. */
	CHECK_EQ_INT(uncore_socket_lock_stale(again), 0);
	uncore_socket_lock_release(again);
	uncore_socket_lock_release(NULL);
	CHECK_EQ_INT(uncore_socket_lock_stale(NULL), 0);
}

TEST(released_lock_leaves_no_owner_text)
{
	struct uncore_socket_lock *l;
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 5, &l), 0);
	CHECK_EQ_INT(uncore_socket_lock_stale(l), 0); /* a new file */
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

/* A holder that took the lock but whose record is empty or stale (it
 * crashed between the two, or the file was copied): refused all the same,
 * and the message says what is known. */
static pid_t hold_with_record(unsigned socket, const char *record)
{
	char path[600];
	int p[2];
	snprintf(path, sizeof(path), "%s/socket%u.lock", dir, socket);
	if (pipe(p) != 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		int fd = open(path, O_RDWR | O_CREAT, 0666);
		char ok = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 ? 'y' : 'n';
		if (ok == 'y' && (ftruncate(fd, 0) != 0 ||
				  pwrite(fd, record, strlen(record), 0) != (ssize_t)strlen(record)))
			ok = 'n';
		if (write(p[1], &ok, 1) != 1)
			_exit(2);
		for (;;)
			pause();
	}
	close(p[1]);
	char ok = 0;
	if (pid < 0 || read(p[0], &ok, 1) != 1 || ok != 'y') {
		if (pid > 0)
			test_kill_lock_owner(pid);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

TEST(an_unknown_or_gone_holder_is_described)
{
	struct uncore_socket_lock *l = NULL;
	pid_t h = hold_with_record(6, "");
	REQUIRE(h > 0);
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 6, &l), UNCORE_EBUSY);
	CHECK_CONTAINS(uncore_error_detail(), "another process (PID not yet recorded)");
	test_kill_lock_owner(h);

	/* A PID that has exited: one of ours, reaped. */
	fflush(NULL);
	pid_t gone = fork();
	if (gone == 0)
		_exit(0);
	REQUIRE(gone > 0);
	waitpid(gone, NULL, 0);
	char record[64], want[96];
	snprintf(record, sizeof(record), "%ld old-owner\n", (long)gone);
	snprintf(want, sizeof(want), "another process (the recorded PID %ld has exited)", (long)gone);
	h = hold_with_record(6, record);
	REQUIRE(h > 0);
	CHECK_EQ_INT(uncore_socket_lock_acquire(dir, 6, &l), UNCORE_EBUSY);
	CHECK_CONTAINS(uncore_error_detail(), want);
	test_kill_lock_owner(h);
	CHECK(l == NULL);
	uncore_error_clear();
}

/* A lock file that cannot be opened (here a directory in its place): an
 * error naming it, no lock. */
TEST(a_lock_file_that_cannot_be_opened_is_named)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/socket9.lock", dir);
	REQUIRE(mkdir(path, 0700) == 0);
	struct uncore_socket_lock *l = NULL;
	CHECK(uncore_socket_lock_acquire(dir, 9, &l) < 0);
	CHECK_CONTAINS(uncore_error_detail(), "cannot open the lock file");
	CHECK_CONTAINS(uncore_error_detail(), "socket9.lock");
	CHECK(l == NULL);
	rmdir(path);
	uncore_error_clear();
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
	RUN(an_unknown_or_gone_holder_is_described);
	RUN(a_lock_file_that_cannot_be_opened_is_named);
	test_rmtree(dir);
	return harness_done();
}
