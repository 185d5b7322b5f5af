/* The msr-safe backend over a fake device tree, with a model of the
 * module's batch ioctl behind the test seam: the model applies an
 * allowlist to the whole batch first (as msr-safe does), then makes each
 * op, a read or a write, on the fake per-CPU file, in order. */
#include "access/msr_safe.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "support/tmpdir.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static const char *root;
static const int cpus[] = {0, 3};

struct model {
	const uint32_t *allowed; /* MSRs in the allowlist */
	size_t nallowed;
	const uint32_t *writable; /* of those, the ones with a nonzero write mask */
	size_t nwritable;
	unsigned eio_fault;   /* op (1-based) whose rdmsr faults: the call fails with EIO */
	char order[32];       /* 'r' or 'w' per op of the last call, as made */
	int fail_errno;       /* make the call itself fail */
	unsigned quiet_fault; /* op (1-based) that faults without failing the call */
	unsigned calls;
	uint32_t last_version;
	uint32_t last_numops;
};

static int model_ioctl(int fd, struct uncore_msr_batch_array *a, void *arg)
{
	struct model *m = arg;
	int err = 0;
	(void)fd;
	m->calls++;
	m->last_version = a->version;
	m->last_numops = a->numops;
	if (m->fail_errno) {
		errno = m->fail_errno;
		return -1;
	}
	for (uint32_t i = 0; i < a->numops; i++) {
		struct uncore_msr_batch_op *op = &a->ops[i];
		op->err = 0;
		if (op->cpu != 0 && op->cpu != 3) {
			op->err = err = -ENXIO;
			continue;
		}
		int listed = 0, writable = 0;
		for (size_t k = 0; k < m->nallowed; k++)
			listed |= m->allowed[k] == op->msr;
		for (size_t k = 0; k < m->nwritable; k++)
			writable |= m->writable[k] == op->msr;
		if (!listed)
			op->err = err = -EACCES;
		else if (!op->isrdmsr && !writable)
			op->err = err = -EROFS; /* msr-safe: write mask 0 */
	}
	if (err) { /* checked first: no op is run */
		errno = -err;
		return -1;
	}
	/* Then every op in order (one CPU's ops are in order in msr-safe), an
	 * op that faults marked and the others run on. */
	for (uint32_t i = 0; i < a->numops; i++) {
		struct uncore_msr_batch_op *op = &a->ops[i];
		char path[512];
		snprintf(path, sizeof(path), "%s/%u/msr_safe", root, op->cpu);
		int f = open(path, op->isrdmsr ? O_RDONLY : O_RDWR);
		if (i < sizeof(m->order) - 1) {
			m->order[i] = op->isrdmsr ? 'r' : 'w';
			m->order[i + 1] = '\0';
		}
		if (i + 1 == m->eio_fault)
			op->err = err = -EIO;
		else if (f < 0 || (op->isrdmsr ? pread(f, &op->msrdata, 8, op->msr)
					       : pwrite(f, &op->msrdata, 8, op->msr)) != 8)
			op->err = -EIO;
		if (f >= 0)
			close(f);
		if (i + 1 == m->quiet_fault)
			op->err = -EIO;
	}
	if (err) {
		errno = -err;
		return -1;
	}
	return 0;
}

static void put_u64(int cpu, uint32_t msr, uint64_t v)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%d/msr_safe", root, cpu);
	int fd = open(path, O_WRONLY);
	if (fd < 0 || pwrite(fd, &v, 8, msr) != 8)
		HARNESS_FAIL_AT("cannot write %s", path);
	if (fd >= 0)
		close(fd);
}

static void make_tree(int with_batch, const char *version)
{
	test_put(root, "0/msr_safe", "");
	test_put(root, "3/msr_safe", "");
	char path[512];
	snprintf(path, sizeof(path), "%s/msr_batch", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/msr_safe_version", root);
	unlink(path);
	if (with_batch)
		test_put(root, "msr_batch", "");
	if (version)
		test_put(root, "msr_safe_version", version);
}

static struct uncore_reg msr(unsigned socket, uint64_t addr)
{
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_MSR, .width = 8, .socket = (uint16_t)socket, .addr = addr};
}

/* msr-safe over the fake tree's two sockets, its batch ioctl the model. */
static int open_modelled(struct model *md, struct uncore_regio **io)
{
	struct uncore_msr_safe_options o = {
	    .msr = {.cpu_of_socket = cpus, .nsockets = 2, .dev_root = root},
	    .batch_ioctl = model_ioctl,
	    .batch_arg = md,
	};
	return uncore_msr_safe_open(&o, io);
}

