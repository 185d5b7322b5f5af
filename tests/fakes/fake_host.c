/* Another host, seen through LD_PRELOAD: a process (a test script and every
 * program it starts) that opens /proc/cpuinfo reads FAKE_HOST_CPUINFO
 * instead, and one that looks under /sys/bus/event_source/devices sees the
 * tree FAKE_HOST_EVENT_SOURCE instead (each variable on its own; unset: the
 * real file).  So the suite proves on our Intel machines what it does on an
 * AMD host (tests/integration/test_other_hosts.sh), and PAPI's hardware
 * information shows the simulated machine's processor to the upstream tests
 * that ask for it (test_upstream_uncore.sh).  The calls redirected are the
 * ones by path that PAPI, libpfm4, our library, bash and coreutils use to
 * find those files; the kernel's own perf_event_open is untouched, so a fake
 * tree names the real PMU types. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EVENT_SOURCE "/sys/bus/event_source/devices"

/* The path a process must use for `path`: `buf` when it is redirected, else
 * `path` itself. */
static const char *redirect(const char *path, char *buf, size_t len)
{
	if (!path)
		return path;
	const char *cpuinfo = getenv("FAKE_HOST_CPUINFO");
	if (cpuinfo && *cpuinfo && strcmp(path, "/proc/cpuinfo") == 0)
		return cpuinfo;
	const char *tree = getenv("FAKE_HOST_EVENT_SOURCE");
	size_t n = sizeof(EVENT_SOURCE) - 1;
	if (tree && *tree && strncmp(path, EVENT_SOURCE, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/')) {
		if ((size_t)snprintf(buf, len, "%s%s", tree, path + n) < len)
			return buf;
	}
	return path;
}

/* The build hides symbols by default; these must replace libc's. */
#pragma GCC visibility push(default)

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	return REAL(open)(redirect(path, buf, sizeof(buf)), flags, mode);
}

int open64(const char *path, int flags, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	return REAL(open64)(redirect(path, buf, sizeof(buf)), flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	return REAL(openat)(dirfd, redirect(path, buf, sizeof(buf)), flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	return REAL(openat64)(dirfd, redirect(path, buf, sizeof(buf)), flags, mode);
}

FILE *fopen(const char *path, const char *how)
{
	char buf[4096];
	return REAL(fopen)(redirect(path, buf, sizeof(buf)), how);
}

FILE *fopen64(const char *path, const char *how)
{
	char buf[4096];
	return REAL(fopen64)(redirect(path, buf, sizeof(buf)), how);
}

DIR *opendir(const char *path)
{
	char buf[4096];
	return REAL(opendir)(redirect(path, buf, sizeof(buf)));
}

int stat(const char *path, struct stat *st)
{
	char buf[4096];
	return REAL(stat)(redirect(path, buf, sizeof(buf)), st);
}

int stat64(const char *path, struct stat64 *st)
{
	char buf[4096];
	return REAL(stat64)(redirect(path, buf, sizeof(buf)), st);
}

int lstat(const char *path, struct stat *st)
{
	char buf[4096];
	return REAL(lstat)(redirect(path, buf, sizeof(buf)), st);
}

int lstat64(const char *path, struct stat64 *st)
{
	char buf[4096];
	return REAL(lstat64)(redirect(path, buf, sizeof(buf)), st);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	char buf[4096];
	return REAL(fstatat)(dirfd, redirect(path, buf, sizeof(buf)), st, flags);
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	char buf[4096];
	return REAL(fstatat64)(dirfd, redirect(path, buf, sizeof(buf)), st, flags);
}

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *st)
{
	char buf[4096];
	return REAL(statx)(dirfd, redirect(path, buf, sizeof(buf)), flags, mask, st);
}

int access(const char *path, int how)
{
	char buf[4096];
	return REAL(access)(redirect(path, buf, sizeof(buf)), how);
}

int faccessat(int dirfd, const char *path, int how, int flags)
{
	char buf[4096];
	return REAL(faccessat)(dirfd, redirect(path, buf, sizeof(buf)), how, flags);
}

int eaccess(const char *path, int how)
{
	char buf[4096];
	return REAL(eaccess)(redirect(path, buf, sizeof(buf)), how);
}

#pragma GCC visibility pop
