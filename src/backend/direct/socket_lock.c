/* Per-socket ownership locks (see socket_lock.h).  The lock file is never
 * unlinked: removing it while another process has it open would let two
 * processes lock two different inodes of the same name. */
#include "backend/direct/socket_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/uncore_error.h"

struct uncore_socket_lock {
	int fd;
	unsigned socket;
	int group; /* a group's lock: its file is removed at release */
	int stale; /* the file still named a holder: it ended without releasing */
	char path[512];
};

static _Atomic unsigned long acquisitions;

unsigned long uncore_socket_lock_acquisitions(void)
{
	return acquisitions;
}

static int dir_usable(const char *dir)
{
	return access(dir, W_OK | X_OK) == 0;
}

int uncore_socket_lock_default_dir(const char *env, const char *xdg, char *buf, size_t len)
{
	int n;
	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (dir_usable("/run/lock/papi-uncore") || dir_usable("/run/lock"))
		n = snprintf(buf, len, "/run/lock/papi-uncore");
	else if (xdg && *xdg && dir_usable(xdg))
		n = snprintf(buf, len, "%s/papi-uncore", xdg);
	else
		n = snprintf(buf, len, "/tmp/papi-uncore");
	if (n < 0 || (size_t)n >= len)
		return uncore_fail(UNCORE_ENOSPACE, "lock directory name is too long");
	return 0;
}

/* Make the directory if needed: sticky and world-writable, like /tmp, so
 * that every user's processes can create and lock the socket files. */
static int ensure_dir(const char *dir)
{
	if (mkdir(dir, 01777) == 0) {
		chmod(dir, 01777); /* mkdir's mode is reduced by the umask */
		return 0;
	}
	if (errno == EEXIST)
		return 0;
	int e = errno;
	return uncore_fail(uncore_error_from_errno(e),
			   "cannot create the uncore lock directory %s: %s; set %s to a writable "
			   "directory shared by the processes that use the uncore",
			   dir, strerror(e), UNCORE_LOCK_DIR_ENV);
}