/* CTR0 of CBo 0-3.  MSRs at least 8 apart: in the fake tree an MSR index is
 * a byte offset of a regular file, so adjacent indexes would overlap. */
static const uint32_t cbo0_counters[] = {0xe08, 0xe18, 0xe28, 0xe38};

TEST(read_many_is_one_ioctl)
{
	make_tree(1, "2.1.0\n");
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < 4; i++)
			put_u64(cpus[s], cbo0_counters[i], 0x1000ull * (unsigned)s + (unsigned)i);
	struct model md = {.allowed = cbo0_counters, .nallowed = 4};
	struct uncore_regio *io;
	CHECK_EQ_INT(open_modelled(&md, &io), 0);
	CHECK_EQ_STR(io->ops->name, "msr-safe");
	CHECK(uncore_msr_safe_has_batch(io));

	struct uncore_reg regs[8];
	uint64_t vals[8];
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < 4; i++)
			regs[s * 4 + i] = msr((unsigned)s, cbo0_counters[i]);
	uint64_t before = io->stats.syscalls;
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 8), 0);
	CHECK_EQ_U64(io->stats.syscalls - before, 1);
	CHECK_EQ_INT(md.calls, 1);
	CHECK_EQ_INT(md.last_numops, 8);
	CHECK_EQ_U64(md.last_version, (2u << 16) | (1u << 8));
	for (int k = 0; k < 8; k++)
		CHECK_EQ_U64(vals[k], 0x1000ull * (unsigned)(k / 4) + (unsigned)(k % 4));
	CHECK_EQ_U64(io->stats.reads, 8);

	/* Again: the op buffer is reused, still one call. */
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 8), 0);
	CHECK_EQ_INT(md.calls, 2);
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 0), 0);
	CHECK_EQ_INT(md.calls, 2);

	/* Single accesses go through the per-CPU msr_safe files. */
	struct uncore_reg ctl = msr(1, 0xe01);
	CHECK_EQ_INT(uncore_regio_write(io, &ctl, 0x400000), 0);
	uint64_t v = 0;
	CHECK_EQ_INT(uncore_regio_read(io, &ctl, &v), 0);
	CHECK_EQ_U64(v, 0x400000);
	CHECK_EQ_U64(io->stats.writes, 1);
	uncore_regio_destroy(io);
}

static uint64_t get_u64(int cpu, uint32_t msr)
{
	char path[512];
	uint64_t v = 0;
	snprintf(path, sizeof(path), "%s/%d/msr_safe", root, cpu);
	int fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, &v, 8, msr) != 8)
		HARNESS_FAIL_AT("cannot read %s", path);
	if (fd >= 0)
		close(fd);
	return v;
}

/* The read path's batch: each socket's freeze, the counters, each
 * socket's thaw, in one ioctl, made in that order. */
TEST(one_ioctl_carries_writes_and_reads_in_order)
{
	make_tree(1, NULL);
	static const uint32_t listed[] = {0x700, 0xe01, 0xe08, 0xe18};
	static const uint32_t writable[] = {0x700};
	struct model md = {.allowed = listed, .nallowed = 4, .writable = writable, .nwritable = 1};
	struct uncore_regio *io;
	CHECK_EQ_INT(open_modelled(&md, &io), 0);
	put_u64(0, 0xe08, 11);
	put_u64(3, 0xe08, 33);
	put_u64(3, 0xe18, 34);
	struct uncore_regio_op ops[] = {
	    {.reg = msr(0, 0x700), .value = 1u << 31, .write = 1},
	    {.reg = msr(1, 0x700), .value = 1u << 31, .write = 1},
	    {.reg = msr(0, 0xe08)},
	    {.reg = msr(1, 0xe08)},
	    {.reg = msr(1, 0xe18)},
	    {.reg = msr(0, 0x700), .value = 1u << 29, .write = 1},
	    {.reg = msr(1, 0x700), .value = 1u << 29, .write = 1},
	};
	size_t n = sizeof(ops) / sizeof(ops[0]);
	uint64_t before = io->stats.syscalls;
	CHECK_EQ_INT(uncore_regio_batch(io, ops, n), 0);
	CHECK_EQ_U64(io->stats.syscalls - before, 1);
	CHECK_EQ_INT(md.calls, 1);
	CHECK_EQ_INT(md.last_numops, n);
	CHECK_EQ_STR(md.order, "wwrrrww");
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_INT(ops[i].err, 0);
	CHECK_EQ_U64(ops[2].value, 11);
	CHECK_EQ_U64(ops[3].value, 33);
	CHECK_EQ_U64(ops[4].value, 34);
	/* The writes keep their values (only reads are outputs). */
	CHECK_EQ_U64(ops[0].value, 1u << 31);
	CHECK_EQ_U64(ops[6].value, 1u << 29);
	CHECK_EQ_U64(get_u64(0, 0x700), 1u << 29);
	CHECK_EQ_U64(get_u64(3, 0x700), 1u << 29);
	CHECK_EQ_U64(io->stats.reads, 3);
	CHECK_EQ_U64(io->stats.writes, 4);

	/* A write msr-safe's allowlist does not let through (write mask 0):
	 * it runs no op at all, and every op says so. */
	ops[1] = (struct uncore_regio_op){.reg = msr(1, 0xe01), .value = 0x400000, .write = 1};
	put_u64(3, 0xe01, 5);
	CHECK_EQ_INT(uncore_regio_batch(io, ops, n), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "write of MSR 0xe01");
	CHECK_CONTAINS(uncore_error_detail(), "op 2 of 7");
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_INT(ops[i].err, UNCORE_EPERM);
	CHECK_EQ_U64(get_u64(3, 0xe01), 5);
	CHECK_EQ_U64(get_u64(0, 0x700), 1u << 29);

	/* An op that faults while the batch runs: the others are made. */
	ops[1] = (struct uncore_regio_op){.reg = msr(1, 0x700), .value = 1u << 31, .write = 1};
	md.eio_fault = 3;
	ops[4].value = 0;
	CHECK_EQ_INT(uncore_regio_batch(io, ops, n), UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "op 3 of 7");
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_INT(ops[i].err, i == 2 ? UNCORE_EFAULT : 0);
	CHECK_EQ_U64(ops[4].value, 34);
	md.eio_fault = 0;
	uncore_regio_destroy(io);
}

