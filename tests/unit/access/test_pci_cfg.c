/* PCI configuration space through libpci and through sysfs: the real
 * devices of this machine read the same both ways and agree with the
 * kernel's vendor/device files; absent devices, unprivileged readers and
 * offsets past the end fail with the fix named; writes and libpci's sysfs
 * path parameter are exercised on a fake tree only (never on real devices). */
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#include "access/pci_cfg.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "support/tmpdir.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const enum uncore_pci_method methods[] = {UNCORE_PCI_LIBPCI, UNCORE_PCI_SYSFS};
static const char *const method_names[] = {"pci-libpci", "pci-sysfs"};

static unsigned long read_syscalls(void);

static struct uncore_reg pci(uint32_t bdf, uint64_t off, unsigned width)
{
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_PCI, .width = (uint8_t)width, .bdf = bdf, .addr = off};
}

static struct uncore_regio *open_method(enum uncore_pci_method m, const char *root)
{
	struct uncore_pci_options o = {.method = m, .sysfs_root = root};
	struct uncore_regio *io = NULL;
	int rc = uncore_pci_cfg_open(&o, &io);
	if (rc) {
		HARNESS_FAIL_AT("open method %d: %s: %s", (int)m, uncore_error_name(rc),
				uncore_error_detail());
		return NULL;
	}
	return io;
}

static unsigned long sysfs_hex(const char *dev, const char *file)
{
	char path[512], buf[32] = "";
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, file);
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return strtoul(buf, NULL, 16);
}

