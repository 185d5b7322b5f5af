/* The write allowlist: allowed writes reach the inner regio unchanged, and
 * nothing else ever does, one by one or in a batch (the read path's freeze
 * and thaw go in one) — checked case by case and with thousands of random
 * writes against the inner regio's access log. */
#include "access/allowlist.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "support/fake_regio.h"

#include <stdlib.h>

static struct uncore_reg msr(unsigned socket, uint64_t addr)
{
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_MSR, .width = 8, .socket = (uint16_t)socket, .addr = addr};
}

static struct uncore_reg pci(uint32_t bdf, uint64_t off, unsigned width)
{
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_PCI, .width = (uint8_t)width, .bdf = bdf, .addr = off};
}

/* A small list in the shape of a real one: a CBo-like MSR block on every
 * socket, one socket-0-only MSR, a PCI box on one device. */
static struct uncore_allowlist *sample_list(void)
{
	struct uncore_allowlist *al;
	CHECK_EQ_INT(uncore_allowlist_create(&al), 0);
	CHECK_EQ_INT(uncore_allowlist_add_range(al, UNCORE_SPACE_MSR, UNCORE_ALLOWLIST_ANY_UNIT,
						0xe01, 0xe04, 0xffceffffu),
		     0);
	CHECK_EQ_INT(uncore_allowlist_add_range(al, UNCORE_SPACE_MSR, UNCORE_ALLOWLIST_ANY_UNIT,
						0xe08, 0xe0b, 0xffffffffffffull),
		     0);
	struct uncore_reg g = msr(0, 0x700);
	CHECK_EQ_INT(uncore_allowlist_add(al, &g, 0xe003ffffu), 0);
	CHECK_EQ_INT(uncore_allowlist_add_range(al, UNCORE_SPACE_PCI, UNCORE_BDF(0x7f, 18, 1), 0xd8,
						0xe4, 0xffffffffu),
		     0);
	CHECK_EQ_INT(uncore_allowlist_add_range(al, UNCORE_SPACE_PCI, UNCORE_BDF(0x7f, 18, 1), 0xa0,
						0xbc, 0xffffffffu),
		     0);
	CHECK_EQ_INT(uncore_allowlist_add_range(al, UNCORE_SPACE_PCI, UNCORE_BDF(0x7f, 18, 1), 0xf4,
						0xf4, 0x30103u),
		     0);
	return al;
}

TEST(allowed_writes_pass_unchanged)
{
	struct uncore_allowlist *al = sample_list();
	struct uncore_regio *inner = fake_regio_create(0), *io;
	struct fake_regio *f = fake_regio_of(inner);
	CHECK_EQ_INT(uncore_allowlist_wrap(al, inner, UNCORE_ALLOWLIST_OWN_INNER, &io), 0);
	uncore_allowlist_free(al);
	CHECK_EQ_STR(io->ops->name, "allowlist");

	struct uncore_reg ctl = msr(1, 0xe03), g = msr(0, 0x700),
			  box = pci(UNCORE_BDF(0x7f, 18, 1), 0xf4, 4);
	struct uncore_reg ctr = pci(UNCORE_BDF(0x7f, 18, 1), 0xa0, 8);
	CHECK_EQ_INT(uncore_regio_write(io, &ctl, 0x00400f37), 0);
	CHECK_EQ_INT(uncore_regio_write(io, &g, 1u << 29), 0);
	CHECK_EQ_INT(uncore_regio_write(io, &box, 0x30103), 0);
	CHECK_EQ_INT(uncore_regio_write(io, &ctr, 0x12345678abcdull), 0);

	size_t n;
	const struct fake_access *log = fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 4);
	CHECK_EQ_INT(log[0].op, FAKE_WRITE);
	CHECK_EQ_U64(log[0].reg.addr, 0xe03);
	CHECK_EQ_INT(log[0].reg.socket, 1);
	CHECK_EQ_U64(log[0].value, 0x00400f37);
	CHECK_EQ_U64(log[1].value, 1u << 29);
	CHECK_EQ_U64(log[2].value, 0x30103);
	CHECK_EQ_U64(log[3].value, 0x12345678abcdull);
	CHECK_EQ_INT(log[3].reg.width, 8);
	CHECK_EQ_U64(io->stats.writes, 4);
	CHECK_EQ_U64(io->stats.syscalls, inner->stats.syscalls);
	CHECK_EQ_U64(uncore_allowlist_refused(io), 0);
	uncore_regio_destroy(io);
}

