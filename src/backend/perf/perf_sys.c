/* The real perf_event system-call layer: perf_event_open(2) through
 * syscall(2) (glibc has no wrapper), read(2), ioctl(2), close(2). */
#define _GNU_SOURCE
#include "backend/perf/perf_sys.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int real_open(struct uncore_perf_sys *s, struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	(void)s;
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
	return fd < 0 ? -errno : (int)fd;
}

static ssize_t real_read(struct uncore_perf_sys *s, int fd, void *buf, size_t len)
{
	(void)s;
	return uncore_perf_read_real(fd, buf, len);
}

static int real_ioctl(struct uncore_perf_sys *s, int fd, unsigned long req, unsigned long arg)
{
	(void)s;
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static int real_close(struct uncore_perf_sys *s, int fd)
{
	(void)s;
	return close(fd) < 0 ? -errno : 0;
}

static struct uncore_perf_sys real_sys = {
    .open = real_open,
    .read = real_read,
    .ioctl = real_ioctl,
    .close = real_close,
    .destroy = NULL,
};

struct uncore_perf_sys *uncore_perf_sys_real(void)
{
	return &real_sys;
}
