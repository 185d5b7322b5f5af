/* The fake register-access implementation (see fake_regio.h).  Storage is a
 * plain growable array searched linearly: tests use a few hundred registers
 * at most, and clarity matters more than speed here. */
#include "fake_regio.h"

#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"

struct fake_cell {
	struct uncore_reg reg;
	uint64_t value;
};

struct fake_regio {
	struct uncore_regio io;
	struct fake_cell *cells;
	size_t ncells, cap_cells;
	struct fake_access *log;
	size_t nlog, cap_log;
	uint64_t default_value;
	unsigned long accesses;
	unsigned long fail_at; /* 0: no fault armed */
	int fail_code;
	int fail_sticky;
	/* fake_regio_fail_matching: a fault on matching accesses only */
	int sel_space, sel_op;
	unsigned long sel_seen, sel_at;
	int sel_code, sel_sticky;
};

static int same_reg(const struct uncore_reg *a, const struct uncore_reg *b)
{
	return a->space == b->space && a->socket == b->socket && a->bdf == b->bdf &&
	       a->addr == b->addr;
}

static struct fake_cell *find_cell(const struct fake_regio *f, const struct uncore_reg *r)
{
	for (size_t i = 0; i < f->ncells; i++)
		if (same_reg(&f->cells[i].reg, r))
			return &f->cells[i];
	return NULL;
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t ncap = *cap ? *cap * 2 : 64;
	while (ncap < need)
		ncap *= 2;
	void *np = realloc(p, ncap * size);
	if (!np)
		abort(); /* test helper: running out of memory is a test failure */
	*cap = ncap;
	return np;
}

void fake_regio_set(struct fake_regio *f, const struct uncore_reg *r, uint64_t value)
{
	struct fake_cell *c = find_cell(f, r);
	if (!c) {
		f->cells = grow(f->cells, &f->cap_cells, f->ncells + 1, sizeof(*f->cells));
		c = &f->cells[f->ncells++];
		c->reg = *r;
	}
	c->value = value;
}

uint64_t fake_regio_get(const struct fake_regio *f, const struct uncore_reg *r)
{
	const struct fake_cell *c = find_cell(f, r);
	return c ? c->value : f->default_value;
}

void fake_regio_set_default(struct fake_regio *f, uint64_t value)
{
	f->default_value = value;
}

void fake_regio_fail_at(struct fake_regio *f, unsigned long nth, int code, int sticky)
{
	f->fail_at = nth ? f->accesses + nth : 0;
	f->fail_code = code;
	f->fail_sticky = sticky;
}

static void log_access(struct fake_regio *f, char op, const struct uncore_reg *r, uint64_t v,
		       size_t n, int rc)
{
	f->log = grow(f->log, &f->cap_log, f->nlog + 1, sizeof(*f->log));
	struct fake_access *a = &f->log[f->nlog++];
	memset(a, 0, sizeof(*a));
	a->op = op;
	if (r)
		a->reg = *r;
	a->value = v;
	a->n = n;
	a->rc = rc;
}

void fake_regio_fail_matching(struct fake_regio *f, int space, int op, unsigned long nth, int code,
			      int sticky)
{
	f->sel_space = space;
	f->sel_op = op;
	f->sel_seen = 0;
	f->sel_at = nth;
	f->sel_code = code;
	f->sel_sticky = sticky;
}

/* The fault (or 0) for the access being made now. */
static int injected(struct fake_regio *f, char op, const struct uncore_reg *r)
{
	f->accesses++;
	if (f->sel_at && (f->sel_space < 0 || f->sel_space == r->space) &&
	    (!f->sel_op || f->sel_op == op)) {
		f->sel_seen++;
		if (f->sel_seen == f->sel_at || (f->sel_sticky && f->sel_seen > f->sel_at))
			return uncore_fail(f->sel_code,
					   "fake regio: injected fault on %s %c access %lu",
					   r->space == UNCORE_SPACE_MMIO  ? "MMIO"
					   : r->space == UNCORE_SPACE_PCI ? "PCI"
									  : "MSR",
					   op, f->sel_seen);
	}
	if (!f->fail_at || f->accesses < f->fail_at)
		return 0;
	if (f->accesses == f->fail_at || f->fail_sticky)
		return uncore_fail(f->fail_code, "fake regio: injected fault on access %lu",
				   f->accesses);
	return 0;
}