TEST(refused_writes_never_reach_the_device)
{
	struct uncore_allowlist *al = sample_list();
	struct uncore_regio *inner = fake_regio_create(0), *io;
	struct fake_regio *f = fake_regio_of(inner);
	CHECK_EQ_INT(uncore_allowlist_wrap(al, inner, 0, &io), 0);

	struct {
		struct uncore_reg r;
		uint64_t v;
		const char *why;
	} bad[] = {
	    {msr(0, 0xe00), 0x30103, "not in the allowlist"},         /* CBo BOX_CTL not listed */
	    {msr(0, 0xe05), 1, "not in the allowlist"},               /* filter not listed */
	    {msr(1, 0x700), 1u << 29, "not in the allowlist"},        /* listed for socket 0 only */
	    {msr(0, 0xe01), 1u << 20, "outside the writable mask"},   /* reserved bit 20 */
	    {msr(0, 0xe08), 1ull << 48, "outside the writable mask"}, /* counter bit 48 */
	    {msr(0, 0x700), 1u << 27, "outside the writable mask"},   /* GLOBAL_CTL rsv 28:27 */
	    {pci(UNCORE_BDF(0x7f, 18, 1), 0xf4, 4), 0x4, "outside"},  /* BOX_CTL bit 2 */
	    {pci(UNCORE_BDF(0x7f, 18, 1), 0xf8, 4), 0x1, "not in"},   /* status not listed */
	    {pci(UNCORE_BDF(0xff, 18, 1), 0xd8, 4), 0x1, "not in"},   /* other device */
	    {pci(UNCORE_BDF(0x7f, 18, 1), 0xd9, 4), 0x1, "aligned"},  /* unaligned */
	    {pci(UNCORE_BDF(0x7f, 18, 1), 0xbc, 8), 0x1, "not in"},   /* high dword at 0xc0 */
	    {pci(UNCORE_BDF(0x7f, 18, 1), 0xd8, 4), 1ull << 32,
	     "outside"}, /* >32 bits in a dword */
	    {{.space = UNCORE_SPACE_MMIO, .width = 4, .addr = 0xfed15040}, 0, "not in"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char row[32];
		snprintf(row, sizeof(row), "%zu", i);
		harness_row = row;
		CHECK_EQ_INT(uncore_regio_write(io, &bad[i].r, bad[i].v), UNCORE_EDENIED);
		CHECK_CONTAINS(uncore_error_detail(), bad[i].why);
	}
	harness_row = NULL;
	size_t n;
	fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 0);
	size_t nbad = sizeof(bad) / sizeof(bad[0]);
	CHECK_EQ_U64(uncore_allowlist_refused(io), nbad);

	/* The same writes in one batch, between allowed ones (a freeze before,
	 * a read and a thaw after, as the read path batches them): refused
	 * each, and only the allowed ops reach the device, in order. */
	struct uncore_regio_op ops[2 + sizeof(bad) / sizeof(bad[0]) + 1];
	ops[0] = (struct uncore_regio_op){.reg = msr(0, 0x700), .value = 1u << 31, .write = 1};
	for (size_t i = 0; i < nbad; i++)
		ops[1 + i] =
		    (struct uncore_regio_op){.reg = bad[i].r, .value = bad[i].v, .write = 1};
	ops[1 + nbad] = (struct uncore_regio_op){.reg = msr(1, 0xe08)};
	ops[2 + nbad] =
	    (struct uncore_regio_op){.reg = msr(0, 0x700), .value = 1u << 29, .write = 1};
	CHECK_EQ_INT(uncore_regio_batch(io, ops, nbad + 3), UNCORE_EDENIED);
	CHECK_CONTAINS(uncore_error_detail(), "msr 0xe00 socket 0");
	for (size_t i = 0; i < nbad; i++)
		CHECK_EQ_INT(ops[1 + i].err, UNCORE_EDENIED);
	CHECK_EQ_INT(ops[0].err, 0);
	CHECK_EQ_INT(ops[1 + nbad].err, 0);
	CHECK_EQ_INT(ops[2 + nbad].err, 0);
	const struct fake_access *log = fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(log[0].op, FAKE_WRITE);
	CHECK_EQ_U64(log[0].value, 1u << 31);
	CHECK_EQ_INT(log[1].op, FAKE_READ);
	CHECK_EQ_INT(log[2].op, FAKE_WRITE);
	CHECK_EQ_U64(log[2].value, 1u << 29);
	CHECK_EQ_U64(uncore_allowlist_refused(io), 2 * nbad);
	/* One refused write alone in a batch: nothing at all. */
	fake_regio_clear_log(f);
	CHECK_EQ_INT(uncore_regio_batch(io, &ops[1], 1), UNCORE_EDENIED);
	fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 0);

	/* The detail names the register and the bits. */
	struct uncore_reg r = msr(0, 0xe01);
	CHECK_EQ_INT(uncore_regio_write(io, &r, 0x00500000), UNCORE_EDENIED);
	CHECK_CONTAINS(uncore_error_detail(), "msr 0xe01 socket 0");
	CHECK_CONTAINS(uncore_error_detail(), "bits 0x100000");
	uncore_regio_destroy(io);
	uncore_regio_destroy(inner);
	uncore_allowlist_free(al);
}

