/* The Skylake client direct backend on a fake register file: discovery
 * (CBo count, MCHBAR, the IMC probe and why it failed), the exact register
 * writes of program/start/read/stop/unprogram with their values, counter
 * widths masked on read, the IMC read through MMIO with no write at all,
 * the allowlist refusing a slot outside its planned box, faults in the
 * middle of each operation, the package lock, and the read interval a
 * poller must keep. */
#include "backend/direct/direct.h"
#include "backend/direct/socket_lock.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "fake_regio.h"
#include "harness.h"
#include "platform/skl_mchbar.h"
#include "platform/skl/skl_regs.h"
#include "tmpdir.h"

#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define BAR    UINT64_C(0xfed10000)
#define EN     SKL_UNC_PERFEVTSEL_EN /* bit 22, also FIXED_CTRL.CNT_EN */
#define G_EN   SKL_UNC_GLOBAL_CTRL_KERNEL /* 0x2000001f, as Linux writes it */
#define GLOBAL SKL_MSR_UNC_PERF_GLOBAL_CTRL

static struct uncore_reg msr(uint32_t a)
{
	struct uncore_reg r = {.space = UNCORE_SPACE_MSR, .width = 8, .addr = a};
	return r;
}

static struct uncore_reg imc(uint32_t off)
{
	struct uncore_reg r = {.space = UNCORE_SPACE_MMIO, .width = 4, .addr = BAR + off};
	return r;
}

static struct uncore_reg pci(uint32_t off)
{
	struct uncore_reg r = {.space = UNCORE_SPACE_PCI, .width = 4, .bdf = 0, .addr = off};
	return r;
}

/* A fake Skylake client: MSR_UNC_CBO_CONFIG and MCHBAR (enable bit 0 set,
 * as firmware leaves it, unless `disabled`; the mask drops it). */
static struct uncore_regio *fake_skl_en(unsigned cbo_config, uint64_t mchbar, int disabled)
{
	struct uncore_regio *io = fake_regio_create(0);
	struct fake_regio *f = fake_regio_of(io);
	struct uncore_reg r = msr(SKL_MSR_UNC_CBO_CONFIG);
	fake_regio_set(f, &r, cbo_config);
	r = pci(0x48);
	fake_regio_set(f, &r, (mchbar & 0xffffffffu) | (mchbar && !disabled ? 1 : 0));
	r = pci(0x4c);
	fake_regio_set(f, &r, mchbar >> 32);
	return io;
}

static struct uncore_regio *fake_skl(unsigned cbo_config, uint64_t mchbar)
{
	return fake_skl_en(cbo_config, mchbar, 0);
}

struct fixture {
	struct uncore_regio *io;
	struct fake_regio *fake;
	struct uncore_backend *be;
	struct uncore_sched_event ev[8];
	struct uncore_plan plan;
};

static int open_be(struct fixture *f, struct uncore_regio *io, int freeze, const char *lock_dir)
{
	struct uncore_direct_config cfg = {.io = io, .own_io = 1, .read_freeze = freeze};
	memset(f, 0, sizeof(*f));
	f->io = io;
	f->fake = fake_regio_of(io);
	cfg.lock_dir = lock_dir;
	cfg.no_socket_lock = lock_dir == NULL;
	return uncore_direct_open_skl(&cfg, &f->be);
}

/* Parse, encode and schedule `names` on the fixture's machine. */
static int plan_events(struct fixture *f, const char *const *names, unsigned n)
{
	const struct uncore_event_platform *p = f->be->machine.plat;
	for (unsigned i = 0; i < n; i++) {
		memset(&f->ev[i], 0, sizeof(f->ev[i]));
		f->ev[i].name = names[i];
		int rc = uncore_event_parse(p, names[i], &f->ev[i].ref);
		if (rc == 0)
			rc = uncore_event_encode(&f->ev[i].ref, &f->ev[i].enc);
		if (rc < 0)
			return rc;
	}
	uncore_plan_free(&f->plan);
	return uncore_schedule(&f->be->machine, f->ev, n, &f->plan);
}

static void teardown(struct fixture *f)
{
	if (f->be)
		f->be->ops->destroy(f->be);
	uncore_plan_free(&f->plan);
}

struct wr {
	uint64_t addr, value;
};