/* The real devices: (bdf, "0000:bb:dd.f") of up to 32 devices on domain 0. */
static size_t real_devices(uint32_t *bdf, char names[][16], size_t max)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	size_t n = 0;
	while (d && (e = readdir(d)) && n < max) {
		unsigned dom, bus, dev, fn;
		if (sscanf(e->d_name, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4 || dom != 0)
			continue;
		bdf[n] = UNCORE_BDF(bus, dev, fn);
		snprintf(names[n], 16, "%.15s", e->d_name);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

TEST(real_devices_read_the_same_both_ways)
{
	uint32_t bdf[32];
	char names[32][16];
	size_t n = real_devices(bdf, names, 32);
	CHECK(n > 0);
	uint64_t first_id = 0;
	for (size_t m = 0; m < 2; m++) {
		struct uncore_regio *io = open_method(methods[m], NULL);
		if (!io)
			continue;
		CHECK_EQ_STR(io->ops->name, method_names[m]);
		for (size_t i = 0; i < n; i++) {
			harness_row = names[i];
			uint64_t id = 0, lo = 0, hi = 0, both = 0;
			struct uncore_reg r0 = pci(bdf[i], 0, 4);
			CHECK_EQ_INT(uncore_regio_read(io, &r0, &id), 0);
			CHECK_EQ_U64(id & 0xffff, sysfs_hex(names[i], "vendor"));
			CHECK_EQ_U64(id >> 16, sysfs_hex(names[i], "device"));
			/* A dword pair in one call equals its two dwords. */
			struct uncore_reg r8 = pci(bdf[i], 8, 4), rc = pci(bdf[i], 0xc, 4),
					  pair = pci(bdf[i], 8, 8);
			CHECK_EQ_INT(uncore_regio_read(io, &r8, &lo), 0);
			CHECK_EQ_INT(uncore_regio_read(io, &rc, &hi), 0);
			CHECK_EQ_INT(uncore_regio_read(io, &pair, &both), 0);
			CHECK_EQ_U64(both, lo | hi << 32);
			CHECK_EQ_U64(lo >> 8, sysfs_hex(names[i], "class"));
			if (i == 0)
				first_id = id;
		}
		harness_row = NULL;
		if (m == 0)
			printf("  %zu devices read through %s, e.g. %s dword 0 = 0x%08" PRIx64 "\n",
			       n, io->ops->name, names[0], first_id);
		uncore_regio_destroy(io);
	}
}

TEST(absent_device_is_enodev)
{
	for (size_t m = 0; m < 2; m++) {
		struct uncore_regio *io = open_method(methods[m], NULL);
		if (!io)
			continue;
		uint64_t v;
		struct uncore_reg r = pci(UNCORE_BDF(0xfe, 31, 7), 0, 4);
		CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_ENODEV);
		CHECK_CONTAINS(uncore_error_detail(), "fe:1f.7 is not present");
		CHECK_CONTAINS(uncore_error_detail(), "/sys/bus/pci/devices/0000:fe:1f.7/config");
		CHECK_EQ_INT(uncore_regio_write(io, &r, 0), UNCORE_ENODEV);
		uncore_regio_destroy(io);
	}
}

TEST(bad_registers_refused)
{
	uint32_t bdf[1];
	char names[1][16];
	CHECK_EQ_INT(real_devices(bdf, names, 1), 1);
	for (size_t m = 0; m < 2; m++) {
		struct uncore_regio *io = open_method(methods[m], NULL);
		if (!io)
			continue;
		uint64_t v;
		struct uncore_reg bad[] = {pci(bdf[0], 2, 4), pci(bdf[0], 0, 2),
					   pci(bdf[0], 0xffc, 8), pci(bdf[0], 0x1000, 4)};
		for (size_t i = 0; i < 4; i++)
			CHECK_EQ_INT(uncore_regio_read(io, &bad[i], &v), UNCORE_EINVAL);
		struct uncore_reg msr = {.space = UNCORE_SPACE_MSR, .width = 8, .addr = 0x700};
		CHECK_EQ_INT(uncore_regio_read(io, &msr, &v), UNCORE_EINVAL);
		/* Past a conventional device's 256 bytes: ERANGE (a PCIe one has 4096). */
		char path[512];
		struct stat st;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", names[0]);
		CHECK_EQ_INT(stat(path, &st), 0);
		struct uncore_reg far = pci(bdf[0], 0xffc, 4);
		int rc = uncore_regio_read(io, &far, &v);
		if (st.st_size < 4096) {
			CHECK_EQ_INT(rc, UNCORE_ERANGE);
			CHECK_CONTAINS(uncore_error_detail(), "beyond");
		} else {
			CHECK_EQ_INT(rc, 0);
		}
		uncore_regio_destroy(io);
	}
}

/* Unprivileged processes see 64 bytes of config space: the header reads,
 * a PMON-range offset fails with the reason. */
TEST(unprivileged_reader_gets_eperm_past_64_bytes)
{
	uint32_t bdf[1];
	char names[1][16];
	CHECK_EQ_INT(real_devices(bdf, names, 1), 1);
	for (size_t m = 0; m < 2; m++) {
		pid_t pid = fork();
		if (pid == 0) {
			if (geteuid() == 0 && setuid(65534) != 0)
				_exit(10);
			struct uncore_pci_options o = {.method = methods[m]};
			struct uncore_regio *io;
			if (uncore_pci_cfg_open(&o, &io))
				_exit(11);
			uint64_t v;
			struct uncore_reg hdr = pci(bdf[0], 0, 4), pmon = pci(bdf[0], 0x40, 4);
			if (uncore_regio_read(io, &hdr, &v))
				_exit(12);
			if (uncore_regio_read(io, &pmon, &v) != UNCORE_EPERM)
				_exit(13);
			if (!strstr(uncore_error_detail(), "first 64 bytes"))
				_exit(14);
			if (uncore_regio_write(io, &hdr, v) != UNCORE_EPERM)
				_exit(15);
			if (!strstr(uncore_error_detail(), "needs root"))
				_exit(16);
			if (!strstr(uncore_error_detail(), "locked-down kernel (Secure Boot"))
				_exit(17);
			uncore_regio_destroy(io);
			_exit(0);
		}
		int st = 0;
		waitpid(pid, &st, 0);
		harness_row = method_names[m];
		CHECK(WIFEXITED(st));
		CHECK_EQ_INT(WEXITSTATUS(st), 0);
	}
	harness_row = NULL;
}

/* AUTO reads through sysfs (libpci never: it reopens a device's file at
 * every switch between devices), or through ECAM when the user asks and it
 * can be mapped, saying why not otherwise. */
TEST(auto_takes_sysfs_or_the_ecam_asked_for_and_says_why_not)
{
	struct uncore_regio *io;
	CHECK_EQ_INT(uncore_pci_cfg_open(NULL, &io), 0);
	CHECK_EQ_STR(io->ops->name, "pci-sysfs");
	CHECK_EQ_STR(uncore_pci_cfg_fallback_reason(io), "");
	uncore_regio_destroy(io);

	/* ECAM wanted, the MCFG table unreadable (a path that does not exist). */
	struct uncore_pci_options o = {.method = UNCORE_PCI_AUTO,
				       .want_ecam = 1,
				       .mcfg_path = "/nonexistent/MCFG",
				       .lockdown_path = "/nonexistent/lockdown"};
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), 0);
	CHECK_EQ_STR(io->ops->name, "pci-sysfs");
	CHECK_CONTAINS(uncore_pci_cfg_fallback_reason(io), "ECAM: cannot read the ACPI MCFG");
	CHECK_CONTAINS(uncore_pci_cfg_fallback_reason(io), "through sysfs instead");
	uncore_regio_destroy(io);

	/* ECAM wanted, the kernel locked down. */
	const char *dir = test_mkdtemp("lockdown");
	REQUIRE(dir && test_put(dir, "lockdown", "none [integrity] confidentiality\n") == 0);
	char lock[512];
	snprintf(lock, sizeof(lock), "%s/lockdown", dir);
	o.lockdown_path = lock;
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), 0);
	CHECK_EQ_STR(io->ops->name, "pci-sysfs");
	CHECK_CONTAINS(uncore_pci_cfg_fallback_reason(io), "locked down");
	uncore_regio_destroy(io);
	test_rmtree(dir);

	o.method = UNCORE_PCI_LIBPCI;
	o.libpci_soname = "libpci-absent-for-test.so.3";
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "libpci3");

	/* The user's choice, from PAPI_INTEL_UNCORE_PCI. */
	struct uncore_pci_options p;
	memset(&p, 0, sizeof(p));
	CHECK_EQ_INT(uncore_pci_method_parse("ecam", &p), 0);
	CHECK_EQ_INT(p.method, UNCORE_PCI_AUTO);
	CHECK_EQ_INT(p.want_ecam, 1);
	CHECK_EQ_INT(uncore_pci_method_parse(NULL, &p), 0);
	CHECK_EQ_INT(p.want_ecam, 0);
	CHECK_EQ_INT(uncore_pci_method_parse("sysfs", &p), 0);
	CHECK_EQ_INT(p.method, UNCORE_PCI_SYSFS);
	CHECK_EQ_INT(uncore_pci_method_parse("libpci", &p), 0);
	CHECK_EQ_INT(p.method, UNCORE_PCI_LIBPCI);
	CHECK_EQ_INT(uncore_pci_method_parse("mmconfig", &p), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "PAPI_INTEL_UNCORE_PCI=mmconfig: use ecam");
}