/* A write prepared now and written later straight to the device (the read
 * path's freeze and thaw) is checked against the wrapper's own copy of the
 * list, without a second list and without reaching the device. */
TEST(prepared_writes_checked_against_the_wrapper)
{
	struct uncore_allowlist *al = sample_list();
	struct uncore_regio *inner = fake_regio_create(0), *io;
	struct fake_regio *f = fake_regio_of(inner);
	CHECK_EQ_INT(uncore_allowlist_wrap(al, inner, UNCORE_ALLOWLIST_OWN_INNER, &io), 0);
	uncore_allowlist_free(al);
	struct uncore_regio_op w[3] = {
	    {.reg = msr(0, 0x700), .value = 1u << 29, .write = 1},
	    {.reg = msr(0, 0x700), .value = 1u << 27, .write = 1},
	    {.reg = msr(1, 0x700), .value = 1u << 29, .write = 1},
	};
	CHECK_EQ_INT(uncore_allowlist_check_wrapped(io, w, 1), 0);
	CHECK_EQ_INT(uncore_allowlist_check_wrapped(io, &w[1], 1), UNCORE_EDENIED);
	CHECK_EQ_INT(uncore_allowlist_check_wrapped(io, &w[2], 1), UNCORE_EDENIED);
	/* Several at once: the first refusal is the one reported. */
	CHECK_EQ_INT(uncore_allowlist_check_wrapped(io, w, 3), UNCORE_EDENIED);
	CHECK_CONTAINS(uncore_error_detail(), "bits 0x8000000");
	w[1].write = 0; /* not a write: not checked */
	CHECK_EQ_INT(uncore_allowlist_check_wrapped(io, w, 2), 0);
	CHECK_EQ_INT(uncore_allowlist_check_wrapped(io, &w[2], 1), UNCORE_EDENIED);
	CHECK_CONTAINS(uncore_error_detail(), "socket 1");
	CHECK_EQ_INT(uncore_allowlist_check_wrapped(inner, w, 1), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_allowlist_check_wrapped(NULL, w, 1), UNCORE_EINVAL);
	size_t n;
	fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 0);
	uncore_regio_destroy(io);
}

