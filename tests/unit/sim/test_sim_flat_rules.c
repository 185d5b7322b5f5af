/* The flat-PMU models' register rules as the manuals give them, through
 * the machine's register interface: a write of a reserved bit or of a
 * register that does not exist is a #GP (UNCORE_EFAULT), the Nehalem
 * global status is read-only and its overflow control write-only (reads
 * 0), a counter takes no bit above its width; the Skylake client host
 * bridge answers dword reads only, other functions read all ones in their
 * ID and nothing else; the IMC counters are 32-bit MMIO registers at
 * MCHBAR + 5050h.. and nothing else of the BAR is.  MSR numbers from SDM
 * Vol. 3B 18.8.2 (Nehalem, Table 18-17 and 2-20) and the 6th generation
 * Core uncore manual (SKL Table 2-1, 3.3). */
#include "access/regio.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "sim/uncore_sim.h"

#include <stdio.h>

static struct uncore_reg msr(unsigned socket, uint32_t a)
{
	return (struct uncore_reg){UNCORE_SPACE_MSR, 8, (uint16_t)socket, 0, a};
}

static void gp_write(struct uncore_regio *io, struct uncore_reg r, uint64_t v, const char *why)
{
	char row[48];
	snprintf(row, sizeof(row), "wrmsr 0x%x 0x%llx", (unsigned)r.addr, (unsigned long long)v);
	harness_row = row;
	CHECK_EQ_INT(uncore_regio_write(io, &r, v), UNCORE_EFAULT);
	CHECK_CONTAINS(uncore_error_detail(), why);
	uncore_error_clear();
	harness_row = NULL;
}

TEST(nehalem_msr_rules)
{
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("x5570-2s", NULL, &sim) == 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	uint64_t v = 7;
	/* MSR_UNCORE_PERF_GLOBAL_STATUS (392h): read-only. */
	gp_write(io, msr(0, 0x392), 1, "the global status is read-only");
	/* MSR_UNCORE_PERF_GLOBAL_OVF_CTRL (393h): bits 0-7, 32, 61-63;
	 * write-only, reads 0. */
	gp_write(io, msr(0, 0x393), 1ull << 40, "reserved bits of the overflow control set");
	struct uncore_reg ovf = msr(0, 0x393);
	CHECK_EQ_INT(uncore_regio_write(io, &ovf, 1), 0);
	CHECK_EQ_INT(uncore_regio_read(io, &ovf, &v), 0);
	CHECK_EQ_U64(v, 0);
	/* MSR_UNCORE_PMC0 (3B0h): 48 bits. */
	gp_write(io, msr(0, 0x3b0), 1ull << 48, "bits above the counter width set");
	struct uncore_reg pmc0 = msr(1, 0x3b0);
	CHECK_EQ_INT(uncore_regio_write(io, &pmc0, (1ull << 48) - 1), 0);
	CHECK_EQ_INT(uncore_regio_read(io, &pmc0, &v), 0);
	CHECK_EQ_U64(v, (1ull << 48) - 1);
	/* Not an uncore MSR of the model. */
	gp_write(io, msr(0, 0x3af), 0, "no such MSR");
	/* The model has two sockets. */
	struct uncore_reg far = msr(2, 0x3b0);
	CHECK_EQ_INT(uncore_regio_write(io, &far, 0), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "socket 2 does not exist on model x5570-2s");
	uncore_error_clear();
	uncore_sim_destroy(sim);
}

TEST(skylake_client_rules)
{
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("i7-6700k", NULL, &sim) == 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	/* MSR_UNC_PERF_GLOBAL_STATUS (E02h): RW1C overflow bits, the rest
	 * reserved. */
	gp_write(io, msr(0, 0xe02), 1ull << 20, "reserved bits of the global status set");
	/* MSR_UNC_CBO_0_PERFCTR0 (706h): 44 bits. */
	gp_write(io, msr(0, 0x706), 1ull << 44, "bits above the counter width set");

	/* The host bridge, 00:00.0: its ID, MCHBAR at 48h, dwords only. */
	uint64_t lo = 0, hi = 0, v = 0;
	struct uncore_reg hb = {UNCORE_SPACE_PCI, 4, 0, UNCORE_BDF(0, 0, 0), 0x48};
	CHECK_EQ_INT(uncore_regio_read(io, &hb, &lo), 0);
	CHECK(lo & 1); /* MCHBAREN */
	hb.addr = 0x4c;
	CHECK_EQ_INT(uncore_regio_read(io, &hb, &hi), 0);
	hb.addr = 0x50;
	CHECK_EQ_INT(uncore_regio_read(io, &hb, &v), 0);
	CHECK_EQ_U64(v, 0); /* a register the model keeps at 0 */
	hb.width = 8;
	hb.addr = 0x48;
	CHECK_EQ_INT(uncore_regio_read(io, &hb, &v), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "dwords only");
	/* Another function: all ones in its ID (not present), nothing else. */
	struct uncore_reg other = {UNCORE_SPACE_PCI, 4, 0, UNCORE_BDF(0, 2, 0), 0};
	CHECK_EQ_INT(uncore_regio_read(io, &other, &v), 0);
	CHECK_EQ_U64(v, 0xffffffffu);
	other.addr = 4;
	CHECK_EQ_INT(uncore_regio_read(io, &other, &v), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "PCI 00:02.0 is not present on model i7-6700k");

	/* The IMC's DRAM_DATA_READS at MCHBAR + 5050h: 32 bits. */
	uint64_t mchbar = (hi << 32 | lo) & ~1ull;
	struct uncore_reg imc = {UNCORE_SPACE_MMIO, 4, 0, 0, mchbar + 0x5050};
	CHECK_EQ_INT(uncore_regio_read(io, &imc, &v), 0);
	imc.width = 8;
	CHECK_EQ_INT(uncore_regio_read(io, &imc, &v), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "32-bit");
	imc.width = 4;
	imc.addr = mchbar + 0x5000;
	CHECK_EQ_INT(uncore_regio_read(io, &imc, &v), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "is not a register of model i7-6700k");
	uncore_error_clear();
	uncore_sim_destroy(sim);
}

int main(void)
{
	RUN(nehalem_msr_rules);
	RUN(skylake_client_rules);
	return harness_done();
}