/* A kernel built with CONFIG_IO_STRICT_DEVMEM refuses mmap of /dev/mem on
 * the busy MMCONFIG window with EPERM, root or not.  A write-sealed memfd
 * refuses a shared writable mapping with the same EPERM: the message must
 * name the cause and both ways out, not only "Operation not permitted". */
TEST(ecam_refused_by_strict_devmem_says_why_and_the_way_out)
{
	int fd = memfd_create("ecam-strict", MFD_ALLOW_SEALING | MFD_CLOEXEC);
	REQUIRE(fd >= 0);
	REQUIRE(ftruncate(fd, 2u << 20) == 0);
	REQUIRE(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW) == 0);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct uncore_pci_options o = {.method = UNCORE_PCI_ECAM,
				       .ecam_path = path,
				       .ecam_base = 0,
				       .ecam_bus_start = 0x7e,
				       .ecam_bus_end = 0x7f};
	struct uncore_regio *io = NULL;
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), 0);
	if (io) {
		struct uncore_reg idr = pci(UNCORE_BDF(0x7f, 16, 1), 0, 4);
		uint64_t v = 0;
		CHECK_EQ_INT(uncore_regio_read(io, &idr, &v), UNCORE_EPERM);
		CHECK_CONTAINS(uncore_error_detail(), "CONFIG_IO_STRICT_DEVMEM");
		CHECK_CONTAINS(uncore_error_detail(), "iomem=relaxed");
		CHECK_CONTAINS(uncore_error_detail(), "PAPI_INTEL_UNCORE_PCI=sysfs");
		uncore_regio_destroy(io);
	}
	close(fd);
}

