/* Event sets end to end on a fake Skylake client register file, through
 * the event names, the scheduler, the direct backend and the fold: the IMC
 * free-running counters read back exactly what the registers hold since
 * start, across 32-bit wraps into 64-bit totals; CBo events summed over
 * the slices and folded across a 44-bit wrap; the UCLK counter; reset;
 * the read interval a poller must keep; a missing IMC explained; and the
 * IMC through the real MMIO backend over a file standing in for /dev/mem,
 * next to fake MSR and PCI spaces, as the component composes them. */
#include "access/composite.h"
#include "access/mmio.h"
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "fake_regio.h"
#include "harness.h"
#include "platform/skl/skl_regs.h"
#include "platform/skl_mchbar.h"
#include "tmpdir.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BAR UINT64_C(0xfed10000)

static void set_reg(struct fake_regio *f, uint8_t space, uint64_t addr, uint64_t v)
{
	struct uncore_reg r = {
	    .space = space, .width = space == UNCORE_SPACE_MMIO ? 4 : 8, .addr = addr};
	if (space == UNCORE_SPACE_PCI)
		r.width = 4;
	fake_regio_set(f, &r, v);
}

static void set_msr(struct fake_regio *f, uint32_t msr, uint64_t v)
{
	set_reg(f, UNCORE_SPACE_MSR, msr, v);
}

static void set_imc(struct fake_regio *f, uint32_t off, uint64_t v)
{
	set_reg(f, UNCORE_SPACE_MMIO, BAR + off, v);
}

struct env {
	struct uncore_regio *io;
	struct fake_regio *fake;
	struct uncore_backend *be;
	struct uncore_set *set;
};

/* Four CBos, MCHBAR = BAR (or none). */
static int env_open(struct env *e, int with_imc)
{
	memset(e, 0, sizeof(*e));
	e->io = fake_regio_create(0);
	e->fake = fake_regio_of(e->io);
	set_msr(e->fake, SKL_MSR_UNC_CBO_CONFIG, 5);
	set_reg(e->fake, UNCORE_SPACE_PCI, 0x48, with_imc ? (BAR | 1) : 0);
	struct uncore_direct_config cfg = {
	    .io = e->io, .own_io = 1, .read_freeze = 1, .no_socket_lock = 1};
	int rc = uncore_direct_open_skl(&cfg, &e->be);
	if (rc == 0)
		rc = uncore_set_create(e->be, &e->set);
	return rc;
}

static void env_close(struct env *e)
{
	uncore_set_destroy(e->set);
	if (e->be)
		e->be->ops->destroy(e->be);
}

TEST(imc_reads_back_what_the_counter_holds)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, 1), 0);
	const char *names[] = {"skl_unc_imc::DRAM_DATA_READS"};
	CHECK_EQ_INT(uncore_set_assign(e.set, names, 1), 0);
	set_imc(e.fake, SKL_IMC_DRAM_DATA_READS, 1000); /* free-running: not zeroed by start */
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	uint64_t v = 99;
	CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
	CHECK_EQ_U64(v, 0);
	set_imc(e.fake, SKL_IMC_DRAM_DATA_READS, 1000 + 12345);
	CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
	CHECK_EQ_U64(v, 12345);
	set_imc(e.fake, SKL_IMC_DRAM_DATA_READS, 1000 + 12345 + 655);
	CHECK_EQ_INT(uncore_set_stop(e.set, &v), 0);
	CHECK_EQ_U64(v, 13000);
	/* Stopped: the counter runs on, the total does not. */
	set_imc(e.fake, SKL_IMC_DRAM_DATA_READS, 5000000);
	CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
	CHECK_EQ_U64(v, 13000);
	env_close(&e);
}

TEST(imc_totals_fold_across_32_bit_wraps)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, 1), 0);
	const char *names[] = {"skl_unc_imc::DRAM_DATA_WRITES"};
	CHECK_EQ_INT(uncore_set_assign(e.set, names, 1), 0);
	set_imc(e.fake, SKL_IMC_DRAM_DATA_WRITES, 0xffffff00u);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	static const struct {
		uint64_t raw, total;
	} steps[] = {
	    {0x00000100, 0x200},      /* wrapped once */
	    {0x80000000, 0x80000100}, /* half a period */
	    {0xffffffff, 0xffffffff + 0x100ull},
	    {0x00000010, 0x100000110},    /* second wrap: the total passes 2^32 */
	    {0x00000010, 0x100000110},    /* no change */
	    {0xfffffff0, 0x2000000f0ull}, /* just under a whole period since the last read */
	};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		uint64_t v;
		set_imc(e.fake, SKL_IMC_DRAM_DATA_WRITES, steps[i].raw);
		CHECK_EQ_INT(uncore_set_read(e.set, &v), 0);
		CHECK_EQ_U64(v, steps[i].total);
	}
	env_close(&e);
}

