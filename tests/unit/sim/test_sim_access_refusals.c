/* What the simulated machine refuses, as the hardware or the kernel would,
 * each with its reason and without storing a value: an MSR accessed with a
 * 4-byte width or past 32 bits of address (#GP), a PCI configuration
 * offset past 4 KiB, the first 64 bytes only for a process without
 * CAP_SYS_ADMIN (the simulated msr-safe user), the client models' read-only
 * host bridge and IMC counters.  Instance files: never created over
 * another, refused when no simulator initialised them; peeks read without
 * an access (and the server models have no MMIO).  Then how a machine is named: the model or
 * instance path a component is given, the platform uncore-stat derives
 * from it, and the refusal of an unknown user. */
#include "access/regio.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "support/shared_sim.h"
#include "support/tmpdir.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SENTINEL 0x5a5a5a5a5a5a5a5aull

static void refused_read(struct uncore_regio *io, struct uncore_reg r, int code, const char *why)
{
	uint64_t v = SENTINEL;
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), code);
	CHECK_CONTAINS(uncore_error_detail(), why);
	CHECK_EQ_U64(v, SENTINEL); /* a failed read stores nothing */
	uncore_error_clear();
}

static void refused_write(struct uncore_regio *io, struct uncore_reg r, int code, const char *why)
{
	CHECK_EQ_INT(uncore_regio_write(io, &r, 1), code);
	CHECK_CONTAINS(uncore_error_detail(), why);
	uncore_error_clear();
}

TEST(server_model_refusals)
{
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("e5-2699v3-2s", NULL, &sim) == 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	/* U_MSR_PMON_CTR0 of Haswell-EP's UBox (0x709, HSX Table 2-13). */
	struct uncore_reg msr = {UNCORE_SPACE_MSR, 8, 0, 0, 0x709};
	uint64_t v = SENTINEL;
	CHECK_EQ_INT(uncore_regio_read(io, &msr, &v), 0); /* the good one reads */
	msr.width = 4;
	refused_read(io, msr, UNCORE_EINVAL, "MSRs are 8 bytes");
	refused_write(io, msr, UNCORE_EINVAL, "MSRs are 8 bytes");
	msr.width = 8;
	msr.addr = 0x100000709ull;
	refused_read(io, msr, UNCORE_EFAULT, "does not exist (#GP)");
	refused_write(io, msr, UNCORE_EFAULT, "does not exist (#GP)");

	struct uncore_reg pci = {UNCORE_SPACE_PCI, 4, 0, UNCORE_BDF(0x7f, 20, 0), 0x1000};
	refused_read(io, pci, UNCORE_EINVAL, "beyond 4 KiB");
	/* As an msr-safe user: the first 64 bytes of config space only, and
	 * no writes (Linux's rule without CAP_SYS_ADMIN). */
	CHECK_EQ_INT(uncore_sim_set_user(sim, UNCORE_SIM_USER_MSR_SAFE), 0);
	pci.addr = 0xa0;
	refused_read(io, pci, UNCORE_EPERM, "first 64 bytes");
	pci.addr = 0x0;
	refused_write(io, pci, UNCORE_EPERM, "refuses writes");
	/* What an unprivileged process does see: the header, the vendor ID
	 * first (Intel's 0x8086) and the last dword of the 64 bytes. */
	uint64_t id = 0;
	pci.addr = 0x0;
	CHECK_EQ_INT(uncore_regio_read(io, &pci, &id), 0);
	CHECK_EQ_U64(id & 0xffff, 0x8086);
	pci.addr = 60;
	CHECK_EQ_INT(uncore_regio_read(io, &pci, &id), 0);
	CHECK_EQ_INT(uncore_sim_set_user(sim, UNCORE_SIM_USER_ROOT), 0);
	CHECK_EQ_INT(uncore_sim_set_user(sim, (enum uncore_sim_user)9), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "bad user 9");
	CHECK_EQ_INT(uncore_sim_set_user(NULL, UNCORE_SIM_USER_ROOT), UNCORE_EINVAL);
	uncore_error_clear();
	uncore_sim_destroy(sim);
}

