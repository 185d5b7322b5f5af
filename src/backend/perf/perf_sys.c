/* The real perf_event system-call layer: perf_event_open(2) through
 * syscall(2) (glibc has no wrapper), read(2), ioctl(2), close(2), and
 * whether this process may count a whole CPU, judged from its capabilities
 * and perf_event_paranoid (read here, for perf_permission.c too). */
#define _GNU_SOURCE
#include "backend/perf/perf_sys.h"

#include "backend/perf/perf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38 /* Linux 5.8; older headers lack it */
#endif

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

/* kernel.perf_event_paranoid, from `path` (NULL: the real one); INT_MIN
 * when it cannot be read (perf.h). */
int uncore_perf_paranoid_level(const char *path)
{
	char buf[32];
	int fd = open(path ? path : UNCORE_PERF_PARANOID_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return INT_MIN;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return INT_MIN;
	buf[n] = '\0';
	char *end;
	long v = strtol(buf, &end, 10);
	return end == buf ? INT_MIN : (int)v;
}

/* The kernel's rule for an event of a whole CPU (perf_event_open(2),
 * "perf_event related configuration files"; kernel/events/core.c,
 * perf_allow_cpu): CAP_PERFMON (Linux 5.8+) or CAP_SYS_ADMIN in the
 * effective set, or perf_event_paranoid <= 0.  The capabilities first (one
 * capget(2), no libcap): root needs nothing else.  An unreadable paranoid
 * level: the kernel will say. */
static int real_may_count_cpu(struct uncore_perf_sys *s, const char *paranoid_path)
{
	(void)s;
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) == 0 &&
	    ((data[CAP_SYS_ADMIN / 32].effective >> (CAP_SYS_ADMIN % 32) & 1) ||
	     (data[CAP_PERFMON / 32].effective >> (CAP_PERFMON % 32) & 1)))
		return 1;
	int paranoid = uncore_perf_paranoid_level(paranoid_path);
	return paranoid == INT_MIN || paranoid <= 0;
}

static struct uncore_perf_sys real_sys = {
    .open = real_open,
    .read = real_read,
    .ioctl = real_ioctl,
    .close = real_close,
    .may_count_cpu = real_may_count_cpu,
    .destroy = NULL,
};

struct uncore_perf_sys *uncore_perf_sys_real(void)
{
	return &real_sys;
}