static int fake_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	struct fake_regio *f = io->impl;
	int rc = injected(f, FAKE_READ, r);
	uint64_t v = rc ? 0 : fake_regio_get(f, r);
	if (!rc && r->space == UNCORE_SPACE_PCI && r->width == 8) {
		/* Config space is dwords: an 8-byte read is the one at addr
		 * and the one above it (access/pci_cfg.h), as sysfs gives it. */
		struct uncore_reg hi = *r;
		hi.addr += 4;
		v = (v & 0xffffffffu) | fake_regio_get(f, &hi) << 32;
	}
	log_access(f, FAKE_READ, r, v, 0, rc);
	io->stats.reads++;
	io->stats.syscalls++;
	if (rc)
		return rc;
	*value = v;
	return 0;
}

static int fake_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	struct fake_regio *f = io->impl;
	int rc = injected(f, FAKE_WRITE, r);
	log_access(f, FAKE_WRITE, r, value, 0, rc);
	io->stats.writes++;
	io->stats.syscalls++;
	if (rc)
		return rc;
	fake_regio_set(f, r, value);
	return 0;
}

/* A batch: one "system call", each op made in order even when another
 * failed (the regio batch contract), each with its own injected fault. */
static int fake_batch(struct uncore_regio *io, struct uncore_regio_op *ops, size_t n)
{
	struct fake_regio *f = io->impl;
	log_access(f, FAKE_BATCH, NULL, 0, n, 0);
	io->stats.syscalls++;
	int first_rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct uncore_regio_op *op = &ops[i];
		int rc = injected(f, op->write ? FAKE_WRITE : FAKE_READ, &op->reg);
		if (op->write) {
			log_access(f, FAKE_WRITE, &op->reg, op->value, 0, rc);
			io->stats.writes++;
			if (!rc)
				fake_regio_set(f, &op->reg, op->value);
		} else {
			uint64_t v = rc ? 0 : fake_regio_get(f, &op->reg);
			log_access(f, FAKE_READ, &op->reg, v, 0, rc);
			io->stats.reads++;
			if (!rc)
				op->value = v;
		}
		op->err = rc;
		if (rc && !first_rc)
			first_rc = rc;
	}
	return first_rc;
}

static void fake_destroy(struct uncore_regio *io)
{
	struct fake_regio *f = io->impl;
	free(f->cells);
	free(f->log);
	free(f);
}

static const struct uncore_regio_ops fake_ops = {
    .name = "fake",
    .read = fake_read,
    .write = fake_write,
    .destroy = fake_destroy,
};

static const struct uncore_regio_ops fake_batch_ops = {
    .name = "fake-batch",
    .read = fake_read,
    .write = fake_write,
    .batch = fake_batch,
    .destroy = fake_destroy,
};

struct uncore_regio *fake_regio_create(int with_batch)
{
	struct fake_regio *f = calloc(1, sizeof(*f));
	if (!f)
		abort();
	f->io.ops = with_batch ? &fake_batch_ops : &fake_ops;
	f->io.impl = f;
	return &f->io;
}

struct fake_regio *fake_regio_of(struct uncore_regio *io)
{
	return io->impl;
}

const struct fake_access *fake_regio_log(const struct fake_regio *f, size_t *n)
{
	*n = f->nlog;
	return f->log;
}

void fake_regio_clear_log(struct fake_regio *f)
{
	f->nlog = 0;
}

size_t fake_regio_count(const struct fake_regio *f, int op, int space)
{
	size_t n = 0;
	for (size_t i = 0; i < f->nlog; i++)
		n += (!op || f->log[i].op == op) && (space < 0 || f->log[i].reg.space == space);
	return n;
}

unsigned long fake_regio_accesses(const struct fake_regio *f)
{
	return f->accesses;
}