TEST(five_imc_counters_each_its_own)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, 1), 0);
	const char *names[] = {"skl_unc_imc::DRAM_GT_REQUESTS", "skl_unc_imc::DRAM_IA_REQUESTS",
			       "skl_unc_imc::DRAM_IO_REQUESTS", "skl_unc_imc::DRAM_DATA_READS",
			       "skl_unc_imc::DRAM_DATA_WRITES"};
	static const uint32_t off[] = {0x5040, 0x5044, 0x5048, 0x5050, 0x5054};
	CHECK_EQ_INT(uncore_set_assign(e.set, names, 5), 0);
	for (unsigned i = 0; i < 5; i++)
		set_imc(e.fake, off[i], 0xfffffff0u + i);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	for (unsigned i = 0; i < 5; i++)
		set_imc(e.fake, off[i], 100 * (i + 1)); /* each wrapped */
	uint64_t v[5];
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	for (unsigned i = 0; i < 5; i++) {
		harness_row = names[i];
		CHECK_EQ_U64(v[i], 100 * (i + 1) + 0x10 - i);
	}
	harness_row = NULL;
	env_close(&e);
}

TEST(cbo_events_sum_over_slices_and_fold_44_bits)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, 1), 0);
	const char *names[] = {"skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI",
			       "skl_unc_cbo2::UNC_CBO_CACHE_LOOKUP:ANY_MESI",
			       "skl_unc_clock::UNC_CLOCK", "skl_unc_arb::UNC_ARB_TRK_REQUESTS:ALL"};
	CHECK_EQ_INT(uncore_set_assign(e.set, names, 4), 0);
	set_msr(e.fake, 0x706, 777); /* stale: start zeroes the counters */
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	set_msr(e.fake, 0x706, 1);
	set_msr(e.fake, 0x716, 2);
	set_msr(e.fake, 0x726, 3);
	set_msr(e.fake, 0x736, (1ull << 44) - 16);
	set_msr(e.fake, 0x395, 123456789);
	set_msr(e.fake, 0x3b0, 42);
	uint64_t v[4];
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_EQ_U64(v[0], 1 + 2 + 3 + (1ull << 44) - 16);
	CHECK_EQ_U64(v[1], 3); /* CBo 2 alone, sharing its counter with the sum */
	CHECK_EQ_U64(v[2], 123456789);
	CHECK_EQ_U64(v[3], 42);
	set_msr(e.fake, 0x736, 16); /* CBo 3 wrapped at 44 bits: +32 */
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	CHECK_EQ_U64(v[0], 1 + 2 + 3 + (1ull << 44) + 16);
	/* Reset: zero from here on. */
	CHECK_EQ_INT(uncore_set_reset(e.set), 0);
	set_msr(e.fake, 0x706, 11);
	CHECK_EQ_INT(uncore_set_stop(e.set, v), 0);
	CHECK_EQ_U64(v[0], 10);
	CHECK_EQ_U64(v[1], 0);
	env_close(&e);
}

TEST(read_interval_of_a_set)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, 1), 0);
	uint64_t ns = 0;
	CHECK_EQ_INT(uncore_set_max_read_interval(e.set, &ns), 0);
	CHECK_EQ_U64(ns, UINT64_MAX); /* empty */
	const char *names[] = {"skl_unc_arb::UNC_ARB_TRK_REQUESTS:ALL",
			       "skl_unc_imc::DRAM_DATA_READS"};
	CHECK_EQ_INT(uncore_set_assign(e.set, names, 1), 0);
	CHECK_EQ_INT(uncore_set_max_read_interval(e.set, &ns), 0);
	CHECK(ns > 20ull * 1000000000 && ns < 60ull * 1000000000);
	CHECK_EQ_INT(uncore_set_assign(e.set, names, 2), 0);
	CHECK_EQ_INT(uncore_set_max_read_interval(e.set, &ns), 0);
	CHECK(ns > 1000000000ull && ns < 2000000000ull); /* the IMC: under 2 s */
	env_close(&e);
}