TEST(reads_pass_through_unless_restricted)
{
	struct uncore_allowlist *al = sample_list();
	struct uncore_regio *inner = fake_regio_create(1), *io, *strict;
	struct fake_regio *f = fake_regio_of(inner);
	struct uncore_reg unlisted = msr(0, 0x123), listed = msr(3, 0xe09);
	fake_regio_set(f, &unlisted, 77);
	fake_regio_set(f, &listed, 42);
	CHECK_EQ_INT(uncore_allowlist_wrap(al, inner, 0, &io), 0);
	CHECK_EQ_INT(uncore_allowlist_wrap(al, inner, UNCORE_ALLOWLIST_RESTRICT_READS, &strict), 0);

	uint64_t v = 0;
	CHECK_EQ_INT(uncore_regio_read(io, &unlisted, &v), 0);
	CHECK_EQ_U64(v, 77);
	CHECK_EQ_INT(uncore_regio_read(strict, &unlisted, &v), UNCORE_EDENIED);
	CHECK_CONTAINS(uncore_error_detail(), "read of msr 0x123");
	CHECK_EQ_INT(uncore_regio_read(strict, &listed, &v), 0);
	CHECK_EQ_U64(v, 42);

	/* A batch keeps the inner batch operation (one "system call"). */
	struct uncore_reg regs[2] = {listed, msr(3, 0xe0a)};
	uint64_t vals[2];
	uint64_t before = inner->stats.syscalls;
	CHECK_EQ_INT(uncore_regio_read_many(strict, regs, vals, 2), 0);
	CHECK_EQ_U64(inner->stats.syscalls - before, 1);
	CHECK_EQ_U64(vals[0], 42);
	/* A refused read never reaches the device; the others are made. */
	regs[0] = unlisted;
	regs[1] = listed;
	vals[1] = 0;
	fake_regio_clear_log(f);
	CHECK_EQ_INT(uncore_regio_read_many(strict, regs, vals, 2), UNCORE_EDENIED);
	CHECK_CONTAINS(uncore_error_detail(), "read of msr 0x123");
	CHECK_EQ_U64(vals[1], 42);
	size_t n;
	const struct fake_access *log = fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_U64(log[0].reg.addr, 0xe09);
	uncore_regio_destroy(io);
	uncore_regio_destroy(strict);
	uncore_regio_destroy(inner);
	uncore_allowlist_free(al);
}

TEST(inner_errors_come_back)
{
	struct uncore_allowlist *al = sample_list();
	struct uncore_regio *inner = fake_regio_create(0), *io;
	fake_regio_fail_at(fake_regio_of(inner), 1, UNCORE_EFAULT, 0);
	CHECK_EQ_INT(uncore_allowlist_wrap(al, inner, UNCORE_ALLOWLIST_OWN_INNER, &io), 0);
	struct uncore_reg ctl = msr(0, 0xe01);
	CHECK_EQ_INT(uncore_regio_write(io, &ctl, 0x400000), UNCORE_EFAULT);
	CHECK_EQ_INT(uncore_regio_write(io, &ctl, 0x400000), 0);
	uncore_regio_destroy(io);
	uncore_allowlist_free(al);
}

TEST(bad_entries_rejected)
{
	struct uncore_allowlist *al;
	CHECK_EQ_INT(uncore_allowlist_create(&al), 0);
	CHECK_EQ_INT(uncore_allowlist_add_range(al, UNCORE_SPACE_MSR, 0, 0x10, 0x0f, 0),
		     UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_allowlist_add_range(al, (enum uncore_space)7, 0, 0, 0, 0),
		     UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_allowlist_add_range(al, UNCORE_SPACE_PCI, 0, 0xa0, 0xa0, 1ull << 32),
		     UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_allowlist_size(al), 0);
	uncore_allowlist_free(al);
}

/* A claimed box's registers added at once: each with its own mask, in
 * order; a bad one stops there, those before it stay. */
