/* The direct backend's register traffic on a fake register file: the
 * programming order of HSX PMON 2.1.2, the errata, reading both halves of
 * PCI counters, writes confined to the planned boxes, and a failure in the
 * middle of programming leaving the boxes reset. */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "fake_regio.h"
#include "harness.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"

#include <string.h>

#define BUS0 0x7f

static const struct uncore_box_type *box(const char *name)
{
	return uncore_box_type_find(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), name);
}

static struct uncore_machine one_socket(void)
{
	struct uncore_machine m;
	memset(&m, 0, sizeof(m));
	m.plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	m.nsockets = 1;
	m.pci_bus[0] = BUS0;
	for (unsigned b = 0; b < m.plat->nboxes; b++)
		m.present[b][0].w[0] = 0x1; /* instance 0 of every box */
	return m;
}

static struct uncore_sched_event ev(const char *name, const char *pmu, uint64_t ctl, int fixed)
{
	struct uncore_sched_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.ref.box = box(pmu);
	e.ref.instance = UNCORE_ALL;
	e.ref.socket = UNCORE_ALL;
	e.ref.cpu = UNCORE_ALL;
	e.enc.ctl = ctl;
	e.enc.fixed = (uint8_t)fixed;
	e.enc.counters = fixed ? 0 : 0xf;
	e.enc.nfilters = (uint8_t)(e.ref.box ? e.ref.box->nfilters : 0);
	return e;
}

static struct uncore_reg reg(const char *boxname, enum hswep_reg_kind kind, unsigned idx)
{
	struct uncore_reg r;
	memset(&r, 0, sizeof(r));
	hswep_reg(hswep_box_by_name(boxname), 0, kind, idx, 0, BUS0, &r);
	return r;
}

static int same_reg(const struct uncore_reg *a, const struct uncore_reg *b)
{
	return a->space == b->space && a->socket == b->socket && a->bdf == b->bdf && a->addr == b->addr;
}

/* Index of the first logged write to `r` at or after `from`, or -1. */
static long find_write(const struct fake_access *log, size_t n, size_t from, const struct uncore_reg *r,
		       uint64_t value)
{
	for (size_t i = from; i < n; i++)
		if (log[i].op == FAKE_WRITE && same_reg(&log[i].reg, r) && log[i].value == value)
			return (long)i;
	return -1;
}

struct fixture {
	struct uncore_regio *io;
	struct fake_regio *fake;
	struct uncore_backend *be;
	struct uncore_plan plan;
	struct uncore_machine m;
};

static int setup(struct fixture *f, struct uncore_sched_event *events, unsigned n)
{
	memset(f, 0, sizeof(*f));
	f->m = one_socket();
	f->io = fake_regio_create(0);
	f->fake = fake_regio_of(f->io);
	struct uncore_direct_config cfg = {.io = f->io, .own_io = 1, .read_freeze = 1,
					   .no_socket_lock = 1};
	int rc = uncore_schedule(&f->m, events, n, &f->plan);
	if (rc == 0)
		rc = uncore_direct_create_hswep(&cfg, &f->m, &f->be);
	return rc;
}

static void teardown(struct fixture *f)
{
	if (f->be)
		f->be->ops->destroy(f->be);
	uncore_plan_free(&f->plan);
}

