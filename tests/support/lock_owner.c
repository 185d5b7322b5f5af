/* Another process that owns a socket (lock_owner.h). */
#include "lock_owner.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/direct/socket_lock.h"

pid_t test_spawn_lock_owner(const char *dir, unsigned socket, const char *comm)
{
	int p[2];
	if (pipe(p) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_NAME, comm, 0, 0, 0);
		struct uncore_socket_lock *l;
		char ok = uncore_socket_lock_acquire(dir, socket, &l) == 0 ? 'y' : 'n';
		if (write(p[1], &ok, 1) != 1)
			_exit(2);
		for (;;)
			pause();
	}
	close(p[1]);
	char ok = 0;
	if (read(p[0], &ok, 1) != 1 || ok != 'y') {
		test_kill_lock_owner(pid);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

void test_kill_lock_owner(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
