/* PCI configuration space through libpci, loaded with dlopen (see
 * pci_cfg.h).  Only the headers are needed at build time.
 *
 * libpci reports fatal errors through pci_access.error, which must not
 * return (the header declares it noreturn; its default prints and ends the
 * process).  A library must never end the process, so:
 *  1. we use the linux-sysfs method explicitly (no probing of other
 *     methods, no port I/O) after checking libpci has it;
 *  2. we never call the functions whose failures are fatal (pci_scan_bus,
 *     pci_fill_info, pci_read_long/word with their alignment check): only
 *     pci_get_dev and pci_read_block, whose sysfs path fails with a warning
 *     and a 0 result;
 *  3. we check first what libpci would otherwise find fatal: the device's
 *     config file exists, offsets are aligned and in range, the path fits
 *     libpci's 1024-byte buffer;
 *  4. what no check can exclude (malloc failing inside libpci) still reaches
 *     error(): ours then longjmps back to the guard that lp_call() sets
 *     around every libpci call (the only way we call into libpci), and the
 *     instance refuses all further use (UNCORE_EIO).  Only a
 *     malloc failure inside pci_alloc itself, before any handler can be
 *     installed, is beyond our reach.
 * Warnings are kept (with errno) for our error details, never printed.
 *
 * libpci finds each device and reads its IDs at the device's first access;
 * the registers are then read and written through our sysfs method, which
 * keeps the device's config file open (libpci's linux-sysfs method keeps
 * one descriptor, for the device used last, and would close and reopen a
 * file at every switch between devices: every access of a read). */
#include "access/pci_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/uncore_error.h"

#if defined(__has_include)
#if __has_include(<pci/pci.h>)
#define HAVE_LIBPCI_HEADERS 1
#endif
#endif

#ifndef HAVE_LIBPCI_HEADERS

int pci_libpci_open(const char *root, const char *soname, struct uncore_regio **out)
{
	(void)root;
	(void)out;
	return uncore_fail(UNCORE_ENOSUPP,
			   "built without the libpci headers: install libpci-dev and rebuild to "
			   "use %s",
			   soname);
}

int uncore_pci_cfg_provoke_libpci_error(struct uncore_regio *io, uint32_t bdf)
{
	(void)io;
	(void)bdf;
	return uncore_fail(UNCORE_ENOSUPP, "built without libpci");
}

#else

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pci/pci.h>
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>

struct libpci_api {
	struct pci_access *(*alloc)(void);
	void (*init)(struct pci_access *);
	void (*cleanup)(struct pci_access *);
	int (*lookup_method)(char *);
	int (*set_param)(struct pci_access *, char *, char *);
	struct pci_dev *(*get_dev)(struct pci_access *, int, int, int, int);
	int (*read_block)(struct pci_dev *, int, u8 *, int);
	u16 (*read_word)(struct pci_dev *, int);
	void (*free_dev)(struct pci_dev *);
};

struct lp_dev {
	uint32_t bdf;
	struct pci_dev *dev;
};

struct pci_libpci {
	struct uncore_regio io;
	void *handle;
	struct libpci_api api;
	struct pci_access *acc;
	struct lp_dev *dev;
	size_t ndev, cap;
	uint64_t found[65536 / 64]; /* by bdf: libpci found the device */
	struct uncore_regio *cfg;   /* the registers: pci-sysfs, descriptors kept */
	uint64_t lp_syscalls;       /* those libpci made, counted from its model */
	int broken;                 /* libpci reached its fatal error handler */
	char root[256];
};

/* The guard of the libpci call in progress on this thread, and what libpci
 * last said. */
static _Thread_local sigjmp_buf *lp_guard;
static _Thread_local char lp_message[256];
static _Thread_local int lp_errno;

__attribute__((noreturn, format(printf, 1, 2))) static void lp_error(char *msg, ...)
{
	lp_errno = errno;
	va_list ap;
	va_start(ap, msg);
	vsnprintf(lp_message, sizeof(lp_message), msg, ap);
	va_end(ap);
	/* libpci calls error() only from inside its own functions, and we call
	 * those only through lp_call(), which sets the guard first on this
	 * thread: the guard is always there. */
	siglongjmp(*lp_guard, 1);
}

static void lp_warning(char *msg, ...)
{
	lp_errno = errno;
	va_list ap;
	va_start(ap, msg);
	vsnprintf(lp_message, sizeof(lp_message), msg, ap);
	va_end(ap);
}

static int lp_broken(struct pci_libpci *p)
{
	p->broken = 1;
	return uncore_fail(UNCORE_EIO,
			   "libpci failed fatally (\"%s\"); this PCI access instance is no longer "
			   "usable: reopen it, or use the sysfs method",
			   lp_message);
}

/* One call into libpci, described in memory so that nothing lives in
 * registers across the guard's sigsetjmp. */
enum lp_op {
	LP_ALLOC,
	LP_INIT,
	LP_SET_PARAM,
	LP_GET_DEV,
	LP_READ,
	LP_READ_WORD,
	LP_FREE_DEV,
	LP_CLEANUP
};

