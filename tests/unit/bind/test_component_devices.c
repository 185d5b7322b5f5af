/* The component's real-hardware wiring (bind/component.c: open_direct,
 * open_mmio_window, the probe's device checks) and the real device backends
 * under it (msr, msr-safe and its batch ioctl, PCI sysfs, ECAM found through
 * the ACPI MCFG table, /dev/mem), run on fake device files under the test
 * root (PAPI_INTEL_UNCORE_TEST_ROOT, settings.h): /dev/cpu/N/msr as sparse
 * regular files (offset = MSR index), PCI config files and an ECAM window
 * copied from the simulator's Haswell-EP, an MCFG table, a /dev/mem file
 * whose offsets stand for physical addresses.  The files do not count: each
 * test writes a counter's value into its file and checks the count the
 * component reads, so the addresses the real path uses are checked too. */
#define _GNU_SOURCE
#include "access/msr_safe.h"
#include "bind/component.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "support/tmpdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SKL_BAR   UINT64_C(0xfed10000)
#define ECAM_BASE UINT64_C(0x80000000)

static const struct uncore_cpu_id NHM = {"GenuineIntel", 6, 0x1a, 5, 8192, 0, ""};
static const struct uncore_cpu_id SKL = {"GenuineIntel", 6, 0x5e, 3, 8192, 0, ""};
static const struct uncore_cpu_id X7400 = {"GenuineIntel", 6, 0x1d, 1, 8192, 0, ""};
static const struct uncore_cpu_id HSX = {"GenuineIntel", 6, 0x3f, 2, 8192, 0, ""};

/* the fake devices. */

static int put_sized(const char *root, const char *rel, off_t size)
{
	char path[1200];
	if (test_put(root, rel, "") < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return truncate(path, size);
}

static int pwrite_at(const char *root, const char *rel, const void *v, size_t n, uint64_t off)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t k = pwrite(fd, v, n, (off_t)off);
	close(fd);
	return k == (ssize_t)n ? 0 : -1;
}

static uint64_t pread_u64(const char *root, const char *rel, uint64_t off)
{
	char path[1200];
	uint64_t v = 0;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	int fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (pread(fd, &v, 8, (off_t)off) != 8)
			v = ~0ull;
		close(fd);
	}
	return v;
}

/* CPUs 0..n-1, `per` a package, each package's first CPU with an msr file
 * (`leaf`: "msr" or "msr_safe"; NULL: none). */
static int fake_cpus(const char *root, unsigned n, unsigned per, const char *leaf)
{
	char rel[200], text[32];
	snprintf(text, sizeof(text), "0-%u\n", n - 1);
	if (test_put(root, "sys/devices/system/cpu/online", text) < 0)
		return -1;
	for (unsigned cpu = 0; cpu < n; cpu++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%u/topology/physical_package_id", cpu);
		snprintf(text, sizeof(text), "%u\n", cpu / per);
		if (test_put(root, rel, text) < 0)
			return -1;
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/core_id", cpu);
		snprintf(text, sizeof(text), "%u\n", cpu % per);
		if (test_put(root, rel, text) < 0)
			return -1;
		if (leaf && cpu % per == 0) {
			snprintf(rel, sizeof(rel), "dev/cpu/%u/%s", cpu, leaf);
			/* up to the Xeon 7400's EMON MSRs (107CCh...) */
			if (put_sized(root, rel, 0x110000) < 0)
				return -1;
		}
	}
	/* A kernel without perf_event uncore PMUs; everybody may count. */
	if (test_put(root, "sys/bus/event_source/devices/software/type", "1\n") < 0 ||
	    test_put(root, "proc/sys/kernel/perf_event_paranoid", "0\n") < 0)
		return -1;
	return 0;
}

struct fixture {
	const char *root;
	char locks[600];
	struct uncore_settings s;
};

