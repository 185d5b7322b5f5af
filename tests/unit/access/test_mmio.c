/* The MMIO backend with a regular file standing in for /dev/mem (its
 * offsets play physical addresses): window arithmetic around page
 * boundaries, reads at the right offsets, range and alignment checks,
 * writes refused; and MCHBAR discovery feeding it, as for Skylake client. */
#include "access/mmio.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "platform/skl_mchbar.h"
#include "support/fake_regio.h"
#include "support/tmpdir.h"

#include <fcntl.h>
#include <unistd.h>

static const char *dir;
static char mem[512];

/* A 128 KiB "physical memory" whose dword at offset o holds o ^ 0x5a5a0000. */
static void make_mem(void)
{
	snprintf(mem, sizeof(mem), "%s/mem", dir);
	int fd = open(mem, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	for (uint32_t o = 0; o < 0x20000; o += 4) {
		uint32_t v = o ^ 0x5a5a0000u;
		if (fd < 0 || pwrite(fd, &v, 4, o) != 4) {
			HARNESS_FAIL_AT("cannot write %s", mem);
			break;
		}
	}
	if (fd >= 0)
		close(fd);
}

static struct uncore_reg mm(uint64_t addr, unsigned width)
{
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_MMIO, .width = (uint8_t)width, .addr = addr};
}

TEST(window_arithmetic_and_reads)
{
	long page = sysconf(_SC_PAGESIZE);
	struct uncore_regio *io;
	/* The Skylake IMC window of a BAR at 0x10000: 0x15040..0x15057. */
	CHECK_EQ_INT(uncore_mmio_open(mem, 0x10000 + SKL_IMC_WINDOW_FIRST,
				      SKL_IMC_WINDOW_END - SKL_IMC_WINDOW_FIRST, &io),
		     0);
	CHECK_EQ_STR(io->ops->name, "mmio");
	uint64_t base, len;
	uncore_mmio_window(io, &base, &len);
	CHECK_EQ_U64(base, 0x15040 & ~(uint64_t)(page - 1));
	CHECK_EQ_U64(len, (uint64_t)page);
	for (uint64_t a = 0x15040; a <= 0x15054; a += 4) {
		uint64_t v = 0;
		struct uncore_reg r = mm(a, 4);
		CHECK_EQ_INT(uncore_regio_read(io, &r, &v), 0);
		CHECK_EQ_U64(v, a ^ 0x5a5a0000u);
	}
	uint64_t v;
	struct uncore_reg q = mm(0x15048, 8);
	CHECK_EQ_INT(uncore_regio_read(io, &q, &v), 0);
	CHECK_EQ_U64(v, (0x15048ull ^ 0x5a5a0000u) | (0x1504cull ^ 0x5a5a0000u) << 32);
	CHECK_EQ_U64(io->stats.reads, 7);
	CHECK_EQ_U64(io->stats.syscalls, 3); /* open, mmap, close only */

	struct uncore_reg bad[] = {mm(0x1503c, 4), mm(0x15058, 4), mm(0x15038, 8),
				   mm(0x15042, 4), mm(0x15044, 8), mm(0x15040, 2)};
	const int want[] = {UNCORE_ERANGE, UNCORE_ERANGE, UNCORE_ERANGE,
			    UNCORE_EINVAL, UNCORE_EINVAL, UNCORE_EINVAL};
	for (size_t i = 0; i < 6; i++)
		CHECK_EQ_INT(uncore_regio_read(io, &bad[i], &v), want[i]);
	struct uncore_reg pci = {.space = UNCORE_SPACE_PCI, .width = 4, .addr = 0x15040};
	CHECK_EQ_INT(uncore_regio_read(io, &pci, &v), UNCORE_EINVAL);

	struct uncore_reg w = mm(0x15050, 4);
	CHECK_EQ_INT(uncore_regio_write(io, &w, 0), UNCORE_EDENIED);
	CHECK_CONTAINS(uncore_error_detail(), "read-only");
	CHECK_EQ_U64(io->stats.writes, 0);
	uncore_regio_destroy(io);
}