/* A fake ECAM window: buses 0x7e-0x7f of a file, every function absent
 * (all ones) but 7f:10.1, an R2PCIe; the same registers as the sysfs test
 * below, read and written with loads and stores. */
TEST(ecam_reads_and_writes_a_fake_window_with_no_system_call)
{
	const char *dir = test_mkdtemp("ecam");
	REQUIRE(dir != NULL);
	char path[512];
	snprintf(path, sizeof(path), "%s/ecam", dir);
	int fd = open(path, O_RDWR | O_CREAT, 0600);
	REQUIRE(fd >= 0);
	static unsigned char window[2u << 20];
	memset(window, 0xff, sizeof(window));
	unsigned char *fn = window + (1u << 20) + (UNCORE_BDF(0x7f, 16, 1) & 0xffu) * 4096u;
	memset(fn, 0, 4096);
	const uint32_t id = 0x2f348086; /* 8086:2f34, the Haswell-EP R2PCIe */
	memcpy(fn, &id, 4);
	ssize_t wrote = pwrite(fd, window, sizeof(window), 1u << 20); /* ecam_base 1 MiB */
	close(fd);
	REQUIRE(wrote == (ssize_t)sizeof(window));

	struct uncore_pci_options o = {.method = UNCORE_PCI_ECAM,
				       .ecam_path = path,
				       .ecam_base = 1u << 20,
				       .ecam_bus_start = 0x7e,
				       .ecam_bus_end = 0x7f};
	struct uncore_regio *io = NULL;
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), 0);
	if (!io) {
		test_rmtree(dir);
		return;
	}
	CHECK_EQ_STR(io->ops->name, "pci-ecam");
	uint32_t bdf = UNCORE_BDF(0x7f, 16, 1);
	uint64_t v = 0;
	struct uncore_reg idr = pci(bdf, 0, 4), box = pci(bdf, 0xf4, 4), ctr = pci(bdf, 0xa0, 8);
	CHECK_EQ_INT(uncore_regio_read(io, &idr, &v), 0); /* maps bus 7f: one mmap */
	CHECK_EQ_U64(v, id);
	CHECK_EQ_U64(io->stats.syscalls, 1);
	CHECK_EQ_INT(uncore_regio_write(io, &box, 0x30103), 0);
	CHECK_EQ_INT(uncore_regio_write(io, &ctr, 0xabcd12345678ull), 0);
	CHECK_EQ_INT(uncore_regio_write(io, &box, 1ull << 32), UNCORE_EINVAL);
	/* Reads cost no system call: the kernel's count and ours. */
	unsigned long r0 = read_syscalls();
	for (int i = 0; i < 100; i++) {
		CHECK_EQ_INT(uncore_regio_read(io, &ctr, &v), 0);
		CHECK_EQ_U64(v, 0xabcd12345678ull);
	}
	CHECK_EQ_INT(read_syscalls() - r0 - 1, 0); /* the fopen'd read of /proc only */
	CHECK_EQ_U64(io->stats.syscalls, 1);
	/* read_twice: two reads, counted as two, no system call either. */
	CHECK(io->ops->read_twice != NULL);
	uint64_t t1 = 0, t2 = 0, reads0 = io->stats.reads;
	r0 = read_syscalls();
	CHECK_EQ_INT(uncore_regio_read_twice(io, &ctr, &t1, &t2), 0);
	CHECK_EQ_INT(read_syscalls() - r0 - 1, 0);
	CHECK_EQ_U64(t1, 0xabcd12345678ull);
	CHECK_EQ_U64(t2, 0xabcd12345678ull);
	CHECK_EQ_U64(io->stats.reads - reads0, 2);
	CHECK_EQ_U64(io->stats.syscalls, 1);
	CHECK_EQ_INT(uncore_regio_read(io, &box, &v), 0);
	CHECK_EQ_U64(v, 0x30103);
	/* An absent function reads all ones: ENODEV; a bus outside the window too. */
	struct uncore_reg absent = pci(UNCORE_BDF(0x7f, 16, 0), 0, 4),
			  outside = pci(UNCORE_BDF(0xff, 16, 1), 0, 4);
	CHECK_EQ_INT(uncore_regio_read(io, &absent, &v), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "7f:10.0 is not present");
	CHECK_EQ_INT(uncore_regio_read(io, &outside, &v), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "outside the ECAM window");
	/* read_twice of an absent function: the first read fails, nothing
	 * stored, no read made. */
	t1 = t2 = 7;
	reads0 = io->stats.reads;
	absent.width = 8;
	absent.addr = 0xa0;
	CHECK_EQ_INT(uncore_regio_read_twice(io, &absent, &t1, &t2), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "7f:10.0 is not present");
	CHECK(t1 == 7 && t2 == 7);
	CHECK_EQ_U64(io->stats.reads, reads0);
	uncore_regio_destroy(io);
	/* The bytes landed where the manual puts them: BOX_CTL at 0xf4, CTR0 at 0xa0. */
	fd = open(path, O_RDONLY);
	uint32_t b = 0;
	uint64_t c = 0;
	off_t f0 = (off_t)((1u << 20) + (1u << 20) + (UNCORE_BDF(0x7f, 16, 1) & 0xffu) * 4096u);
	CHECK(fd >= 0 && pread(fd, &b, 4, f0 + 0xf4) == 4 && pread(fd, &c, 8, f0 + 0xa0) == 8);
	if (fd >= 0)
		close(fd);
	CHECK_EQ_U64(b, 0x30103);
	CHECK_EQ_U64(c, 0xabcd12345678ull);
	/* A window that is not one: refused at open. */
	o.ecam_base = 4096;
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "not a valid MCFG window");
	test_rmtree(dir);
}