static int fixture_open(struct fixture *f, const char *tag)
{
	memset(f, 0, sizeof(*f));
	f->root = test_mkdtemp(tag);
	if (!f->root)
		return -1;
	snprintf(f->locks, sizeof(f->locks), "%s/locks", f->root);
	mkdir(f->locks, 0700);
	snprintf(f->s.backend, sizeof(f->s.backend), "direct");
	snprintf(f->s.lock_dir, sizeof(f->s.lock_dir), "%s", f->locks);
	snprintf(f->s.test_root, sizeof(f->s.test_root), "%s", f->root);
	return 0;
}

/* The view of a set made by start_one (a set does not own its backend). */
static struct uncore_backend *last_view;

/* A set on the component's hub counting `name`, started; end it with
 * end_one. */
static int start_one(struct uncore_component *c, const char *name, struct uncore_set **set)
{
	struct uncore_backend *view = NULL;
	int rc = uncore_share_view(c->share, &view);
	if (rc < 0)
		return rc;
	last_view = view;
	rc = uncore_set_create(view, set);
	if (rc < 0)
		return rc;
	rc = uncore_set_assign(*set, &name, 1);
	if (rc == 0)
		rc = uncore_set_start(*set);
	if (rc < 0)
		fprintf(stderr, "  start %s: %s: %s\n", name, uncore_strerror(rc),
			uncore_error_detail());
	return rc;
}

static void end_one(struct uncore_set *set)
{
	uncore_set_destroy(set);
	if (last_view)
		last_view->ops->destroy(last_view);
	last_view = NULL;
}

/* MSR platforms: msr and msr-safe. */

/* Nehalem (SDM 18.8.2): PERFEVTSEL0-7 at 3C0h, PMC0-7 at 3B0h. */
static int nhm_counter_in_use(const char *root, const char *leaf)
{
	char rel[64];
	snprintf(rel, sizeof(rel), "dev/cpu/0/%s", leaf);
	for (int i = 0; i < 8; i++)
		if (pread_u64(root, rel, 0x3c0 + (unsigned)i) & (1u << 22)) /* EN */
			return i;
	return -1;
}

TEST(nhm_counts_through_dev_cpu_msr)
{
	struct fixture f;
	REQUIRE(fixture_open(&f, "comp-nhm") == 0);
	REQUIRE(fake_cpus(f.root, 8, 4, "msr") == 0);
	struct uncore_component *c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&f.s, &NHM, &c), 0);
	if (!c) {
		fprintf(stderr, "  %s\n", uncore_error_detail());
		test_rmtree(f.root);
		return;
	}
	CHECK_EQ_INT(c->kind, UNCORE_BACKEND_DIRECT);
	CHECK_EQ_INT(c->be->machine.nsockets, 2);
	CHECK(uncore_component_native_count(c) > 0);
	struct uncore_set *set = NULL;
	CHECK_EQ_INT(start_one(c, "nhm_unc_guide::UNC_GQ_ALLOC:RT:socket=1", &set), 0);
	/* Socket 1's CPU is 4: its file holds the programming, CPU 0's none. */
	int k = nhm_counter_in_use(f.root, "msr");
	CHECK_EQ_INT(k, -1);
	char rel[64];
	snprintf(rel, sizeof(rel), "dev/cpu/4/msr");
	int k1 = -1;
	for (int i = 0; i < 8; i++)
		if (pread_u64(f.root, rel, 0x3c0 + (unsigned)i) & (1u << 22))
			k1 = i;
	CHECK(k1 >= 0);
	if (set && k1 >= 0) {
		uint64_t before = pread_u64(f.root, rel, 0x3b0 + (unsigned)k1), v = 0;
		uint64_t now = before + 123456789;
		REQUIRE(pwrite_at(f.root, rel, &now, 8, 0x3b0 + (unsigned)k1) == 0);
		CHECK_EQ_INT(uncore_set_read(set, &v), 0);
		CHECK_EQ_U64(v, 123456789);
	}
	end_one(set);
	uncore_component_close(c);
	test_rmtree(f.root);
}