TEST(window_spanning_pages)
{
	long page = sysconf(_SC_PAGESIZE);
	struct uncore_regio *io;
	uint64_t first = 2 * (uint64_t)page - 8; /* 8 bytes before a page boundary */
	CHECK_EQ_INT(uncore_mmio_open(mem, first, 16, &io), 0);
	uint64_t base, len;
	uncore_mmio_window(io, &base, &len);
	CHECK_EQ_U64(base, (uint64_t)page);
	CHECK_EQ_U64(len, 2 * (uint64_t)page);
	for (uint64_t a = first; a < first + 16; a += 4) {
		uint64_t v = 0;
		struct uncore_reg r = mm(a, 4);
		CHECK_EQ_INT(uncore_regio_read(io, &r, &v), 0);
		CHECK_EQ_U64(v, a ^ 0x5a5a0000u);
	}
	uncore_regio_destroy(io);
	CHECK_EQ_INT(uncore_mmio_open(mem, 0x1000, 0, &io), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_mmio_open(mem, ~0ull - 3, 8, &io), UNCORE_EINVAL);
}

TEST(missing_device)
{
	struct uncore_regio *io;
	char path[600];
	snprintf(path, sizeof(path), "%s/no-such-mem", dir);
	CHECK_EQ_INT(uncore_mmio_open(path, 0xfed15040, 0x18, &io), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "no-such-mem");
}

TEST(mchbar_from_pci_0_0_0)
{
	struct uncore_regio *pci = fake_regio_create(0);
	struct fake_regio *f = fake_regio_of(pci);
	struct uncore_reg lo = {.space = UNCORE_SPACE_PCI,
				.width = 4,
				.bdf = UNCORE_BDF(0, 0, 0),
				.addr = 0x48},
			  hi = lo;
	hi.addr = 0x4c;
	uint64_t bar = 0;
	/* Bit 0 (enable) and bits 14:1 and above 38 are not address bits. */
	fake_regio_set(f, &lo, 0xfed17fff);
	fake_regio_set(f, &hi, 0xffffff80);
	CHECK_EQ_INT(skl_mchbar_read(pci, &bar), 0);
	CHECK_EQ_U64(bar, 0x00fed10000ull);
	fake_regio_set(f, &lo, 0x00000001);
	fake_regio_set(f, &hi, 0x00000012);
	CHECK_EQ_INT(skl_mchbar_read(pci, &bar), 0);
	CHECK_EQ_U64(bar, 0x1200000000ull);
	fake_regio_set(f, &lo, 0x7fff);
	fake_regio_set(f, &hi, 0);
	CHECK_EQ_INT(skl_mchbar_read(pci, &bar), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "offset 0x48");
	fake_regio_fail_at(f, 2, UNCORE_EPERM, 0);
	CHECK_EQ_INT(skl_mchbar_read(pci, &bar), UNCORE_EPERM);

	/* MCHBAR -> window -> counters, end to end over the fake memory. */
	fake_regio_set(f, &lo, 0x00010001);
	CHECK_EQ_INT(skl_mchbar_read(pci, &bar), 0);
	struct uncore_regio *io;
	CHECK_EQ_INT(uncore_mmio_open(mem, bar + SKL_IMC_WINDOW_FIRST,
				      SKL_IMC_WINDOW_END - SKL_IMC_WINDOW_FIRST, &io),
		     0);
	uint64_t v;
	struct uncore_reg reads = mm(bar + 0x5050, 4); /* DRAM_DATA_READS */
	CHECK_EQ_INT(uncore_regio_read(io, &reads, &v), 0);
	CHECK_EQ_U64(v, 0x15050u ^ 0x5a5a0000u);
	uncore_regio_destroy(io);
	uncore_regio_destroy(pci);
}

int main(void)
{
	dir = test_mkdtemp("mmio");
	if (!dir)
		return 1;
	make_mem();
	RUN(window_arithmetic_and_reads);
	RUN(window_spanning_pages);
	RUN(missing_device);
	RUN(mchbar_from_pci_0_0_0);
	test_rmtree(dir);
	return harness_done();
}
