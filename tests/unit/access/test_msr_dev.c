/* The /dev/cpu/N/msr backend against a fake device tree of regular files
 * (pread/pwrite at offset = MSR index work the same on them), the errno
 * mapping of the real driver's failures, and the read-only fallback in an
 * unprivileged child. */
#include "access/msr_dev.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "support/tmpdir.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *root;

static struct uncore_reg msr(unsigned socket, uint64_t addr)
{
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_MSR, .width = 8, .socket = (uint16_t)socket, .addr = addr};
}

/* Sockets 0 and 1 served by CPUs 0 and 3, as on an interleaved 2-socket box. */
static const int cpus[] = {0, 3};

static void make_dev(int cpu)
{
	char rel[32];
	snprintf(rel, sizeof(rel), "%d/msr", cpu);
	test_put(root, rel, "");
}

static uint64_t file_u64(int cpu, uint64_t off)
{
	char path[512];
	uint64_t v = 0;
	snprintf(path, sizeof(path), "%s/%d/msr", root, cpu);
	int fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, &v, 8, (off_t)off) != 8)
		HARNESS_FAIL_AT("cannot read back %s at 0x%" PRIx64, path, off);
	if (fd >= 0)
		close(fd);
	return v;
}

static void file_put_u64(int cpu, uint64_t off, uint64_t v)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%d/msr", root, cpu);
	int fd = open(path, O_WRONLY);
	if (fd < 0 || pwrite(fd, &v, 8, (off_t)off) != 8)
		HARNESS_FAIL_AT("cannot write %s at 0x%" PRIx64, path, off);
	if (fd >= 0)
		close(fd);
}

TEST(reads_and_writes_reach_the_socket_cpu)
{
	make_dev(0);
	make_dev(3);
	file_put_u64(0, 0x709, 0x123456789abcull);
	file_put_u64(3, 0x709, 0xfedcba987654ull);
	struct uncore_msr_options o = {.cpu_of_socket = cpus, .nsockets = 2, .dev_root = root};
	struct uncore_regio *io;
	CHECK_EQ_INT(uncore_msr_dev_open(&o, &io), 0);
	CHECK_EQ_STR(io->ops->name, "msr");
	CHECK_EQ_U64(io->stats.syscalls, 2); /* the two opens */

	uint64_t v;
	struct uncore_reg r0 = msr(0, 0x709), r1 = msr(1, 0x709);
	CHECK_EQ_INT(uncore_regio_read(io, &r0, &v), 0);
	CHECK_EQ_U64(v, 0x123456789abcull);
	CHECK_EQ_INT(uncore_regio_read(io, &r1, &v), 0);
	CHECK_EQ_U64(v, 0xfedcba987654ull);

	struct uncore_reg ctl = msr(1, 0xe01);
	CHECK_EQ_INT(uncore_regio_write(io, &ctl, 0x00400f37), 0);
	CHECK_EQ_U64(file_u64(3, 0xe01), 0x00400f37);
	CHECK_EQ_INT(uncore_regio_read(io, &ctl, &v), 0);
	CHECK_EQ_U64(v, 0x00400f37);

	/* read_many without a batch operation: one read (one syscall) each. */
	struct uncore_reg regs[3] = {r0, r1, ctl};
	uint64_t vals[3];
	uint64_t before = io->stats.syscalls;
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 3), 0);
	CHECK_EQ_U64(io->stats.syscalls - before, 3);
	CHECK_EQ_U64(vals[2], 0x00400f37);

	CHECK_EQ_U64(io->stats.reads, 6);
	CHECK_EQ_U64(io->stats.writes, 1);
	CHECK_EQ_U64(io->stats.syscalls, 2 + 6 + 1);
	uncore_regio_destroy(io);
}

TEST(bad_registers_are_refused_before_the_device)
{
	make_dev(0);
	const int map[] = {0, -1};
	struct uncore_msr_options o = {.cpu_of_socket = map, .nsockets = 2, .dev_root = root};
	struct uncore_regio *io;
	CHECK_EQ_INT(uncore_msr_dev_open(&o, &io), 0);
	uint64_t v;
	struct uncore_reg r = msr(1, 0x700);
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "no CPU for that socket");
	r = msr(2, 0x700);
	CHECK_EQ_INT(uncore_regio_write(io, &r, 0), UNCORE_EINVAL);
	r = msr(0, 0x100000000ull);
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_EINVAL);
	r.space = UNCORE_SPACE_PCI;
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_EINVAL);
	CHECK_EQ_U64(io->stats.syscalls, 1); /* the open only */

	/* A regular file ends; the driver never transfers less than 8 bytes. */
	r = msr(0, 0x1000000);
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_EIO);
	CHECK_CONTAINS(uncore_error_detail(), "returned 0 bytes");
	uncore_regio_destroy(io);
}

TEST(missing_device_says_modprobe)
{
	const int map[] = {7};
	struct uncore_msr_options o = {.cpu_of_socket = map, .nsockets = 1, .dev_root = root};
	struct uncore_regio *io = NULL;
	CHECK_EQ_INT(uncore_msr_dev_open(&o, &io), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "/7/msr");
	CHECK_CONTAINS(uncore_error_detail(), "modprobe msr");
	CHECK(io == NULL);
	CHECK_EQ_INT(uncore_msr_dev_open(NULL, &io), UNCORE_EINVAL);
}

