/* The msr-safe backend (see msr_safe.h).  Single reads and writes are the
 * msr backend over /dev/cpu/N/msr_safe; a batch of reads and writes is one
 * ioctl over ops in a buffer kept between calls (no allocation once it is
 * big enough).  msr-safe checks the whole batch against its allowlist
 * before running any op, so a refused op fails the batch. */
#include "access/msr_safe.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/uncore_error.h"

/* The layout msr-safe's kernel side expects (x86-64). */
_Static_assert(sizeof(struct uncore_msr_batch_op) == 32, "msr_batch_op is 32 bytes");
_Static_assert(offsetof(struct uncore_msr_batch_op, err) == 4, "err at 4");
_Static_assert(offsetof(struct uncore_msr_batch_op, msr) == 8, "msr at 8");
_Static_assert(offsetof(struct uncore_msr_batch_op, msrdata) == 16, "msrdata at 16");
_Static_assert(offsetof(struct uncore_msr_batch_op, wmask) == 24, "wmask at 24");
_Static_assert(offsetof(struct uncore_msr_batch_array, ops) == 8, "ops pointer at 8");

struct msr_safe {
	struct uncore_regio io;
	struct uncore_regio *single; /* the msr backend over msr_safe files */
	int batch_fd;                /* -1: no batch device */
	uint32_t version;
	int *cpu;
	size_t nsockets;
	struct uncore_msr_batch_op *ops;
	size_t cap;
	uint64_t batch_syscalls;
	int (*batch_ioctl)(int fd, struct uncore_msr_batch_array *a, void *arg);
	void *batch_arg;
	char batch_path[300];
};

static int real_ioctl(int fd, struct uncore_msr_batch_array *a, void *arg)
{
	(void)arg;
	return ioctl(fd, UNCORE_X86_IOC_MSR_BATCH, a);
}

/* Our syscall count: the single-access backend's plus the batches. */
static void sync_syscalls(struct msr_safe *m)
{
	m->io.stats.syscalls = m->single->stats.syscalls + m->batch_syscalls;
}

static int ms_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	struct msr_safe *m = io->impl;
	io->stats.reads++;
	int rc = uncore_regio_read(m->single, r, value);
	sync_syscalls(m);
	return rc;
}

static int ms_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	struct msr_safe *m = io->impl;
	io->stats.writes++;
	int rc = uncore_regio_write(m->single, r, value);
	sync_syscalls(m);
	return rc;
}

static int grow_ops(struct msr_safe *m, size_t n)
{
	if (n <= m->cap)
		return 0;
	size_t cap = m->cap ? m->cap : 64;
	while (cap < n)
		cap *= 2;
	struct uncore_msr_batch_op *ops = realloc(m->ops, cap * sizeof(*ops));
	if (!ops)
		return uncore_fail(UNCORE_ENOMEM, "msr-safe: out of memory for a batch of %zu", n);
	m->ops = ops;
	m->cap = cap;
	return 0;
}

/* The batch failed: name the first op msr-safe marked, or the call itself. */
static int batch_failure(struct msr_safe *m, int err, const struct uncore_regio_op *ops, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!m->ops[i].err)
			continue;
		int e = m->ops[i].err < 0 ? -m->ops[i].err : m->ops[i].err;
		char path[400];
		snprintf(path, sizeof(path), "%s (CPU %u, socket %u, op %zu of %zu)", m->batch_path,
			 m->ops[i].cpu, ops[i].reg.socket, i + 1, n);
		return uncore_msr_fail(e, path, m->ops[i].msr, ops[i].write ? "write" : "read", 1);
	}
	switch (err) {
	case ENOPROTOOPT:
		return uncore_fail(
		    UNCORE_ENOSUPP,
		    "%s refused batch version %u.%u.%u: the loaded msr-safe has another "
		    "major version; install msr-safe 2.x or 1.x",
		    m->batch_path, m->version >> 16, (m->version >> 8) & 0xff, m->version & 0xff);
	case ENOTTY:
		return uncore_fail(UNCORE_ENOSUPP,
				   "%s does not accept msr-safe's batch ioctl: is it msr-safe's "
				   "batch device?",
				   m->batch_path);
	case E2BIG:
	case ENOMEM:
		return uncore_fail(UNCORE_ENOMEM,
				   "%s: the kernel could not allocate a batch of %zu ops",
				   m->batch_path, n);
	default:
		return uncore_msr_fail(err, m->batch_path, -1, "batch", 1);
	}
}