TEST(client_model_refusals)
{
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("i7-6700k", NULL, &sim) == 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	struct uncore_reg msr = {UNCORE_SPACE_MSR, 4, 0, 0, 0x396};
	refused_read(io, msr, UNCORE_EINVAL, "MSRs are 8 bytes");
	msr.width = 8;
	msr.addr = 0x100000396ull;
	refused_write(io, msr, UNCORE_EFAULT, "does not exist (#GP)");
	/* The host bridge (00:00.0) has no register software writes here;
	 * the IMC's free-running counters are read-only (SKL 3.3). */
	struct uncore_reg pci = {UNCORE_SPACE_PCI, 4, 0, UNCORE_BDF(0, 0, 0), 0x48};
	refused_write(io, pci, UNCORE_EFAULT, "no writable register");
	struct uncore_reg mmio = {UNCORE_SPACE_MMIO, 4, 0, 0, 0xfed15050};
	refused_write(io, mmio, UNCORE_EFAULT, "read-only");
	uncore_sim_destroy(sim);
}

TEST(instance_files_and_peeks)
{
	const char *dir = test_mkdtemp("sim-instance");
	REQUIRE(dir);
	char path[600], fake[600], longpath[5000];
	snprintf(path, sizeof(path), "%s/machine", dir);
	snprintf(fake, sizeof(fake), "%s/not-a-machine", dir);
	struct uncore_sim *sim = NULL, *other = NULL;
	REQUIRE(uncore_sim_create("e5-2699v3-2s", path, &sim) == 0);
	/* An instance is never created over another one. */
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", path, &other), UNCORE_EBUSY);
	CHECK_CONTAINS(uncore_error_detail(), "destroy it first, or open it");
	CHECK(other == NULL);
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", "/nonexistent-dir/machine", &other),
		     UNCORE_ENODEV);
	CHECK(other == NULL);
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	CHECK_EQ_INT(uncore_sim_open(longpath, &other), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "bad simulator instance path");
	/* A file of an instance's size that no simulator initialised. */
	struct stat st;
	REQUIRE(stat(path, &st) == 0);
	int fd = open(fake, O_RDWR | O_CREAT | O_EXCL, 0600);
	REQUIRE(fd >= 0);
	CHECK_EQ_INT(ftruncate(fd, st.st_size), 0);
	close(fd);
	CHECK_EQ_INT(uncore_sim_open(fake, &other), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "is not an initialised simulator instance");
	CHECK(other == NULL);
	uncore_error_clear();

	/* Peeks: what a register holds, without an access. */
	uint64_t v = SENTINEL;
	struct uncore_reg id = {UNCORE_SPACE_PCI, 4, 0, UNCORE_BDF(0x7f, 20, 0), 0};
	CHECK_EQ_INT(uncore_sim_peek(sim, &id, &v), 0);
	CHECK_EQ_U64(v & 0xffff, 0x8086);
	struct uncore_reg mmio = {UNCORE_SPACE_MMIO, 4, 0, 0, 0xfed15050};
	v = SENTINEL;
	CHECK_EQ_INT(uncore_sim_peek(sim, &mmio, &v), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "no MMIO space");
	CHECK_EQ_U64(v, SENTINEL);
	int frozen = -1;
	CHECK_EQ_INT(uncore_sim_global_frozen(sim, 2, &frozen), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "socket 2 not present");
	CHECK_EQ_INT(frozen, -1);
	uncore_error_clear();
	CHECK_EQ_INT(uncore_sim_destroy(sim), 0);
	CHECK(access(path, F_OK) != 0); /* destroy removes the file */

	/* A client model: its MSRs, host bridge and IMC counters peek. */
	REQUIRE(uncore_sim_create("i7-6700k", NULL, &sim) == 0);
	struct uncore_reg bridge = {UNCORE_SPACE_PCI, 4, 0, UNCORE_BDF(0, 0, 0), 0};
	CHECK_EQ_INT(uncore_sim_peek(sim, &bridge, &v), 0);
	CHECK_EQ_U64(v & 0xffff, 0x8086);
	struct uncore_reg msr = {UNCORE_SPACE_MSR, 8, 0, 0, 0x396}; /* MSR_UNC_CBO_CONFIG */
	uint64_t read_v = 0;
	CHECK_EQ_INT(uncore_sim_peek(sim, &msr, &v), 0);
	CHECK_EQ_INT(uncore_regio_read(uncore_sim_regio(sim), &msr, &read_v), 0);
	CHECK_EQ_U64(v, read_v);
	uncore_sim_destroy(sim);
	test_rmtree(dir);
}

