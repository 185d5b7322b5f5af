/* The registers of a box kind (engine.h): where a box instance's counters,
 * controls and filters are, and which of their bits software may write -
 * the generic addressing, or the kind's own. */
#include "backend/direct/engine.h"

#include "common/uncore_error.h"

#include <string.h>

const struct direct_kind *direct_kind_find(const struct direct_platform *p, const char *kind)
{
	for (unsigned i = 0; p && kind && i < p->nkinds; i++)
		if (strcmp(p->kinds[i].kind, kind) == 0)
			return &p->kinds[i];
	return NULL;
}

int direct_kind_reg(const struct direct_kind *k, const struct uncore_machine *m, unsigned socket,
		    unsigned inst, enum direct_reg_role role, unsigned idx, uint64_t mmio_base,
		    struct uncore_reg *out)
{
	if (k->reg)
		return k->reg(k, m, socket, inst, role, idx, mmio_base, out);
	unsigned n = role == DIRECT_REG_FILTER      ? k->nfilters
		     : role == DIRECT_REG_BOX_CTL   ? 0
		     : role >= DIRECT_REG_FIXED_CTL ? k->nfixed
						    : k->ncounters;
	if (inst >= k->max_instances || idx >= n)
		return uncore_fail(
		    UNCORE_ERANGE,
		    "%s: instance %u register %u does not exist (%u instances of %u)", k->title,
		    inst, idx, k->max_instances, n);
	memset(out, 0, sizeof(*out));
	out->socket = (uint16_t)socket;
	if (role == DIRECT_REG_FILTER || role >= DIRECT_REG_FIXED_CTL) {
		out->space = UNCORE_SPACE_MSR;
		out->width = 8;
		out->addr = role == DIRECT_REG_FILTER      ? k->filter_msr[idx]
			    : role == DIRECT_REG_FIXED_CTL ? k->fixed_ctl
							   : k->fixed_ctr;
		return 0;
	}
	if (k->space == UNCORE_SPACE_MMIO) {
		if (role == DIRECT_REG_CTL)
			return uncore_fail(UNCORE_EINVAL,
					   "%s: free-running counters have no control register",
					   k->title);
		if (!mmio_base)
			return uncore_fail(UNCORE_ENODEV, "%s: no base address to reach them",
					   k->title);
		out->space = UNCORE_SPACE_MMIO;
		out->width = (uint8_t)(k->width <= 32 ? 4 : 8);
		out->addr = mmio_base + k->mmio_offsets[idx];
		return 0;
	}
	out->space = UNCORE_SPACE_MSR;
	out->width = 8;
	out->addr =
	    (role == DIRECT_REG_CTL ? k->ctl_base : k->ctr_base) + (uint64_t)k->stride * inst + idx;
	return 0;
}

uint64_t direct_kind_writable(const struct direct_kind *k, enum direct_reg_role role, unsigned idx)
{
	if (k->writable)
		return k->writable(k, role, idx);
	uint64_t combined = k->combined ? k->ctl_writable | k->ctr_writable : 0;
	switch (role) {
	case DIRECT_REG_CTL:
		return k->combined ? combined : k->ctl_writable;
	case DIRECT_REG_CTR:
		return k->combined ? combined : k->ctr_writable;
	case DIRECT_REG_FILTER:
		return idx < k->nfilters ? k->filter_writable[idx] : 0;
	case DIRECT_REG_FIXED_CTL:
		return k->fixed_ctl_writable;
	case DIRECT_REG_FIXED_CTR:
		return k->ctr_writable;
	case DIRECT_REG_BOX_CTL:
		return k->box_ctl ? k->box_ctl_must1 | k->box_ctl_frz | k->box_ctl_rst_ctrl |
					k->box_ctl_rst_ctrs
				  : 0;
	}
	return 0;
}

int direct_kind_regs(const struct direct_kind *k, const struct uncore_machine *m,
		     const struct direct_box_at *at, unsigned nat, uint64_t mmio_base,
		     struct direct_box_reg *regs, unsigned n)
{
	if (k->regs)
		return k->regs(k, m, at, nat, regs, n);
	for (unsigned a = 0; a < nat; a++)
		for (struct direct_box_reg *r = &regs[(size_t)a * n]; r < &regs[(size_t)(a + 1) * n];
		     r++) {
			int rc = direct_kind_reg(k, m, at[a].socket, at[a].inst, r->role, r->idx,
						 mmio_base, &r->reg);
			if (rc < 0)
				return rc;
			r->writable = direct_kind_writable(k, r->role, r->idx);
		}
	return 0;
}