/* The writes logged since the last clear must be exactly `want` (MSRs). */
static void check_writes(struct fake_regio *fake, const struct wr *want, size_t nwant,
			 const char *what)
{
	size_t n, k = 0;
	const struct fake_access *log = fake_regio_log(fake, &n);
	harness_row = what;
	for (size_t i = 0; i < n; i++) {
		if (log[i].op != FAKE_WRITE)
			continue;
		if (k >= nwant) {
			HARNESS_FAIL_AT("extra write #%zu: 0x%llx <- 0x%llx", k,
					(unsigned long long)log[i].reg.addr,
					(unsigned long long)log[i].value);
		} else if (log[i].reg.space != UNCORE_SPACE_MSR ||
			   log[i].reg.addr != want[k].addr || log[i].value != want[k].value) {
			HARNESS_FAIL_AT(
			    "write #%zu: got 0x%llx <- 0x%llx, want 0x%llx <- 0x%llx", k,
			    (unsigned long long)log[i].reg.addr, (unsigned long long)log[i].value,
			    (unsigned long long)want[k].addr, (unsigned long long)want[k].value);
		}
		k++;
	}
	if (k < nwant)
		HARNESS_FAIL_AT("only %zu of %zu writes; first missing 0x%llx <- 0x%llx", k, nwant,
				(unsigned long long)want[k].addr,
				(unsigned long long)want[k].value);
	harness_row = NULL;
	fake_regio_clear_log(fake);
}

static unsigned slot_of(const struct uncore_plan *p, unsigned event, unsigned k)
{
	return p->slot_index[p->first[event] + k];
}

/* What slot s's raw value counts: its low width bits (backend.h, read). */
static uint64_t counted(const struct uncore_plan *p, const uint64_t *raw, unsigned s)
{
	return p->slots[s].width >= 64 ? raw[s] : raw[s] & ((1ull << p->slots[s].width) - 1);
}

TEST(discovery_counts_cbos_and_finds_the_imc)
{
	static const struct {
		unsigned config, present;
	} rows[] = {
	    {5, 0xf},   /* four cores + graphics: 2.4.1 "subtract one" */
	    {3, 0x3},   /* two cores */
	    {1, 0x0},   /* graphics only */
	    {0, 0x0},   /* nothing: no underflow */
	    {0xf, 0xf}, /* more than Table 2-1 can address: four */
	    {0xf3, 0x3} /* bits above NO_CBO_BANKS 3:0 ignored */
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fixture f;
		char row[32];
		snprintf(row, sizeof(row), "CBO_CONFIG=0x%x", rows[i].config);
		harness_row = row;
		CHECK_EQ_INT(open_be(&f, fake_skl(rows[i].config, BAR), 1, NULL), 0);
		const struct uncore_machine *m = &f.be->machine;
		CHECK_EQ_INT(m->nsockets, 1);
		CHECK_EQ_STR(m->plat->name, "skl");
		int cbo = uncore_machine_box_index(m, uncore_box_type_find(m->plat, "skl_unc_cbo"));
		int arb = uncore_machine_box_index(m, uncore_box_type_find(m->plat, "skl_unc_arb"));
		int clk =
		    uncore_machine_box_index(m, uncore_box_type_find(m->plat, "skl_unc_clock"));
		int mc = uncore_machine_box_index(m, uncore_box_type_find(m->plat, "skl_unc_imc"));
		CHECK(cbo >= 0 && arb >= 0 && clk >= 0 && mc >= 0);
		CHECK_EQ_U64(m->present[cbo][0].w[0], rows[i].present);
		CHECK_EQ_U64(m->present[arb][0].w[0], 1);
		CHECK_EQ_U64(m->present[clk][0].w[0], 1);
		CHECK_EQ_U64(m->present[mc][0].w[0], 1);
		CHECK_EQ_U64(m->absent_boxes, 0);
		CHECK_EQ_INT(fake_regio_count(f.fake, FAKE_WRITE, -1),
			     0); /* discovery only reads */
		teardown(&f);
	}
	harness_row = NULL;
}