TEST(registers_added_at_once)
{
	struct uncore_allowlist *al;
	const struct uncore_reg r[] = {msr(0, 0xe00), pci(0x1e000, 0xa0, 4), pci(0x1e000, 0xa4, 4),
				       msr(0, 0xe01)};
	const uint64_t mask[] = {0xff, 0xffff0000u, 1ull << 32, 0x1};
	CHECK_EQ_INT(uncore_allowlist_create(&al), 0);
	CHECK_EQ_INT(uncore_allowlist_add_regs(al, r, mask, 2), 0);
	CHECK_EQ_INT(uncore_allowlist_size(al), 2);
	CHECK_EQ_INT(uncore_allowlist_check_write(al, &r[0], 0x80), 0);
	CHECK_EQ_INT(uncore_allowlist_check_write(al, &r[0], 0x100), UNCORE_EDENIED);
	CHECK_EQ_INT(uncore_allowlist_check_write(al, &r[1], 0x10000), 0);
	CHECK_EQ_INT(uncore_allowlist_check_write(al, &r[1], 0x1), UNCORE_EDENIED);
	/* The PCI mask above bit 31 is refused: the fourth is not added. */
	CHECK_EQ_INT(uncore_allowlist_add_regs(al, r + 2, mask + 2, 2), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_allowlist_size(al), 2);
	uncore_allowlist_free(al);
}

/* A claim's view in one call: the list of the registers given, wrapped;
 * writes outside it refused before the device; a bad register makes
 * nothing. */
TEST(view_of_registers_in_one_call)
{
	const struct uncore_reg r[] = {msr(0, 0xe00), pci(0x1e000, 0xa0, 4), msr(1, 0x700)};
	const uint64_t mask[] = {0xff, 0xffff0000u, 1u << 29};
	struct uncore_regio *inner = fake_regio_create(0), *io = NULL, *global = NULL;
	struct fake_regio *f = fake_regio_of(inner);
	unsigned long made = uncore_allowlist_wraps();
	CHECK_EQ_INT(uncore_allowlist_wrap_regs(r, mask, 3, inner, 0, &io), 0);
	CHECK_EQ_INT(uncore_allowlist_wrap_regs(&r[2], &mask[2], 1, inner, 0, &global), 0);
	CHECK_EQ_U64(uncore_allowlist_wraps() - made, 2);
	CHECK_EQ_INT(uncore_regio_write(io, &r[0], 0x80), 0);
	CHECK_EQ_INT(uncore_regio_write(io, &r[1], 0x10000), 0);
	CHECK_EQ_INT(uncore_regio_write(io, &r[1], 0x1), UNCORE_EDENIED);
	CHECK_EQ_INT(uncore_regio_write(global, &r[0], 0x80), UNCORE_EDENIED);
	CHECK_EQ_INT(uncore_regio_write(global, &r[2], 1u << 29), 0);
	size_t n;
	fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 3);
	/* PCI masks are dwords: the third register's bad mask refuses the view. */
	const uint64_t bad[] = {0xff, 1ull << 32, 1u << 29};
	struct uncore_regio *none = NULL;
	CHECK_EQ_INT(uncore_allowlist_wrap_regs(r, bad, 3, inner, 0, &none), UNCORE_EINVAL);
	CHECK(none == NULL);
	uncore_regio_destroy(io);
	uncore_regio_destroy(global);
	uncore_regio_destroy(inner);
}

/* A programming sequence (write_seq): the writes in order up to a refused
 * one, which stops it before the device sees it or anything after it; the
 * fallback of a regio without the operation makes the same writes. */