TEST(program_follows_the_manual_order)
{
	struct uncore_sched_event events[] = {ev("CAS", "hswep_unc_imc", 0x0304, 0),
					      ev("DCLK", "hswep_unc_imc", 0, 1),
					      ev("LOOKUP", "hswep_unc_cbo", 0x1134, 0),
					      ev("SBO", "hswep_unc_sbo", 0x0101, 0)};
	events[2].enc.filter[0] = 0x7full << 17;
	events[2].enc.filter_mask[0] = 0x7full << 17;
	struct fixture f;
	CHECK_EQ_INT(setup(&f, events, 4), 0);
	int prc = f.be->ops->program(f.be, &f.plan);
	CHECK_EQ_INT(prc, 0);
	if (prc)
		fprintf(stderr, "  detail: %s\n", uncore_error_detail());
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	const uint64_t must1 = HSWEP_PMON_BOX_CTL_RSV_MUST1;
	const uint64_t frz_rst = must1 | HSWEP_PMON_BOX_CTL_FRZ | HSWEP_PMON_BOX_CTL_RST_CTRL |
				 HSWEP_PMON_BOX_CTL_RST_CTRS;

	/* IMC: freeze+reset, then CTL0 = CAS|en, fixed CTL = en. */
	struct uncore_reg imc_box = reg("imc", HSWEP_REG_BOX_CTL, 0);
	long a = find_write(log, n, 0, &imc_box, frz_rst);
	struct uncore_reg imc_ctl0 = reg("imc", HSWEP_REG_CTL, 0);
	long b = find_write(log, n, 0, &imc_ctl0, 0x0304 | HSWEP_PMON_CTL_EN);
	struct uncore_reg imc_fix = reg("imc", HSWEP_REG_FIXED_CTL, 0);
	long c = find_write(log, n, 0, &imc_fix, HSWEP_PMON_CTL_EN);
	CHECK(a >= 0 && b > a && c > a);

	/* CBo: FILTER0 holds the state filter, written after the reset. */
	struct uncore_reg cbo_box = reg("cbo", HSWEP_REG_BOX_CTL, 0);
	struct uncore_reg cbo_f0 = reg("cbo", HSWEP_REG_FILTER, 0);
	long d = find_write(log, n, 0, &cbo_box, frz_rst);
	long e = find_write(log, n, 0, &cbo_f0, 0x7full << 17);
	CHECK(d >= 0 && e > d);

	/* SBo: the control register is written twice (erratum). */
	struct uncore_reg sbo_ctl0 = reg("sbo", HSWEP_REG_CTL, 0);
	long g = find_write(log, n, 0, &sbo_ctl0, 0x0101 | HSWEP_PMON_CTL_EN);
	CHECK(g >= 0);
	CHECK(g >= 0 && find_write(log, n, (size_t)g + 1, &sbo_ctl0, 0x0101 | HSWEP_PMON_CTL_EN) ==
				g + 1);
	/* SBo box control: one new bit per write, as Linux writes it (0x1,
	 * 0x3, 0x10003: bit 16 after the resets, never bit 17), our freeze
	 * first (HARDWARE-DECISIONS.md H8). */
	struct uncore_reg sbo_box = reg("sbo", HSWEP_REG_BOX_CTL, 0);
	static const uint64_t sbo_seq[] = {0x100, 0x101, 0x103, 0x10103};
	uint64_t sbo_got[8];
	unsigned nsbo = 0;
	for (size_t i = 0; i < n; i++)
		if (log[i].op == FAKE_WRITE && same_reg(&log[i].reg, &sbo_box) && nsbo < 8)
			sbo_got[nsbo++] = log[i].value;
	CHECK_EQ_INT(nsbo, 4);
	for (unsigned i = 0; i < nsbo && i < 4; i++)
		CHECK_EQ_U64(sbo_got[i], sbo_seq[i]);

	/* Nothing is unfrozen at program time. */
	CHECK(find_write(log, n, 0, &imc_box, must1) < 0);

	/* Start: reset counters while frozen, then unfreeze. */
	fake_regio_clear_log(f.fake);
	CHECK_EQ_INT(f.be->ops->start(f.be), 0);
	log = fake_regio_log(f.fake, &n);
	long s1 = find_write(log, n, 0, &imc_box, must1 | HSWEP_PMON_BOX_CTL_FRZ |
							 HSWEP_PMON_BOX_CTL_RST_CTRS);
	long s2 = find_write(log, n, 0, &imc_box, must1);
	CHECK(s1 >= 0 && s2 > s1);
	struct uncore_reg g0 = {.space = UNCORE_SPACE_MSR, .width = 8, .addr = HSWEP_U_MSR_PMON_GLOBAL_CTL};
	CHECK(find_write(log, n, 0, &g0, HSWEP_U_GLOBAL_CTL_UNFRZ_ALL) >= 0);
	teardown(&f);
}

