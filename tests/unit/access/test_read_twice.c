/* Two reads of one register back to back (access/regio.h, read_twice):
 * without the operation, uncore_regio_read_twice() makes two read calls;
 * the composite forwards it to its member (its read_twice or two reads)
 * and counts the reads two read calls would have: two unless the first
 * failed.  The implementations' own read_twice are tested with them
 * (test_pci_cfg.c: sysfs and ECAM; tests/unit/sim: the simulator). */
#include "access/composite.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "support/fake_regio.h"

#include <errno.h>

static struct uncore_reg pci(uint32_t bdf, uint64_t off, unsigned width)
{
	return (struct uncore_reg){
	    .space = UNCORE_SPACE_PCI, .width = (uint8_t)width, .bdf = bdf, .addr = off};
}

/* The fake has no read_twice: two reads, each logged; the second is not
 * made when the first fails, and a failed second keeps the first value. */
TEST(without_read_twice_two_read_calls)
{
	struct uncore_regio *io = fake_regio_create(0);
	struct fake_regio *f = fake_regio_of(io);
	CHECK(io->ops->read_twice == NULL);
	struct uncore_reg ctr = pci(UNCORE_BDF(0x7f, 20, 0), 0xa0, 8);
	fake_regio_set(f, &ctr, 0x1234);
	uint64_t a = 0, b = 0;
	CHECK_EQ_INT(uncore_regio_read_twice(io, &ctr, &a, &b), 0);
	CHECK(a == 0x1234 && b == 0x1234);
	size_t n;
	const struct fake_access *log = fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 2);
	CHECK(n == 2 && log[0].op == FAKE_READ && log[1].op == FAKE_READ);
	CHECK_EQ_U64(io->stats.reads, 2);
	CHECK_EQ_U64(io->stats.syscalls, 2);

	fake_regio_clear_log(f);
	fake_regio_fail_at(f, 1, UNCORE_EIO, 0);
	a = b = 7;
	CHECK_EQ_INT(uncore_regio_read_twice(io, &ctr, &a, &b), UNCORE_EIO);
	CHECK(a == 7 && b == 7);
	fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 1);

	fake_regio_clear_log(f);
	fake_regio_fail_at(f, 2, UNCORE_EIO, 0);
	CHECK_EQ_INT(uncore_regio_read_twice(io, &ctr, &a, &b), UNCORE_EIO);
	CHECK(a == 0x1234 && b == 7);
	fake_regio_log(f, &n);
	CHECK_EQ_INT(n, 2);
	uncore_regio_destroy(io);
}

/* Through the composite, to a member with read_twice (the simulator) and
 * to one without (the fake): the same values, failures and counts. */
TEST(composite_forwards_read_twice_and_counts_two_reads)
{
	struct uncore_sim *sim = NULL;
	REQUIRE(uncore_sim_create("e5-2699v3-2s", NULL, &sim) == 0);
	struct uncore_regio *fake = fake_regio_create(0);
	struct uncore_regio *members[2] = {uncore_sim_regio(sim), fake};
	/* The iMC channel 0 counter 0 of socket 0 (7f:14.0+0xa0). */
	struct uncore_reg ctr = pci(UNCORE_BDF(0x7f, 20, 0), 0xa0, 8), lo = ctr, hi = ctr;
	lo.width = hi.width = 4;
	hi.addr += 4;
	for (unsigned k = 0; k < 2; k++) {
		harness_row = k == 0 ? "sim" : "fake";
		struct uncore_regio *m = members[k], *io = NULL;
		CHECK_EQ_INT(uncore_composite_open(NULL, m, NULL, &io), 0);
		if (!io)
			continue;
		CHECK(io->ops->read_twice != NULL);
		CHECK_EQ_INT(uncore_regio_write(m, &lo, 0x5678), 0);
		CHECK_EQ_INT(uncore_regio_write(m, &hi, 0x12), 0);
		uint64_t a = 0, b = 0;
		CHECK_EQ_INT(uncore_regio_read_twice(io, &ctr, &a, &b), 0);
		CHECK(a == 0x1200005678ull && b == 0x1200005678ull);
		CHECK_EQ_U64(io->stats.reads, 2);
		CHECK_EQ_U64(io->stats.syscalls, m->stats.syscalls);
		for (unsigned nth = 1; nth <= 2; nth++) {
			if (k == 0) {
				struct uncore_sim_fault f = {.space = UNCORE_SPACE_PCI,
							     .op = UNCORE_SIM_OP_READ,
							     .socket = -1,
							     .bdf = -1,
							     .addr = -1,
							     .nth = nth,
							     .count = 1,
							     .error = EIO};
				CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
			} else {
				fake_regio_fail_at(fake_regio_of(fake), nth, UNCORE_EIO, 0);
			}
			uint64_t reads0 = io->stats.reads;
			a = b = 7;
			CHECK_EQ_INT(uncore_regio_read_twice(io, &ctr, &a, &b), UNCORE_EIO);
			CHECK_EQ_U64(io->stats.reads - reads0, nth);
			CHECK(a == (nth == 1 ? 7 : 0x1200005678ull) && b == 7);
			if (k == 0)
				CHECK_EQ_INT(uncore_sim_clear_faults(sim), 0);
		}
		/* No PCI member: refused as a read is, nothing counted. */
		struct uncore_regio *none = NULL;
		CHECK_EQ_INT(uncore_composite_open(NULL, NULL, NULL, &none), 0);
		if (none) {
			CHECK_EQ_INT(uncore_regio_read_twice(none, &ctr, &a, &b), UNCORE_ENODEV);
			CHECK_CONTAINS(uncore_error_detail(),
				       "no access to PCI configuration space");
			CHECK_EQ_U64(none->stats.reads, 0);
			uncore_regio_destroy(none);
		}
		uncore_regio_destroy(io); /* the fake with it; the simulator's regio is its own */
	}
	harness_row = NULL;
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(without_read_twice_two_read_calls);
	RUN(composite_forwards_read_twice_and_counts_two_reads);
	return harness_done();
}