TEST(batch_refused_by_allowlist_names_register_and_fix)
{
	make_tree(1, NULL);
	struct model md = {.allowed = cbo0_counters, .nallowed = 4};
	struct uncore_regio *io;
	CHECK_EQ_INT(open_modelled(&md, &io), 0);
	struct uncore_reg regs[3] = {msr(0, 0xe08), msr(1, 0x709), msr(1, 0xe18)};
	uint64_t vals[3];
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 3), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "MSR 0x709");
	CHECK_CONTAINS(uncore_error_detail(), "op 2 of 3");
	CHECK_CONTAINS(uncore_error_detail(),
		       "uncore-msr-allowlist -m /dev/cpu/msr_allowlist -o /dev/cpu/msr_allowlist");
	/* No version device: we announce 2.0.0. */
	CHECK_EQ_U64(md.last_version, 2u << 16);

	md.fail_errno = ENOPROTOOPT;
	regs[1] = msr(1, 0xe28);
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 3), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "version 2.0.0");
	md.fail_errno = ENOTTY;
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 3), UNCORE_ENOSUPP);

	/* An op error is an error even if the call itself succeeded. */
	md.fail_errno = 0;
	put_u64(0, 0xe08, 1);
	put_u64(3, 0xe28, 2);
	put_u64(3, 0xe18, 3);
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 3), 0);
	CHECK_EQ_U64(vals[2], 3);
	md.quiet_fault = 3;
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 3), UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "op 3 of 3");
	md.quiet_fault = 0;

	/* Registers that cannot be in a batch are refused before the call. */
	md.fail_errno = 0;
	unsigned calls = md.calls;
	regs[2] = msr(5, 0xe08);
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 3), UNCORE_EINVAL);
	CHECK_EQ_INT(md.calls, calls);
	uncore_regio_destroy(io);
}

TEST(without_batch_device_reads_one_by_one)
{
	make_tree(0, NULL);
	put_u64(3, 0xe08, 77);
	put_u64(0, 0xe08, 78);
	struct model md = {.allowed = cbo0_counters, .nallowed = 4};
	struct uncore_regio *io;
	CHECK_EQ_INT(open_modelled(&md, &io), 0);
	CHECK(!uncore_msr_safe_has_batch(io));
	struct uncore_reg regs[2] = {msr(1, 0xe08), msr(0, 0xe08)};
	uint64_t vals[2];
	uint64_t before = io->stats.syscalls;
	CHECK_EQ_INT(uncore_regio_read_many(io, regs, vals, 2), 0);
	CHECK_EQ_U64(io->stats.syscalls - before, 2);
	CHECK_EQ_U64(vals[0], 77);
	CHECK_EQ_U64(vals[1], 78);
	CHECK_EQ_INT(md.calls, 0);
	uncore_regio_destroy(io);
}

/* The kernel refusing the call itself: no op was made, each says so, and
 * the error names what the kernel could not do.  A batch past the first
 * 64 ops grows, in one call still. */