/* CBO_CONFIG - 1 CBos, but no more than the package's physical cores. */
TEST(cbos_are_capped_at_the_cores)
{
	struct uncore_backend *be = NULL;
	struct uncore_direct_config cfg = {
	    .io = fake_skl(5, BAR), .own_io = 1, .no_socket_lock = 1};
	cfg.cores_per_package = 2;
	CHECK_EQ_INT(uncore_direct_open_skl(&cfg, &be), 0);
	if (be) {
		const struct uncore_machine *m = &be->machine;
		int b = uncore_machine_box_index(m, uncore_box_type_find(m->plat, "skl_unc_cbo"));
		CHECK(b >= 0);
		if (b >= 0)
			CHECK_EQ_U64(m->present[b][0].w[0], 0x3);
		be->ops->destroy(be);
	}
}

TEST(imc_absent_says_why)
{
	struct fixture f;
	/* MCHBAR 0: no memory controller BAR. */
	CHECK_EQ_INT(open_be(&f, fake_skl(5, 0), 1, NULL), 0);
	const char *names[] = {"skl_unc_imc::DRAM_DATA_READS"};
	CHECK_EQ_INT(plan_events(&f, names, 1), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "no skl_unc_imc box is present");
	CHECK_CONTAINS(uncore_error_detail(), "MCHBAR");
	const char *cbo[] = {"skl_unc_cbo3::UNC_CBO_CACHE_LOOKUP:ANY_MESI"};
	CHECK_EQ_INT(plan_events(&f, cbo, 1), 0); /* the rest works */
	teardown(&f);
	/* A base with MCHBAREN (bit 0) clear decodes nothing. */
	uint64_t bar = 0;
	struct uncore_regio *dis = fake_skl_en(5, BAR, 1);
	CHECK_EQ_INT(skl_mchbar_read(dis, &bar), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "enable bit 0 clear");
	uncore_regio_destroy(dis);

	/* The counters cannot be read (fault on access 4: CBO_CONFIG, MCHBAR
	 * low, high, then the IMC probe); the caller's reason wins. */
	struct uncore_regio *io = fake_skl(5, BAR);
	fake_regio_fail_at(fake_regio_of(io), 4, UNCORE_EPERM, 0);
	struct uncore_direct_config cfg = {
	    .io = io, .own_io = 1, .no_socket_lock = 1, .absent_note = "/dev/mem: need root"};
	memset(&f, 0, sizeof(f));
	f.io = io;
	f.fake = fake_regio_of(io);
	CHECK_EQ_INT(uncore_direct_open_skl(&cfg, &f.be), 0);
	CHECK_EQ_INT(plan_events(&f, names, 1), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "(/dev/mem: need root)");
	teardown(&f);

	/* Without a caller's reason, discovery's own. */
	io = fake_skl(5, BAR);
	fake_regio_fail_at(fake_regio_of(io), 4, UNCORE_EPERM, 0);
	CHECK_EQ_INT(open_be(&f, io, 1, NULL), 0);
	CHECK_EQ_INT(plan_events(&f, names, 1), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "IMC counters not readable: fake regio: injected");
	teardown(&f);
}

TEST(no_msr_access_is_an_error_that_says_so)
{
	struct fixture f;
	struct uncore_regio *io = fake_skl(5, BAR);
	fake_regio_fail_at(fake_regio_of(io), 1, UNCORE_EFAULT, 0);
	CHECK_EQ_INT(open_be(&f, io, 1, NULL), UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), "MSR_UNC_CBO_CONFIG (0x396)");
	CHECK(f.be == NULL);
	uncore_regio_destroy(io);
}

