/* Opt-in hardware test (make check-hardware): the MSR backends on a real
 * Haswell-EP, as root.  Reads only: the global and UBox PMON registers of
 * every socket through /dev/cpu/N/msr, and, when msr-safe is loaded, the
 * same through its batch device in one call.  Elsewhere it fails saying
 * what it needs. */
#include "access/msr_dev.h"
#include "access/msr_safe.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "platform/cpu.h"
#include "topology/cpu_topology.h"

#include <unistd.h>

static struct uncore_cpu_topology topo;
static int map[UNCORE_MAX_SOCKETS];
static size_t nmap;

static int have_hswep(void)
{
	struct uncore_cpu_id id = {.family = 0};
	const struct uncore_platform *p = NULL;
	if (uncore_cpu_identify(&id) == 0)
		p = uncore_platform_for_cpu(&id);
	if (!p || p->id != UNCORE_PLATFORM_HSWEP) {
		HARNESS_FAIL_AT("this is not a Haswell-EP (family 6 model 0x3f): CPU family %u "
				"model 0x%x; run make check-hardware there",
				id.family, id.model);
		return 0;
	}
	if (geteuid() != 0) {
		HARNESS_FAIL_AT("run as root: /dev/cpu/N/msr needs CAP_SYS_RAWIO");
		return 0;
	}
	return 1;
}

static struct uncore_reg msr(unsigned socket, uint64_t addr)
{
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_MSR, .width = 8, .socket = (uint16_t)socket, .addr = addr};
}

TEST(global_and_ubox_registers_read_on_every_socket)
{
	if (!have_hswep())
		return;
	struct uncore_msr_options o = {.cpu_of_socket = map, .nsockets = nmap};
	struct uncore_regio *io;
	int rc = uncore_msr_dev_open(&o, &io);
	CHECK_EQ_INT(rc, 0);
	if (rc) {
		printf("  %s\n", uncore_error_detail());
		return;
	}
	for (unsigned i = 0; i < topo.nsockets; i++) {
		unsigned s = topo.socket[i].package_id;
		uint64_t ctl = 0, config = 0, fixed1 = 0, fixed2 = 0, cc6a = 0, cc6b = 0;
		struct uncore_reg g = msr(s, 0x700), c = msr(s, 0x702), f = msr(s, 0x704),
				  cc6 = msr(s, 0x3fd);
		CHECK_EQ_INT(uncore_regio_read(io, &g, &ctl), 0);
		CHECK_EQ_INT(uncore_regio_read(io, &c, &config), 0);
		/* Table 2-4: num_c 4:0 = number of CBo counter sets (reset 18). */
		CHECK((config & 0x1f) >= 1 && (config & 0x1f) <= 18);
		CHECK_EQ_INT(uncore_regio_read(io, &f, &fixed1), 0);
		CHECK_EQ_INT(uncore_regio_read(io, &f, &fixed2), 0);
		CHECK(fixed1 >> 48 == 0 && fixed2 >> 48 == 0); /* 48-bit counter */
		CHECK_EQ_INT(uncore_regio_read(io, &cc6, &cc6a), 0);
		CHECK_EQ_INT(uncore_regio_read(io, &cc6, &cc6b), 0);
		CHECK(cc6b >= cc6a); /* free-running, 64-bit */
		printf("  socket %u (CPU %d): GLOBAL_CTL 0x%" PRIx64 ", num_c %" PRIu64
		       ", UCLK fixed %" PRIu64 "\n",
		       s, map[s], ctl, config & 0x1f, fixed2);
	}
	uncore_regio_destroy(io);
}

TEST(msr_safe_batch_if_loaded)
{
	if (!have_hswep())
		return;
	if (access("/dev/cpu/msr_batch", F_OK) != 0) {
		printf("  msr-safe is not loaded: nothing to test here\n");
		return;
	}
	struct uncore_msr_safe_options o = {.msr = {.cpu_of_socket = map, .nsockets = nmap}};
	struct uncore_regio *io;
	int rc = uncore_msr_safe_open(&o, &io);
	CHECK_EQ_INT(rc, 0);
	if (rc) {
		printf("  %s\n", uncore_error_detail());
		return;
	}
	struct uncore_reg regs[5] = {msr(topo.socket[0].package_id, 0x704)};
	for (int i = 0; i < 4; i++)
		regs[1 + i] = msr(topo.socket[0].package_id, 0xe08u + (unsigned)i); /* C0_CTR0-3 */
	uint64_t v[5];
	uint64_t before = io->stats.syscalls;
	rc = uncore_regio_read_many(io, regs, v, 5);
	if (rc)
		printf("  %s (load the list of uncore-msr-allowlist)\n", uncore_error_detail());
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_U64(io->stats.syscalls - before, 1);
	uncore_regio_destroy(io);
}

int main(void)
{
	if (uncore_topology_read(NULL, NULL, 0, &topo) != 0) {
		printf("FAIL topology: %s\n", uncore_error_detail());
		return 1;
	}
	nmap = uncore_topology_cpu_map(&topo, map, UNCORE_MAX_SOCKETS);
	RUN(global_and_ubox_registers_read_on_every_socket);
	RUN(msr_safe_batch_if_loaded);
	return harness_done();
}
