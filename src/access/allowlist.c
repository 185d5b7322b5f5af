/* The write allowlist decorator (see allowlist.h).  Entries are kept in an
 * array and searched linearly: writes happen when an event set is
 * programmed, not on the read path, and a platform lists well under a few
 * hundred ranges.  Reads are not checked unless RESTRICT_READS is asked
 * for: reading a PMON register has no side effect, the device layer already
 * refuses registers that do not exist, and the read path stays one indirect
 * call. */
#include "access/allowlist.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"

struct allow_entry {
	uint8_t space;
	uint32_t unit;
	uint64_t first, last;
	uint64_t mask;
};

struct uncore_allowlist {
	struct allow_entry *e;
	size_t n, cap;
};

struct allow_wrapper {
	struct uncore_regio io;
	struct uncore_allowlist list;
	struct uncore_regio *inner;
	unsigned flags;
	uint64_t refused;
};

int uncore_allowlist_create(struct uncore_allowlist **out)
{
	struct uncore_allowlist *al = calloc(1, sizeof(*al));
	if (!al)
		return uncore_fail(UNCORE_ENOMEM, "allowlist: out of memory");
	*out = al;
	return 0;
}

void uncore_allowlist_free(struct uncore_allowlist *al)
{
	if (!al)
		return;
	free(al->e);
	free(al);
}

int uncore_allowlist_add_range(struct uncore_allowlist *al, enum uncore_space space, uint32_t unit,
			       uint64_t first, uint64_t last, uint64_t write_mask)
{
	if (space > UNCORE_SPACE_MMIO || first > last)
		return uncore_fail(UNCORE_EINVAL,
				   "allowlist: bad entry (space %u, 0x%" PRIx64 "..0x%" PRIx64 ")",
				   (unsigned)space, first, last);
	if (space != UNCORE_SPACE_MSR && write_mask > 0xffffffffu)
		return uncore_fail(UNCORE_EINVAL,
				   "allowlist: PCI/MMIO entries are dwords; mask 0x%" PRIx64
				   " has bits above 31",
				   write_mask);
	if (al->n == al->cap) {
		size_t ncap = al->cap ? al->cap * 2 : 32;
		struct allow_entry *ne = realloc(al->e, ncap * sizeof(*ne));
		if (!ne)
			return uncore_fail(UNCORE_ENOMEM, "allowlist: out of memory");
		al->e = ne;
		al->cap = ncap;
	}
	al->e[al->n++] = (struct allow_entry){
	    .space = (uint8_t)space,
	    .unit = unit,
	    .first = first,
	    .last = last,
	    .mask = write_mask,
	};
	return 0;
}

static uint32_t unit_of(const struct uncore_reg *r)
{
	return r->space == UNCORE_SPACE_PCI ? r->bdf : r->socket;
}

int uncore_allowlist_add(struct uncore_allowlist *al, const struct uncore_reg *r,
			 uint64_t write_mask)
{
	return uncore_allowlist_add_range(al, (enum uncore_space)r->space, unit_of(r), r->addr,
					  r->addr, write_mask);
}

int uncore_allowlist_add_regs(struct uncore_allowlist *al, const struct uncore_reg *r,
			      const uint64_t *mask, unsigned n)
{
	int rc = 0;
	for (unsigned i = 0; i < n && rc == 0; i++)
		rc = uncore_allowlist_add(al, &r[i], mask[i]);
	return rc;
}

size_t uncore_allowlist_size(const struct uncore_allowlist *al)
{
	return al->n;
}

/* The union of the masks of every entry containing (space, unit, addr), and
 * whether any entry contains it at all. */
static int lookup(const struct uncore_allowlist *al, uint8_t space, uint32_t unit, uint64_t addr,
		  uint64_t *mask)
{
	int found = 0;
	*mask = 0;
	for (size_t i = 0; i < al->n; i++) {
		const struct allow_entry *e = &al->e[i];
		if (e->space != space || addr < e->first || addr > e->last)
			continue;
		if (e->unit != UNCORE_ALLOWLIST_ANY_UNIT && e->unit != unit)
			continue;
		found = 1;
		*mask |= e->mask;
	}
	return found;
}

