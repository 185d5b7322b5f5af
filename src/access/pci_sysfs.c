/* PCI configuration space through sysfs (see pci_cfg.h): one file
 * descriptor per device, so each access is exactly one pread or pwrite;
 * x86 is little-endian like config space, so no byte swapping.  The
 * libpci method reaches the registers through it too. */
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

const char *uncore_pci_cfg_fallback_reason(const struct uncore_regio *io)
{
	if (io && io->ops == &pci_sysfs_ops)
		return ((const struct pci_sysfs *)io->impl)->fallback;
	return "";
}
