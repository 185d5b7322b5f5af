/* The audit log (one JSON object per register access, in the exact
 * form) and fault injection (the Nth access or every access to a register or
 * device fails with EIO, EACCES or ENODEV, transiently or for good). */
#include "sim_test.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static char log_path[64];

static int read_lines(char lines[][256], int max)
{
	FILE *f = fopen(log_path, "r");
	int n = 0;
	if (!f)
		return -1;
	while (n < max && fgets(lines[n], 256, f)) {
		lines[n][strcspn(lines[n], "\n")] = '\0';
		n++;
	}
	fclose(f);
	return n;
}

TEST(log_lines_exactly_as_specified)
{
	snprintf(log_path, sizeof(log_path), "/tmp/uncore-sim-log-%d.jsonl", (int)getpid());
	unlink(log_path);
	/* e5-2620v3-2s: socket 1 is on bus 0x7f, as in the example. */
	struct uncore_sim *sim = sim_new("e5-2620v3-2s", "stream imc ev=0x00 inc=1\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	CHECK_EQ_INT(uncore_sim_set_log(sim, log_path), 0);
	WR(io, msr_reg(0, 0xe01), 0x400334);
	WR(io, pci_reg(0x7f, 20, 0, 0xd8), 0x400000);
	uncore_sim_advance(sim, 1000);
	CHECK_EQ_U64(RD(io, pci_reg(0x7f, 20, 0, 0xa0)), 933);
	WR_FAILS(io, msr_reg(0, 0xe01), 0x500000, UNCORE_EFAULT);
	RD_FAILS(io, pci_reg(0x7f, 18, 5, 0xa0), UNCORE_ENODEV);
	CHECK_EQ_INT(uncore_sim_set_log(sim, NULL), 0);
	WR(io, msr_reg(0, 0xe01), 0); /* not logged */
	char lines[8][256];
	CHECK_EQ_INT(read_lines(lines, 8), 5);
	CHECK_EQ_STR(lines[0], "{\"op\":\"wr\",\"socket\":0,\"space\":\"msr\",\"addr\":\"0xe01\","
			       "\"value\":\"0x400334\",\"result\":0}");
	CHECK_EQ_STR(lines[1],
		     "{\"op\":\"wr\",\"socket\":1,\"space\":\"pci\",\"bdf\":\"7f:14.0\","
		     "\"offset\":\"0xd8\",\"width\":4,\"value\":\"0x400000\",\"result\":0}");
	CHECK_EQ_STR(lines[2], "{\"op\":\"rd\",\"socket\":1,\"space\":\"pci\",\"bdf\":\"7f:14.0\","
			       "\"offset\":\"0xa0\",\"width\":4,\"value\":\"0x3a5\",\"result\":0}");
	CHECK_EQ_STR(lines[3],
		     "{\"op\":\"wr\",\"socket\":0,\"space\":\"msr\",\"addr\":\"0xe01\","
		     "\"value\":\"0x500000\",\"result\":-13,\"error\":\"UNCORE_EFAULT\"}");
	CHECK_EQ_STR(lines[4],
		     "{\"op\":\"rd\",\"socket\":1,\"space\":\"pci\",\"bdf\":\"7f:12.5\","
		     "\"offset\":\"0xa0\",\"width\":4,\"result\":-9,\"error\":\"UNCORE_ENODEV\"}");
	uncore_sim_close(sim);
	unlink(log_path);
}

static struct uncore_sim_fault any_fault(void)
{
	return (struct uncore_sim_fault){.space = -1,
					 .op = UNCORE_SIM_OP_ANY,
					 .socket = -1,
					 .bdf = -1,
					 .addr = -1,
					 .nth = 1,
					 .count = 0,
					 .error = EIO};
}

TEST(fault_nth_access_transient)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", NULL);
	struct uncore_regio *io = uncore_sim_regio(sim);
	struct uncore_sim_fault f = any_fault();
	f.space = UNCORE_SPACE_MSR;
	f.addr = 0xe08;
	f.op = UNCORE_SIM_OP_READ;
	f.nth = 3;
	f.count = 1;
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
	RD(io, msr_reg(0, 0xe08));
	RD(io, msr_reg(1, 0xe08));
	RD(io, msr_reg(0, 0xe09));    /* another register: not counted */
	WR(io, msr_reg(0, 0xe08), 5); /* a write: not counted */
	RD_FAILS(io, msr_reg(0, 0xe08), UNCORE_EIO);
	CHECK_CONTAINS(uncore_error_detail(), "injected fault");
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 5); /* transient */
	uncore_sim_close(sim);
}

TEST(fault_device_permanent_and_errnos)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", NULL);
	struct uncore_regio *io = uncore_sim_regio(sim);
	struct uncore_sim_fault f = any_fault();
	f.space = UNCORE_SPACE_PCI;
	f.bdf = UNCORE_BDF(0xff, 18, 1); /* HA 0 of socket 1, every register */
	f.error = EACCES;
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
	for (int i = 0; i < 3; i++) {
		RD_FAILS(io, pci_reg(0xff, 18, 1, 0xa0), UNCORE_EPERM);
		WR_FAILS(io, pci_reg(0xff, 18, 1, 0xd8), 0, UNCORE_EPERM);
	}
	RD(io, pci_reg(0x7f, 18, 1, 0xa0)); /* socket 0's HA is fine */
	f.bdf = UNCORE_BDF(0xff, 20, 0);
	f.error = ENODEV;
	f.op = UNCORE_SIM_OP_WRITE;
	f.nth = 2;
	f.count = 2;
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
	WR(io, pci_reg(0xff, 20, 0, 0xd8), 0);
	WR_FAILS(io, pci_reg(0xff, 20, 0, 0xd8), 0, UNCORE_ENODEV);
	WR_FAILS(io, pci_reg(0xff, 20, 0, 0xdc), 0, UNCORE_ENODEV);
	WR(io, pci_reg(0xff, 20, 0, 0xd8), 0);
	RD(io, pci_reg(0xff, 20, 0, 0xd8));
	CHECK_EQ_INT(uncore_sim_clear_faults(sim), 0);
	RD(io, pci_reg(0xff, 18, 1, 0xa0));
	f.error = E2BIG;
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), UNCORE_EINVAL);
	f.error = EIO;
	f.nth = 0;
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), UNCORE_EINVAL);
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(log_lines_exactly_as_specified);
	RUN(fault_nth_access_transient);
	RUN(fault_device_permanent_and_errnos);
	return harness_done();
}