/* ECAM through the ACPI MCFG table, each way it can be unusable, refused
 * at open with the reason: no entry for segment 0 (only segment 1's), a
 * memory device that does not open; a locked-down kernel is told from
 * its lockdown file ("[none]" selected is not locked).  A dword register
 * is never given a value wider than 32 bits. */
TEST(ecam_through_mcfg_refusals)
{
	const char *dir = test_mkdtemp("ecam-mcfg");
	REQUIRE(dir != NULL);
	/* MCFG (PCI Firmware 4.1.2): a 36-byte header, 8 reserved bytes, then
	 * 16-byte entries: base, segment, start bus, end bus. */
	unsigned char mcfg[60];
	memset(mcfg, 0, sizeof(mcfg));
	memcpy(mcfg, "MCFG", 4);
	uint64_t base = 1u << 20;
	memcpy(mcfg + 44, &base, 8);
	mcfg[52] = 1; /* segment 1 */
	mcfg[55] = 0xff;
	char mcfg_path[512], mem_path[512], lock_path[512];
	snprintf(mcfg_path, sizeof(mcfg_path), "%s/MCFG", dir);
	snprintf(mem_path, sizeof(mem_path), "%s/no-such-mem", dir);
	snprintf(lock_path, sizeof(lock_path), "%s/lockdown", dir);
	int fd = open(mcfg_path, O_WRONLY | O_CREAT, 0600);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, mcfg, sizeof(mcfg)) == (ssize_t)sizeof(mcfg));
	close(fd);
	REQUIRE(test_put(dir, "lockdown", "[none] integrity confidentiality\n") == 0);
	struct uncore_pci_options o = {.method = UNCORE_PCI_ECAM,
				       .mcfg_path = mcfg_path,
				       .lockdown_path = lock_path,
				       .mem_path = mem_path};
	struct uncore_regio *io = NULL;
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "has no entry for PCI segment 0");
	CHECK(io == NULL);

	mcfg[52] = 0; /* segment 0 now: the memory device is what fails */
	fd = open(mcfg_path, O_WRONLY | O_TRUNC);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, mcfg, sizeof(mcfg)) == (ssize_t)sizeof(mcfg));
	close(fd);
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "ECAM: cannot open");
	CHECK_CONTAINS(uncore_error_detail(), "no-such-mem");
	CHECK(io == NULL);

	REQUIRE(test_put(dir, "lockdown", "none [integrity] confidentiality\n") == 0);
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "locked down");
	CHECK(io == NULL);

	/* A window that opens: a dword write of a wider value is refused. */
	REQUIRE(test_put(dir, "lockdown", "[none] integrity confidentiality\n") == 0);
	static unsigned char window[2u << 20];
	memset(window, 0xff, sizeof(window));
	snprintf(mem_path, sizeof(mem_path), "%s/mem", dir);
	fd = open(mem_path, O_RDWR | O_CREAT, 0600);
	REQUIRE(fd >= 0);
	REQUIRE(pwrite(fd, window, sizeof(window), 1u << 20) == (ssize_t)sizeof(window));
	close(fd);
	CHECK_EQ_INT(uncore_pci_cfg_open(&o, &io), 0);
	if (io) {
		struct uncore_reg r = pci(UNCORE_BDF(0, 0, 0), 0x40, 4);
		CHECK_EQ_INT(uncore_regio_write(io, &r, 0x100000000ull), UNCORE_EINVAL);
		CHECK_CONTAINS(uncore_error_detail(), "does not fit a dword");
		uncore_regio_destroy(io);
	}
	uncore_error_clear();
	test_rmtree(dir);
}