TEST(exact_register_traffic_of_a_session)
{
	struct fixture f;
	CHECK_EQ_INT(open_be(&f, fake_skl(5, BAR), 1, NULL), 0);
	const char *names[] = {"skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI",
			       "skl_unc_arb::UNC_ARB_TRK_REQUESTS:ALL", "skl_unc_clock::UNC_CLOCK",
			       "skl_unc_imc::DRAM_DATA_READS"};
	CHECK_EQ_INT(plan_events(&f, names, 4), 0);
	CHECK_EQ_INT(f.plan.nslots, 7);
	fake_regio_clear_log(f.fake);

	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	static const struct wr program[] = {
	    {GLOBAL, 0},          /* 2.2.1: nothing counts while programming */
	    {0x700, 0x8f34 | EN}, /* CBo 0 PERFEVTSEL0: ANY_MESI, local EN */
	    {0x710, 0x8f34 | EN},
	    {0x720, 0x8f34 | EN},
	    {0x730, 0x8f34 | EN},
	    {0x3b2, 0x0181 | EN},               /* ARB PERFEVTSEL0 */
	    {0x394, SKL_UNC_FIXED_CTRL_CNT_EN}, /* fixed UCLK counter */
	};
	check_writes(f.fake, program, sizeof(program) / sizeof(program[0]), "program");

	CHECK_EQ_INT(f.be->ops->start(f.be), 0);
	static const struct wr start[] = {
	    {0x706, 0}, {0x716, 0}, {0x726, 0}, {0x736, 0}, {0x3b0, 0}, {0x395, 0}, {GLOBAL, G_EN},
	};
	check_writes(f.fake, start, sizeof(start) / sizeof(start[0]), "start");

	/* Reserved bits above each counter's width (and the next register's,
	 * above a 32-bit MMIO counter) stay in the raw values, which count
	 * in their low width bits (backend.h, read: the fold drops them). */
	struct uncore_reg r = msr(0x706);
	fake_regio_set(f.fake, &r, 0xfff0000000000005ull); /* 44 bits */
	r = msr(0x736);
	fake_regio_set(f.fake, &r, 0x00000fffffffffffull); /* the largest 44-bit value */
	r = msr(0x3b0);
	fake_regio_set(f.fake, &r, 77);
	r = msr(0x395);
	fake_regio_set(f.fake, &r, 0xffff000100000000ull); /* 48 bits */
	r = imc(0x5050);
	fake_regio_set(f.fake, &r, 0x123456789ull); /* 32 bits */
	uint64_t raw[7];
	memset(raw, 0xa5, sizeof(raw));
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	CHECK_EQ_U64(counted(&f.plan, raw, slot_of(&f.plan, 0, 0)), 5);
	CHECK_EQ_U64(counted(&f.plan, raw, slot_of(&f.plan, 0, 1)), 0);
	CHECK_EQ_U64(counted(&f.plan, raw, slot_of(&f.plan, 0, 3)), 0xfffffffffffull);
	CHECK_EQ_U64(counted(&f.plan, raw, slot_of(&f.plan, 1, 0)), 77);
	CHECK_EQ_U64(counted(&f.plan, raw, slot_of(&f.plan, 2, 0)), 0x000100000000ull);
	CHECK_EQ_U64(counted(&f.plan, raw, slot_of(&f.plan, 3, 0)), 0x23456789);
	/* Read: frozen by the global EN around the reads, which go to the
	 * counters of the plan and, for the IMC, to MCHBAR + 0x5050. */
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	CHECK_EQ_INT(n, 9);
	static const uint64_t read_addr[] = {0x706, 0x716, 0x726,       0x736,
					     0x3b0, 0x395, BAR + 0x5050};
	if (n == 9) {
		CHECK(log[0].op == FAKE_WRITE && log[0].reg.addr == GLOBAL && log[0].value == 0);
		for (unsigned i = 0; i < 7; i++) {
			CHECK(log[1 + i].op == FAKE_READ);
			CHECK_EQ_U64(log[1 + i].reg.addr, read_addr[i]);
		}
		CHECK_EQ_INT(log[7].reg.space, UNCORE_SPACE_MMIO);
		CHECK_EQ_INT(log[7].reg.width, 4);
		CHECK(log[8].op == FAKE_WRITE && log[8].reg.addr == GLOBAL && log[8].value == G_EN);
	}
	fake_regio_clear_log(f.fake);

	CHECK_EQ_INT(f.be->ops->stop(f.be), 0);
	static const struct wr stop[] = {{GLOBAL, 0}};
	check_writes(f.fake, stop, 1, "stop");
	/* Stopped: a read does not toggle the global enable. */
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	check_writes(f.fake, NULL, 0, "read while stopped");

	CHECK_EQ_INT(f.be->ops->unprogram(f.be), 0);
	static const struct wr unprogram[] = {
	    {GLOBAL, 0}, {0x700, 0}, {0x710, 0}, {0x720, 0}, {0x730, 0}, {0x3b2, 0}, {0x394, 0},
	};
	check_writes(f.fake, unprogram, sizeof(unprogram) / sizeof(unprogram[0]), "unprogram");
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), UNCORE_ESTATE);
	CHECK_EQ_INT(f.be->ops->start(f.be), UNCORE_ESTATE);
	teardown(&f);
}

