/* PCI configuration space access for the uncore boxes that live there
 * (Haswell-EP HA, iMC, QPI, R2PCIe, R3QPI, IRP; Skylake's MCHBAR register).
 * Three implementations behind the one regio interface:
 *   "pci-sysfs"   pread/pwrite on /sys/bus/pci/devices/0000:BB:DD.F/config,
 *                 one descriptor per device opened at its first access
 *                 (programming) and kept: one system call per register;
 *   "pci-ecam"    the memory-mapped configuration space (ECAM/MMCONFIG)
 *                 mapped from /dev/mem: no system call per register; opt-in
 *                 (root, no kernel lockdown);
 *   "pci-libpci"  libpci (pciutils), loaded with dlopen at run time, only
 *                 when asked for, finds each device (and reads its IDs) at
 *                 its first access; the registers are then read and written
 *                 through the device's sysfs config file, opened then and
 *                 kept, as "pci-sysfs" does (libpci's own sysfs method would
 *                 close and reopen a device's file at every switch between
 *                 devices, on the read path).
 * Registers are dwords (width 4) or two adjacent dwords (width 8: low dword
 * at addr, high at addr + 4, transferred by one call, not atomically). */
#ifndef UNCORE_ACCESS_PCI_CFG_H
#define UNCORE_ACCESS_PCI_CFG_H

#include "access/regio.h"

#define UNCORE_PCI_SYSFS_ROOT "/sys/bus/pci"
#define UNCORE_LIBPCI_SONAME  "libpci.so.3"
#define UNCORE_PCI_ECAM_DEV   "/dev/mem"
#define UNCORE_ACPI_MCFG_PATH "/sys/firmware/acpi/tables/MCFG"
#define UNCORE_LOCKDOWN_PATH  "/sys/kernel/security/lockdown"

enum uncore_pci_method {
	UNCORE_PCI_AUTO = 0, /* ECAM when want_ecam and it can be mapped, else sysfs */
	UNCORE_PCI_LIBPCI,
	UNCORE_PCI_SYSFS,
	UNCORE_PCI_ECAM,
};

struct uncore_pci_options {
	enum uncore_pci_method method;
	const char *sysfs_root;    /* NULL: UNCORE_PCI_SYSFS_ROOT (tests: a fake tree) */
	const char *libpci_soname; /* NULL: UNCORE_LIBPCI_SONAME */
	/* ECAM: AUTO tries it first when want_ecam is set (the user's opt-in,
	 * PAPI_INTEL_UNCORE_PCI=ecam).  ecam_path NULL: /dev/mem at the window
	 * the ACPI MCFG table gives for segment 0 (mcfg_path, lockdown_path:
	 * NULL for the real files); else a file laid out as ECAM from offset
	 * ecam_base for buses ecam_bus_start..ecam_bus_end (tests). */
	int want_ecam;
	const char *ecam_path;
	uint64_t ecam_base;
	unsigned ecam_bus_start, ecam_bus_end;
	const char *mcfg_path;
	const char *lockdown_path;
	const char
	    *mem_path; /* with ecam_path NULL: NULL for UNCORE_PCI_ECAM_DEV (tests: a file) */
};

/* Open PCI config access (opt NULL: all defaults).  Devices are opened on
 * first use and kept open.  Errors name the device and the fix:
 * UNCORE_ENODEV for an absent device, UNCORE_EPERM when only root may read
 * past the first 64 bytes of config space (all PMON registers are beyond
 * them) or write at all, UNCORE_ERANGE beyond the device's config space.
 * uncore_regio_destroy() releases everything. */
int uncore_pci_cfg_open(const struct uncore_pci_options *opt, struct uncore_regio **out);

/* Why AUTO chose the method it did, for the user to see: "" when it took
 * its first choice (ECAM when wanted, else sysfs) or the method was
 * explicit, else why the first choice could not be used. */
const char *uncore_pci_cfg_fallback_reason(const struct uncore_regio *io);

/* The method AUTO takes for the value of PAPI_INTEL_UNCORE_PCI ("ecam",
 * "sysfs", "libpci"; NULL or "" or "auto": AUTO without ECAM): 0 and *opt
 * filled, or UNCORE_EINVAL naming the values. */
int uncore_pci_method_parse(const char *value, struct uncore_pci_options *opt);

/* For tests: make libpci call its fatal error handler (an unaligned
 * pci_read_word) on device `bdf` and return what the caller then gets:
 * UNCORE_EIO, with the instance marked unusable.  UNCORE_ENOSUPP for a
 * regio that is not "pci-libpci". */
int uncore_pci_cfg_provoke_libpci_error(struct uncore_regio *io, uint32_t bdf);

#endif
