/* Opt-in hardware test (make check-hardware): the PCI backends on a real
 * Haswell-EP, as root.  Reads only: every uncore PMON device of Table 1-3
 * found in sysfs has its device ID at dword 0 through libpci and through
 * sysfs alike, and readable 48-bit counters. */
#include "access/pci_cfg.h"
#include "common/uncore_error.h"
#include "harness.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

/* Device IDs of the PMON functions (HA, iMC channels, IRP, QPI ports,
 * R2PCIe, R3QPI links): Table 1-3 with the iMC IDs real machines have
 * (platform/hswep/HARDWARE-DECISIONS.md). */
static const unsigned pmon_dids[] = {0x2f30, 0x2f38, 0x2fb0, 0x2fb1, 0x2fb4, 0x2fb5,
				     0x2fd0, 0x2fd1, 0x2fd4, 0x2fd5, 0x2f39, 0x2f32,
				     0x2f33, 0x2f3a, 0x2f34, 0x2f36, 0x2f37, 0x2f3e};

static unsigned long hexfile(const char *dev, const char *name)
{
	char path[512], buf[32] = "";
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, name);
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return strtoul(buf, NULL, 16);
}

TEST(uncore_pmon_devices_read_both_ways)
{
	if (geteuid() != 0) {
		HARNESS_FAIL_AT(
		    "run as root: PMON registers lie past the 64 bytes others may read");
		return;
	}
	struct uncore_pci_options lo = {.method = UNCORE_PCI_LIBPCI},
				  so = {.method = UNCORE_PCI_SYSFS};
	struct uncore_regio *lp = NULL, *sp = NULL;
	CHECK_EQ_INT(uncore_pci_cfg_open(&so, &sp), 0);
	if (uncore_pci_cfg_open(&lo, &lp) != 0)
		printf("  libpci unavailable (%s): sysfs only\n", uncore_error_detail());
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	unsigned found = 0;
	while (d && sp && (e = readdir(d))) {
		unsigned dom, bus, dev, fn;
		if (sscanf(e->d_name, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4 || dom != 0)
			continue;
		unsigned long did = hexfile(e->d_name, "device");
		int pmon = 0;
		for (size_t i = 0; i < sizeof(pmon_dids) / sizeof(pmon_dids[0]); i++)
			pmon |= hexfile(e->d_name, "vendor") == 0x8086 && did == pmon_dids[i];
		if (!pmon)
			continue;
		found++;
		harness_row = e->d_name;
		uint32_t bdf = UNCORE_BDF(bus, dev, fn);
		struct uncore_reg id = {.space = UNCORE_SPACE_PCI, .width = 4, .bdf = bdf},
				  status = id, ctr = id;
		status.addr = 0xf8; /* BOX_STATUS */
		ctr.addr = 0xa0;    /* CTR0, two dwords */
		ctr.width = 8;
		uint64_t v = 0, w = 0, c = 0;
		CHECK_EQ_INT(uncore_regio_read(sp, &id, &v), 0);
		CHECK_EQ_U64(v, did << 16 | 0x8086);
		if (lp) {
			CHECK_EQ_INT(uncore_regio_read(lp, &id, &w), 0);
			CHECK_EQ_U64(w, v);
		}
		CHECK_EQ_INT(uncore_regio_read(sp, &status, &v), 0);
		CHECK_EQ_INT(uncore_regio_read(sp, &ctr, &c), 0);
		CHECK_EQ_U64(c >> 48, 0);
	}
	harness_row = NULL;
	if (d)
		closedir(d);
	if (!found)
		HARNESS_FAIL_AT("no Haswell-EP uncore PMON device (8086:2f30, 2fb0, ...) in sysfs");
	printf("  %u uncore PMON devices read\n", found);
	uncore_regio_destroy(sp);
	uncore_regio_destroy(lp);
}

int main(void)
{
	RUN(uncore_pmon_devices_read_both_ways);
	return harness_done();
}
