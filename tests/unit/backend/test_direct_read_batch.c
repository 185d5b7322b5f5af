/* Over a register access with a batch operation (msr-safe), the direct
 * backend's read makes every socket's freeze write and MSR counter reads
 * one batch, reads the PCI counters, then thaws in a second batch (or in
 * the first when there is nothing else to read); the same values with or
 * without a batch operation underneath; what a batch did not make is made
 * again, in order, alone. */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "fake_regio.h"
#include "harness.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"

#include <string.h>

static const uint8_t BUS[2] = {0x7f, 0xff};

static struct uncore_machine two_sockets(void)
{
	struct uncore_machine m;
	memset(&m, 0, sizeof(m));
	m.plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	m.nsockets = 2;
	for (unsigned s = 0; s < 2; s++) {
		m.pci_bus[s] = BUS[s];
		/* Instances 0 and 1 of the boxes that have two or more, else 0. */
		for (unsigned b = 0; b < m.plat->nboxes; b++) {
			const struct hswep_box_desc *d =
			    hswep_box(m.plat->boxes[b]->layout);
			m.present[b][s].w[0] = d && d->max_instances >= 2 ? 0x3 : 0x1;
		}
	}
	return m;
}

static struct uncore_sched_event ev(const char *name, const char *pmu, uint64_t ctl)
{
	struct uncore_sched_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.ref.box = uncore_box_type_find(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), pmu);
	e.ref.instance = UNCORE_ALL;
	e.ref.socket = UNCORE_ALL;
	e.ref.cpu = UNCORE_ALL;
	e.enc.ctl = ctl;
	e.enc.counters = 0xf;
	e.enc.nfilters = (uint8_t)(e.ref.box ? e.ref.box->nfilters : 0);
	return e;
}

/* CBo (MSR, 2 instances), PCU (MSR, 1) and iMC (PCI, 2 channels), on both
 * sockets: per socket 3 MSR counters and 2 PCI counters. */
static struct uncore_sched_event events[] = {
    {0},
    {0},
    {0},
};

struct fixture {
	struct uncore_regio *io;
	struct fake_regio *fake;
	struct uncore_backend *be;
	struct uncore_plan plan;
	struct uncore_machine m;
};

static int setup_n(struct fixture *f, int with_batch, int freeze, unsigned nev)
{
	memset(f, 0, sizeof(*f));
	events[0] = ev("LOOKUP", "hswep_unc_cbo", 0x0134);
	events[1] = ev("PCU", "hswep_unc_pcu", 0x0001);
	events[2] = ev("CAS", "hswep_unc_imc", 0x0304);
	f->m = two_sockets();
	f->io = fake_regio_create(with_batch);
	f->fake = fake_regio_of(f->io);
	struct uncore_direct_config cfg = {
	    .io = f->io, .own_io = 1, .read_freeze = freeze, .no_socket_lock = 1};
	int rc = uncore_schedule(&f->m, events, nev, &f->plan);
	if (rc == 0)
		rc = uncore_direct_create_hswep(&cfg, &f->m, &f->be);
	if (rc == 0)
		rc = f->be->ops->program(f->be, &f->plan);
	if (rc == 0)
		rc = f->be->ops->start(f->be);
	return rc;
}

static int setup(struct fixture *f, int with_batch, int freeze)
{
	return setup_n(f, with_batch, freeze, 3);
}

static void teardown(struct fixture *f)
{
	if (f->be)
		f->be->ops->destroy(f->be);
	uncore_plan_free(&f->plan);
}

/* Give every counter of the plan a distinct value with junk above its width. */
static void set_counters(struct fixture *f)
{
	for (unsigned s = 0; s < f->plan.nslots; s++) {
		const struct uncore_slot *sl = &f->plan.slots[s];
		const struct hswep_box_desc *d =
		    hswep_box(f->m.plat->boxes[sl->box]->layout);
		struct uncore_reg r;
		CHECK_EQ_INT(hswep_reg(d, sl->instance, HSWEP_REG_CTR, sl->counter, sl->socket,
				       BUS[sl->socket], &r),
			     0);
		uint64_t v = 0xabcd000000000000ull | (uint64_t)(s + 1) << 36 | (s + 7);
		if (r.space == UNCORE_SPACE_PCI) {
			fake_regio_set(f->fake, &r, v & 0xffffffffu);
			r.addr += 4;
			fake_regio_set(f->fake, &r, v >> 32);
		} else {
			fake_regio_set(f->fake, &r, v);
		}
	}
}

static uint64_t expected(unsigned s)
{
	return (0xabcd000000000000ull | (uint64_t)(s + 1) << 36 | (s + 7)) & 0xffffffffffffull;
}

/* What a raw value counts: its low 48 bits (the counters' width here).
 * The junk above them is the register's and stays in the raw value: its
 * consumers mask it (backend.h, read; counter_fold.h). */