struct lp_call {
	enum lp_op op;
	struct pci_dev *dev;
	int a, b, c; /* GET_DEV: bus, dev, fn; READ/READ_WORD: pos, len */
	void *buf;
	char *param, *value;
	long result;      /* the call's int result */
	void *result_ptr; /* ALLOC, GET_DEV */
};

static void lp_dispatch(struct pci_libpci *p, struct lp_call *c)
{
	const struct libpci_api *api = &p->api;
	switch (c->op) {
	case LP_ALLOC:
		c->result_ptr = api->alloc();
		break;
	case LP_INIT:
		api->init(p->acc);
		break;
	case LP_SET_PARAM:
		c->result = api->set_param(p->acc, c->param, c->value);
		break;
	case LP_GET_DEV:
		c->result_ptr = api->get_dev(p->acc, 0, c->a, c->b, c->c);
		break;
	case LP_READ:
		c->result = api->read_block(c->dev, c->a, c->buf, c->b);
		break;
	case LP_READ_WORD:
		c->result = api->read_word(c->dev, c->a);
		break;
	case LP_FREE_DEV:
		api->free_dev(c->dev);
		break;
	case LP_CLEANUP:
		api->cleanup(p->acc);
		break;
	}
}

/* Make the call under a guard: 0, or lp_broken()'s code when libpci
 * reached its fatal error handler. */
static int lp_call(struct pci_libpci *p, struct lp_call *c)
{
	sigjmp_buf jb;
	sigjmp_buf *volatile prev = lp_guard;
	lp_guard = &jb;
	if (sigsetjmp(jb, 0) == 0) {
		lp_dispatch(p, c);
		lp_guard = prev;
		return 0;
	}
	lp_guard = prev;
	return lp_broken(p);
}

static int load_api(void *h, struct libpci_api *a)
{
	/* Casting dlsym's void* to a function pointer is what POSIX requires. */
#define LP_SYM(field, name)                                                                        \
	do {                                                                                       \
		*(void **)&a->field = dlsym(h, name);                                              \
		if (!a->field)                                                                     \
			return uncore_fail(UNCORE_ENOSUPP, "libpci lacks %s", name);               \
	} while (0)
	LP_SYM(alloc, "pci_alloc");
	LP_SYM(init, "pci_init");
	LP_SYM(cleanup, "pci_cleanup");
	LP_SYM(lookup_method, "pci_lookup_method");
	LP_SYM(set_param, "pci_set_param");
	LP_SYM(get_dev, "pci_get_dev");
	LP_SYM(read_block, "pci_read_block");
	LP_SYM(read_word, "pci_read_word");
	LP_SYM(free_dev, "pci_free_dev");
#undef LP_SYM
	return 0;
}

/* libpci's device for bdf, made on first use after checking it exists. */
static int lp_dev(struct pci_libpci *p, uint32_t bdf, struct pci_dev **out)
{
	for (size_t i = 0; i < p->ndev; i++)
		if (p->dev[i].bdf == bdf) {
			*out = p->dev[i].dev;
			return 0;
		}
	int rc = pci_device_present(p->root, bdf);
	if (rc)
		return rc;
	if (p->ndev == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct lp_dev *nd = realloc(p->dev, cap * sizeof(*nd));
		if (!nd)
			return uncore_fail(UNCORE_ENOMEM, "pci: out of memory");
		p->dev = nd;
		p->cap = cap;
	}
	struct lp_call c = {.op = LP_GET_DEV,
			    .a = (int)UNCORE_BDF_BUS(bdf),
			    .b = (int)UNCORE_BDF_DEV(bdf),
			    .c = (int)UNCORE_BDF_FN(bdf)};
	rc = lp_call(p, &c);
	if (rc)
		return rc;
	p->dev[p->ndev++] = (struct lp_dev){.bdf = bdf, .dev = c.result_ptr};
	*out = c.result_ptr;
	return 0;
}

/* A device's first access: libpci finds it and reads its vendor and device
 * IDs (its linux-sysfs method opens the config file, closing the one of
 * the device before: 2 or 3 system calls, counted from that model). */
static int lp_find(struct pci_libpci *p, uint32_t bdf)
{
	struct pci_dev *d;
	uint32_t id = 0;
	int rc = lp_dev(p, bdf, &d);
	if (rc)
		return rc;
	struct lp_call c = {.op = LP_READ, .dev = d, .a = 0, .b = 4, .buf = &id};
	lp_errno = 0;
	p->lp_syscalls += p->ndev > 1 ? 3 : 2;
	rc = lp_call(p, &c);
	if (rc)
		return rc;
	if (!c.result) {
		struct uncore_reg r = {.space = UNCORE_SPACE_PCI, .width = 4, .bdf = bdf};
		return pci_diagnose(p->root, &r, lp_errno, "read");
	}
	p->found[bdf >> 6] |= UINT64_C(1) << (bdf & 63);
	return 0;
}