TEST(both_counters_of_a_cbo_with_modifiers_and_no_freeze)
{
	struct fixture f;
	CHECK_EQ_INT(open_be(&f, fake_skl(3, BAR), 0, NULL), 0);
	const char *names[] = {"skl_unc_cbo1::UNC_CBO_CACHE_LOOKUP:ANY_MESI:e=1:c=1",
			       "skl_unc_cbo1::UNC_CBO_XSNP_RESPONSE:MISS_XCORE",
			       "skl_unc_arb::UNC_ARB_TRK_OCCUPANCY:ALL"};
	CHECK_EQ_INT(plan_events(&f, names, 3), 0);
	fake_regio_clear_log(f.fake);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK_EQ_INT(f.be->ops->start(f.be), 0);
	unsigned c0 = f.plan.slots[slot_of(&f.plan, 0, 0)].counter;
	unsigned c1 = f.plan.slots[slot_of(&f.plan, 1, 0)].counter;
	CHECK_EQ_INT(c0 + c1, 1); /* counters 0 and 1 */
	/* ARB TRK_OCCUPANCY is counter 0 only (Table 3-2). */
	CHECK_EQ_INT(f.plan.slots[slot_of(&f.plan, 2, 0)].counter, 0);
	/* In slot order: the box's events as the set lists them. */
	const struct wr want[] = {
	    {GLOBAL, 0},
	    {0x710 + c0, 0x1048f34 | EN}, /* THR=1, E, ANY_MESI (golden skl.txt) */
	    {0x710 + c1, 0x4122 | EN},
	    {0x3b2, 0x0180 | EN},
	    {0x716 + c0, 0},
	    {0x716 + c1, 0},
	    {0x3b0, 0},
	    {GLOBAL, G_EN},
	};
	check_writes(f.fake, want, sizeof(want) / sizeof(want[0]), "program+start");
	struct uncore_reg r = msr(0x716 + c1);
	fake_regio_set(f.fake, &r, 9);
	uint64_t raw[3];
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	CHECK_EQ_U64(raw[slot_of(&f.plan, 1, 0)], 9);
	check_writes(f.fake, NULL, 0, "read without freeze");
	teardown(&f);
}

TEST(imc_only_plans_write_nothing)
{
	struct fixture f;
	CHECK_EQ_INT(open_be(&f, fake_skl(5, BAR), 1, "/nonexistent/no-lock-needed"), 0);
	const char *names[] = {"skl_unc_imc::DRAM_DATA_READS",  "skl_unc_imc::DRAM_DATA_WRITES",
			       "skl_unc_imc::DRAM_GT_REQUESTS", "skl_unc_imc::DRAM_IA_REQUESTS",
			       "skl_unc_imc::DRAM_IO_REQUESTS", "skl_unc_imc::DRAM_DATA_READS"};
	CHECK_EQ_INT(plan_events(&f, names, 6), 0);
	CHECK_EQ_INT(f.plan.nslots, 5); /* the repeated event shares its counter */
	CHECK_EQ_INT(slot_of(&f.plan, 0, 0), slot_of(&f.plan, 5, 0));
	static const uint32_t off[] = {0x5050, 0x5054, 0x5040, 0x5044, 0x5048};
	for (unsigned e = 0; e < 5; e++) {
		struct uncore_reg r = imc(off[e]);
		fake_regio_set(f.fake, &r, 1000 + e);
	}
	fake_regio_clear_log(f.fake);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK_EQ_INT(f.be->ops->start(f.be), 0);
	uint64_t raw[5];
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	for (unsigned e = 0; e < 5; e++)
		CHECK_EQ_U64(raw[slot_of(&f.plan, e, 0)], 1000 + e);
	CHECK_EQ_INT(f.be->ops->stop(f.be), 0);
	CHECK_EQ_INT(f.be->ops->unprogram(f.be), 0);
	check_writes(f.fake, NULL, 0, "IMC only");
	teardown(&f);
}

