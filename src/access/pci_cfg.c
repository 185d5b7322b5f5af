/* PCI configuration space: the choice between the methods (see
 * pci_cfg.h): sysfs (pci_sysfs.c), ECAM (pci_ecam.c) or libpci
 * (pci_libpci.c), and the user's setting that picks one. */
#include "access/pci_cfg.h"

#include <stdio.h>
#include <string.h>

#include "access/pci_internal.h"
#include "common/uncore_error.h"

int uncore_pci_cfg_open(const struct uncore_pci_options *opt, struct uncore_regio **out)
{
	static const struct uncore_pci_options defaults = {.method = UNCORE_PCI_AUTO};
	if (!opt)
		opt = &defaults;
	const char *root = opt->sysfs_root ? opt->sysfs_root : UNCORE_PCI_SYSFS_ROOT;
	const char *soname = opt->libpci_soname ? opt->libpci_soname : UNCORE_LIBPCI_SONAME;
	/* Leaves room for "/devices/0000:bb:dd.f/config" in our buffers and
	 * libpci's (which errors fatally on a name that does not fit). */
	if (strlen(root) > 200)
		return uncore_fail(UNCORE_EINVAL, "pci: sysfs root \"%.40s...\" is too long", root);
	switch (opt->method) {
	case UNCORE_PCI_SYSFS:
		return pci_sysfs_open(root, "", out);
	case UNCORE_PCI_LIBPCI:
		return pci_libpci_open(root, soname, out);
	case UNCORE_PCI_ECAM:
		return pci_ecam_open(opt, out);
	case UNCORE_PCI_AUTO: {
		/* libpci is never chosen here: it finds the devices and then
		 * reads them through sysfs like this method, at the cost of
		 * loading a library. */
		if (!opt->want_ecam)
			return pci_sysfs_open(root, "", out);
		int rc = pci_ecam_open(opt, out);
		if (rc != UNCORE_ENOSUPP)
			return rc;
		char why[256];
		snprintf(why, sizeof(why), "%s; one pread per register through sysfs instead",
			 uncore_error_detail());
		uncore_error_clear();
		return pci_sysfs_open(root, why, out);
	}
	}
	return uncore_fail(UNCORE_EINVAL, "pci: unknown access method %d", (int)opt->method);
}

int uncore_pci_method_parse(const char *value, struct uncore_pci_options *opt)
{
	static const struct {
		const char *name;
		enum uncore_pci_method method;
		int want_ecam;
	} names[] = {{"auto", UNCORE_PCI_AUTO, 0},
		     {"ecam", UNCORE_PCI_AUTO, 1},
		     {"sysfs", UNCORE_PCI_SYSFS, 0},
		     {"libpci", UNCORE_PCI_LIBPCI, 0}};
	if (!value || !*value)
		value = "auto";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(value, names[i].name) == 0) {
			opt->method = names[i].method;
			opt->want_ecam = names[i].want_ecam;
			return 0;
		}
	return uncore_fail(UNCORE_EINVAL,
			   "PAPI_INTEL_UNCORE_PCI=%s: use ecam (memory-mapped PCI configuration "
			   "space: no system call per register; root, no kernel lockdown), sysfs "
			   "(the default) or libpci",
			   value);
}