TEST(the_platform_of_a_machine)
{
	/* Independent of the model table: what each machine is (Intel ARK). */
	static const struct {
		const char *model, *platform;
	} want[] = {
	    {"e5-2699v3-2s", "hswep"}, {"e7-8890v3-4s", "hswep"}, {"i7-6700k", "skl"},
	    {"x5570-2s", "nhm"},       {"x7460-4s", "x7400"},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *p = uncore_sim_platform_of(want[i].model);
		CHECK(p != NULL);
		CHECK_EQ_STR(p ? p : "(null)", want[i].platform);
	}
	/* No machine named: the default, the Haswell-EP demo machine. */
	CHECK_EQ_STR(uncore_sim_platform_of(NULL), "hswep");
	CHECK_EQ_STR(uncore_sim_platform_of(""), "hswep");
	/* A shared instance: its model's platform, read from the instance. */
	char path[600];
	struct uncore_sim *sim = NULL;
	const char *dir = test_shared_sim("sim-platform", "x5570-2s", path, sizeof(path), &sim);
	REQUIRE(dir);
	const char *p = uncore_sim_platform_of(path);
	CHECK_EQ_STR(p ? p : "(null)", "nhm");
	uncore_sim_destroy(sim);
	/* Neither a model nor an instance: none, and no error left behind. */
	CHECK(uncore_sim_platform_of(path) == NULL);
	CHECK(uncore_sim_platform_of("no-such-model") == NULL);
	CHECK_EQ_STR(uncore_error_detail(), "");
	test_rmtree(dir);
}

TEST(opening_a_machine_by_its_settings)
{
	struct uncore_regio *io = NULL;
	struct uncore_sim_options o = {"e5-2699v3-2s", "none", "nobody", NULL};
	CHECK_EQ_INT(uncore_sim_regio_open(&o, &io), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), UNCORE_SIM_ENV_USER "=nobody: use root or msr-safe");
	CHECK(io == NULL);
	uncore_error_clear();
	/* msr-safe: the process is an unprivileged user of the machine. */
	o.user = "msr-safe";
	REQUIRE(uncore_sim_regio_open(&o, &io) == 0);
	struct uncore_reg pci = {UNCORE_SPACE_PCI, 4, 0, UNCORE_BDF(0x7f, 20, 0), 0xa0};
	refused_read(io, pci, UNCORE_EPERM, "simulated msr-safe user");
	uncore_regio_destroy(io);
	io = NULL;
	/* A log that cannot be opened: refused, nothing opened. */
	o.user = "root";
	o.log = "/nonexistent-dir/sim.log";
	CHECK(uncore_sim_regio_open(&o, &io) < 0);
	CHECK_CONTAINS(uncore_error_detail(), "cannot open log");
	CHECK(io == NULL);
	uncore_error_clear();
	/* An unknown model: refused. */
	o.machine = "no-such-model";
	o.log = NULL;
	CHECK(uncore_sim_regio_open(&o, &io) < 0);
	CHECK(io == NULL);
	uncore_error_clear();
}

int main(void)
{
	RUN(server_model_refusals);
	RUN(client_model_refusals);
	RUN(instance_files_and_peeks);
	RUN(the_platform_of_a_machine);
	RUN(opening_a_machine_by_its_settings);
	return harness_done();
}
