/* The idle state of a socket's boxes for a new holder (see idle.h). */
#include "backend/direct/idle.h"

#include "access/allowlist.h"
#include "common/uncore_error.h"

#include <stdatomic.h>
#include <string.h>

static atomic_ulong idled;

/* One write, allowed only within the box's PMON registers and their
 * writable bits; a PCI register's dword masked as the engine masks it. */
static int write_checked(const struct direct_kind *k, const struct uncore_machine *m,
			 unsigned socket, unsigned inst, enum direct_reg_role role, unsigned idx,
			 uint64_t value, struct uncore_regio *io, struct uncore_allowlist *al)
{
	struct uncore_reg r;
	int rc = direct_kind_reg(k, m, socket, inst, role, idx, 0, &r);
	if (rc < 0)
		return rc;
	uint64_t mask = direct_kind_writable(k, role, idx);
	if (r.space == UNCORE_SPACE_PCI && r.width == 4)
		mask &= 0xffffffffu;
	if ((rc = uncore_allowlist_add(al, &r, mask)) < 0 ||
	    (rc = uncore_allowlist_check_write(al, &r, value)) < 0)
		return rc;
	rc = uncore_regio_write(io, &r, value);
	if (rc == 0 && role == DIRECT_REG_CTL && k->ctl_write_twice)
		rc = uncore_regio_write(io, &r, value);
	return rc;
}

static void keep_first(int *first, int rc)
{
	if (*first == 0 && rc < 0)
		*first = rc;
}

/* A box control frozen first, then reset (one bit per write where the
 * kind asks for it, as the engine writes it: wr_box_ctl in engine.c). */
static int box_reset(const struct direct_kind *k, const struct uncore_machine *m, unsigned socket,
		     unsigned inst, struct uncore_regio *io, struct uncore_allowlist *al)
{
	uint64_t v = k->box_ctl_must1 | k->box_ctl_frz | k->box_ctl_rst_ctrl | k->box_ctl_rst_ctrs;
	if (!k->box_ctl_one_bit)
		return write_checked(k, m, socket, inst, DIRECT_REG_BOX_CTL, 0, v, io, al);
	uint64_t cur = k->box_ctl_frz;
	int rc = write_checked(k, m, socket, inst, DIRECT_REG_BOX_CTL, 0, cur, io, al);
	for (uint64_t add = v & ~cur; rc == 0 && add; add &= add - 1) {
		cur |= add & -add;
		rc = write_checked(k, m, socket, inst, DIRECT_REG_BOX_CTL, 0, cur, io, al);
	}
	return rc;
}

int direct_idle_socket(const struct direct_platform *p, const struct uncore_machine *m,
		       unsigned socket, struct uncore_regio *io)
{
	struct uncore_allowlist *al = NULL;
	int first = uncore_allowlist_create(&al);
	if (first < 0)
		return first;
	for (unsigned b = 0; m && m->plat && b < m->plat->nboxes && b < UNCORE_MAX_BOX_TYPES; b++) {
		if (m->plat->boxes[b]->flags & UNCORE_BOXF_KERNEL)
			continue;
		const struct direct_kind *k = direct_kind_find(p, m->plat->boxes[b]->kind);
		if (!k || k->freerun || socket >= UNCORE_MACHINE_MAX_SOCKETS)
			continue;
		for (unsigned i = 0; i < k->max_instances; i++) {
			if (!uncore_inst_has(&m->present[b][socket], i))
				continue;
			if (k->box_ctl)
				keep_first(&first, box_reset(k, m, socket, i, io, al));
			else
				for (unsigned c = 0; c < k->ncounters; c++)
					keep_first(&first, write_checked(k, m, socket, i, DIRECT_REG_CTL,
									 c, 0, io, al));
			for (unsigned f = 0; f < k->nfixed; f++)
				keep_first(&first, write_checked(k, m, socket, i,
								 DIRECT_REG_FIXED_CTL, f, 0, io, al));
		}
	}
	uncore_allowlist_free(al);
	atomic_fetch_add(&idled, 1);
	return first;
}

unsigned long direct_idle_sockets(void)
{
	return atomic_load(&idled);
}