/* Every op of a batch that was not made: `code`. */
static int none_made(struct uncore_regio_op *ops, size_t n, int code)
{
	for (size_t i = 0; i < n; i++)
		ops[i].err = code;
	return code;
}

/* n accesses in one X86_IOC_MSR_BATCH ioctl.  What msr-safe does with it
 * (msr_batch.c, msr-smp.c of LLNL/msr-safe): it first checks every op -
 * CPU online, MSR in its allowlist, a write only to an MSR with a nonzero
 * write mask - and when one fails it runs none (the call fails with
 * EACCES, ENXIO or EROFS); then each CPU named runs its own ops in array
 * order (CPUs in parallel), an op that faults marked EIO while the others
 * run on, and the call fails with EIO.  A write is read-modify-write under
 * msr-safe's write mask: bits outside it keep their value. */
static int ms_batch(struct uncore_regio *io, struct uncore_regio_op *ops, size_t n)
{
	struct msr_safe *m = io->impl;
	size_t nwrites = 0;
	if (m->batch_fd < 0) { /* no batch device: one access each */
		int first = 0;
		for (size_t i = 0; i < n; i++) {
			ops[i].err = ops[i].write ? ms_write(io, &ops[i].reg, ops[i].value)
						  : ms_read(io, &ops[i].reg, &ops[i].value);
			if (ops[i].err && !first)
				first = ops[i].err;
		}
		return first;
	}
	if (n == 0)
		return 0; /* msr-safe rejects empty batches with EINVAL */
	if (n > UINT32_MAX)
		return none_made(
		    ops, n,
		    uncore_fail(UNCORE_EINVAL, "msr-safe: batch of %zu ops is too large", n));
	int rc = grow_ops(m, n);
	if (rc)
		return none_made(ops, n, rc);
	for (size_t i = 0; i < n; i++) {
		const struct uncore_reg *r = &ops[i].reg;
		if (r->space != UNCORE_SPACE_MSR || r->socket >= m->nsockets ||
		    m->cpu[r->socket] < 0 || r->addr > 0xffffffffu)
			return none_made(
			    ops, n,
			    uncore_fail(UNCORE_EINVAL,
					"msr-safe batch: register %zu (space %u, socket %u, "
					"0x%" PRIx64 ") is not an MSR of a mapped socket",
					i, r->space, r->socket, r->addr));
		m->ops[i] = (struct uncore_msr_batch_op){
		    .cpu = (uint16_t)m->cpu[r->socket],
		    .isrdmsr = !ops[i].write,
		    .msr = (uint32_t)r->addr,
		    .msrdata = ops[i].write ? ops[i].value : 0,
		};
		nwrites += ops[i].write != 0;
	}
	struct uncore_msr_batch_array a = {
	    .numops = (uint32_t)n, .version = m->version, .ops = m->ops};
	io->stats.reads += n - nwrites;
	io->stats.writes += nwrites;
	m->batch_syscalls++;
	sync_syscalls(m);
	int call = m->batch_ioctl(m->batch_fd, &a, m->batch_arg) < 0 ? errno : 0;
	if (call && call != EIO) /* checked and refused, or not run at all */
		return none_made(ops, n, batch_failure(m, call, ops, n));
	int first = 0;
	for (size_t i = 0; i < n; i++) {
		/* The module reports op errors in the call too; be sure. */
		if (m->ops[i].err) {
			int code = UNCORE_EFAULT; /* rdmsr or wrmsr raised #GP */
			if (!first)
				first = code = batch_failure(m, EIO, ops, n);
			ops[i].err = code;
			continue;
		}
		ops[i].err = 0;
		if (!ops[i].write)
			ops[i].value = m->ops[i].msrdata;
	}
	if (call && !first) /* failed, yet no op says why: take none as made */
		return none_made(ops, n, batch_failure(m, call, ops, n));
	return first;
}

