/* A fake msr-safe allowlist device for tests, loaded with LD_PRELOAD: every
 * write() to the file named by UNCORE_FAKE_MSR_ALLOWLIST is handled as
 * msr-safe's driver handles a write to /dev/cpu/msr_allowlist (facts from
 * LLNL msr-safe, msr_allowlist.c): the buffer of ONE write() is a complete
 * list that replaces the loaded one; at most 128 KiB; a write of 2 bytes or
 * fewer empties the list; a parse error (a number cut short, a non-number)
 * or a list with no entry is EINVAL and keeps the old list; a duplicate MSR
 * is EINVAL after the old list was already dropped (the list is left
 * empty).  Lines whose first non-blank is '#' are comments, and so is what
 * follows the two numbers of an entry.  The loaded list is kept in the file
 * itself, one "0xMSR 0xMASK" line per entry, so a test reads it back; the
 * size of every write() is appended to UNCORE_FAKE_MSR_ALLOWLIST_LOG. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_LIST_BYTES (128 * 1024)
#define MAX_ENTRIES    4096

struct entry {
	unsigned long long msr, mask;
};

static ssize_t raw_write(int fd, const void *buf, size_t n)
{
	return syscall(SYS_write, fd, buf, n);
}

/* Whether `fd` is the fake device. */
static int is_device(int fd)
{
	const char *path = getenv("UNCORE_FAKE_MSR_ALLOWLIST");
	struct stat a, b;
	return path && *path && fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static void log_write(size_t n, int result)
{
	const char *path = getenv("UNCORE_FAKE_MSR_ALLOWLIST_LOG");
	if (!path || !*path)
		return;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0)
		return;
	char line[64];
	int len =
	    snprintf(line, sizeof(line), "write %zu %s\n", n, result ? strerror(result) : "ok");
	raw_write(fd, line, (size_t)len);
	close(fd);
}

/* One entry from `*s`: 1 and the entry, 0 at the end, -1 on a parse error
 * (msr-safe's parse_next_allowlist_entry rules). */
static int next_entry(const char **s, const char *end, struct entry *e)
{
	const char *p = *s;
	for (;;) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p < end && *p == '#') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		break;
	}
	if (p >= end)
		return 0;
	unsigned long long v[2];
	for (int i = 0; i < 2; i++) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		const char *t = p;
		while (p < end && !isspace((unsigned char)*p))
			p++;
		if (p >= end || p == t || p - t > 40)
			return -1; /* "premature EOF": a token must end in white space */
		char num[48];
		memcpy(num, t, (size_t)(p - t));
		num[p - t] = '\0';
		char *q;
		errno = 0;
		v[i] = strtoull(num, &q, 0);
		if (errno || *q || num[0] == '-')
			return -1;
	}
	e->msr = v[0];
	e->mask = v[1];
	*s = p;
	return 1;
}

static void store(int fd, const struct entry *e, size_t n)
{
	if (ftruncate(fd, 0) != 0)
		return;
	off_t at = 0;
	for (size_t i = 0; i < n; i++) {
		char line[64];
		int len = snprintf(line, sizeof(line), "0x%08llX 0x%016llX\n", e[i].msr, e[i].mask);
		if (pwrite(fd, line, (size_t)len, at) != len)
			return;
		at += len;
	}
}

static int device_write(int fd, const char *buf, size_t n)
{
	static struct entry e[MAX_ENTRIES];
	if (n <= 2) {
		store(fd, e, 0);
		return 0;
	}
	if (n > MAX_LIST_BYTES)
		return EINVAL;
	const char *s = buf, *end = buf + n;
	size_t count = 0;
	int rc;
	while ((rc = next_entry(&s, end, &e[count])) > 0)
		if (++count == MAX_ENTRIES)
			return ENOMEM;
	if (rc < 0 || count == 0)
		return EINVAL; /* pass 1 failed: the old list stays */
	for (size_t i = 0; i < count; i++)
		for (size_t j = 0; j < i; j++)
			if (e[i].msr == e[j].msr) {
				store(fd, e, 0); /* pass 2 had already dropped the old list */
				return EINVAL;
			}
	store(fd, e, count);
	return 0;
}

/* Interposes libc's write() (built with -fvisibility=hidden: export it). */
__attribute__((visibility("default"))) ssize_t write(int fd, const void *buf, size_t n)
{
	if (!is_device(fd))
		return raw_write(fd, buf, n);
	int err = device_write(fd, buf, n);
	log_write(n, err);
	if (err) {
		errno = err;
		return -1;
	}
	return (ssize_t)n;
}