/* A process's command name from /proc/.../comm: 0, or -1 when it is gone. */
static int read_comm(const char *path, char *comm, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t k = read(fd, comm, len - 1);
	close(fd);
	comm[k > 0 ? k : 0] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

/* Who holds the lock, from the file and /proc: "PID 1234 (papi_command_l)". */
static void describe_owner(int fd, char *buf, size_t len)
{
	char text[64] = "", path[64], comm[32] = "";
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	long pid = n > 0 ? strtol(text, NULL, 10) : 0;
	if (pid <= 0) {
		snprintf(buf, len, "another process (PID not yet recorded)");
		return;
	}
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (read_comm(path, comm, sizeof(comm)) != 0) {
		snprintf(buf, len, "another process (the recorded PID %ld has exited)", pid);
		return;
	}
	snprintf(buf, len, "PID %ld (%s)%s", pid, comm[0] ? comm : "command unknown",
		 pid == (long)getpid() ? ", this process" : "");
}

/* Best effort "PID comm" into the lock file: the lock itself is already
 * held, only messages depend on this.  A read-only descriptor (a file made
 * by another user without write permission for us) leaves the old text,
 * which describe_owner() reports only while that PID runs. */
static int record_owner(int fd, const char *group)
{
	char me[320], comm[32] = "";
	(void)read_comm("/proc/self/comm", comm, sizeof(comm));
	int n = snprintf(me, sizeof(me), "%ld %s\nuid %ld\ngroup %.160s\n", (long)getpid(), comm,
			 (long)getuid(), group ? group : "");
	if (n < 0 || (size_t)n >= sizeof(me))
		return -1;
	if (ftruncate(fd, 0) != 0)
		return -1;
	return pwrite(fd, me, (size_t)n, 0) == n ? 0 : -1;
}

static int clear_owner(int fd)
{
	return ftruncate(fd, 0);
}

/* DIR/socket<N>.lock, or DIR/socket<N>.<tag>.lock: 0 or ENOSPACE. */
static int lock_path(char *buf, size_t len, const char *dir, unsigned socket, const char *tag)
{
	int n = tag ? snprintf(buf, len, "%s/socket%u.%s.lock", dir, socket, tag)
		    : snprintf(buf, len, "%s/socket%u.lock", dir, socket);
	if (n < 0 || (size_t)n >= len)
		return uncore_fail(UNCORE_ENOSPACE, "lock file name under %.60s is too long", dir);
	return 0;
}

int uncore_socket_lock_acquire(const char *dir, unsigned socket, struct uncore_socket_lock **out)
{
	return uncore_socket_lock_acquire_as(dir, socket, NULL, NULL, out);
}

int uncore_socket_lock_owner(const char *dir, unsigned socket, const char *tag,
			     struct uncore_lock_owner *out)
{
	char dbuf[400], path[512], text[400], proc[64];
	int rc;
	memset(out, 0, sizeof(*out));
	out->uid = -1;
	if (!dir) {
		if ((rc = uncore_socket_lock_default_dir(NULL, NULL, dbuf, sizeof(dbuf))))
			return rc;
		dir = dbuf;
	}
	if ((rc = lock_path(path, sizeof(path), dir, socket, tag)))
		return rc;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	/* "PID comm\nuid N\ngroup KEY\n" (record_owner) */
	out->pid = strtol(text, NULL, 10);
	const char *u = strstr(text, "\nuid "), *g = strstr(text, "\ngroup ");
	if (u)
		out->uid = strtol(u + 5, NULL, 10);
	if (g) {
		snprintf(out->group, sizeof(out->group), "%s", g + 7);
		out->group[strcspn(out->group, "\n")] = '\0';
	}
	snprintf(proc, sizeof(proc), "/proc/%ld/comm", out->pid);
	if (out->pid <= 0 || read_comm(proc, out->comm, sizeof(out->comm)) != 0)
		out->comm[0] = '\0';
	return 0;
}

int uncore_socket_lock_foreign(const char *dir, unsigned socket, const char *group, char *who,
			       size_t wlen, char *note, size_t nlen)
{
	struct uncore_lock_owner o;
	char user[64], pwbuf[1024];
	struct passwd pw, *found = NULL;
	if (!group || uncore_socket_lock_owner(dir, socket, NULL, &o) < 0 || o.pid <= 0 ||
	    !o.group[0] || strcmp(o.group, group) == 0)
		return 0;
	if (o.uid >= 0 && getpwuid_r((uid_t)o.uid, &pw, pwbuf, sizeof(pwbuf), &found) == 0 && found)
		snprintf(user, sizeof(user), "%s", found->pw_name);
	else
		snprintf(user, sizeof(user), "uid %ld", o.uid);
	if (wlen)
		snprintf(who, wlen, "PID %ld (%s)", o.pid, o.comm[0] ? o.comm : "command unknown");
	if (nlen)
		snprintf(note, nlen,
			 "user %.40s, measurement group %.60s: on the direct backend one group "
			 "programs a socket; uncored, the node service, lets groups share it",
			 user, o.group);
	return 1;
}

int uncore_socket_lock_acquire_as(const char *dir, unsigned socket, const char *tag,
				  const char *group, struct uncore_socket_lock **out)
{
	return uncore_socket_lock_acquire_who(dir, socket, tag, group, out, NULL, 0);
}

int uncore_socket_lock_acquire_who(const char *dir, unsigned socket, const char *tag,
				   const char *group, struct uncore_socket_lock **out, char *who,
				   size_t wlen)
{
	char dbuf[400];
	int rc;
	if (who && wlen)
		who[0] = '\0';
	if (!dir) {
		if ((rc = uncore_socket_lock_default_dir(NULL, NULL, dbuf, sizeof(dbuf))))
			return rc;
		dir = dbuf;
	}
	if ((rc = ensure_dir(dir)))
		return rc;
	unsigned tries = 0;
again:;
	struct uncore_socket_lock *l = calloc(1, sizeof(*l));
	if (!l)
		return uncore_fail(UNCORE_ENOMEM, "socket lock: out of memory");
	l->socket = socket;
	l->group = tag != NULL;
	if ((rc = lock_path(l->path, sizeof(l->path), dir, socket, tag))) {
		free(l);
		return rc;
	}
	/* O_NOFOLLOW: in a world-writable directory the name could be a symlink
	 * planted by someone else. */
	l->fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (l->fd >= 0)
		fchmod(l->fd, 0666); /* others must be able to record their PID too */
	else if (errno == EACCES || errno == EPERM)
		l->fd = open(l->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (l->fd < 0) {
		int e = errno;
		rc = uncore_fail(uncore_error_from_errno(e), "cannot open the lock file %s: %s",
				 l->path, strerror(e));
		free(l);
		return rc;
	}
	int rc_lock = flock(l->fd, LOCK_EX | LOCK_NB);
	/* A group's file goes away with its last holder (one file per job
	 * would pile up otherwise): the lock is ours only if the name still
	 * names the file locked, else its holder removed it meanwhile and we
	 * try the new one. */
	struct stat held, named;
	if (rc_lock == 0 && tag &&
	    (fstat(l->fd, &held) != 0 || stat(l->path, &named) != 0 ||
	     held.st_ino != named.st_ino || held.st_dev != named.st_dev)) {
		close(l->fd);
		free(l);
		if (tries++ < 8)
			goto again;
		/* Never count on a file that no longer bears the name: a
		 * process opening the name now would lock another one. */
		return uncore_fail(UNCORE_EBUSY,
				   "the lock of socket %u in %s was removed and made again 8 times "
				   "while taking it; try again",
				   socket, dir);
	}
	if (rc_lock != 0) {
		int e = errno;
		char owner[128];
		if (e == EWOULDBLOCK)
			describe_owner(l->fd, owner, sizeof(owner));
		close(l->fd);
		if (e != EWOULDBLOCK) {
			rc = uncore_fail(uncore_error_from_errno(e), "cannot lock %s: %s", l->path,
					 strerror(e));
			free(l);
			return rc;
		}
		rc = uncore_fail(UNCORE_EBUSY,
				 "the uncore boxes of socket %u are in use by %s (lock %s); wait "
				 "for it to finish or stop it",
				 socket, owner, l->path);
		if (who && wlen)
			snprintf(who, wlen, "%s", owner);
		free(l);
		return rc;
	}
	/* A release clears the record (clear_owner): one left means that its
	 * holder was killed, and may have left counters enabled. */
	struct stat st;
	l->stale = fstat(l->fd, &st) == 0 && st.st_size > 0;
	(void)record_owner(l->fd, group);
	*out = l;
	acquisitions++;
	return 0;
}

void uncore_socket_lock_forget(struct uncore_socket_lock *lock)
{
	if (!lock)
		return;
	close(lock->fd); /* another descriptor of the open file keeps the flock */
	free(lock);
}

void uncore_socket_lock_release(struct uncore_socket_lock *lock)
{
	if (!lock)
		return;
	(void)clear_owner(lock->fd);
	if (lock->group)
		(void)unlink(lock->path); /* still holding it: see the acquire */
	close(lock->fd); /* drops the flock */
	free(lock);
}

int uncore_socket_lock_stale(const struct uncore_socket_lock *lock)
{
	return lock ? lock->stale : 0;
}

const char *uncore_socket_lock_path(const struct uncore_socket_lock *lock)
{
	return lock ? lock->path : "";
}
