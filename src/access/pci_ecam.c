/* PCI configuration space through ECAM (PCI Express "enhanced configuration
 * access mechanism", MMCONFIG): the firmware maps every function's 4 KiB of
 * config space into physical memory at base + (bus << 20 | dev << 15 |
 * fn << 12) (PCIe Base Specification 7.2.2; the base and bus range come
 * from the ACPI MCFG table).  Mapped from /dev/mem one bus (1 MiB) at a
 * time, on the first access to it (programming) and kept, so that reading
 * a register is a load: no system call.  Tests map a fake ECAM file. */
#include "access/pci_cfg.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "access/pci_internal.h"
#include "common/uncore_error.h"

#define ECAM_BUS_BYTES (1u << 20)
#define ECAM_MAX_BUSES 256

struct pci_ecam {
	struct uncore_regio io;
	int fd;
	int writable;
	uint64_t base; /* file offset of bus `bus0`'s window */
	unsigned bus0, nbus;
	unsigned char *bus[ECAM_MAX_BUSES]; /* mapped windows, NULL until used */
	char path[256];
};

/* The config space of r's function, mapped: 0 and *out its first byte, or
 * an error. */
static int ecam_function(struct pci_ecam *e, const struct uncore_reg *r,
			 volatile unsigned char **out)
{
	unsigned bus = UNCORE_BDF_BUS(r->bdf);
	if (bus < e->bus0 || bus >= e->bus0 + e->nbus) {
		return uncore_fail(
		    UNCORE_ENODEV,
		    "PCI bus %02x is outside the ECAM window of %s (buses %02x-%02x): "
		    "use PAPI_INTEL_UNCORE_PCI=sysfs",
		    bus, e->path, e->bus0, e->bus0 + e->nbus - 1);
	}
	unsigned char *w = e->bus[bus];
	if (!w) {
		int prot = PROT_READ | (e->writable ? PROT_WRITE : 0);
		off_t at = (off_t)(e->base + (uint64_t)(bus - e->bus0) * ECAM_BUS_BYTES);
		e->io.stats.syscalls++;
		void *m = mmap(NULL, ECAM_BUS_BYTES, prot, MAP_SHARED, e->fd, at);
		if (m == MAP_FAILED && (errno == EPERM || errno == EACCES))
			/* The kernel reserves the MMCONFIG window as a busy
			 * resource (arch/x86/pci/mmconfig-shared.c), and with
			 * CONFIG_IO_STRICT_DEVMEM /dev/mem refuses busy ranges
			 * even to root (drivers/char/mem.c, range_is_allowed;
			 * kernel/resource.c, iomem_is_exclusive). */
			return uncore_fail(
			    UNCORE_EPERM,
			    "mapping the ECAM window of PCI bus %02x (%s at 0x%llx): %s. The "
			    "kernel reserves the PCI MMCONFIG window (/proc/iomem) and, when "
			    "built with CONFIG_IO_STRICT_DEVMEM, refuses /dev/mem on it even to "
			    "root: boot with iomem=relaxed, or use the sysfs path "
			    "(PAPI_INTEL_UNCORE_PCI=sysfs, the default: one pread per register)",
			    bus, e->path, (unsigned long long)at, strerror(errno));
		if (m == MAP_FAILED)
			return uncore_fail(
			    uncore_error_from_errno(errno),
			    "mapping the ECAM window of PCI bus %02x (%s at 0x%llx): %s", bus,
			    e->path, (unsigned long long)at, strerror(errno));
		w = e->bus[bus] = m;
	}
	volatile unsigned char *f = w + ((r->bdf & 0xffu) << 12);
	/* An absent function reads all ones (PCIe Base 2.3.2: unsupported
	 * request completes with all 1s for a configuration read). */
	if (*(volatile uint32_t *)f == 0xffffffffu)
		return uncore_fail(UNCORE_ENODEV,
				   "PCI device %02x:%02x.%x is not present (all ones in its ECAM "
				   "configuration space): the platform, socket bus number or box "
				   "instance is wrong, or the BIOS hides the uncore devices",
				   bus, UNCORE_BDF_DEV(r->bdf), UNCORE_BDF_FN(r->bdf));
	*out = f;
	return 0;
}

/* A width-8 register is two dword loads, low then high, as a sysfs pread
 * of 8 bytes transfers it: not atomic (the reader keeps the torn-read
 * rule). */
static inline uint64_t ecam_load(volatile unsigned char *f, const struct uncore_reg *r)
{
	uint64_t lo = *(volatile uint32_t *)(f + r->addr);
	uint64_t hi = r->width == 8 ? *(volatile uint32_t *)(f + r->addr + 4) : 0;
	return hi << 32 | lo;
}

static int ecam_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	struct pci_ecam *e = io->impl;
	volatile unsigned char *f;
	int rc = pci_check_reg(r);
	if (rc || (rc = ecam_function(e, r, &f)))
		return rc;
	io->stats.reads++;
	*value = ecam_load(f, r);
	return 0;
}

/* Two reads (regio.h): the second's loads right after the first's; once
 * the function is mapped a load cannot fail. */
static int ecam_read_twice(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *first,
			   uint64_t *second)
{
	struct pci_ecam *e = io->impl;
	volatile unsigned char *f;
	int rc = pci_check_reg(r);
	if (rc || (rc = ecam_function(e, r, &f)))
		return rc;
	io->stats.reads += 2;
	*first = ecam_load(f, r);
	*second = ecam_load(f, r);
	return 0;
}

