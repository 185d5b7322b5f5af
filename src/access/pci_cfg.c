/* PCI configuration space: the choice between the methods, what they
 * share, and the sysfs implementation (see pci_cfg.h).  The sysfs one keeps
 * one file descriptor per device, so each access is exactly one pread or
 * pwrite; x86 is little-endian like config space, so no byte swapping.
 * The libpci method reaches the registers through it too. */
#include "access/pci_cfg.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

struct sysfs_dev {
	uint32_t bdf;
	int fd;
	int writable;
};

struct pci_sysfs {
	struct uncore_regio io;
	struct sysfs_dev *dev;
	size_t ndev, cap;
	/* Per bus, per device-function: 1 + the device's index in dev, 0 when
	 * not open yet: an access finds its descriptor in two loads. */
	uint16_t *index[256];
	char root[256];
	char fallback[256];
};

/* The open file of a device (opened on first use, read-write when allowed). */
static int sysfs_fd(struct pci_sysfs *p, const struct uncore_reg *r, int write, int *fd)
{
	struct sysfs_dev *d = NULL;
	uint16_t **bus = &p->index[UNCORE_BDF_BUS(r->bdf)];
	if (*bus && (*bus)[r->bdf & 0xffu])
		d = &p->dev[(*bus)[r->bdf & 0xffu] - 1];
	if (!d) {
		char path[400];
		int rc = pci_device_present(p->root, r->bdf);
		if (rc)
			return rc;
		if (p->ndev == p->cap) {
			size_t cap = p->cap ? p->cap * 2 : 16;
			struct sysfs_dev *nd = realloc(p->dev, cap * sizeof(*nd));
			if (!nd)
				return uncore_fail(UNCORE_ENOMEM, "pci: out of memory");
			p->dev = nd;
			p->cap = cap;
		}
		if (!*bus && !(*bus = calloc(256, sizeof(**bus))))
			return uncore_fail(UNCORE_ENOMEM, "pci: out of memory");
		pci_config_path(p->root, r->bdf, path, sizeof(path));
		int w = 1;
		int f = open(path, O_RDWR | O_CLOEXEC);
		p->io.stats.syscalls++;
		if (f < 0 && (errno == EACCES || errno == EPERM || errno == EROFS)) {
			w = 0;
			f = open(path, O_RDONLY | O_CLOEXEC);
			p->io.stats.syscalls++;
		}
		if (f < 0)
			return pci_diagnose(p->root, r, errno, "open");
		d = &p->dev[p->ndev++];
		*d = (struct sysfs_dev){.bdf = r->bdf, .fd = f, .writable = w};
		(*bus)[r->bdf & 0xffu] = (uint16_t)p->ndev;
	}
	if (write && !d->writable)
		return pci_diagnose(p->root, r, EACCES, "write");
	*fd = d->fd;
	return 0;
}

/* One pread of r from its device's file. */
static int sysfs_pread(struct pci_sysfs *p, int fd, const struct uncore_reg *r, uint64_t *value)
{
	uint64_t v = 0;
	p->io.stats.reads++;
	p->io.stats.syscalls++;
	ssize_t n = pread(fd, &v, r->width, (off_t)r->addr);
	if (n != r->width)
		return pci_diagnose(p->root, r, n < 0 ? errno : 0, "read");
	*value = v;
	return 0;
}

static int sysfs_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	struct pci_sysfs *p = io->impl;
	int fd;
	int rc = pci_check_reg(r);
	if (rc || (rc = sysfs_fd(p, r, 0, &fd)))
		return rc;
	return sysfs_pread(p, fd, r, value);
}

/* Two preads, the second right after the first (regio.h). */
static int sysfs_read_twice(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *first,
			    uint64_t *second)
{
	struct pci_sysfs *p = io->impl;
	int fd;
	int rc = pci_check_reg(r);
	if (rc || (rc = sysfs_fd(p, r, 0, &fd)) || (rc = sysfs_pread(p, fd, r, first)))
		return rc;
	return sysfs_pread(p, fd, r, second);
}

static int sysfs_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	struct pci_sysfs *p = io->impl;
	int fd;
	int rc = pci_check_reg(r);
	if (rc || (rc = sysfs_fd(p, r, 1, &fd)))
		return rc;
	if (r->width == 4 && value >> 32)
		return uncore_fail(UNCORE_EINVAL, "value 0x%" PRIx64 " does not fit a dword",
				   value);
	io->stats.writes++;
	io->stats.syscalls++;
	ssize_t n = pwrite(fd, &value, r->width, (off_t)r->addr);
	if (n != r->width)
		return pci_diagnose(p->root, r, n < 0 ? errno : 0, "write");
	return 0;
}

static void sysfs_destroy(struct uncore_regio *io)
{
	struct pci_sysfs *p = io->impl;
	for (size_t i = 0; i < p->ndev; i++)
		close(p->dev[i].fd);
	for (size_t b = 0; b < 256; b++)
		free(p->index[b]);
	free(p->dev);
	free(p);
}

static const struct uncore_regio_ops pci_sysfs_ops = {
    .name = "pci-sysfs",
    .read = sysfs_read,
    .write = sysfs_write,
    .read_twice = sysfs_read_twice,
    .destroy = sysfs_destroy,
};

int pci_sysfs_open(const char *root, const char *why, struct uncore_regio **out)
{
	struct pci_sysfs *p = calloc(1, sizeof(*p));
	if (!p)
		return uncore_fail(UNCORE_ENOMEM, "pci: out of memory");
	snprintf(p->root, sizeof(p->root), "%s", root);
	snprintf(p->fallback, sizeof(p->fallback), "%s", why);
	p->io.ops = &pci_sysfs_ops;
	p->io.impl = p;
	*out = &p->io;
	return 0;
}

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

const char *uncore_pci_cfg_fallback_reason(const struct uncore_regio *io)
{
	if (io && io->ops == &pci_sysfs_ops)
		return ((const struct pci_sysfs *)io->impl)->fallback;
	return "";
}