/* msr-safe's batch ioctl, modelled on the fake files: the test program's
 * ioctl() stands in for libc's (the library calls ioctl(2) on the batch
 * device, msr_safe.c real_ioctl); any other request goes to the kernel. */
static const char *batch_root;
static int batch_calls;

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	char link[64], target[1200], want[1200];
	ssize_t n = -1;
	if (batch_root && req == UNCORE_X86_IOC_MSR_BATCH) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
	}
	if (n > 0) {
		target[n] = '\0';
		snprintf(want, sizeof(want), "%s/dev/cpu/msr_batch", batch_root);
		if (strcmp(target, want) == 0) {
			struct uncore_msr_batch_array *a = arg;
			batch_calls++;
			for (uint32_t i = 0; i < a->numops; i++) {
				struct uncore_msr_batch_op *op = &a->ops[i];
				char rel[64];
				snprintf(rel, sizeof(rel), "dev/cpu/%u/msr_safe", op->cpu);
				if (op->isrdmsr)
					op->msrdata = pread_u64(batch_root, rel, op->msr);
				else if (pwrite_at(batch_root, rel, &op->msrdata, 8, op->msr) < 0)
					op->err = -EIO;
			}
			return 0;
		}
	}
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

TEST(x7400_counts_through_msr_safe_batches)
{
	struct fixture f;
	REQUIRE(fixture_open(&f, "comp-x7400") == 0);
	REQUIRE(fake_cpus(f.root, 8, 2, "msr_safe") == 0); /* four packages */
	REQUIRE(put_sized(f.root, "dev/cpu/msr_batch", 0) == 0);
	batch_root = f.root;
	batch_calls = 0;
	struct uncore_component *c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&f.s, &X7400, &c), 0);
	if (!c) {
		fprintf(stderr, "  %s\n", uncore_error_detail());
		batch_root = NULL;
		test_rmtree(f.root);
		return;
	}
	CHECK_EQ_INT(c->be->machine.nsockets, 4);
	CHECK_EQ_STR(c->be->machine.plat->name, "x7400");
	struct uncore_set *set = NULL;
	CHECK_EQ_INT(start_one(c, "x7400_unc_gbsq::GBSQ_TRANSACTIONS:socket=2", &set), 0);
	uint64_t v = ~0ull;
	CHECK_EQ_INT(uncore_set_read(set, &v), 0);
	CHECK_EQ_U64(v, 0);
	CHECK(batch_calls > 0); /* the read's freeze, reads and thaw: batches */
	end_one(set);
	uncore_component_close(c);
	batch_root = NULL;
	test_rmtree(f.root);
}

/* Socket 1's CPU has no msr device: the open fails naming the file and
 * both methods' reasons, and nothing is left open. */
TEST(no_msr_device_says_both_reasons)
{
	struct fixture f;
	REQUIRE(fixture_open(&f, "comp-nomsr") == 0);
	REQUIRE(fake_cpus(f.root, 8, 4, "msr") == 0);
	char path[1200];
	snprintf(path, sizeof(path), "%s/dev/cpu/4/msr", f.root);
	REQUIRE(unlink(path) == 0);
	struct uncore_component *c = NULL;
	int rc = uncore_component_probe(&f.s, &NHM, &c);
	CHECK_EQ_INT(rc, UNCORE_ENODEV);
	CHECK(c == NULL);
	CHECK_CONTAINS(uncore_error_detail(), "direct backend: no MSR access. msr: ");
	CHECK_CONTAINS(uncore_error_detail(), "msr-safe: ");
	CHECK_CONTAINS(uncore_error_detail(), path); /* the fake path the real code opened */
	test_rmtree(f.root);
}

/* The probe's device check: with the msr file, auto picks direct (no
 * kernel uncore PMU in the fake tree); without it, nothing is usable. */
