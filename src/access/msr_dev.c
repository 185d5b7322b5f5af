/* The /dev/cpu/N/msr backend (see msr_dev.h).  One file descriptor per
 * socket, opened once; each access is one pread/pwrite at the MSR index.
 * The driver either transfers all 8 bytes or fails, so a short transfer
 * means something other than the msr driver is behind the path. */
#include "access/msr_dev.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/uncore_error.h"

struct msr_dev {
	struct uncore_regio io;
	size_t nsockets;
	int *fd;  /* per socket; -1 where the socket has no CPU */
	int *cpu; /* per socket */
	int read_only;
	int msr_safe;           /* error wording for msr-safe's devices */
	char allow_writes[256]; /* the msr driver's allow_writes parameter file */
	char leaf[16];          /* "msr" or "msr_safe" */
	char root[256];
};

int uncore_msr_fail(int err, const char *path, int64_t msr, const char *op, int msr_safe)
{
	char reg[48] = "";
	if (msr >= 0)
		snprintf(reg, sizeof(reg), " of MSR 0x%" PRIx64, (uint64_t)msr);
	switch (err) {
	case EIO:
		/* The driver returns EIO when rdmsr/wrmsr raised #GP. */
		return uncore_fail(
		    UNCORE_EFAULT,
		    "%s%s through %s faulted (#GP): the MSR does not exist on this "
		    "processor, or the value sets a reserved bit; check the platform "
		    "detected and the register tables",
		    op, reg, path);
	case EACCES:
	case EPERM:
	case EROFS:
		if (msr_safe)
			return uncore_fail(
			    UNCORE_EPERM,
			    "%s%s through %s refused by msr-safe: the MSR is not "
			    "%s in /dev/cpu/msr_allowlist. As root, add ours to it: "
			    "uncore-msr-allowlist -m /dev/cpu/msr_allowlist -o "
			    "/dev/cpu/msr_allowlist (one write: msr-safe takes each write "
			    "as the whole list) and give your group rw access to "
			    "/dev/cpu/*/msr_safe and /dev/cpu/msr_batch",
			    op, reg, path,
			    strcmp(op, "write") == 0 ? "writable (with these bits)" : "listed");
		return uncore_fail(
		    UNCORE_EPERM,
		    "%s%s through %s: %s. Uncore MSRs need root or CAP_SYS_RAWIO "
		    "(setcap cap_sys_rawio=ep on the program%s), or use the msr-safe "
		    "module with our allowlist (uncore-msr-allowlist)",
		    op, reg, path, strerror(err),
		    strcmp(op, "write") == 0 ? "; a locked-down kernel (Secure Boot) "
					       "refuses all MSR writes"
					     : "");
	case ENOENT:
	case ENODEV:
		return uncore_fail(UNCORE_ENODEV,
				   "%s: no such device: load the driver (as root: modprobe %s)",
				   path, msr_safe ? "msr-safe" : "msr");
	case ENXIO:
		return uncore_fail(
		    UNCORE_ENODEV,
		    "%s%s through %s: the CPU is offline or does not exist; bring it "
		    "online or choose another CPU for the socket",
		    op, reg, path);
	default:
		return uncore_fail(uncore_error_from_errno(err), "%s%s through %s: %s", op, reg,
				   path, strerror(err));
	}
}

int uncore_msr_write_fail(int err, const char *path, int64_t msr, const char *param)
{
	char mode[16] = "";
	if ((err == EPERM || err == EACCES) && param) {
		FILE *f = fopen(param, "r");
		if (f) {
			if (!fgets(mode, sizeof(mode), f))
				mode[0] = '\0';
			fclose(f);
		}
	}
	/* Linux >= 5.9, arch/x86/kernel/msr.c: allow_writes=off refuses every
	 * write with EPERM, root or not. */
	if (strncmp(mode, "off", 3) == 0)
		return uncore_fail(
		    UNCORE_EPERM,
		    "write of MSR 0x%" PRIx64 " through %s: %s: the msr driver refuses "
		    "all writes (msr.allow_writes=off, %s). As root: echo on > %s "
		    "(or boot with msr.allow_writes=on; each write then taints the "
		    "kernel), or use msr-safe with our allowlist (uncore-msr-allowlist)",
		    (uint64_t)msr, path, strerror(err), param, param);
	return uncore_msr_fail(err, path, msr, "write", 0);
}

static int socket_fd(struct msr_dev *m, const struct uncore_reg *r, int *fd)
{
	if (r->space != UNCORE_SPACE_MSR)
		return uncore_fail(UNCORE_EINVAL, "msr backend asked for a register of space %u",
				   r->space);
	if (r->socket >= m->nsockets || m->fd[r->socket] < 0)
		return uncore_fail(UNCORE_EINVAL,
				   "MSR 0x%" PRIx64 " of socket %u: no CPU for that socket (%zu "
				   "socket(s) mapped)",
				   r->addr, r->socket, m->nsockets);
	if (r->addr > 0xffffffffu)
		return uncore_fail(UNCORE_EINVAL, "0x%" PRIx64 " is not an MSR index", r->addr);
	*fd = m->fd[r->socket];
	return 0;
}

static void dev_path(const struct msr_dev *m, unsigned socket, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%d/%s", m->root, m->cpu[socket], m->leaf);
}