static uint64_t counted(uint64_t raw)
{
	return raw & 0xffffffffffffull;
}

/* Checks a batch in the log at *i: n ops, `writes` freeze or thaw writes
 * of `value` first (or last, with `at_end`), the rest MSR counter reads. */
static void check_batch(const struct fake_access *log, size_t nlog, size_t *i, size_t n,
			unsigned writes, uint64_t value, int at_end)
{
	CHECK(*i < nlog && log[*i].op == FAKE_BATCH);
	if (*i >= nlog || log[*i].op != FAKE_BATCH)
		return;
	CHECK_EQ_U64(log[*i].n, n);
	for (size_t k = 0; k < n && *i + 1 + k < nlog; k++) {
		const struct fake_access *a = &log[*i + 1 + k];
		int is_write = at_end ? k >= n - writes : k < writes;
		CHECK_EQ_INT(a->reg.space, UNCORE_SPACE_MSR);
		CHECK_EQ_INT(a->op, is_write ? FAKE_WRITE : FAKE_READ);
		if (is_write) {
			CHECK_EQ_U64(a->reg.addr, HSWEP_U_MSR_PMON_GLOBAL_CTL);
			CHECK_EQ_U64(a->value, value);
		}
	}
	*i += 1 + n;
}

/* The fixture's counters set, the log cleared, one read: each slot's
 * value as set. */
static void read_checked(struct fixture *f, uint64_t *raw)
{
	set_counters(f);
	fake_regio_clear_log(f->fake);
	CHECK_EQ_INT(f->be->ops->read(f->be, raw), 0);
	for (unsigned s = 0; s < f->plan.nslots; s++)
		CHECK_EQ_U64(counted(raw[s]), expected(s));
}

TEST(freeze_and_msr_counters_in_one_batch_thaw_in_a_second)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 1, 1), 0);
	CHECK_EQ_INT(f.plan.nslots, 2 * (2 + 1 + 2));
	uint64_t before = f.io->stats.syscalls;
	uint64_t raw[16] = {0};
	read_checked(&f, raw);
	CHECK_EQ_U64(f.io->stats.syscalls - before, 2 + 4);

	/* [freeze s0, freeze s1, 6 MSR counters], 4 PCI counters, [thaw s0, s1]:
	 * 2 batch ioctls and 4 preads where there were 2 pwrite + 2 ioctls + 4
	 * preads + 2 pwrite. */
	size_t n, i = 0;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	check_batch(log, n, &i, 2 + 6, 2, HSWEP_U_GLOBAL_CTL_FRZ_ALL, 0);
	CHECK_EQ_INT(log[1].reg.socket, 0);
	CHECK_EQ_INT(log[2].reg.socket, 1);
	for (unsigned k = 0; k < 4 && i < n; k++, i++) {
		/* Frozen: one 8-byte read (one pread) of each PCI counter. */
		CHECK_EQ_INT(log[i].op, FAKE_READ);
		CHECK_EQ_INT(log[i].reg.space, UNCORE_SPACE_PCI);
		CHECK_EQ_INT(log[i].reg.width, 8);
	}
	check_batch(log, n, &i, 2, 2, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL, 1);
	CHECK_EQ_INT(i, n);
	teardown(&f);
}

TEST(msr_counters_alone_are_one_batch_with_freeze_and_thaw)
{
	struct fixture f;
	CHECK_EQ_INT(setup_n(&f, 1, 1, 2), 0); /* CBo and PCU: MSRs only */
	CHECK_EQ_INT(f.plan.nslots, 2 * (2 + 1));
	uint64_t before = f.io->stats.syscalls;
	uint64_t raw[16] = {0};
	read_checked(&f, raw);
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	CHECK_EQ_U64(f.io->stats.syscalls - before, 1);
	CHECK_EQ_INT(n, 1 + 2 + 6 + 2);
	/* In the batch: each socket's freeze, then its reads, then its thaw. */
	CHECK_EQ_INT(log[0].op, FAKE_BATCH);
	CHECK_EQ_U64(log[0].n, 10);
	for (unsigned k = 1; k <= 10; k++) {
		CHECK_EQ_INT(log[k].op, k <= 2 || k >= 9 ? FAKE_WRITE : FAKE_READ);
		if (k <= 2 || k >= 9)
			CHECK_EQ_U64(log[k].value, k <= 2 ? HSWEP_U_GLOBAL_CTL_FRZ_ALL
							  : HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	}
	/* Without the freeze (a stopped set): the reads alone. */
	CHECK_EQ_INT(f.be->ops->stop(f.be), 0);
	fake_regio_clear_log(f.fake);
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	log = fake_regio_log(f.fake, &n);
	CHECK_EQ_INT(n, 1 + 6);
	CHECK_EQ_U64(log[0].n, 6);
	teardown(&f);
}

TEST(without_freeze_the_batch_holds_the_msr_counters_only)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 1, 0), 0);
	uint64_t raw[16] = {0};
	read_checked(&f, raw);
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	CHECK_EQ_INT(fake_regio_count(f.fake, FAKE_BATCH, -1), 1);
	CHECK_EQ_U64(log[0].n, 6);
	CHECK_EQ_INT(fake_regio_count(f.fake, FAKE_WRITE, -1), 0);
	teardown(&f);
}

