/* The /dev/mem MMIO backend (see mmio.h).  mmap needs a page-aligned file
 * offset, so the window is widened to whole pages and registers are found at
 * (addr - map_base) inside it.  /dev/mem is opened with O_SYNC so the
 * mapping is uncached, as device registers must be. */
#include "access/mmio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/uncore_error.h"

struct mmio {
	struct uncore_regio io;
	volatile uint8_t *map;
	uint64_t map_base, map_len; /* page-aligned */
	uint64_t first, end;        /* the range asked for: [first, end) */
	char path[256];
};

static int mmio_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	struct mmio *m = io->impl;
	if (r->space != UNCORE_SPACE_MMIO || (r->width != 4 && r->width != 8) ||
	    (r->addr & (r->width - 1u)))
		return uncore_fail(UNCORE_EINVAL,
				   "mmio: want an aligned 4- or 8-byte MMIO register, got space %u "
				   "width %u at 0x%" PRIx64,
				   r->space, r->width, r->addr);
	if (r->addr < m->first || r->addr + r->width > m->end)
		return uncore_fail(UNCORE_ERANGE,
				   "mmio: 0x%" PRIx64 " is outside the mapped range 0x%" PRIx64
				   "..0x%" PRIx64,
				   r->addr, m->first, m->end - 1);
	volatile uint8_t *p = m->map + (r->addr - m->map_base);
	io->stats.reads++;
	/* One load of the register's width: a device register is not memory. */
	if (r->width == 4)
		*value = *(volatile uint32_t *)p;
	else
		*value = *(volatile uint64_t *)p;
	return 0;
}

static int mmio_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	(void)io;
	char name[64];
	uncore_reg_format(r, name, sizeof(name));
	return uncore_fail(UNCORE_EDENIED,
			   "write of 0x%" PRIx64 " to %s refused: the MMIO backend is read-only "
			   "(the client IMC counters are free-running, read-only counters)",
			   value, name);
}

static void mmio_destroy(struct uncore_regio *io)
{
	struct mmio *m = io->impl;
	munmap((void *)m->map, m->map_len);
	free(m);
}

static const struct uncore_regio_ops mmio_ops = {
    .name = "mmio",
    .read = mmio_read,
    .write = mmio_write,
    .destroy = mmio_destroy,
};

static int open_fail(int err, const char *path, uint64_t phys)
{
	if (err == EACCES || err == EPERM)
		return uncore_fail(
		    UNCORE_EPERM,
		    "%s at 0x%" PRIx64 ": %s. Reading MMIO counters needs root "
		    "(CAP_SYS_RAWIO); a kernel built with IO_STRICT_DEVMEM also refuses "
		    "ranges a driver has claimed (boot with iomem=relaxed), and a locked-down "
		    "kernel (Secure Boot, /sys/kernel/security/lockdown) refuses /dev/mem to "
		    "everyone: use the perf backend there",
		    path, phys, strerror(err));
	if (err == ENOENT)
		return uncore_fail(UNCORE_ENODEV, "%s does not exist (kernel without /dev/mem?)",
				   path);
	return uncore_fail(uncore_error_from_errno(err), "%s at 0x%" PRIx64 ": %s", path, phys,
			   strerror(err));
}

int uncore_mmio_open(const char *mem_path, uint64_t phys, uint64_t len, struct uncore_regio **out)
{
	const char *path = mem_path ? mem_path : UNCORE_MMIO_DEV_MEM;
	long page = sysconf(_SC_PAGESIZE);
	if (!out || len == 0 || phys + len < phys || page <= 0)
		return uncore_fail(UNCORE_EINVAL, "mmio: bad range 0x%" PRIx64 " + 0x%" PRIx64,
				   phys, len);
	uint64_t base = phys & ~((uint64_t)page - 1);
	uint64_t map_len = (phys + len - base + (uint64_t)page - 1) & ~((uint64_t)page - 1);

	struct mmio *m = calloc(1, sizeof(*m));
	if (!m)
		return uncore_fail(UNCORE_ENOMEM, "mmio: out of memory");
	int fd = open(path, O_RDONLY | O_SYNC | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		free(m);
		return open_fail(e, path, phys);
	}
	void *map = mmap(NULL, map_len, PROT_READ, MAP_SHARED, fd, (off_t)base);
	int e = errno;
	close(fd);
	if (map == MAP_FAILED) {
		free(m);
		return open_fail(e, path, phys);
	}
	snprintf(m->path, sizeof(m->path), "%s", path);
	m->map = map;
	m->map_base = base;
	m->map_len = map_len;
	m->first = phys;
	m->end = phys + len;
	m->io.ops = &mmio_ops;
	m->io.impl = m;
	m->io.stats.syscalls = 3; /* open, mmap, close; register reads make none */
	*out = &m->io;
	return 0;
}

void uncore_mmio_window(const struct uncore_regio *io, uint64_t *map_base, uint64_t *map_len)
{
	const struct mmio *m = io && io->ops == &mmio_ops ? io->impl : NULL;
	*map_base = m ? m->map_base : 0;
	*map_len = m ? m->map_len : 0;
}
