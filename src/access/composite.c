/* Dispatch by register space (see composite.h). */
#include "access/composite.h"

#include "common/uncore_error.h"

#include <stdlib.h>

struct composite {
	struct uncore_regio io;
	struct uncore_regio *member[3]; /* by enum uncore_space */
};

static const char *const space_names[3] = {"MSR", "PCI configuration", "MMIO"};

static struct uncore_regio *member_of(struct uncore_regio *io, const struct uncore_reg *r)
{
	struct composite *c = io->impl;
	return r->space < 3 ? c->member[r->space] : NULL;
}

static int no_member(const struct uncore_reg *r)
{
	return uncore_fail(UNCORE_ENODEV, "no access to %s space on this machine",
			   r->space < 3 ? space_names[r->space] : "unknown");
}

/* Mirror the members' counters so benchmarks see the real traffic. */
static void sum_stats(struct uncore_regio *io)
{
	struct composite *c = io->impl;
	io->stats.syscalls = 0;
	for (unsigned i = 0; i < 3; i++)
		if (c->member[i])
			io->stats.syscalls += c->member[i]->stats.syscalls;
}

static int composite_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	struct uncore_regio *m = member_of(io, r);
	int rc;
	if (!m)
		return no_member(r);
	rc = uncore_regio_read(m, r, value);
	io->stats.reads++;
	sum_stats(io);
	return rc;
}

/* Forwarded to the member (its read_twice, or two reads); reads counted
 * as two read calls would be: two unless the first failed (the member's
 * own count says whether the second was made: regio.h). */
static int composite_read_twice(struct uncore_regio *io, const struct uncore_reg *r,
				uint64_t *first, uint64_t *second)
{
	struct uncore_regio *m = member_of(io, r);
	if (!m)
		return no_member(r);
	uint64_t before = m->stats.reads;
	int rc = uncore_regio_read_twice(m, r, first, second);
	io->stats.reads += rc == 0 || m->stats.reads - before >= 2 ? 2 : 1;
	sum_stats(io);
	return rc;
}

static int composite_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	struct uncore_regio *m = member_of(io, r);
	int rc;
	if (!m)
		return no_member(r);
	rc = uncore_regio_write(m, r, value);
	io->stats.writes++;
	sum_stats(io);
	return rc;
}

/* A batch goes to the members in runs of one space, in order: whole to
 * the member when every register is in one space. */
static int composite_batch(struct uncore_regio *io, struct uncore_regio_op *ops, size_t n)
{
	struct uncore_saved_error first = {0};
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && ops[j].reg.space == ops[i].reg.space)
			j++;
		struct uncore_regio *m = member_of(io, &ops[i].reg);
		int rc = 0;
		if (m) {
			rc = uncore_regio_batch(m, &ops[i], j - i);
		} else {
			rc = no_member(&ops[i].reg);
			for (size_t k = i; k < j; k++)
				ops[k].err = rc;
		}
		for (size_t k = i; k < j; k++) {
			io->stats.writes += ops[k].write != 0;
			io->stats.reads += ops[k].write == 0;
		}
		if (rc && !first.code)
			uncore_error_save(&first, rc);
		i = j;
	}
	sum_stats(io);
	return first.code ? uncore_error_restore(&first) : 0;
}

static void composite_destroy(struct uncore_regio *io)
{
	struct composite *c = io->impl;
	for (unsigned i = 0; i < 3; i++)
		uncore_regio_destroy(c->member[i]);
	free(c);
}

static const struct uncore_regio_ops composite_ops = {
    .name = "composite",
    .read = composite_read,
    .write = composite_write,
    .batch = composite_batch,
    .read_twice = composite_read_twice,
    .destroy = composite_destroy,
};

int uncore_composite_open(struct uncore_regio *msr, struct uncore_regio *pci,
			  struct uncore_regio *mmio, struct uncore_regio **out)
{
	struct composite *c = calloc(1, sizeof(*c));
	if (!c)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for register access");
	c->member[UNCORE_SPACE_MSR] = msr;
	c->member[UNCORE_SPACE_PCI] = pci;
	c->member[UNCORE_SPACE_MMIO] = mmio;
	c->io.ops = &composite_ops;
	c->io.impl = c;
	*out = &c->io;
	return 0;
}
