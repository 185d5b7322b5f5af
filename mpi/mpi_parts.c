/* The parts of a job's report (see mpi_parts.h). */
#define _GNU_SOURCE
#include "mpi_parts.h"

#include "mpi_report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define PART_PREFIX "rank-"

int umpi_parts_dir(const char *report, char *out, size_t len)
{
	int n = snprintf(out, len, "%s.parts", report);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int is_part(const char *name)
{
	size_t k = strlen(PART_PREFIX);
	if (strncmp(name, PART_PREFIX, k) != 0 || !name[k])
		return 0;
	for (const char *c = name + k; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return 1;
}

/* Every part and the lock; other files (ours half-written: .tmp) too. */
static void clear(const char *dir)
{
	char path[4500];
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (!is_part(e->d_name) && strcmp(e->d_name, "lock") != 0 &&
		    !strstr(e->d_name, ".tmp"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

int umpi_parts_reset(const char *dir, char *err, size_t len)
{
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		snprintf(err, len, "cannot make %.300s: %s", dir, strerror(errno));
		return -1;
	}
	clear(dir);
	return 0;
}

int umpi_part_write(const char *dir, int rank, const char *text, size_t n)
{
	char tmp[4300], path[4250];
	snprintf(path, sizeof(path), "%.4200s/" PART_PREFIX "%d", dir, rank);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	size_t done = 0;
	while (done < n) {
		ssize_t k = write(fd, text + done, n - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		done += (size_t)k;
	}
	if (close(fd) != 0 || done != n || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Appends the file at `path` to *all (size *n). */
static int slurp(const char *path, char **all, size_t *n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char chunk[8192];
	size_t k;
	int rc = 0;
	while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		char *q = realloc(*all, *n + k + 2);
		if (!q) {
			rc = -1;
			break;
		}
		*all = q;
		memcpy(*all + *n, chunk, k);
		*n += k;
	}
	fclose(f);
	if (*all && *n && (*all)[*n - 1] != '\n')
		(*all)[(*n)++] = '\n';
	if (*all)
		(*all)[*n] = '\0';
	return rc;
}

/* The lock file holds two numbers: parts written, and the count of them
 * the last rebuild covered.  A rank takes a ticket after writing its part
 * and rebuilds only when no rebuild since covered it: when many ranks write
 * at once (a job's end), one rebuild serves them all. */
static void counters(int fd, unsigned long c[2])
{
	char text[64] = {0};
	c[0] = c[1] = 0;
	if (pread(fd, text, sizeof(text) - 1, 0) > 0)
		sscanf(text, "%lu %lu", &c[0], &c[1]);
}

static void set_counters(int fd, const unsigned long c[2])
{
	char text[64];
	int n = snprintf(text, sizeof(text), "%20lu %20lu\n", c[0], c[1]);
	if (pwrite(fd, text, (size_t)n, 0) != n)
		return; /* the next writer rebuilds again: no harm */
}

static void lock_file(int fd, int how)
{
	while (flock(fd, how) != 0 && errno == EINTR)
		;
}

static int rebuild(const char *dir, const char *report, const struct umpi_events *ev,
		   const char *origin, int nranks, char *err, size_t len)
{
	char path[4200], *all = NULL;
	size_t n = 0;
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, len, "cannot read %.300s: %s", dir, strerror(errno));
		return -1;
	}
	for (struct dirent *e; (e = readdir(d));)
		if (is_part(e->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			slurp(path, &all, &n); /* a part gone meanwhile: its rank missing */
		}
	closedir(d);
	int rc = umpi_report_write(report, ev, origin, nranks, all ? all : "", err, len);
	free(all);
	return rc;
}

int umpi_parts_rebuild(const char *dir, const char *report, const struct umpi_events *ev,
		       const char *origin, int nranks, char *err, size_t len)
{
	char path[4200];
	unsigned long c[2];
	snprintf(path, sizeof(path), "%s/lock", dir);
	int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock < 0) {
		snprintf(err, len, "cannot open %.300s: %s", path, strerror(errno));
		return -1;
	}
	lock_file(lock, LOCK_EX);
	counters(lock, c);
	unsigned long ticket = ++c[0];
	set_counters(lock, c);
	lock_file(lock, LOCK_UN);
	lock_file(lock, LOCK_EX);
	counters(lock, c);
	int rc = 0;
	if (c[1] < ticket) {
		c[1] = c[0]; /* every part written so far is in the directory */
		rc = rebuild(dir, report, ev, origin, nranks, err, len);
		set_counters(lock, c);
	}
	close(lock); /* releases the lock */
	return rc;
}

void umpi_parts_remove(const char *dir)
{
	clear(dir);
	rmdir(dir);
}