TEST(auto_chooses_direct_where_msr_is)
{
	struct fixture f;
	REQUIRE(fixture_open(&f, "comp-auto") == 0);
	REQUIRE(fake_cpus(f.root, 4, 4, "msr") == 0);
	f.s.backend[0] = '\0';
	struct uncore_component *c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&f.s, &NHM, &c), 0);
	if (c)
		CHECK_EQ_INT(c->kind, UNCORE_BACKEND_DIRECT);
	uncore_component_close(c);
	char path[1200];
	snprintf(path, sizeof(path), "%s/dev/cpu/0/msr", f.root);
	unlink(path);
	c = NULL;
	CHECK(uncore_component_probe(&f.s, &NHM, &c) < 0);
	CHECK(c == NULL);
	CHECK_CONTAINS(uncore_error_detail(), "/dev/cpu/0/msr");
	test_rmtree(f.root);
}

/* Skylake client: MSRs, MCHBAR from PCI 0:0.0, IMC through /dev/mem. */

static int fake_skl_pci(const char *root, int with_mem)
{
	unsigned char cfg[256];
	memset(cfg, 0, sizeof(cfg));
	uint32_t id = 0x191f8086u, bar_lo = (uint32_t)SKL_BAR | 1u, bar_hi = 0;
	memcpy(cfg, &id, 4);
	memcpy(cfg + 0x48, &bar_lo, 4);
	memcpy(cfg + 0x4c, &bar_hi, 4);
	if (put_sized(root, "sys/bus/pci/devices/0000:00:00.0/config", 256) < 0 ||
	    pwrite_at(root, "sys/bus/pci/devices/0000:00:00.0/config", cfg, sizeof(cfg), 0) < 0)
		return -1;
	if (with_mem && put_sized(root, "dev/mem", (off_t)(SKL_BAR + 0x6000)) < 0)
		return -1;
	return 0;
}

TEST(skl_imc_counts_through_dev_mem)
{
	struct fixture f;
	REQUIRE(fixture_open(&f, "comp-skl") == 0);
	REQUIRE(fake_cpus(f.root, 4, 4, "msr") == 0);
	REQUIRE(fake_skl_pci(f.root, 1) == 0);
	/* DRAM_DATA_READS at MCHBAR + 5050h (seed 001, Table 3-3), 32 bits. */
	uint32_t r0 = 1000;
	REQUIRE(pwrite_at(f.root, "dev/mem", &r0, 4, SKL_BAR + 0x5050) == 0);
	struct uncore_component *c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&f.s, &SKL, &c), 0);
	if (!c) {
		fprintf(stderr, "  %s\n", uncore_error_detail());
		test_rmtree(f.root);
		return;
	}
	CHECK_CONTAINS(c->origin, "PCI: pci-sysfs");
	struct uncore_set *set = NULL;
	CHECK_EQ_INT(start_one(c, "skl_unc_imc::DRAM_DATA_READS", &set), 0);
	uint32_t r1 = 1000 + 4321;
	REQUIRE(pwrite_at(f.root, "dev/mem", &r1, 4, SKL_BAR + 0x5050) == 0);
	uint64_t v = 0;
	CHECK_EQ_INT(uncore_set_read(set, &v), 0);
	CHECK_EQ_U64(v, 4321);
	end_one(set);
	uncore_component_close(c);
	test_rmtree(f.root);
}

/* Without /dev/mem (or without PCI), CBo, ARB and UCLK still count and the
 * IMC is reported absent with the reason. */