static int ecam_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	struct pci_ecam *e = io->impl;
	int rc = pci_check_reg(r);
	if (rc)
		return rc;
	if (r->width == 4 && value >> 32)
		return uncore_fail(UNCORE_EINVAL, "value 0x%" PRIx64 " does not fit a dword",
				   value);
	if (!e->writable)
		return uncore_fail(UNCORE_EPERM,
				   "write of PCI %02x:%02x.%x+0x%" PRIx64
				   ": %s is mapped read-only (writing needs root)",
				   UNCORE_BDF_BUS(r->bdf), UNCORE_BDF_DEV(r->bdf),
				   UNCORE_BDF_FN(r->bdf), r->addr, e->path);
	volatile unsigned char *f;
	if ((rc = ecam_function(e, r, &f)))
		return rc;
	io->stats.writes++;
	*(volatile uint32_t *)(f + r->addr) = (uint32_t)value;
	if (r->width == 8)
		*(volatile uint32_t *)(f + r->addr + 4) = (uint32_t)(value >> 32);
	return 0;
}

static void ecam_destroy(struct uncore_regio *io)
{
	struct pci_ecam *e = io->impl;
	for (unsigned b = 0; b < ECAM_MAX_BUSES; b++)
		if (e->bus[b])
			munmap(e->bus[b], ECAM_BUS_BYTES);
	if (e->fd >= 0)
		close(e->fd);
	free(e);
}

static const struct uncore_regio_ops pci_ecam_ops = {
    .name = "pci-ecam",
    .read = ecam_read,
    .write = ecam_write,
    .read_twice = ecam_read_twice,
    .destroy = ecam_destroy,
};

/* Segment 0's entry of the ACPI MCFG table (PCI Firmware Specification
 * 4.1.2: a 36-byte header, 8 reserved bytes, then 16-byte entries: base
 * address, segment, start bus, end bus, 4 reserved). */
static int mcfg_segment0(const char *path, uint64_t *base, unsigned *bus0, unsigned *bus1)
{
	unsigned char t[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return uncore_fail(uncore_error_from_errno(errno),
				   "cannot read the ACPI MCFG table %s: %s (reading it needs root)",
				   path, strerror(errno));
	ssize_t n = read(fd, t, sizeof(t));
	close(fd);
	for (ssize_t at = 44; n > 0 && at + 16 <= n; at += 16) {
		uint64_t b;
		memcpy(&b, t + at, 8);
		unsigned seg = (unsigned)t[at + 8] | (unsigned)t[at + 9] << 8;
		if (seg != 0)
			continue;
		*base = b;
		*bus0 = t[at + 10];
		*bus1 = t[at + 11];
		return 0;
	}
	return uncore_fail(UNCORE_ENODEV, "the ACPI MCFG table %s has no entry for PCI segment 0",
			   path);
}

/* The kernel's lockdown refuses /dev/mem to everyone ("[integrity]" or
 * "[confidentiality]" selected in the lockdown file). */
static int locked_down(const char *path)
{
	char buf[128] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return 0; /* no lockdown support: not locked down */
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "[none]") == NULL && strchr(buf, '[') != NULL;
}

int pci_ecam_open(const struct uncore_pci_options *opt, struct uncore_regio **out)
{
	const char *path = opt->ecam_path  ? opt->ecam_path
			   : opt->mem_path ? opt->mem_path
					   : UNCORE_PCI_ECAM_DEV;
	uint64_t base = opt->ecam_base;
	unsigned bus0 = opt->ecam_bus_start, bus1 = opt->ecam_bus_end;
	if (!opt->ecam_path) {
		const char *lock = opt->lockdown_path ? opt->lockdown_path : UNCORE_LOCKDOWN_PATH;
		if (locked_down(lock))
			return uncore_fail(UNCORE_ENOSUPP,
					   "ECAM: the kernel is locked down (%s): /dev/mem cannot "
					   "be mapped",
					   lock);
		int rc = mcfg_segment0(opt->mcfg_path ? opt->mcfg_path : UNCORE_ACPI_MCFG_PATH,
				       &base, &bus0, &bus1);
		if (rc < 0) {
			char why[400];
			snprintf(why, sizeof(why), "%s", uncore_error_detail());
			return uncore_fail(UNCORE_ENOSUPP, "ECAM: %s", why);
		}
	}
	if (bus1 < bus0 || bus1 >= ECAM_MAX_BUSES || (base & (ECAM_BUS_BYTES - 1)))
		return uncore_fail(UNCORE_ENOSUPP,
				   "ECAM: window at 0x%llx for buses %02x-%02x is not a valid "
				   "MCFG window",
				   (unsigned long long)base, bus0, bus1);
	struct pci_ecam *e = calloc(1, sizeof(*e));
	if (!e)
		return uncore_fail(UNCORE_ENOMEM, "pci: out of memory");
	snprintf(e->path, sizeof(e->path), "%s", path);
	e->writable = 1;
	e->fd = open(path, O_RDWR | O_CLOEXEC | O_SYNC);
	if (e->fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS)) {
		e->writable = 0;
		e->fd = open(path, O_RDONLY | O_CLOEXEC | O_SYNC);
	}
	if (e->fd < 0) {
		int err = errno;
		free(e);
		return uncore_fail(UNCORE_ENOSUPP, "ECAM: cannot open %s: %s%s", path,
				   strerror(err),
				   err == EACCES || err == EPERM ? " (mapping it needs root)" : "");
	}
	e->base = base;
	e->bus0 = bus0;
	e->nbus = bus1 - bus0 + 1;
	e->io.ops = &pci_ecam_ops;
	e->io.impl = e;
	*out = &e->io;
	return 0;
}