TEST(missing_imc_is_refused_at_add_time_with_the_reason)
{
	struct env e;
	CHECK_EQ_INT(env_open(&e, 0), 0);
	unsigned idx;
	CHECK_EQ_INT(uncore_set_add(e.set, "skl_unc_imc::DRAM_DATA_READS", &idx), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "MCHBAR");
	CHECK_EQ_INT(uncore_set_add(e.set, "skl_unc_clock::UNC_CLOCK", &idx), 0);
	CHECK_EQ_INT(uncore_set_count(e.set), 1);
	env_close(&e);
}

static int put_dword(const char *path, uint64_t off, uint32_t v)
{
	int fd = open(path, O_WRONLY);
	int ok = fd >= 0 && pwrite(fd, &v, 4, (off_t)off) == 4;
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

TEST(imc_through_the_mmio_backend)
{
	const char *dir = test_mkdtemp("skl-mem");
	CHECK(dir != NULL);
	if (!dir)
		return;
	char mem[512];
	snprintf(mem, sizeof(mem), "%s/mem", dir);
	CHECK_EQ_INT(test_put(dir, "mem", ""), 0);
	const uint64_t bar = 0x10000; /* a multiple of 32 KiB, as SKL_MCHBAR_MASK allows */
	CHECK_EQ_INT(truncate(mem, 0x20000), 0);
	CHECK_EQ_INT(put_dword(mem, bar + SKL_IMC_DRAM_DATA_READS, 0xfffffff0u), 0);

	struct uncore_regio *msr = fake_regio_create(0), *pci = fake_regio_create(0), *mmio = NULL,
			    *io = NULL;
	set_msr(fake_regio_of(msr), SKL_MSR_UNC_CBO_CONFIG, 3);
	set_reg(fake_regio_of(pci), UNCORE_SPACE_PCI, 0x48, bar | 1);
	uint64_t got_bar = 0;
	CHECK_EQ_INT(skl_mchbar_read(pci, &got_bar), 0);
	CHECK_EQ_U64(got_bar, bar);
	CHECK_EQ_INT(uncore_mmio_open(mem, got_bar + SKL_IMC_WINDOW_FIRST,
				      SKL_IMC_WINDOW_END - SKL_IMC_WINDOW_FIRST, &mmio),
		     0);
	CHECK_EQ_INT(uncore_composite_open(msr, pci, mmio, &io), 0);
	struct uncore_direct_config cfg = {
	    .io = io, .own_io = 1, .read_freeze = 1, .no_socket_lock = 1};
	struct uncore_backend *be = NULL;
	struct uncore_set *set = NULL;
	CHECK_EQ_INT(uncore_direct_open_skl(&cfg, &be), 0);
	if (!be) {
		uncore_regio_destroy(io);
		test_rmtree(dir);
		return;
	}
	CHECK_EQ_INT(uncore_set_create(be, &set), 0);
	const char *names[] = {"skl_unc_imc::DRAM_DATA_READS",
			       "skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI"};
	CHECK_EQ_INT(uncore_set_assign(set, names, 2), 0);
	CHECK_EQ_INT(uncore_set_start(set), 0);
	CHECK_EQ_INT(put_dword(mem, bar + SKL_IMC_DRAM_DATA_READS, 0x10), 0);
	set_msr(fake_regio_of(msr), 0x716, 5); /* CBo 1 */
	uint64_t v[2];
	CHECK_EQ_INT(uncore_set_read(set, v), 0);
	CHECK_EQ_U64(v[0], 0x20);
	CHECK_EQ_U64(v[1], 5);
	CHECK_EQ_INT(uncore_set_stop(set, v), 0);
	uncore_set_destroy(set);
	be->ops->destroy(be);
	test_rmtree(dir);
}

int main(void)
{
	RUN(imc_reads_back_what_the_counter_holds);
	RUN(imc_totals_fold_across_32_bit_wraps);
	RUN(five_imc_counters_each_its_own);
	RUN(cbo_events_sum_over_slices_and_fold_44_bits);
	RUN(read_interval_of_a_set);
	RUN(missing_imc_is_refused_at_add_time_with_the_reason);
	RUN(imc_through_the_mmio_backend);
	return harness_done();
}