TEST(skl_without_imc_says_why)
{
	static const struct {
		int pci, mem;
		const char *method, *why;
	} rows[] = {{1, 0, "", "/dev/mem does not exist (kernel without /dev/mem?)"},
		    {0, 0, "", "IMC counters unavailable: PCI device 00:00.0 is not present"},
		    {1, 1, "nonsense", "IMC counters unavailable: no PCI access to read MCHBAR"}};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fixture f;
		harness_row = rows[i].why;
		REQUIRE(fixture_open(&f, "comp-skl-noimc") == 0);
		REQUIRE(fake_cpus(f.root, 4, 4, "msr") == 0);
		if (rows[i].pci)
			REQUIRE(fake_skl_pci(f.root, rows[i].mem) == 0);
		snprintf(f.s.pci, sizeof(f.s.pci), "%s", rows[i].method);
		struct uncore_component *c = NULL;
		CHECK_EQ_INT(uncore_component_probe(&f.s, &SKL, &c), 0);
		if (c) {
			struct uncore_set *set = NULL;
			CHECK(start_one(c, "skl_unc_imc::DRAM_DATA_READS", &set) < 0);
			CHECK_CONTAINS(uncore_error_detail(), rows[i].why);
			end_one(set);
			set = NULL;
			CHECK_EQ_INT(start_one(c, "skl_unc_clock::UNC_CLOCK", &set), 0);
			end_one(set);
		}
		uncore_component_close(c);
		test_rmtree(f.root);
	}
	harness_row = NULL;
}

/* Haswell-EP: PCI config files and ECAM, copied from the simulator. */

/* Every PCI function the simulated two-socket E5-2699 v3 has, its whole
 * config space, into sysfs files and into an ECAM window at ECAM_BASE of
 * the /dev/mem file, with an MCFG table for segment 0, buses 0-255. */
static int fake_hsx_pci(const char *root)
{
	struct uncore_sim *sim = NULL;
	if (uncore_sim_create("e5-2699v3-2s", NULL, &sim) < 0)
		return -1;
	struct uncore_regio *io = uncore_sim_regio(sim);
	int rc = put_sized(root, "dev/mem", (off_t)(ECAM_BASE + (UINT64_C(256) << 20)));
	unsigned char cfg[4096];
	for (unsigned bus = 0; rc == 0 && bus < 256; bus++)
		for (unsigned dev = 0; rc == 0 && dev < 32; dev++)
			for (unsigned fn = 0; rc == 0 && fn < 8; fn++) {
				struct uncore_reg r = {.space = UNCORE_SPACE_PCI,
						       .width = 4,
						       .bdf = UNCORE_BDF(bus, dev, fn),
						       .addr = 0};
				uint64_t v;
				if (uncore_regio_read(io, &r, &v) < 0 || (v & 0xffff) != 0x8086)
					continue;
				for (unsigned off = 0; off < sizeof(cfg); off += 4) {
					r.addr = off;
					uint32_t d = 0;
					if (uncore_regio_read(io, &r, &v) == 0)
						d = (uint32_t)v;
					memcpy(cfg + off, &d, 4);
				}
				char rel[200];
				snprintf(rel, sizeof(rel),
					 "sys/bus/pci/devices/0000:%02x:%02x.%x/config", bus, dev,
					 fn);
				rc = put_sized(root, rel, 4096);
				if (rc == 0)
					rc = pwrite_at(root, rel, cfg, sizeof(cfg), 0);
				if (rc == 0)
					rc = pwrite_at(root, "dev/mem", cfg, sizeof(cfg),
						       ECAM_BASE + ((uint64_t)bus << 20 |
								    dev << 15 | fn << 12));
			}
	uncore_error_clear();
	uncore_sim_destroy(sim);
	/* MCFG (PCI Firmware 4.1.2): 36-byte header, 8 reserved, then one
	 * entry: base, segment 0, buses 0-255. */
	unsigned char mcfg[60];
	memset(mcfg, 0, sizeof(mcfg));
	memcpy(mcfg, "MCFG", 4);
	uint32_t len = sizeof(mcfg);
	memcpy(mcfg + 4, &len, 4);
	uint64_t base = ECAM_BASE;
	memcpy(mcfg + 44, &base, 8);
	mcfg[55] = 0xff;
	if (rc == 0)
		rc = put_sized(root, "sys/firmware/acpi/tables/MCFG", 0);
	if (rc == 0)
		rc = pwrite_at(root, "sys/firmware/acpi/tables/MCFG", mcfg, sizeof(mcfg), 0);
	return rc;
}