TEST(errno_mapping_of_driver_failures)
{
	CHECK_EQ_INT(uncore_msr_fail(EIO, "/dev/cpu/0/msr", 0xe01, "write", 0), UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "write of MSR 0xe01 through /dev/cpu/0/msr faulted");
	CHECK_CONTAINS(uncore_error_detail(), "reserved bit");
	CHECK_EQ_INT(uncore_msr_fail(EPERM, "/dev/cpu/0/msr", -1, "open", 0), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "CAP_SYS_RAWIO");
	CHECK_CONTAINS(uncore_error_detail(), "msr-safe");
	CHECK_EQ_INT(uncore_msr_fail(EACCES, "/dev/cpu/0/msr", 0x700, "write", 0), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "locked-down kernel");
	CHECK_EQ_INT(uncore_msr_fail(EACCES, "/dev/cpu/0/msr_safe", 0xe01, "write", 1),
		     UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(),
		       "uncore-msr-allowlist -m /dev/cpu/msr_allowlist -o /dev/cpu/msr_allowlist");
	CHECK_CONTAINS(uncore_error_detail(), "writable");
	CHECK_EQ_INT(uncore_msr_fail(ENOENT, "/dev/cpu/0/msr", -1, "open", 0), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "modprobe msr");
	CHECK_EQ_INT(uncore_msr_fail(ENXIO, "/dev/cpu/5/msr", 0x700, "read", 0), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "offline");
	CHECK_EQ_INT(uncore_msr_fail(EBUSY, "/dev/cpu/5/msr", 0x700, "read", 0), UNCORE_EBUSY);
}

/* msr.allow_writes=off (Linux >= 5.9): every write is EPERM, root or not;
 * the detail names the parameter instead of blaming missing root. */
TEST(allow_writes_off_is_named)
{
	const char *dir = test_mkdtemp("allow-writes");
	CHECK(dir != NULL);
	if (!dir)
		return;
	char param[400];
	snprintf(param, sizeof(param), "%s/allow_writes", dir);
	CHECK_EQ_INT(test_put(dir, "allow_writes", "off\n"), 0);
	CHECK_EQ_INT(uncore_msr_write_fail(EPERM, "/dev/cpu/0/msr", 0x720, param), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "msr.allow_writes=off");
	CHECK_CONTAINS(uncore_error_detail(), "echo on >");
	CHECK(strstr(uncore_error_detail(), "CAP_SYS_RAWIO") == NULL);
	CHECK_EQ_INT(test_put(dir, "allow_writes", "default\n"), 0);
	CHECK_EQ_INT(uncore_msr_write_fail(EPERM, "/dev/cpu/0/msr", 0x720, param), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "CAP_SYS_RAWIO");
	/* No parameter file (an older kernel): the usual message. */
	CHECK_EQ_INT(uncore_msr_write_fail(EPERM, "/dev/cpu/0/msr", 0x720, "/nonexistent/x"),
		     UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "CAP_SYS_RAWIO");
	test_rmtree(dir);
}

/* As an unprivileged user a 0644 device opens read-only: reads work, writes
 * are refused by us with the reason. */
TEST(read_only_fallback_when_unprivileged)
{
	make_dev(0);
	char path[512];
	snprintf(path, sizeof(path), "%s/0/msr", root);
	file_put_u64(0, 0x10, 42);
	/* Root's child drops to nobody; a non-root run makes the file read-only. */
	chmod(path, geteuid() == 0 ? 0644 : 0444);
	chmod(root, 0755);
	pid_t pid = fork();
	if (pid == 0) {
		if (geteuid() == 0 && setuid(65534) != 0)
			_exit(10);
		const int map[] = {0};
		struct uncore_msr_options o = {
		    .cpu_of_socket = map, .nsockets = 1, .dev_root = root};
		struct uncore_regio *io;
		if (uncore_msr_dev_open(&o, &io))
			_exit(11);
		uint64_t v = 0;
		struct uncore_reg r = msr(0, 0x10);
		if (uncore_regio_read(io, &r, &v) || v != 42)
			_exit(12);
		if (uncore_regio_write(io, &r, 1) != UNCORE_EPERM)
			_exit(13);
		if (!strstr(uncore_error_detail(), "read-only"))
			_exit(14);
		uncore_regio_destroy(io);
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st));
	CHECK_EQ_INT(WEXITSTATUS(st), 0);
	CHECK_EQ_U64(file_u64(0, 0x10), 42);
}

/* This machine: either the msr driver is loaded (we are root: it opens) or
 * the failure names the fix. */
TEST(this_machine_default_root)
{
	const int map[] = {0};
	struct uncore_msr_options o = {.cpu_of_socket = map, .nsockets = 1};
	struct uncore_regio *io = NULL;
	int rc = uncore_msr_dev_open(&o, &io);
	if (access("/dev/cpu/0/msr", F_OK) == 0 && geteuid() == 0) {
		CHECK_EQ_INT(rc, 0);
		uncore_regio_destroy(io);
	} else {
		CHECK(rc == UNCORE_ENODEV || rc == UNCORE_EPERM);
		CHECK_CONTAINS(uncore_error_detail(), "/dev/cpu/0/msr");
		printf("  this machine: %s\n", uncore_error_detail());
	}
}

int main(void)
{
	root = test_mkdtemp("msr");
	if (!root)
		return 1;
	RUN(reads_and_writes_reach_the_socket_cpu);
	RUN(bad_registers_are_refused_before_the_device);
	RUN(missing_device_says_modprobe);
	RUN(allow_writes_off_is_named);
	RUN(errno_mapping_of_driver_failures);
	RUN(read_only_fallback_when_unprivileged);
	RUN(this_machine_default_root);
	test_rmtree(root);
	return harness_done();
}
