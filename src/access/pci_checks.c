/* What the PCI configuration space methods share (pci_internal.h): the
 * argument check, the sysfs path of a device's config file, and the
 * diagnosis of a failed or short transfer (every method ends in, or is
 * checked against, that file, so all fail the same ways). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "access/pci_internal.h"
#include "common/uncore_error.h"

int pci_check_reg(const struct uncore_reg *r)
{
	if (r->space != UNCORE_SPACE_PCI)
		return uncore_fail(UNCORE_EINVAL, "PCI backend asked for a register of space %u",
				   r->space);
	if ((r->width != 4 && r->width != 8) || (r->addr & 3) || r->addr + r->width > PCI_CFG_MAX)
		return uncore_fail(UNCORE_EINVAL,
				   "PCI config access of width %u at offset 0x%" PRIx64
				   ": want an aligned dword or dword pair below 0x%x",
				   r->width, r->addr, PCI_CFG_MAX);
	return 0;
}

void pci_config_path(const char *root, uint32_t bdf, char *buf, size_t len)
{
	snprintf(buf, len, "%s/devices/0000:%02x:%02x.%x/config", root, UNCORE_BDF_BUS(bdf),
		 UNCORE_BDF_DEV(bdf), UNCORE_BDF_FN(bdf));
}

int pci_device_present(const char *root, uint32_t bdf)
{
	char path[400];
	struct stat st;
	pci_config_path(root, bdf, path, sizeof(path));
	if (stat(path, &st) == 0)
		return 0;
	return uncore_fail(UNCORE_ENODEV,
			   "PCI device %02x:%02x.%x is not present (no %s): the platform, socket "
			   "bus number or box instance is wrong, or the BIOS hides the uncore "
			   "devices",
			   UNCORE_BDF_BUS(bdf), UNCORE_BDF_DEV(bdf), UNCORE_BDF_FN(bdf), path);
}

int pci_diagnose(const char *root, const struct uncore_reg *r, int err, const char *op)
{
	char path[400], name[64];
	struct stat st;
	pci_config_path(root, r->bdf, path, sizeof(path));
	uncore_reg_format(r, name, sizeof(name));
	if (stat(path, &st) != 0)
		return pci_device_present(root, r->bdf);
	if (err == EACCES || err == EPERM || err == EROFS)
		return uncore_fail(UNCORE_EPERM,
				   "%s of %s: %s: %s. Writing PCI configuration space needs root "
				   "(CAP_SYS_ADMIN), and a locked-down kernel (Secure Boot, "
				   "/sys/kernel/security/lockdown) refuses it to everyone: use the "
				   "perf backend there",
				   op, name, path, strerror(err));
	if (err)
		return uncore_fail(uncore_error_from_errno(err), "%s of %s through %s: %s", op,
				   name, path, strerror(err));
	if ((off_t)(r->addr + r->width) > st.st_size)
		return uncore_fail(UNCORE_ERANGE,
				   "%s of %s: offset beyond the %lld bytes of the device's "
				   "configuration space",
				   op, name, (long long)st.st_size);
	if (r->addr < 64)
		return uncore_fail(UNCORE_EIO, "%s of %s through %s transferred less than %u bytes",
				   op, name, path, r->width);
	/* The kernel gives unprivileged readers the first 64 bytes only and a
	 * short read for the rest: every PMON register is beyond them. */
	return uncore_fail(UNCORE_EPERM,
			   "%s of %s returned no data: without CAP_SYS_ADMIN (root) Linux shows "
			   "only the first 64 bytes of PCI configuration space; run as root",
			   op, name);
}
