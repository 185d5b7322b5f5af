/* The write allowlist: a register-access decorator that refuses, before it
 * reaches the device, every write to a register the caller did not list and
 * every write setting a bit outside the register's write mask.  It is the
 * last line of defence between the box-programming code and real hardware
 * (a wrong MSR or PCI write can hang or reconfigure a machine). */
#ifndef UNCORE_ACCESS_ALLOWLIST_H
#define UNCORE_ACCESS_ALLOWLIST_H

#include <stddef.h>
#include <stdint.h>

#include "access/regio.h"

/* `unit` of an entry: the socket (MSR, MMIO) or the UNCORE_BDF (PCI) it
 * applies to, or this wildcard for every socket / device. */
#define UNCORE_ALLOWLIST_ANY_UNIT 0xffffffffu

/* Flags of uncore_allowlist_wrap(). */
#define UNCORE_ALLOWLIST_RESTRICT_READS 0x1u /* reads outside the list are refused too */
#define UNCORE_ALLOWLIST_OWN_INNER      0x2u /* destroying the wrapper destroys the inner regio */

struct uncore_allowlist;

int uncore_allowlist_create(struct uncore_allowlist **out);
void uncore_allowlist_free(struct uncore_allowlist *al);

/* Allow writes to registers first..last (inclusive; MSR indexes or byte
 * offsets) of `space` on `unit`, setting only bits of `write_mask`.  A
 * write_mask of 0 makes the registers readable (for RESTRICT_READS) but not
 * writable.  Entries may overlap: a write is allowed when one entry allows
 * it whole.  PCI entries are matched on the dword: a write to offset o is
 * checked against the entry containing o. */
int uncore_allowlist_add_range(struct uncore_allowlist *al, enum uncore_space space, uint32_t unit,
			       uint64_t first, uint64_t last, uint64_t write_mask);

/* One register: its space, unit (socket, or bdf for PCI) and address. */
int uncore_allowlist_add(struct uncore_allowlist *al, const struct uncore_reg *r,
			 uint64_t write_mask);

/* Registers r[0..n) with their write masks mask[0..n), in that order: a
 * claimed box's at once.  0, or the first error (those before it stay). */
int uncore_allowlist_add_regs(struct uncore_allowlist *al, const struct uncore_reg *r,
			      const uint64_t *mask, unsigned n);

/* Number of entries added so far. */
size_t uncore_allowlist_size(const struct uncore_allowlist *al);

/* Check one write against the list: 0, or UNCORE_EDENIED with a detail that
 * names the register and the refused bits. */
int uncore_allowlist_check_write(const struct uncore_allowlist *al, const struct uncore_reg *r,
				 uint64_t value);

/* A regio that passes reads (and allowed writes) to `inner` unchanged and
 * refuses the rest with UNCORE_EDENIED.  The list is copied: `al` may be
 * freed afterwards.  uncore_regio_destroy() frees the wrapper (and `inner`
 * with UNCORE_ALLOWLIST_OWN_INNER).  Its stats count what the caller asked
 * for; `syscalls` mirrors the inner regio's. */
int uncore_allowlist_wrap(const struct uncore_allowlist *al, struct uncore_regio *inner,
			  unsigned flags, struct uncore_regio **out);

/* The wrapper of uncore_allowlist_wrap() over a list of registers r[0..n)
 * with their write masks mask[0..n), built in one call (a claim's view:
 * the list made, filled as uncore_allowlist_add_regs fills it, wrapped and
 * freed).  0 with *out, or the first error (nothing made). */
int uncore_allowlist_wrap_regs(const struct uncore_reg *r, const uint64_t *mask, unsigned n,
			       struct uncore_regio *inner, unsigned flags, struct uncore_regio **out);

/* Wrappers made so far by this process, for tests (a backend builds its
 * allowlists when it takes ownership, not at every reprogramming). */
unsigned long uncore_allowlist_wraps(void);

/* Check the writes ops[0..n) (reg and value; those without `write` are
 * skipped) against the list of a wrapper made by uncore_allowlist_wrap(),
 * without making them (writes prepared now and written later straight to
 * the device): 0, or the first refusal as uncore_allowlist_check_write
 * reports it; UNCORE_EINVAL for any other regio. */
int uncore_allowlist_check_wrapped(const struct uncore_regio *wrapper,
				   const struct uncore_regio_op *ops, size_t n);

/* The regio a wrapper made by uncore_allowlist_wrap() passes to (NULL for
 * any other regio). */
struct uncore_regio *uncore_allowlist_inner(const struct uncore_regio *wrapper);

/* Accesses refused so far by a wrapper made by uncore_allowlist_wrap(). */
uint64_t uncore_allowlist_refused(const struct uncore_regio *wrapper);

#endif