TEST(sequence_stops_at_a_refused_write)
{
	struct uncore_allowlist *al = sample_list();
	struct uncore_regio *inner = fake_regio_create(0), *io;
	struct fake_regio *f = fake_regio_of(inner);
	CHECK_EQ_INT(uncore_allowlist_wrap(al, inner, 0, &io), 0);
	const struct uncore_regio_op ops[] = {
	    {.reg = msr(0, 0xe01), .value = 0x400000, .write = 1},
	    {.reg = msr(0, 0xe08), .value = 0, .write = 1},
	    {.reg = msr(0, 0xe01), .value = 1u << 20, .write = 1}, /* reserved bit 20 */
	    {.reg = msr(0, 0xe02), .value = 0x400000, .write = 1},
	};
	size_t done = 99, n;
	CHECK_EQ_INT(uncore_regio_write_seq(io, ops, 4, &done), UNCORE_EDENIED);
	CHECK_EQ_U64(done, 2);
	CHECK_CONTAINS(uncore_error_detail(), "outside the writable mask");
	const struct fake_access *log = fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 2);
	for (size_t i = 0; i < 2 && i < n; i++) {
		CHECK_EQ_INT(log[i].op, FAKE_WRITE);
		CHECK_EQ_U64(log[i].reg.addr, ops[i].reg.addr);
		CHECK_EQ_U64(log[i].value, ops[i].value);
	}
	CHECK_EQ_U64(uncore_allowlist_refused(io), 1);
	fake_regio_clear_log(f);
	CHECK_EQ_INT(uncore_regio_write_seq(inner, ops, 2, &done), 0);
	CHECK_EQ_U64(done, 2);
	fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 2);
	uncore_regio_destroy(io);
	uncore_regio_destroy(inner);
	uncore_allowlist_free(al);
}