TEST(same_values_without_a_batch_operation)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 0, 0), 0);
	uint64_t raw[16] = {0};
	read_checked(&f, raw);
	CHECK_EQ_INT(fake_regio_count(f.fake, FAKE_BATCH, -1), 0);
	CHECK_EQ_INT(fake_regio_count(f.fake, FAKE_READ, UNCORE_SPACE_MSR), 6);
	CHECK_EQ_INT(fake_regio_count(f.fake, FAKE_WRITE, -1), 0); /* read freeze off */
	teardown(&f);

	/* With the freeze: one write per socket before the reads, one after. */
	CHECK_EQ_INT(setup(&f, 0, 1), 0);
	read_checked(&f, raw);
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	CHECK_EQ_INT(n, 2 + 10 + 2);
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ_INT(log[i].op, i < 2 || i >= 12 ? FAKE_WRITE : FAKE_READ);
		if (i < 2 || i >= 12)
			CHECK_EQ_U64(log[i].value, i < 2 ? HSWEP_U_GLOBAL_CTL_FRZ_ALL
							 : HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	}
	teardown(&f);
}

/* A batch that fails is read again register by register: a transient
 * fault costs nothing; a register that keeps failing is the only one
 * unread (backend.h: UNCORE_RAW_UNREAD) and the read says so. */
TEST(a_failing_batch_is_read_again_register_by_register)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 1, 0), 0);
	fake_regio_fail_at(f.fake, 2, UNCORE_EIO, 0); /* the second MSR of the first batch */
	uint64_t raw[16];
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	fake_regio_fail_at(f.fake, 1, UNCORE_EIO, 1); /* every access from now on */
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), UNCORE_EIO);
	for (unsigned s = 0; s < f.plan.nslots; s++)
		CHECK_EQ_U64(raw[s], UNCORE_RAW_UNREAD);
	fake_regio_fail_at(f.fake, 0, 0, 0);
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	teardown(&f);
}

/* A freeze write the batch did not make is made again alone, before the
 * PCI counters are read (they are then frozen); a thaw that keeps failing
 * is reported as interrupted counting. */
TEST(failed_freeze_and_thaw_writes_are_made_again)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 1, 1), 0);
	set_counters(&f);
	fake_regio_clear_log(f.fake);
	fake_regio_fail_at(f.fake, 1, UNCORE_EIO, 0); /* socket 0's freeze, in the batch */
	uint64_t raw[16];
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	for (unsigned s = 0; s < f.plan.nslots; s++)
		CHECK_EQ_U64(counted(raw[s]), expected(s));
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	CHECK_EQ_INT(log[0].op, FAKE_BATCH);
	CHECK_EQ_INT(log[1].rc, UNCORE_EIO);
	size_t again = 1 + log[0].n;
	CHECK(again < n && log[again].op == FAKE_WRITE &&
	      log[again].value == HSWEP_U_GLOBAL_CTL_FRZ_ALL && log[again].reg.socket == 0);
	/* Frozen after all: one read per PCI counter, no tear check. */
	CHECK(again + 5 < n && log[again + 5].op == FAKE_BATCH);

	CHECK_EQ_INT(f.be->counting_interrupted, 0);
	fake_regio_fail_matching(f.fake, UNCORE_SPACE_MSR, FAKE_WRITE, 3, UNCORE_EIO, 1);
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), UNCORE_EIO);
	CHECK_CONTAINS(uncore_error_detail(), "global unfreeze of socket 0");
	CHECK_EQ_INT(f.be->counting_interrupted, 1);
	for (unsigned s = 0; s < f.plan.nslots; s++)
		CHECK_EQ_U64(counted(raw[s]), expected(s));
	fake_regio_fail_matching(f.fake, -1, 0, 0, 0, 0);
	teardown(&f);
}

int main(void)
{
	RUN(freeze_and_msr_counters_in_one_batch_thaw_in_a_second);
	RUN(msr_counters_alone_are_one_batch_with_freeze_and_thaw);
	RUN(without_freeze_the_batch_holds_the_msr_counters_only);
	RUN(same_values_without_a_batch_operation);
	RUN(a_failing_batch_is_read_again_register_by_register);
	RUN(failed_freeze_and_thaw_writes_are_made_again);
	return harness_done();
}
