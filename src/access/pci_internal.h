/* What the PCI configuration space methods share (pci_checks.c): argument
 * checks, sysfs paths, and the diagnosis of a failed transfer (all end in,
 * or are checked against, the same sysfs config file, so all fail the same
 * ways); and how the choice (pci_cfg.c) opens each method. */
#ifndef UNCORE_ACCESS_PCI_INTERNAL_H
#define UNCORE_ACCESS_PCI_INTERNAL_H

#include <stddef.h>
#include <sys/types.h>

#include "access/pci_cfg.h"

/* Config space of a PCI Express function; conventional PCI has 256 bytes. */
#define PCI_CFG_MAX 4096

/* 0, or UNCORE_EINVAL unless r is an aligned dword/qword of PCI space. */
int pci_check_reg(const struct uncore_reg *r);

/* root/devices/0000:BB:DD.F/config */
void pci_config_path(const char *root, uint32_t bdf, char *buf, size_t len);

/* 0 when the device's config file exists, else UNCORE_ENODEV with detail. */
int pci_device_present(const char *root, uint32_t bdf);

/* Turn a failed or short transfer into a code and detail.  `err` is the
 * errno of a failed call (0 for a short one), `op` "read" or "write". */
int pci_diagnose(const char *root, const struct uncore_reg *r, int err, const char *op);

/* The sysfs implementation (pci_sysfs.c); `why`: the fallback reason AUTO
 * reports ("" for none). */
int pci_sysfs_open(const char *root, const char *why, struct uncore_regio **out);

/* The libpci implementation (pci_libpci.c): 0, or UNCORE_ENOSUPP with the
 * reason when libpci cannot be used (the caller may fall back to sysfs). */
int pci_libpci_open(const char *root, const char *soname, struct uncore_regio **out);

/* The ECAM implementation (pci_ecam.c): 0, or UNCORE_ENOSUPP with the
 * reason when it cannot be mapped (the caller may fall back to sysfs). */
int pci_ecam_open(const struct uncore_pci_options *opt, struct uncore_regio **out);

#endif