/* Check one register-sized piece: an MSR, or one dword of PCI/MMIO space. */
static int check_piece(const struct uncore_allowlist *al, const struct uncore_reg *r, uint64_t addr,
		       uint64_t value)
{
	char name[64];
	struct uncore_reg piece = *r;
	uint64_t mask;

	piece.addr = addr;
	/* The name is formatted only for a refusal: allowed writes include the
	 * per-read freeze and unfreeze. */
	if (!lookup(al, r->space, unit_of(r), addr, &mask)) {
		uncore_reg_format(&piece, name, sizeof(name));
		return uncore_fail(UNCORE_EDENIED,
				   "write of 0x%" PRIx64 " to %s refused: the register is not in "
				   "the allowlist of PMON registers",
				   value, name);
	}
	if (value & ~mask) {
		uncore_reg_format(&piece, name, sizeof(name));
		return uncore_fail(UNCORE_EDENIED,
				   "write of 0x%" PRIx64 " to %s refused: bits 0x%" PRIx64
				   " are outside the writable mask 0x%" PRIx64,
				   value, name, value & ~mask, mask);
	}
	return 0;
}

int uncore_allowlist_check_write(const struct uncore_allowlist *al, const struct uncore_reg *r,
				 uint64_t value)
{
	if (r->space == UNCORE_SPACE_MSR)
		return check_piece(al, r, r->addr, value);
	/* PCI and MMIO are byte-addressed: check each dword the access covers. */
	if ((r->width != 4 && r->width != 8) || (r->addr & 3))
		return uncore_fail(UNCORE_EDENIED,
				   "write refused: width %u at 0x%" PRIx64
				   " is not an aligned dword or qword",
				   r->width, r->addr);
	if (r->width == 4 && (value >> 32))
		return check_piece(al, r, r->addr, value); /* reports the high bits */
	int rc = check_piece(al, r, r->addr, value & 0xffffffffu);
	if (rc == 0 && r->width == 8)
		rc = check_piece(al, r, r->addr + 4, value >> 32);
	return rc;
}

static int check_read(const struct allow_wrapper *w, const struct uncore_reg *r)
{
	uint64_t mask;
	char name[64];
	if (!(w->flags & UNCORE_ALLOWLIST_RESTRICT_READS))
		return 0;
	if (lookup(&w->list, r->space, unit_of(r), r->addr, &mask))
		return 0;
	uncore_reg_format(r, name, sizeof(name));
	return uncore_fail(UNCORE_EDENIED,
			   "read of %s refused: the register is not in the allowlist of PMON "
			   "registers",
			   name);
}

static int wrap_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	struct allow_wrapper *w = io->impl;
	io->stats.reads++;
	int rc = check_read(w, r);
	if (rc) {
		w->refused++;
		return rc;
	}
	rc = uncore_regio_read(w->inner, r, value);
	io->stats.syscalls = w->inner->stats.syscalls;
	return rc;
}

/* The list's verdict on one op of a batch: 0 or UNCORE_EDENIED. */
static int check_op(const struct allow_wrapper *w, const struct uncore_regio_op *op)
{
	return op->write ? uncore_allowlist_check_write(&w->list, &op->reg, op->value)
			 : check_read(w, &op->reg);
}

/* A batch passes whole when the list allows every op; otherwise the ops
 * refused never reach the device and the others are made one by one, in
 * order (the batch contract: each op made even when another failed). */
static int wrap_batch(struct uncore_regio *io, struct uncore_regio_op *ops, size_t n)
{
	struct allow_wrapper *w = io->impl;
	size_t i = 0;
	for (; i < n; i++) {
		io->stats.writes += ops[i].write != 0;
		io->stats.reads += ops[i].write == 0;
	}
	for (i = 0; i < n && check_op(w, &ops[i]) == 0; i++)
		;
	if (i == n) {
		int rc = uncore_regio_batch(w->inner, ops, n);
		io->stats.syscalls = w->inner->stats.syscalls;
		return rc;
	}
	struct uncore_saved_error first = {0};
	for (i = 0; i < n; i++) {
		struct uncore_regio_op *op = &ops[i];
		op->err = check_op(w, op);
		if (op->err)
			w->refused++;
		else
			op->err = op->write ? uncore_regio_write(w->inner, &op->reg, op->value)
					    : uncore_regio_read(w->inner, &op->reg, &op->value);
		if (op->err && !first.code)
			uncore_error_save(&first, op->err);
	}
	io->stats.syscalls = w->inner->stats.syscalls;
	return uncore_error_restore(&first);
}

