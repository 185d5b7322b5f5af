/* PCI configuration space access for the uncore boxes that live there
 * (Haswell-EP HA, iMC, QPI, R2PCIe, R3QPI, IRP; Skylake's MCHBAR register).
 * Two implementations behind the one regio interface:
 *   "pci-libpci"  libpci (pciutils), loaded with dlopen at run time so that
 *                 libpapi gets no link-time dependency on it;
 *   "pci-sysfs"   pread/pwrite on /sys/bus/pci/devices/0000:BB:DD.F/config,
 *                 which is what libpci's linux-sysfs method does itself.
 * Registers are dwords (width 4) or two adjacent dwords (width 8: low dword
 * at addr, high at addr + 4, transferred by one call, not atomically). */
#ifndef UNCORE_ACCESS_PCI_CFG_H
#define UNCORE_ACCESS_PCI_CFG_H

#include "access/regio.h"

#define UNCORE_PCI_SYSFS_ROOT "/sys/bus/pci"
#define UNCORE_LIBPCI_SONAME  "libpci.so.3"

enum uncore_pci_method {
	UNCORE_PCI_AUTO = 0, /* libpci when it loads, else sysfs */
	UNCORE_PCI_LIBPCI,
	UNCORE_PCI_SYSFS,
};

struct uncore_pci_options {
	enum uncore_pci_method method;
	const char *sysfs_root;    /* NULL: UNCORE_PCI_SYSFS_ROOT (tests: a fake tree) */
	const char *libpci_soname; /* NULL: UNCORE_LIBPCI_SONAME */
};

/* Open PCI config access (opt NULL: all defaults).  Devices are opened on
 * first use and kept open.  Errors name the device and the fix:
 * UNCORE_ENODEV for an absent device, UNCORE_EPERM when only root may read
 * past the first 64 bytes of config space (all PMON registers are beyond
 * them) or write at all, UNCORE_ERANGE beyond the device's config space.
 * uncore_regio_destroy() releases everything. */
int uncore_pci_cfg_open(const struct uncore_pci_options *opt, struct uncore_regio **out);

/* Why AUTO did not use libpci ("" when it did, or for explicit methods). */
const char *uncore_pci_cfg_fallback_reason(const struct uncore_regio *io);

/* For tests: make libpci call its fatal error handler (an unaligned
 * pci_read_word) on device `bdf` and return what the caller then gets:
 * UNCORE_EIO, with the instance marked unusable.  UNCORE_ENOSUPP for a
 * regio that is not "pci-libpci". */
int uncore_pci_cfg_provoke_libpci_error(struct uncore_regio *io, uint32_t bdf);

#endif