static void ms_destroy(struct uncore_regio *io)
{
	struct msr_safe *m = io->impl;
	uncore_regio_destroy(m->single);
	if (m->batch_fd >= 0)
		close(m->batch_fd);
	free(m->cpu);
	free(m->ops);
	free(m);
}

static const struct uncore_regio_ops msr_safe_ops = {
    .name = "msr-safe",
    .read = ms_read,
    .write = ms_write,
    .batch = ms_batch,
    .destroy = ms_destroy,
};

/* The module's version from its version device ("MAJOR.MINOR.PATCH"); our
 * own when the device is absent (msr-safe before 1.6) or unreadable. */
static uint32_t module_version(const char *root)
{
	static const char *const names[] = {"msr_safe_version", "msr_version"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[300], buf[64];
		unsigned maj, min, pat;
		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t k = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (k <= 0)
			continue;
		buf[k] = '\0';
		if (sscanf(buf, "%u.%u.%u", &maj, &min, &pat) == 3 && maj < 0x10000 && min < 256 &&
		    pat < 256)
			return maj << 16 | min << 8 | pat;
	}
	return UNCORE_MSR_SAFE_VERSION;
}

int uncore_msr_safe_open(const struct uncore_msr_safe_options *opt, struct uncore_regio **out)
{
	if (!opt || !out)
		return uncore_fail(UNCORE_EINVAL, "msr-safe: no options given");
	struct uncore_regio *single;
	int rc = uncore_msr_dev_open_as(&opt->msr, "msr_safe", 1, &single);
	if (rc)
		return rc;
	struct msr_safe *m = calloc(1, sizeof(*m));
	int *cpu = malloc(opt->msr.nsockets * sizeof(int));
	if (!m || !cpu) {
		free(m);
		free(cpu);
		uncore_regio_destroy(single);
		return uncore_fail(UNCORE_ENOMEM, "msr-safe: out of memory");
	}
	const char *root = opt->msr.dev_root ? opt->msr.dev_root : UNCORE_MSR_DEV_ROOT;
	int batchable = 1;
	for (size_t s = 0; s < opt->msr.nsockets; s++) {
		cpu[s] = opt->msr.cpu_of_socket[s];
		if (cpu[s] > UINT16_MAX)
			batchable = 0; /* the op's cpu field is 16 bits */
	}
	m->single = single;
	m->cpu = cpu;
	m->nsockets = opt->msr.nsockets;
	m->batch_ioctl = opt->batch_ioctl ? opt->batch_ioctl : real_ioctl;
	m->batch_arg = opt->batch_arg;
	m->version = module_version(root);
	snprintf(m->batch_path, sizeof(m->batch_path), "%s/msr_batch", root);
	/* msr-safe wants the batch device open for reading (EBADF otherwise). */
	m->batch_fd = batchable ? open(m->batch_path, O_RDONLY | O_CLOEXEC) : -1;
	m->io.ops = &msr_safe_ops;
	m->io.impl = m;
	if (batchable)
		m->batch_syscalls++; /* the open */
	sync_syscalls(m);
	*out = &m->io;
	return 0;
}

int uncore_msr_safe_has_batch(const struct uncore_regio *io)
{
	if (!io || io->ops != &msr_safe_ops)
		return 0;
	return ((const struct msr_safe *)io->impl)->batch_fd >= 0;
}