static int wrap_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	struct allow_wrapper *w = io->impl;
	io->stats.writes++;
	int rc = uncore_allowlist_check_write(&w->list, r, value);
	if (rc) {
		w->refused++;
		return rc;
	}
	rc = uncore_regio_write(w->inner, r, value);
	io->stats.syscalls = w->inner->stats.syscalls;
	return rc;
}

/* A programming sequence: each write checked and made in turn, as n
 * wrap_write calls stopping at a failure make them (a refused write stops
 * the sequence before it reaches the device). */
static int wrap_write_seq(struct uncore_regio *io, const struct uncore_regio_op *ops, size_t n,
			  size_t *done)
{
	int rc = 0;
	size_t i = 0;
	for (; i < n; i++)
		if ((rc = wrap_write(io, &ops[i].reg, ops[i].value)) < 0)
			break;
	*done = i;
	return rc;
}

static void wrap_destroy(struct uncore_regio *io)
{
	struct allow_wrapper *w = io->impl;
	if (w->flags & UNCORE_ALLOWLIST_OWN_INNER)
		uncore_regio_destroy(w->inner);
	free(w->list.e);
	free(w);
}

static const struct uncore_regio_ops allowlist_ops = {
    .name = "allowlist",
    .read = wrap_read,
    .write = wrap_write,
    .batch = wrap_batch,
    .write_seq = wrap_write_seq,
    /* No read_twice: the list wraps MSR devices (their reads do not
     * tear) and the views used for writes; two reads go through
     * wrap_read (regio.h). */
    .destroy = wrap_destroy,
};

static _Atomic unsigned long wraps;

unsigned long uncore_allowlist_wraps(void)
{
	return wraps;
}

int uncore_allowlist_wrap(const struct uncore_allowlist *al, struct uncore_regio *inner,
			  unsigned flags, struct uncore_regio **out)
{
	if (!al || !inner || !out)
		return uncore_fail(UNCORE_EINVAL, "allowlist wrap: NULL argument");
	struct allow_wrapper *w = calloc(1, sizeof(*w));
	if (!w)
		return uncore_fail(UNCORE_ENOMEM, "allowlist: out of memory");
	if (al->n) {
		w->list.e = malloc(al->n * sizeof(*w->list.e));
		if (!w->list.e) {
			free(w);
			return uncore_fail(UNCORE_ENOMEM, "allowlist: out of memory");
		}
		memcpy(w->list.e, al->e, al->n * sizeof(*w->list.e));
	}
	w->list.n = w->list.cap = al->n;
	w->inner = inner;
	w->flags = flags;
	w->io.ops = &allowlist_ops;
	w->io.impl = w;
	w->io.stats.syscalls = inner->stats.syscalls;
	*out = &w->io;
	wraps++;
	return 0;
}

int uncore_allowlist_wrap_regs(const struct uncore_reg *r, const uint64_t *mask, unsigned n,
			       struct uncore_regio *inner, unsigned flags, struct uncore_regio **out)
{
	struct uncore_allowlist *al = NULL;
	int rc = uncore_allowlist_create(&al);
	if (rc == 0)
		rc = uncore_allowlist_add_regs(al, r, mask, n);
	if (rc == 0)
		rc = uncore_allowlist_wrap(al, inner, flags, out);
	uncore_allowlist_free(al);
	return rc;
}

uint64_t uncore_allowlist_refused(const struct uncore_regio *wrapper)
{
	if (!wrapper || wrapper->ops != &allowlist_ops)
		return 0;
	return ((const struct allow_wrapper *)wrapper->impl)->refused;
}

int uncore_allowlist_check_wrapped(const struct uncore_regio *wrapper,
				   const struct uncore_regio_op *ops, size_t n)
{
	if (!wrapper || wrapper->ops != &allowlist_ops)
		return uncore_fail(UNCORE_EINVAL, "allowlist: not an allowlisted register access");
	const struct uncore_allowlist *al = &((const struct allow_wrapper *)wrapper->impl)->list;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		if (ops[i].write)
			rc = uncore_allowlist_check_write(al, &ops[i].reg, ops[i].value);
	return rc;
}

struct uncore_regio *uncore_allowlist_inner(const struct uncore_regio *wrapper)
{
	if (!wrapper || wrapper->ops != &allowlist_ops)
		return NULL;
	return ((const struct allow_wrapper *)wrapper->impl)->inner;
}