static int msr_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	struct msr_dev *m = io->impl;
	int fd;
	int rc = socket_fd(m, r, &fd);
	if (rc)
		return rc;
	uint64_t v;
	io->stats.reads++;
	io->stats.syscalls++;
	ssize_t n = pread(fd, &v, sizeof(v), (off_t)r->addr);
	if (n == (ssize_t)sizeof(v)) {
		*value = v;
		return 0;
	}
	char path[300];
	dev_path(m, r->socket, path, sizeof(path));
	if (n < 0)
		return uncore_msr_fail(errno, path, (int64_t)r->addr, "read", m->msr_safe);
	return uncore_fail(UNCORE_EIO,
			   "read of MSR 0x%" PRIx64 " through %s returned %zd bytes, not 8",
			   r->addr, path, n);
}

static int msr_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	struct msr_dev *m = io->impl;
	int fd;
	int rc = socket_fd(m, r, &fd);
	if (rc)
		return rc;
	char path[300];
	if (m->read_only) {
		dev_path(m, r->socket, path, sizeof(path));
		return uncore_fail(UNCORE_EPERM,
				   "write of MSR 0x%" PRIx64 ": %s could only be opened read-only; "
				   "%s",
				   r->addr, path,
				   m->msr_safe
				       ? "give your group write access to /dev/cpu/*/msr_safe"
				       : "writing uncore MSRs needs root or CAP_SYS_RAWIO");
	}
	io->stats.writes++;
	io->stats.syscalls++;
	ssize_t n = pwrite(fd, &value, sizeof(value), (off_t)r->addr);
	if (n == (ssize_t)sizeof(value))
		return 0;
	dev_path(m, r->socket, path, sizeof(path));
	if (n < 0)
		return m->msr_safe
			   ? uncore_msr_fail(errno, path, (int64_t)r->addr, "write", 1)
			   : uncore_msr_write_fail(errno, path, (int64_t)r->addr, m->allow_writes);
	return uncore_fail(UNCORE_EIO,
			   "write of MSR 0x%" PRIx64 " through %s wrote %zd bytes, not 8", r->addr,
			   path, n);
}

static void msr_destroy(struct uncore_regio *io)
{
	struct msr_dev *m = io->impl;
	for (size_t i = 0; i < m->nsockets; i++)
		if (m->fd[i] >= 0)
			close(m->fd[i]);
	free(m->fd);
	free(m->cpu);
	free(m);
}

static const struct uncore_regio_ops msr_dev_ops = {
    .name = "msr",
    .read = msr_read,
    .write = msr_write,
    .destroy = msr_destroy,
};

int uncore_msr_dev_open_as(const struct uncore_msr_options *opt, const char *leaf, int msr_safe,
			   struct uncore_regio **out)
{
	if (!opt || !opt->cpu_of_socket || !opt->nsockets || !out)
		return uncore_fail(UNCORE_EINVAL, "msr: no socket-to-CPU map given");
	const char *root = opt->dev_root ? opt->dev_root : UNCORE_MSR_DEV_ROOT;
	if (strlen(root) > 200)
		return uncore_fail(UNCORE_EINVAL, "msr: device root \"%.40s...\" is too long",
				   root);

	struct msr_dev *m = calloc(1, sizeof(*m));
	if (m) {
		m->fd = malloc(opt->nsockets * sizeof(int));
		m->cpu = malloc(opt->nsockets * sizeof(int));
	}
	if (!m || !m->fd || !m->cpu) {
		if (m) {
			free(m->fd);
			free(m->cpu);
		}
		free(m);
		return uncore_fail(UNCORE_ENOMEM, "msr: out of memory");
	}
	snprintf(m->root, sizeof(m->root), "%s", root);
	snprintf(m->leaf, sizeof(m->leaf), "%s", leaf);
	snprintf(m->allow_writes, sizeof(m->allow_writes), "%s",
		 opt->allow_writes_param ? opt->allow_writes_param : UNCORE_MSR_ALLOW_WRITES);
	m->msr_safe = msr_safe;
	m->nsockets = opt->nsockets;
	m->io.ops = &msr_dev_ops;
	m->io.impl = m;
	for (size_t s = 0; s < opt->nsockets; s++) {
		m->fd[s] = -1;
		m->cpu[s] = opt->cpu_of_socket[s];
	}
	for (size_t s = 0; s < opt->nsockets; s++) {
		if (m->cpu[s] < 0)
			continue;
		char path[300];
		dev_path(m, (unsigned)s, path, sizeof(path));
		int fd = open(path, (m->read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC);
		if (fd < 0 && !m->read_only &&
		    (errno == EACCES || errno == EPERM || errno == EROFS)) {
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd >= 0)
				m->read_only = 1;
		}
		m->io.stats.syscalls++;
		if (fd < 0) {
			int rc = uncore_msr_fail(errno, path, -1, "open", msr_safe);
			msr_destroy(&m->io);
			return rc;
		}
		m->fd[s] = fd;
	}
	*out = &m->io;
	return 0;
}

int uncore_msr_dev_open(const struct uncore_msr_options *opt, struct uncore_regio **out)
{
	return uncore_msr_dev_open_as(opt, "msr", 0, out);
}