TEST(allowlist_refuses_a_slot_outside_its_planned_box)
{
	struct fixture f;
	CHECK_EQ_INT(open_be(&f, fake_skl(5, BAR), 1, NULL), 0);
	const char *names[] = {"skl_unc_cbo0::UNC_CBO_CACHE_LOOKUP:ANY_MESI"};
	CHECK_EQ_INT(plan_events(&f, names, 1), 0);
	f.plan.slots[0].instance = 2; /* corrupt: its box program is CBo 0 */
	fake_regio_clear_log(f.fake);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), UNCORE_EDENIED);
	CHECK_CONTAINS(uncore_error_detail(), "0x720");
	/* Only the global disable reached the registers. */
	static const struct wr want[] = {{GLOBAL, 0}, {GLOBAL, 0}};
	check_writes(f.fake, want, 2, "refused program");
	/* Unbound after the failure: a correct plan programs. */
	f.plan.slots[0].instance = 0;
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	teardown(&f);
}

TEST(faults_leave_nothing_half_done)
{
	struct fixture f;
	CHECK_EQ_INT(open_be(&f, fake_skl(5, BAR), 1, NULL), 0);
	const char *names[] = {"skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI",
			       "skl_unc_clock::UNC_CLOCK"};
	CHECK_EQ_INT(plan_events(&f, names, 2), 0);
	fake_regio_clear_log(f.fake);

	/* Program: the third write (CBo 1) fails once; every control is then
	 * cleared, the binding released. */
	fake_regio_fail_at(f.fake, 3, UNCORE_EIO, 0);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), UNCORE_EIO);
	CHECK_CONTAINS(uncore_error_detail(), "fake regio: injected fault");
	static const struct wr program[] = {
	    {GLOBAL, 0}, {0x700, 0x408f34}, {0x710, 0x408f34}, /* refused by the fake */
	    {GLOBAL, 0}, {0x700, 0},        {0x710, 0},        {0x720, 0}, {0x730, 0}, {0x394, 0},
	};
	check_writes(f.fake, program, sizeof(program) / sizeof(program[0]), "failed program");
	CHECK_EQ_INT(f.be->ops->start(f.be), UNCORE_ESTATE);

	/* Read: the first counter read fails once: the socket's batch is read
	 * again register by register, and the global enable comes back. */
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK_EQ_INT(f.be->ops->start(f.be), 0);
	fake_regio_clear_log(f.fake);
	fake_regio_fail_at(f.fake, 2, UNCORE_EIO, 0);
	uint64_t raw[5];
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), 0);
	CHECK(raw[0] != UNCORE_RAW_UNREAD && raw[1] != UNCORE_RAW_UNREAD);
	/* Failing for good: unread, said, and the enable still comes back. */
	fake_regio_clear_log(f.fake);
	fake_regio_fail_matching(f.fake, UNCORE_SPACE_MSR, FAKE_READ, 1, UNCORE_EIO, 1);
	CHECK_EQ_INT(f.be->ops->read(f.be, raw), UNCORE_EIO);
	CHECK_EQ_U64(raw[0], UNCORE_RAW_UNREAD);
	fake_regio_fail_matching(f.fake, -1, 0, 0, 0, 0);
	size_t n;
	const struct fake_access *log = fake_regio_log(f.fake, &n);
	CHECK(n >= 3 && log[n - 1].op == FAKE_WRITE && log[n - 1].reg.addr == GLOBAL &&
	      log[n - 1].value == G_EN);

	/* Stop and unprogram report a write fault; destroy still cleans up. */
	fake_regio_fail_at(f.fake, 1, UNCORE_EIO, 0);
	CHECK_EQ_INT(f.be->ops->stop(f.be), UNCORE_EIO);
	fake_regio_fail_at(f.fake, 1, UNCORE_EIO, 1);
	CHECK_EQ_INT(f.be->ops->unprogram(f.be), UNCORE_EIO);
	fake_regio_fail_at(f.fake, 0, 0, 0);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0); /* released despite the fault */
	teardown(&f);
}

/* Another process holding the package: a child takes the lock (a fresh
 * one, so it does not share ours) until told to let go. */
struct holder {
	pid_t pid;
	int go[2], done[2];
};

static int holder_start(struct holder *h, const char *locks)
{
	if (pipe(h->go) || pipe(h->done))
		return -1;
	h->pid = fork();
	if (h->pid == 0) {
		struct uncore_socket_lock *l = NULL;
		char c = uncore_socket_lock_acquire(locks, 0, &l) == 0 ? 'y' : 'n';
		if (write(h->go[1], &c, 1) != 1 || read(h->done[0], &c, 1) != 1)
			_exit(1);
		uncore_socket_lock_release(l);
		_exit(0);
	}
	char c = 0;
	return read(h->go[0], &c, 1) == 1 && c == 'y' ? 0 : -1;
}