TEST(hsx_binds_through_sysfs_and_ecam)
{
	struct fixture f;
	REQUIRE(fixture_open(&f, "comp-hsx") == 0);
	REQUIRE(fake_cpus(f.root, 4, 2, "msr") == 0);
	REQUIRE(fake_hsx_pci(f.root) == 0);
	static const char *const methods[] = {"", "ecam"};
	for (size_t i = 0; i < 2; i++) {
		harness_row = methods[i];
		snprintf(f.s.pci, sizeof(f.s.pci), "%s", methods[i]);
		struct uncore_component *c = NULL;
		CHECK_EQ_INT(uncore_component_probe(&f.s, &HSX, &c), 0);
		if (!c) {
			fprintf(stderr, "  %s\n", uncore_error_detail());
			continue;
		}
		CHECK_EQ_INT(c->be->machine.nsockets, 2);
		CHECK_CONTAINS(c->origin, i ? "PCI: pci-ecam" : "PCI: pci-sysfs");
		struct uncore_set *set = NULL;
		CHECK_EQ_INT(start_one(c, "hswep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=1", &set), 0);
		/* iMC 0 channel 0 is device 20 function 0 of the socket's bus;
		 * its counters at A0h + 8 * k, controls at D8h + 4 * k (HSX
		 * 2.5). */
		unsigned bus = c->be->machine.pci_bus[1];
		char rel[200];
		snprintf(rel, sizeof(rel), "sys/bus/pci/devices/0000:%02x:14.0/config", bus);
		uint64_t ecam = ECAM_BASE + ((uint64_t)bus << 20 | 20u << 15);
		int k = -1;
		for (int j = 0; j < 4; j++)
			if ((pread_u64(f.root, i ? "dev/mem" : rel,
				       (i ? ecam : 0) + 0xd8 + 4 * (unsigned)j) &
			     0xffffffffu) == 0x400304u) /* EN | umask 03h | event 04h */
				k = j;
		CHECK(k >= 0);
		uint64_t n = 987654;
		if (k >= 0) {
			REQUIRE(pwrite_at(f.root, rel, &n, 8, 0xa0 + 8 * (unsigned)k) == 0);
			REQUIRE(pwrite_at(f.root, "dev/mem", &n, 8,
					  ecam + 0xa0 + 8 * (unsigned)k) == 0);
		}
		uint64_t v = ~0ull;
		CHECK_EQ_INT(uncore_set_read(set, &v), 0);
		CHECK_EQ_U64(v, n);
		n = 0;
		if (k >= 0) {
			REQUIRE(pwrite_at(f.root, rel, &n, 8, 0xa0 + 8 * (unsigned)k) == 0);
			REQUIRE(pwrite_at(f.root, "dev/mem", &n, 8,
					  ecam + 0xa0 + 8 * (unsigned)k) == 0);
		}
		end_one(set);
		uncore_component_close(c);
	}
	/* A locked-down kernel: ECAM refused, sysfs used, and the reason said. */
	REQUIRE(test_put(f.root, "sys/kernel/security/lockdown",
			 "none [integrity] confidentiality\n") == 0);
	struct uncore_component *c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&f.s, &HSX, &c), 0);
	if (c)
		CHECK_CONTAINS(c->origin, "locked down");
	uncore_component_close(c);
	harness_row = NULL;
	test_rmtree(f.root);
}

int main(void)
{
	RUN(nhm_counts_through_dev_cpu_msr);
	RUN(x7400_counts_through_msr_safe_batches);
	RUN(no_msr_device_says_both_reasons);
	RUN(auto_chooses_direct_where_msr_is);
	RUN(skl_imc_counts_through_dev_mem);
	RUN(skl_without_imc_says_why);
	RUN(hsx_binds_through_sysfs_and_ecam);
	return harness_done();
}