/* xorshift64*: deterministic, so a failure is reproducible from the seed. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

TEST(random_writes_only_allowlisted_reach_inner)
{
	struct uncore_allowlist *al = sample_list();
	struct uncore_regio *inner = fake_regio_create(0), *io;
	struct fake_regio *f = fake_regio_of(inner);
	CHECK_EQ_INT(uncore_allowlist_wrap(al, inner, 0, &io), 0);

	/* Half of the writes go one by one, half in batches of 1 to 8 ops mixed
	 * with reads, through a fake with a batch operation and one without. */
	struct uncore_regio *binner = fake_regio_create(1), *bio;
	struct fake_regio *bf = fake_regio_of(binner);
	CHECK_EQ_INT(uncore_allowlist_wrap(al, binner, 0, &bio), 0);
	struct uncore_regio_op batch[8];
	size_t nb = 0, want = 1;
	unsigned allowed = 0, refused = 0;
	for (int i = 0; i < 40000; i++) {
		struct uncore_reg r;
		uint64_t v = rnd();
		/* Bias towards the listed neighbourhood so both outcomes are common. */
		switch (rnd() % 3) {
		case 0:
			r = msr((unsigned)(rnd() % 3), 0x6f8 + rnd() % 0x20);
			break;
		case 1:
			r = msr((unsigned)(rnd() % 3), 0xdfc + rnd() % 0x18);
			break;
		default:
			r = pci(rnd() % 2 ? UNCORE_BDF(0x7f, 18, 1) : UNCORE_BDF(0x7f, 18, 5),
				0x9c + rnd() % 0x60, rnd() % 2 ? 4 : 8);
			break;
		}
		switch (rnd() % 4) { /* small values pass masks more often */
		case 0:
			v &= 0xffff;
			break;
		case 1:
			v &= 0xffffffffu;
			break;
		case 2:
			v &= 0x30103;
			break;
		default:
			break;
		}
		if (i % 2 == 0) {
			int rc = uncore_regio_write(io, &r, v);
			if (rc == 0)
				allowed++;
			else {
				CHECK_EQ_INT(rc, UNCORE_EDENIED);
				refused++;
			}
			continue;
		}
		batch[nb++] = (struct uncore_regio_op){.reg = r, .value = v, .write = 1};
		if (rnd() % 4 == 0 && nb < want)
			batch[nb++] = (struct uncore_regio_op){.reg = msr(0, 0xe08)};
		if (nb < want)
			continue;
		struct uncore_regio *via = rnd() % 2 ? bio : io;
		int rc = uncore_regio_batch(via, batch, nb);
		int any = 0;
		for (size_t k = 0; k < nb; k++) {
			if (!batch[k].write) {
				CHECK_EQ_INT(batch[k].err, 0);
				continue;
			}
			if (batch[k].err == 0) {
				allowed++;
			} else {
				CHECK_EQ_INT(batch[k].err, UNCORE_EDENIED);
				refused++;
				any = 1;
			}
		}
		CHECK_EQ_INT(rc, any ? UNCORE_EDENIED : 0);
		nb = 0;
		want = 1 + rnd() % 8;
	}
	CHECK(allowed > 2000);
	CHECK(refused > 2000);

	/* Every write the inner regios saw must pass the list on its own. */
	size_t n, nb_log;
	const struct fake_access *log = fake_regio_log(f, &n);
	const struct fake_access *blog = fake_regio_log(bf, &nb_log);
	struct fake_access *all = calloc(n + nb_log + 1, sizeof(*all));
	size_t nall = 0;
	for (size_t i = 0; i < n + nb_log; i++) {
		const struct fake_access *a = i < n ? &log[i] : &blog[i - n];
		if (a->op == FAKE_WRITE)
			all[nall++] = *a;
	}
	log = all;
	n = nall;
	CHECK_EQ_INT(n, allowed);
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ_INT(log[i].op, FAKE_WRITE);
		CHECK_EQ_INT(uncore_allowlist_check_write(al, &log[i].reg, log[i].value), 0);
		uint64_t mask = 0;
		const struct uncore_reg *r = &log[i].reg;
		/* Re-derive independently of the library: the sample list by hand. */
		if (r->space == UNCORE_SPACE_MSR) {
			if (r->addr >= 0xe01 && r->addr <= 0xe04)
				mask = 0xffceffffu;
			else if (r->addr >= 0xe08 && r->addr <= 0xe0b)
				mask = 0xffffffffffffull;
			else if (r->addr == 0x700 && r->socket == 0)
				mask = 0xe003ffffu;
			else
				HARNESS_FAIL_AT("msr 0x%" PRIx64 " socket %u reached the device",
						r->addr, r->socket);
			CHECK_EQ_U64(log[i].value & ~mask, 0);
		} else {
			CHECK_EQ_INT(r->bdf, UNCORE_BDF(0x7f, 18, 1));
			CHECK_EQ_U64(r->addr & 3, 0);
			for (unsigned d = 0; d < r->width / 4u; d++) {
				uint64_t off = r->addr + 4 * d;
				uint64_t part = (log[i].value >> (32 * d)) & 0xffffffffu;
				if ((off >= 0xd8 && off <= 0xe4) || (off >= 0xa0 && off <= 0xbc))
					mask = 0xffffffffu;
				else if (off == 0xf4)
					mask = 0x30103;
				else
					HARNESS_FAIL_AT(
					    "pci offset 0x%" PRIx64 " reached the device", off);
				CHECK_EQ_U64(part & ~mask, 0);
			}
			if (r->width == 4)
				CHECK_EQ_U64(log[i].value >> 32, 0);
		}
	}
	CHECK_EQ_U64(uncore_allowlist_refused(io) + uncore_allowlist_refused(bio), refused);
	free(all);
	uncore_regio_destroy(io);
	uncore_regio_destroy(inner);
	uncore_regio_destroy(bio);
	uncore_regio_destroy(binner);
	uncore_allowlist_free(al);
}

int main(void)
{
	RUN(allowed_writes_pass_unchanged);
	RUN(refused_writes_never_reach_the_device);
	RUN(prepared_writes_checked_against_the_wrapper);
	RUN(reads_pass_through_unless_restricted);
	RUN(inner_errors_come_back);
	RUN(bad_entries_rejected);
	RUN(registers_added_at_once);
	RUN(view_of_registers_in_one_call);
	RUN(sequence_stops_at_a_refused_write);
	RUN(random_writes_only_allowlisted_reach_inner);
	return harness_done();
}