static int lp_access(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value,
		     int write)
{
	struct pci_libpci *p = io->impl;
	int rc;
	if (p->broken)
		return uncore_fail(UNCORE_EIO,
				   "libpci failed fatally earlier (\"%s\"): reopen the "
				   "PCI access",
				   lp_message);
	if ((rc = pci_check_reg(r)))
		return rc;
	if (!(p->found[r->bdf >> 6] >> (r->bdf & 63) & 1) && (rc = lp_find(p, r->bdf)))
		return rc;
	if (write && r->width == 4 && *value >> 32)
		return uncore_fail(UNCORE_EINVAL, "value 0x%" PRIx64 " does not fit a dword",
				   *value);
	if (write) {
		io->stats.writes++;
		rc = uncore_regio_write(p->cfg, r, *value);
	} else {
		io->stats.reads++;
		rc = uncore_regio_read(p->cfg, r, value);
	}
	io->stats.syscalls = p->cfg->stats.syscalls + p->lp_syscalls;
	return rc;
}

static int lp_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	return lp_access(io, r, value, 0);
}

static int lp_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	return lp_access(io, r, &value, 1);
}

static void lp_destroy(struct uncore_regio *io)
{
	struct pci_libpci *p = io->impl;
	/* Devices from pci_get_dev are not on libpci's list: free them first.
	 * Also after a fatal error: libpci raises those before changing its
	 * state, and the guard still catches a second one. */
	for (size_t i = 0; i < p->ndev; i++) {
		struct lp_call c = {.op = LP_FREE_DEV, .dev = p->dev[i].dev};
		(void)lp_call(p, &c);
	}
	struct lp_call c = {.op = LP_CLEANUP};
	(void)lp_call(p, &c);
	uncore_regio_destroy(p->cfg);
	free(p->dev);
	dlclose(p->handle);
	free(p);
}

static const struct uncore_regio_ops pci_libpci_ops = {
    .name = "pci-libpci",
    .read = lp_read,
    .write = lp_write,
    .destroy = lp_destroy,
};

int pci_libpci_open(const char *root, const char *soname, struct uncore_regio **out)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return uncore_fail(UNCORE_ENOSUPP,
				   "cannot load %s (%s): install libpci (Debian/Ubuntu: apt-get "
				   "install libpci3)",
				   soname, dlerror());
	struct pci_libpci *p = calloc(1, sizeof(*p));
	if (!p) {
		dlclose(h);
		return uncore_fail(UNCORE_ENOMEM, "pci: out of memory");
	}
	p->handle = h;
	snprintf(p->root, sizeof(p->root), "%s", root);
	p->io.ops = &pci_libpci_ops;
	p->io.impl = p;
	int rc = load_api(h, &p->api);
	int method = -1;
	if (rc == 0) {
		char sysfs[] = "linux-sysfs";
		method = p->api.lookup_method(sysfs);
		if (method < 0)
			rc = uncore_fail(UNCORE_ENOSUPP, "%s has no linux-sysfs access method",
					 soname);
	}
	struct lp_call c = {.op = LP_ALLOC};
	if (rc == 0)
		rc = pci_sysfs_open(root, "", &p->cfg);
	if (rc == 0)
		rc = lp_call(p, &c);
	struct pci_access *acc = c.result_ptr;
	if (rc == 0 && !acc)
		rc = uncore_fail(UNCORE_ENOMEM, "pci_alloc failed");
	if (rc) {
		uncore_regio_destroy(p->cfg);
		dlclose(h);
		free(p);
		return rc;
	}
	acc->method = (unsigned)method;
	acc->writeable = 0; /* libpci only reads (the IDs); writes go through sysfs */
	/* Not debugging: pci_init replaces the debug callback with its own silent
	 * one, so none of ours would ever be called (libpci lib/init.c,
	 * pci_init_internal). */
	acc->debugging = 0;
	acc->error = lp_error;
	acc->warning = lp_warning;
	p->acc = acc;
	/* Point the method at our root (tests use fake trees); a libpci that
	 * predates parameters keeps /sys/bus/pci. */
	char rootbuf[256], name[] = "sysfs.path";
	snprintf(rootbuf, sizeof(rootbuf), "%s", root);
	struct lp_call set = {.op = LP_SET_PARAM, .param = name, .value = rootbuf};
	struct lp_call init = {.op = LP_INIT};
	rc = lp_call(p, &set);
	if (rc == 0)
		rc = lp_call(p, &init);
	if (rc) {
		uncore_regio_destroy(p->cfg);
		free(p->dev);
		dlclose(h);
		free(p);
		return rc;
	}
	*out = &p->io;
	return 0;
}

int uncore_pci_cfg_provoke_libpci_error(struct uncore_regio *io, uint32_t bdf)
{
	if (!io || io->ops != &pci_libpci_ops)
		return uncore_fail(UNCORE_ENOSUPP, "not a pci-libpci regio");
	struct pci_libpci *p = io->impl;
	struct pci_dev *d;
	int rc = lp_dev(p, bdf, &d);
	if (rc)
		return rc;
	/* pci_read_word at an odd offset: libpci's "Unaligned read" is fatal. */
	struct lp_call c = {.op = LP_READ_WORD, .dev = d, .a = 1};
	rc = lp_call(p, &c);
	return rc ? rc : uncore_fail(UNCORE_EIO, "libpci did not fail");
}

#endif