/* read_bytes syscalls of this process, from /proc/self/io ("syscr"). */
static unsigned long read_syscalls(void)
{
	char line[128];
	unsigned long v = 0;
	FILE *f = fopen("/proc/self/io", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "syscr: %lu", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* One pread per access (measured by the kernel), and the counts we report:
 * no open or close on the read path, through libpci too. */
TEST(one_read_syscall_per_access)
{
	uint32_t bdf[2];
	char names[2][16];
	size_t n = real_devices(bdf, names, 2);
	CHECK(n >= 1);
	if (n < 2)
		bdf[1] = bdf[0];
	for (size_t m = 0; m < 2; m++) {
		struct uncore_regio *io = open_method(methods[m], NULL);
		if (!io)
			continue;
		harness_row = method_names[m];
		uint64_t v;
		struct uncore_reg a = pci(bdf[0], 0, 4), b = pci(bdf[1], 8, 4);
		CHECK_EQ_INT(uncore_regio_read(io, &a, &v), 0); /* opens both */
		CHECK_EQ_INT(uncore_regio_read(io, &b, &v), 0);
		uint64_t s0 = io->stats.syscalls;
		unsigned long r0 = read_syscalls();
		for (int i = 0; i < 50; i++) {
			CHECK_EQ_INT(uncore_regio_read(io, &a, &v), 0);
			CHECK_EQ_INT(uncore_regio_read(io, &b, &v), 0);
		}
		unsigned long preads = read_syscalls() - r0 - 1; /* the fopen'd read of /proc */
		CHECK_EQ_INT(preads, 100);
		/* Both: one descriptor per device, kept (libpci only finds the
		 * devices, at their first access). */
		uint64_t counted = io->stats.syscalls - s0;
		CHECK_EQ_U64(counted, 100);
		printf("  %s: 100 reads alternating 2 devices = %" PRIu64 " system calls\n",
		       io->ops->name, counted);
		CHECK_EQ_U64(io->stats.reads, 102);
		uncore_regio_destroy(io);
	}
	harness_row = NULL;
}

/* A fake sysfs tree: writes (never done on real devices) and libpci's
 * sysfs.path parameter. */
TEST(fake_tree_writes_through_both_methods)
{
	const char *root = test_mkdtemp("pci");
	REQUIRE(root != NULL);
	char cfg[4096];
	memset(cfg, 0, sizeof(cfg));
	cfg[0] = (char)0x86;
	cfg[1] = (char)0x80;
	cfg[2] = (char)0x34;
	cfg[3] = (char)0x2f; /* 8086:2f34, the Haswell-EP R2PCIe */
	char path[512];
	REQUIRE(test_put(root, "devices/0000:7f:10.1/config", "") == 0);
	snprintf(path, sizeof(path), "%s/devices/0000:7f:10.1/config", root);
	int fd = open(path, O_WRONLY);
	REQUIRE(fd >= 0);
	ssize_t wrote = write(fd, cfg, sizeof(cfg));
	close(fd);
	REQUIRE(wrote == (ssize_t)sizeof(cfg));
	/* 7f:10.5: a config file of 64 bytes only (a short read past them). */
	char shortpath[512];
	REQUIRE(test_put(root, "devices/0000:7f:10.5/config", "") == 0);
	snprintf(shortpath, sizeof(shortpath), "%s/devices/0000:7f:10.5/config", root);
	fd = open(shortpath, O_WRONLY);
	REQUIRE(fd >= 0);
	wrote = write(fd, cfg, 64);
	close(fd);
	REQUIRE(wrote == 64);
	/* 7f:10.2: a config that cannot be read (a directory here; on a real
	 * machine, a device going away): libpci warns, the read fails. */
	REQUIRE(test_put(root, "devices/0000:7f:10.2/config/unreadable", "") == 0);
	uint32_t bdf = UNCORE_BDF(0x7f, 16, 1);
	for (size_t m = 0; m < 2; m++) {
		struct uncore_regio *io = open_method(methods[m], root);
		if (!io)
			continue;
		harness_row = method_names[m];
		uint64_t v = 0;
		struct uncore_reg id = pci(bdf, 0, 4), box = pci(bdf, 0xf4, 4),
				  ctr = pci(bdf, 0xa0, 8);
		CHECK_EQ_INT(uncore_regio_read(io, &id, &v), 0);
		CHECK_EQ_U64(v, 0x2f348086);
		CHECK_EQ_INT(uncore_regio_write(io, &box, 0x30103 + m), 0);
		CHECK_EQ_INT(uncore_regio_read(io, &box, &v), 0);
		CHECK_EQ_U64(v, 0x30103 + m);
		CHECK_EQ_INT(uncore_regio_write(io, &ctr, 0xabcd12345678ull), 0);
		CHECK_EQ_INT(uncore_regio_read(io, &ctr, &v), 0);
		CHECK_EQ_U64(v, 0xabcd12345678ull);
		CHECK_EQ_INT(uncore_regio_write(io, &box, 1ull << 32), UNCORE_EINVAL);
		CHECK_EQ_U64(io->stats.writes, 2);
		/* Two reads back to back: sysfs's read_twice, libpci's two read
		 * calls (it has none); two preads either way. */
		CHECK((io->ops->read_twice != NULL) == (methods[m] == UNCORE_PCI_SYSFS));
		uint64_t a = 0, b = 0, reads0 = io->stats.reads, sys0 = io->stats.syscalls;
		unsigned long k0 = read_syscalls();
		CHECK_EQ_INT(uncore_regio_read_twice(io, &ctr, &a, &b), 0);
		CHECK_EQ_INT(read_syscalls() - k0 - 1, 2); /* and the fopen'd read of /proc */
		CHECK_EQ_U64(a, 0xabcd12345678ull);
		CHECK_EQ_U64(b, 0xabcd12345678ull);
		CHECK_EQ_U64(io->stats.reads - reads0, 2);
		CHECK_EQ_U64(io->stats.syscalls - sys0, 2);
		/* A device whose file ends at 64 bytes: the first pread comes
		 * back short; no second, nothing stored, one read counted. */
		struct uncore_reg shortctr = pci(UNCORE_BDF(0x7f, 16, 5), 0xa0, 8);
		a = b = 7;
		reads0 = io->stats.reads;
		sys0 = io->stats.syscalls;
		CHECK_EQ_INT(uncore_regio_read_twice(io, &shortctr, &a, &b), UNCORE_ERANGE);
		CHECK_CONTAINS(uncore_error_detail(), "offset beyond the 64 bytes");
		CHECK(a == 7 && b == 7);
		if (methods[m] == UNCORE_PCI_SYSFS) {
			CHECK_EQ_U64(io->stats.reads - reads0, 1);
			CHECK_EQ_U64(io->stats.syscalls - sys0, 2); /* its open, one pread */
		}
		/* The device's file is kept open (no open on the read path): the
		 * registers still read and write with its name gone. */
		char moved[600];
		snprintf(moved, sizeof(moved), "%s.moved", path);
		CHECK_EQ_INT(rename(path, moved), 0);
		CHECK_EQ_INT(uncore_regio_read(io, &ctr, &v), 0);
		CHECK_EQ_U64(v, 0xabcd12345678ull);
		CHECK_EQ_INT(uncore_regio_write(io, &box, 0x30103 + m), 0);
		CHECK_EQ_INT(rename(moved, path), 0);
		struct uncore_reg other = pci(UNCORE_BDF(0x7f, 16, 0), 0, 4);
		CHECK_EQ_INT(uncore_regio_read(io, &other, &v), UNCORE_ENODEV);
		CHECK_CONTAINS(uncore_error_detail(), root);
		/* A device whose config cannot be read fails naming it. */
		struct uncore_reg gone = pci(UNCORE_BDF(0x7f, 16, 2), 0, 4);
		CHECK(uncore_regio_read(io, &gone, &v) < 0);
		CHECK_CONTAINS(uncore_error_detail(), "7f:10.2");
		uncore_regio_destroy(io);
	}
	harness_row = NULL;
	/* The bytes landed where the manual puts them: BOX_CTL at 0xf4, CTR0 at 0xa0. */
	fd = open(path, O_RDONLY);
	uint32_t box = 0;
	uint64_t ctr = 0;
	CHECK(fd >= 0 && pread(fd, &box, 4, 0xf4) == 4 && pread(fd, &ctr, 8, 0xa0) == 8);
	if (fd >= 0)
		close(fd);
	CHECK_EQ_U64(box, 0x30104);
	CHECK_EQ_U64(ctr, 0xabcd12345678ull);
	test_rmtree(root);
}

/* libpci's fatal error handler must not end the process: it comes back as
 * UNCORE_EIO and the instance refuses further use. */
TEST(libpci_fatal_error_comes_back_as_a_code)
{
	uint32_t bdf[1];
	char names[1][16];
	CHECK_EQ_INT(real_devices(bdf, names, 1), 1);
	struct uncore_regio *io = open_method(UNCORE_PCI_LIBPCI, NULL);
	if (!io)
		return;
	CHECK_EQ_INT(uncore_pci_cfg_provoke_libpci_error(io, bdf[0]), UNCORE_EIO);
	CHECK_CONTAINS(uncore_error_detail(), "Unaligned");
	uint64_t v;
	struct uncore_reg r = pci(bdf[0], 0, 4);
	CHECK_EQ_INT(uncore_regio_read(io, &r, &v), UNCORE_EIO);
	CHECK_CONTAINS(uncore_error_detail(), "failed fatally earlier");
	uncore_regio_destroy(io);

	struct uncore_regio *sys = open_method(UNCORE_PCI_SYSFS, NULL);
	if (sys) {
		CHECK_EQ_INT(uncore_pci_cfg_provoke_libpci_error(sys, bdf[0]), UNCORE_ENOSUPP);
		uncore_regio_destroy(sys);
	}
}

int main(void)
{
	RUN(real_devices_read_the_same_both_ways);
	RUN(absent_device_is_enodev);
	RUN(bad_registers_refused);
	RUN(unprivileged_reader_gets_eperm_past_64_bytes);
	RUN(auto_takes_sysfs_or_the_ecam_asked_for_and_says_why_not);
	RUN(ecam_refused_by_strict_devmem_says_why_and_the_way_out);
	RUN(ecam_reads_and_writes_a_fake_window_with_no_system_call);
	RUN(ecam_through_mcfg_refusals);
	RUN(one_read_syscall_per_access);
	RUN(fake_tree_writes_through_both_methods);
	RUN(libpci_fatal_error_comes_back_as_a_code);
	return harness_done();
}