static void holder_stop(struct holder *h)
{
	char c = 'x';
	if (write(h->done[1], &c, 1) != 1)
		kill(h->pid, SIGKILL);
	waitpid(h->pid, NULL, 0);
	close(h->go[0]);
	close(h->go[1]);
	close(h->done[0]);
	close(h->done[1]);
}

TEST(the_package_is_locked_while_msr_counters_are_programmed)
{
	const char *dir = test_mkdtemp("skl-lock");
	CHECK(dir != NULL);
	if (!dir)
		return;
	char locks[256];
	snprintf(locks, sizeof(locks), "%s", dir);
	struct fixture b;
	struct holder h;
	CHECK_EQ_INT(holder_start(&h, locks), 0);
	CHECK_EQ_INT(open_be(&b, fake_skl(5, BAR), 1, locks), 0);
	const char *cbo[] = {"skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI"};
	const char *mc[] = {"skl_unc_imc::DRAM_DATA_READS"};
	CHECK_EQ_INT(plan_events(&b, cbo, 1), 0);
	fake_regio_clear_log(b.fake);
	CHECK_EQ_INT(b.be->ops->program(b.be, &b.plan), UNCORE_EBUSY);
	check_writes(b.fake, NULL, 0, "refused by the lock");
	/* Free-running counters need no lock. */
	CHECK_EQ_INT(plan_events(&b, mc, 1), 0);
	CHECK_EQ_INT(b.be->ops->program(b.be, &b.plan), 0);
	CHECK_EQ_INT(b.be->ops->unprogram(b.be), 0);
	/* The other process lets go: ours now. */
	holder_stop(&h);
	CHECK_EQ_INT(plan_events(&b, cbo, 1), 0);
	CHECK_EQ_INT(b.be->ops->program(b.be, &b.plan), 0);
	teardown(&b);
	test_rmtree(dir);
}

TEST(read_interval_follows_the_shortest_wrap)
{
	struct fixture f;
	CHECK_EQ_INT(open_be(&f, fake_skl(5, BAR), 1, NULL), 0);
	uint64_t ns = 0;
	CHECK(f.be->ops->max_read_interval != NULL);
	const char *mixed[] = {"skl_unc_clock::UNC_CLOCK", "skl_unc_imc::DRAM_DATA_WRITES",
			       "skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI"};
	/* Half of 2^32 / 1.1e9 per second: 1.95 s. */
	CHECK_EQ_INT(plan_events(&f, mixed, 3), 0);
	CHECK_EQ_INT(f.be->ops->max_read_interval(f.be, &f.plan, &ns), 0);
	CHECK_NEAR(ns / 1e9, 1.952, 0.001);
	/* Without the IMC: half of 2^44 / 3.2e11: 27.5 s. */
	CHECK_EQ_INT(plan_events(&f, &mixed[2], 1), 0);
	CHECK_EQ_INT(f.be->ops->max_read_interval(f.be, &f.plan, &ns), 0);
	CHECK_NEAR(ns / 1e9, 27.49, 0.01);
	/* UCLK alone: half of 2^48 / 5e9: 7.8 hours. */
	CHECK_EQ_INT(plan_events(&f, mixed, 1), 0);
	CHECK_EQ_INT(f.be->ops->max_read_interval(f.be, &f.plan, &ns), 0);
	CHECK_NEAR(ns / 3600e9, 7.82, 0.01);
	teardown(&f);
}

int main(void)
{
	RUN(discovery_counts_cbos_and_finds_the_imc);
	RUN(cbos_are_capped_at_the_cores);
	RUN(imc_absent_says_why);
	RUN(no_msr_access_is_an_error_that_says_so);
	RUN(exact_register_traffic_of_a_session);
	RUN(both_counters_of_a_cbo_with_modifiers_and_no_freeze);
	RUN(imc_only_plans_write_nothing);
	RUN(allowlist_refuses_a_slot_outside_its_planned_box);
	RUN(faults_leave_nothing_half_done);
	RUN(the_package_is_locked_while_msr_counters_are_programmed);
	RUN(read_interval_follows_the_shortest_wrap);
	return harness_done();
}