TEST(a_failed_call_makes_no_op_and_big_batches_are_one_call)
{
	make_tree(1, NULL);
	struct model md = {.allowed = cbo0_counters, .nallowed = 4};
	struct uncore_regio *io;
	REQUIRE(open_modelled(&md, &io) == 0);
	struct uncore_regio_op ops[2] = {{.reg = msr(0, 0xe08)}, {.reg = msr(1, 0xe18)}};
	const int kernel_errs[] = {E2BIG, ENOMEM};
	for (unsigned i = 0; i < 2; i++) {
		md.fail_errno = kernel_errs[i];
		ops[0].err = ops[1].err = 0;
		CHECK_EQ_INT(uncore_regio_batch(io, ops, 2), UNCORE_ENOMEM);
		CHECK_CONTAINS(uncore_error_detail(), "could not allocate a batch of 2 ops");
		CHECK_EQ_INT(ops[0].err, UNCORE_ENOMEM);
		CHECK_EQ_INT(ops[1].err, UNCORE_ENOMEM);
	}
	md.fail_errno = EBUSY; /* anything else: the driver's error, named */
	CHECK_EQ_INT(uncore_regio_batch(io, ops, 2), UNCORE_EBUSY);
	CHECK_CONTAINS(uncore_error_detail(), "msr_batch");
	CHECK_EQ_INT(ops[1].err, UNCORE_EBUSY);
	md.fail_errno = 0;
	CHECK_EQ_INT(uncore_regio_batch(io, ops, 0), 0); /* nothing to do: no call */

	/* A batch of 200 reads, each socket's CBo 0 counter in turn. */
	static struct uncore_regio_op big[200];
	put_u64(0, 0xe08, 11);
	put_u64(3, 0xe08, 33);
	for (unsigned i = 0; i < 200; i++)
		big[i] = (struct uncore_regio_op){.reg = msr(i % 2, 0xe08)};
	unsigned calls = md.calls;
	CHECK_EQ_INT(uncore_regio_batch(io, big, 200), 0);
	CHECK_EQ_INT(md.calls - calls, 1);
	CHECK_EQ_U64(md.last_numops, 200);
	CHECK_EQ_U64(big[198].value, 11);
	CHECK_EQ_U64(big[199].value, 33);
	uncore_regio_destroy(io);
	uncore_error_clear();
}

/* Without the batch device a batch is its ops one by one, writes too, in
 * order; the first failure is returned, the later ops still made. */
TEST(without_batch_device_a_batch_is_made_one_by_one)
{
	make_tree(0, NULL);
	struct model md = {.allowed = cbo0_counters, .nallowed = 4};
	struct uncore_regio *io;
	REQUIRE(open_modelled(&md, &io) == 0);
	struct uncore_regio_op ops[3] = {
	    {.reg = msr(0, 0xe18), .write = 1, .value = 0x1234},
	    {.reg = msr(7, 0xe18)}, /* no CPU for socket 7 */
	    {.reg = msr(0, 0xe18)},
	};
	CHECK_EQ_INT(uncore_regio_batch(io, ops, 3), UNCORE_EINVAL);
	CHECK_EQ_INT(ops[0].err, 0);
	CHECK_EQ_INT(ops[1].err, UNCORE_EINVAL);
	CHECK_EQ_INT(ops[2].err, 0);
	CHECK_EQ_U64(ops[2].value, 0x1234); /* the write came first */
	CHECK_EQ_INT(md.calls, 0);
	uncore_regio_destroy(io);
	uncore_error_clear();
}

TEST(missing_module_says_so)
{
	const int map[] = {9};
	struct uncore_msr_safe_options o = {
	    .msr = {.cpu_of_socket = map, .nsockets = 1, .dev_root = root}};
	struct uncore_regio *io;
	CHECK_EQ_INT(uncore_msr_safe_open(&o, &io), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "9/msr_safe");
	CHECK_CONTAINS(uncore_error_detail(), "msr-safe");
	/* A write refused by the allowlist (EACCES, or EROFS for mask 0). */
	CHECK_EQ_INT(uncore_msr_fail(EROFS, "/dev/cpu/0/msr_safe", 0x700, "write", 1),
		     UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "uncore-msr-allowlist");
}

int main(void)
{
	root = test_mkdtemp("msrsafe");
	if (!root)
		return 1;
	RUN(read_many_is_one_ioctl);
	RUN(one_ioctl_carries_writes_and_reads_in_order);
	RUN(batch_refused_by_allowlist_names_register_and_fix);
	RUN(without_batch_device_reads_one_by_one);
	RUN(a_failed_call_makes_no_op_and_big_batches_are_one_call);
	RUN(without_batch_device_a_batch_is_made_one_by_one);
	RUN(missing_module_says_so);
	test_rmtree(root);
	return harness_done();
}