TEST(read_joins_pci_halves_and_freezes_around_the_read)
{
	struct uncore_sched_event events[] = {ev("CAS", "hswep_unc_imc", 0x0304, 0),
					      ev("LOOKUP", "hswep_unc_cbo", 0x0134, 0)};
	struct fixture f;
	CHECK_EQ_INT(setup(&f, events, 2), 0);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK_EQ_INT(f.be->ops->start(f.be), 0);
	struct uncore_reg lo = reg("imc", HSWEP_REG_CTR, 0), hi = lo;
	hi.addr += 4;
	fake_regio_set(f.fake, &lo, 0x89abcdef);
	fake_regio_set(f.fake, &hi, 0xffff1234); /* bits 63:48 reserved: 48-bit counter */
	struct uncore_reg cctr = reg("cbo", HSWEP_REG_CTR, 0);
	fake_regio_set(f.fake, &cctr, 0xabcd000000000005ull);
	fake_regio_clear_log(f.fake);
	uint64_t raw[2] = {0, 0};
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	unsigned imc_slot = f.plan.slot_index[f.plan.first[0]];
	unsigned cbo_slot = f.plan.slot_index[f.plan.first[1]];
	/* The two dwords joined, the reserved bits left to the fold
	 * (backend.h, read). */
	CHECK_EQ_U64(raw[imc_slot], 0xffff123489abcdefull);
	CHECK_EQ_U64(raw[cbo_slot], 0xabcd000000000005ull);
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	struct uncore_reg g0 = {.space = UNCORE_SPACE_MSR, .width = 8, .addr = HSWEP_U_MSR_PMON_GLOBAL_CTL};
	CHECK(n >= 2);
	CHECK(log[0].op == FAKE_WRITE && same_reg(&log[0].reg, &g0) &&
	      log[0].value == HSWEP_U_GLOBAL_CTL_FRZ_ALL);
	CHECK(log[n - 1].op == FAKE_WRITE && same_reg(&log[n - 1].reg, &g0) &&
	      log[n - 1].value == HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	teardown(&f);
}

TEST(writes_stay_on_the_planned_boxes)
{
	struct uncore_sched_event events[] = {ev("CAS", "hswep_unc_imc", 0x0304, 0)};
	struct fixture f;
	CHECK_EQ_INT(setup(&f, events, 1), 0);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK_EQ_INT(f.be->ops->start(f.be), 0);
	uint64_t raw[1];
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	CHECK_EQ_INT(f.be->ops->stop(f.be), 0);
	CHECK_EQ_INT(f.be->ops->unprogram(f.be), 0);
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	const struct hswep_box_desc *imc = hswep_box_by_name("imc");
	const struct hswep_pci_fn *fn = &imc->pci_fn[HSWEP_FN_PMON][0];
	for (size_t i = 0; i < n; i++) {
		if (log[i].op != FAKE_WRITE)
			continue;
		int ok = (log[i].reg.space == UNCORE_SPACE_PCI &&
			  log[i].reg.bdf == UNCORE_BDF(BUS0, fn->dev, fn->fn)) ||
			 (log[i].reg.space == UNCORE_SPACE_MSR &&
			  log[i].reg.addr == HSWEP_U_MSR_PMON_GLOBAL_CTL);
		if (!ok) {
			char buf[64];
			uncore_reg_format(&log[i].reg, buf, sizeof(buf));
			HARNESS_FAIL_AT("write outside the imc0 box: %s", buf);
		}
	}
	teardown(&f);
}

TEST(failure_while_programming_resets_and_reports)
{
	struct uncore_sched_event events[] = {ev("CAS", "hswep_unc_imc", 0x0304, 0),
					      ev("LOOKUP", "hswep_unc_cbo", 0x0134, 0)};
	struct fixture f;
	CHECK_EQ_INT(setup(&f, events, 2), 0);
	fake_regio_fail_at(f.fake, 3, UNCORE_EIO, 0);
	int rc = f.be->ops->program(f.be, &f.plan);
	CHECK_EQ_INT(rc, UNCORE_EIO);
	/* The backend is free again: a new program succeeds. */
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	/* And a second program while one is active is refused. */
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), UNCORE_EBUSY);
	teardown(&f);
}

int main(void)
{
	RUN(program_follows_the_manual_order);
	RUN(read_joins_pci_halves_and_freezes_around_the_read);
	RUN(writes_stay_on_the_planned_boxes);
	RUN(failure_while_programming_resets_and_reports);
	return harness_done();
}
