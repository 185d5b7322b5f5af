/* A fake register-access implementation for unit tests: an in-memory
 * register file behind the real regio interface that records every access,
 * returns programmed values, and injects faults on the Nth access (once or
 * from then on), in the manner of sqlite's test VFS. */
#ifndef UNCORE_TEST_FAKE_REGIO_H
#define UNCORE_TEST_FAKE_REGIO_H

#include <stddef.h>
#include <stdint.h>

#include "access/regio.h"

enum fake_op { FAKE_READ = 'r', FAKE_WRITE = 'w', FAKE_BATCH = 'b' };

/* One access as the fake saw it.  A batch is logged as one FAKE_BATCH entry
 * carrying n, followed by one FAKE_READ or FAKE_WRITE per op. */
struct fake_access {
	char op;               /* enum fake_op */
	struct uncore_reg reg; /* the register (zeroed for FAKE_BATCH) */
	uint64_t value;        /* value written, or value returned by a read */
	size_t n;              /* FAKE_BATCH: number of registers */
	int rc;                /* what the access returned */
};

struct fake_regio;

/* A fake regio; uncore_regio_destroy() frees it.  `with_batch` gives it a
 * batch operation (logged as a batch) instead of the generic fallback. */
struct uncore_regio *fake_regio_create(int with_batch);

/* The fake behind a regio made by fake_regio_create(). */
struct fake_regio *fake_regio_of(struct uncore_regio *io);

/* Store a register value (as a write would, without logging it).  Registers
 * never set read as `fake_regio_default` (0 unless changed). */
void fake_regio_set(struct fake_regio *f, const struct uncore_reg *r, uint64_t value);
void fake_regio_set_default(struct fake_regio *f, uint64_t value);

/* The stored value of a register (default when never written). */
uint64_t fake_regio_get(const struct fake_regio *f, const struct uncore_reg *r);

/* Make access number `nth` (1 = the next one, counting reads and writes,
 * batch members included) fail with `code`; with `sticky`, every later
 * access fails too.  A failed write does not change the stored value. */
void fake_regio_fail_at(struct fake_regio *f, unsigned long nth, int code, int sticky);

/* Make the `nth` access matching `space` (UNCORE_SPACE_*, or -1: any) and
 * `op` (FAKE_READ, FAKE_WRITE, or 0: any) fail with `code`, counting from
 * now; with `sticky`, every later matching access too.  nth 0 disarms. */
void fake_regio_fail_matching(struct fake_regio *f, int space, int op, unsigned long nth, int code,
			      int sticky);

/* The access log. */
const struct fake_access *fake_regio_log(const struct fake_regio *f, size_t *n);
void fake_regio_clear_log(struct fake_regio *f);
/* Entries of the log that are `op` (FAKE_READ, FAKE_WRITE, FAKE_BATCH, or
 * 0: any) on registers of `space` (UNCORE_SPACE_*, or -1: any). */
size_t fake_regio_count(const struct fake_regio *f, int op, int space);

/* Number of accesses seen so far (reads + writes, batch members included). */
unsigned long fake_regio_accesses(const struct fake_regio *f);

#endif
