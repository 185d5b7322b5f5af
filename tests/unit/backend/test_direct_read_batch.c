/* The direct backend's read path groups each socket's MSR counters into one
 * uncore_regio_read_many call (msr-safe: one batch ioctl per socket), reads
 * PCI counters as before, keeps the freeze around the read, and returns the
 * same values with or without a batch operation underneath. */
#include "backend/direct/direct.h"
#include "backend/direct/msr_batch.h"
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
			    uncore_direct_hswep_layout(m.plat->boxes[b]);
			m.present[b][s] = d && d->max_instances >= 2 ? 0x3 : 0x1;
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

static int setup(struct fixture *f, int with_batch, int freeze)
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
	int rc = uncore_schedule(&f->m, events, 3, &f->plan);
	if (rc == 0)
		rc = uncore_direct_create_hswep(&cfg, &f->m, &f->be);
	if (rc == 0)
		rc = f->be->ops->program(f->be, &f->plan);
	if (rc == 0)
		rc = f->be->ops->start(f->be);
	return rc;
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
		    uncore_direct_hswep_layout(f->m.plat->boxes[sl->box]);
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

TEST(one_batch_per_socket_holds_that_sockets_msr_counters)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 1, 1), 0);
	CHECK_EQ_INT(f.plan.nslots, 2 * (2 + 1 + 2));
	set_counters(&f);
	fake_regio_clear_log(f.fake);
	uint64_t raw[16] = {0};
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	for (unsigned s = 0; s < f.plan.nslots; s++)
		CHECK_EQ_U64(raw[s], expected(s));

	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	unsigned batches = 0, single_msr_reads = 0, pci_reads = 0;
	for (size_t i = 0; i < n; i++) {
		if (log[i].op == FAKE_BATCH) {
			batches++;
			CHECK_EQ_U64(log[i].n, 3); /* 2 CBo + 1 PCU counter of one socket */
			uint16_t socket = log[i + 1].reg.socket;
			for (size_t k = 1; k <= log[i].n && i + k < n; k++) {
				CHECK_EQ_INT(log[i + k].reg.space, UNCORE_SPACE_MSR);
				CHECK_EQ_INT(log[i + k].reg.socket, socket);
			}
			i += log[i].n;
		} else if (log[i].op == FAKE_READ) {
			if (log[i].reg.space == UNCORE_SPACE_MSR)
				single_msr_reads++;
			else {
				pci_reads++;
				CHECK_EQ_INT(log[i].reg.width, 8);
			}
		}
	}
	CHECK_EQ_INT(batches, 2);
	CHECK_EQ_INT(single_msr_reads, 0);
	/* Frozen: one 8-byte read (one pread) of each of the 4 PCI counters. */
	CHECK_EQ_INT(pci_reads, 2 * 2);
	/* The freeze still brackets the whole read. */
	CHECK(n >= 2 && log[0].op == FAKE_WRITE && log[0].value == HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	CHECK(log[n - 1].op == FAKE_WRITE && log[n - 1].value == HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	teardown(&f);
}

TEST(same_values_without_a_batch_operation)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 0, 0), 0);
	set_counters(&f);
	fake_regio_clear_log(f.fake);
	uint64_t raw[16] = {0};
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	for (unsigned s = 0; s < f.plan.nslots; s++)
		CHECK_EQ_U64(raw[s], expected(s));
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	unsigned msr_reads = 0, writes = 0;
	for (size_t i = 0; i < n; i++) {
		CHECK(log[i].op != FAKE_BATCH);
		msr_reads += log[i].op == FAKE_READ && log[i].reg.space == UNCORE_SPACE_MSR;
		writes += log[i].op == FAKE_WRITE;
	}
	CHECK_EQ_INT(msr_reads, 6);
	CHECK_EQ_INT(writes, 0); /* read freeze off */
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

TEST(batch_groups_by_socket_and_keeps_order)
{
	struct direct_msr_batch b;
	struct uncore_reg r[5];
	static const uint16_t sockets[5] = {1, 0, 1, 3, 0};
	CHECK_EQ_INT(direct_msr_batch_init(&b, 5), 0);
	for (unsigned i = 0; i < 5; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].space = UNCORE_SPACE_MSR;
		r[i].width = 8;
		r[i].socket = sockets[i];
		r[i].addr = 0x700 + i;
		CHECK_EQ_INT(direct_msr_batch_add(&b, &r[i], 10 + i), 0);
	}
	direct_msr_batch_finish(&b);
	CHECK_EQ_INT(b.ngroups, 3);
	static const unsigned want_slot[5] = {11, 14, 10, 12, 13};
	for (unsigned i = 0; i < 5; i++)
		CHECK_EQ_INT(b.slot[i], want_slot[i]);
	CHECK_EQ_INT(b.group_first[0], 0);
	CHECK_EQ_INT(b.group_first[1], 2);
	CHECK_EQ_INT(b.group_first[2], 4);
	CHECK_EQ_INT(b.group_first[3], 5);
	struct uncore_reg bad = r[0];
	bad.socket = UNCORE_MACHINE_MAX_SOCKETS;
	direct_msr_batch_free(&b);
	CHECK_EQ_INT(direct_msr_batch_init(&b, 1), 0);
	CHECK_EQ_INT(direct_msr_batch_add(&b, &bad, 0), UNCORE_EINVAL);
	direct_msr_batch_free(&b);
}

int main(void)
{
	RUN(one_batch_per_socket_holds_that_sockets_msr_counters);
	RUN(same_values_without_a_batch_operation);
	RUN(a_failing_batch_is_read_again_register_by_register);
	RUN(batch_groups_by_socket_and_keeps_order);
	return harness_done();
}
