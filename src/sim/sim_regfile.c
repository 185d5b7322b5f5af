/* The register file: what a read returns and what a write does, for every
 * MSR and PCI config register the model has.  Write rules (reserved bits,
 * must-be-1 bits) come from the box descriptors; actions follow the field
 * tables: rst_ctrl/rst_ctrs/frz (box control), RW1C status, counter .rst,
 * the write-twice and sticky-reset errata, frz_all/unfrz_all. */
#include "sim/sim_internal.h"

#include <inttypes.h>
#include <stdio.h>

#include "common/uncore_error.h"
#include "platform/platform.h"

int sim_bus_socket_kind(const struct sim_model *m, unsigned bus, int *root)
{
	*root = 0;
	for (unsigned s = 0; s < m->info.sockets; s++)
		if (m->bus[s] == bus)
			return (int)s;
	for (unsigned s = 0; s < m->info.sockets; s++)
		if (m->root_bus[s] == bus) {
			*root = 1;
			return (int)s;
		}
	return -1;
}

int sim_bus_socket(const struct sim_model *m, unsigned bus)
{
	int root;
	return sim_bus_socket_kind(m, bus, &root);
}

static void reg_name(const struct hswep_reg_loc *loc, unsigned socket, char *buf, size_t len)
{
	char name[64];
	hswep_reg_name(loc, name, sizeof(name));
	snprintf(buf, len, "%s (socket %u)", name, socket);
}

static int box_read(const struct sim_box *b, const struct hswep_box_desc *d,
		    const struct hswep_reg_loc *loc, uint64_t *value)
{
	switch (loc->reg) {
	case HSWEP_REG_BOX_CTL:
		*value = b->box_ctl;
		return 0;
	case HSWEP_REG_BOX_STATUS:
		*value = b->status;
		return 0;
	case HSWEP_REG_CTL:
		*value = b->ctl[loc->index];
		return 0;
	case HSWEP_REG_CTR:
		*value = b->ctr[loc->index];
		return 0;
	case HSWEP_REG_FIXED_CTL:
		*value = b->fixed_ctl;
		return 0;
	case HSWEP_REG_FIXED_CTR:
		*value = b->fixed_ctr;
		return 0;
	case HSWEP_REG_FILTER:
		*value = b->filter[loc->index];
		return 0;
	case HSWEP_REG_EXTRA:
		*value = b->extra[loc->index];
		return 0;
	default:
		(void)d;
		return uncore_fail(UNCORE_EFAULT, "no such register");
	}
}

/* Write `value` to a box register.  For a PCI counter, `value` is the dword
 * and loc->high says which half. */
static int box_write(struct sim_box *b, const struct hswep_box_desc *d,
		     const struct hswep_reg_loc *loc, unsigned socket, uint64_t value, int dword)
{
	char what[96];
	reg_name(loc, socket, what, sizeof(what));
	const struct hswep_reg_rules *rules = hswep_reg_rules(d, loc->reg, loc->index);
	uint64_t full = dword && loc->high ? value << 32 : value;
	int rc = hswep_check_write(rules, full, what);
	if (rc)
		return rc;
	unsigned k = loc->index;
	switch (loc->reg) {
	case HSWEP_REG_BOX_CTL:
		/* SBo: one newly set bit per write, 17:16 counted too, else
		 * #GP (HARDWARE-DECISIONS.md H8: the kernel's sequence). */
		if ((d->errata & HSWEP_ERRATUM_BOX_CTL_ONE_BIT) &&
		    __builtin_popcountll(value & ~rules->must1 & ~(uint64_t)b->box_ctl_written) > 1)
			return uncore_fail(
			    UNCORE_EFAULT,
			    "write of 0x%" PRIx64 " to %s sets %d control bits at once (#GP): "
			    "this box control takes one newly set bit per write, as the Linux "
			    "driver writes it (last write 0x%" PRIx32 ")",
			    value, what,
			    __builtin_popcountll(value & ~rules->must1 & ~(uint64_t)b->box_ctl_written),
			    b->box_ctl_written);
		b->box_ctl_written = (uint32_t)value;
		if (value & HSWEP_PMON_BOX_CTL_RST_CTRL) {
			/* "the Counter Control Registers will be reset to 0"; the
			 * iMC fixed counter's control is one of them. */
			for (unsigned i = 0; i < HSWEP_MAX_COUNTERS; i++)
				b->ctl[i] = 0;
			b->fixed_ctl = 0;
			b->pending_valid = 0;
			b->edge_prev = 0;
		}
		if (value & HSWEP_PMON_BOX_CTL_RST_CTRS) {
			for (unsigned i = 0; i < HSWEP_MAX_COUNTERS; i++)
				b->ctr[i] = 0;
			b->fixed_ctr = 0;
		}
		/* frz is a state written with every box-control write; the rst
		 * bits are actions and read back as 0. */
		b->frozen = !!(value & HSWEP_PMON_BOX_CTL_FRZ);
		b->box_ctl = (uint32_t)(value & (HSWEP_PMON_BOX_CTL_FRZ | rules->must1));
		return 0;
	case HSWEP_REG_BOX_STATUS:
		b->status &= ~(uint32_t)(value & rules->valid); /* RW1C */
		return 0;
	case HSWEP_REG_CTL: {
		uint64_t v = value & rules->valid;
		uint64_t eff = v;
		if (d->errata & HSWEP_ERRATUM_CTL_WRITE_TWICE) {
			/* "write each control register twice in a row in order for
			 * the Event Select field to take hold" (2.4.2.2, 2.10.2.2,
			 * 2.11.2.2): ev_sel changes only when this write repeats the
			 * previous one (the enable bit aside). */
			int repeat = (b->pending_valid >> k & 1) &&
				     !((b->pending[k] ^ v) & ~HSWEP_PMON_CTL_EN);
			if (!repeat)
				eff = (v & ~HSWEP_PMON_CTL_EV_SEL) |
				      (b->ctl[k] & HSWEP_PMON_CTL_EV_SEL);
			b->pending[k] = v;
			b->pending_valid |= (uint8_t)(1u << k);
		}
		if (v & HSWEP_PMON_CTL_RST) {
			b->ctr[k] = 0;
			/* QPI: "the bit doesn't self-clear after being written"
			 * (Table 2-170); elsewhere .rst is a one-shot action. */
			if (!(d->errata & HSWEP_ERRATUM_CTL_RST_STICKY))
				eff &= ~HSWEP_PMON_CTL_RST;
		}
		b->ctl[k] = eff;
		b->edge_prev &= (uint8_t) ~(1u << k);
		return 0;
	}
	case HSWEP_REG_CTR:
	case HSWEP_REG_FIXED_CTR: {
		uint64_t *ctr = loc->reg == HSWEP_REG_CTR ? &b->ctr[k] : &b->fixed_ctr;
		if (!dword)
			*ctr = value & rules->valid;
		else if (loc->high)
			*ctr = (*ctr & UINT64_C(0xffffffff)) | (full & rules->valid);
		else
			*ctr = (*ctr & ~UINT64_C(0xffffffff)) | (value & UINT64_C(0xffffffff));
		return 0;
	}
	case HSWEP_REG_FIXED_CTL: {
		uint64_t v = value & rules->valid;
		/* iMC FIXED_CTL.rst (bit 19, WO): clears the fixed counter. */
		if (d->kind == HSWEP_BOX_IMC && (v & HSWEP_MC_FIXED_CTL_RST)) {
			b->fixed_ctr = 0;
			v &= ~HSWEP_MC_FIXED_CTL_RST;
		}
		b->fixed_ctl = v;
		return 0;
	}
	case HSWEP_REG_FILTER:
		b->filter[k] = value & rules->valid;
		return 0;
	case HSWEP_REG_EXTRA: {
		const struct hswep_extra_desc *x = &d->extras[k];
		if (!x->writable)
			return uncore_fail(UNCORE_EFAULT, "write of 0x%" PRIx64 " to read-only %s",
					   value, what);
		b->extra[k] = value & rules->valid;
		return 0;
	}
	default:
		return uncore_fail(UNCORE_EFAULT, "write to unknown register %s", what);
	}
}

static int msr_box(struct sim_shared *sh, const struct sim_model *m, unsigned socket, uint32_t msr,
		   struct hswep_reg_loc *loc, struct sim_box **b)
{
	if (hswep_decode_msr(msr, loc) != 0)
		return uncore_fail(UNCORE_EFAULT,
				   "MSR 0x%" PRIx32
				   " (socket %u) is not an uncore PMON register of %s "
				   "(#GP)",
				   msr, socket, m->info.name);
	*b = &sh->sock[socket].box[loc->kind][loc->inst];
	if (!(*b)->present) {
		char name[64];
		hswep_reg_name(loc, name, sizeof(name));
		return uncore_fail(UNCORE_EFAULT,
				   "MSR 0x%" PRIx32 " (%s): %s %u is not present on %s (#GP)", msr,
				   name, hswep_box(loc->kind)->name, loc->inst, m->info.name);
	}
	return 0;
}

static int check_socket(const struct sim_model *m, unsigned socket)
{
	if (socket >= m->info.sockets)
		return uncore_fail(UNCORE_ENODEV, "socket %u does not exist on %s (%u sockets)",
				   socket, m->info.name, m->info.sockets);
	return 0;
}

int sim_msr_read(struct sim_shared *sh, const struct sim_model *m, unsigned socket, uint32_t msr,
		 uint64_t *value)
{
	int rc = check_socket(m, socket);
	if (rc)
		return rc;
	struct sim_socket *sock = &sh->sock[socket];
	switch (msr) {
	case HSWEP_U_MSR_PMON_GLOBAL_CTL:
		sim_socket_sync(sh, m, socket);
		*value = sock->global_ctl; /* frz_all and unfrz_all are WO */
		return 0;
	case HSWEP_U_MSR_PMON_GLOBAL_STATUS:
		sim_socket_sync(sh, m, socket);
		*value = sock->global_status;
		return 0;
	case HSWEP_U_MSR_PMON_GLOBAL_CONFIG:
		sim_socket_sync(sh, m, socket);
		*value = sock->global_config;
		return 0;
	}
	struct hswep_reg_loc loc;
	struct sim_box *b;
	rc = msr_box(sh, m, socket, msr, &loc, &b);
	if (rc)
		return rc;
	sim_box_sync(sh, m, socket, loc.kind, loc.inst);
	return box_read(b, hswep_box(loc.kind), &loc, value);
}

int sim_msr_write(struct sim_shared *sh, const struct sim_model *m, unsigned socket, uint32_t msr,
		  uint64_t value)
{
	int rc = check_socket(m, socket);
	if (rc)
		return rc;
	struct sim_socket *sock = &sh->sock[socket];
	char what[64];
	/* GLOBAL_CTL only starts or stops every box (its other fields do not
	 * change what they count): a lazy socket records the instant in its
	 * freeze log rather than bringing every box on, so the write costs
	 * what it does on hardware whatever the box count (sim_clock.c, "Lazy
	 * catch-up").  The others touch the overflow state: every box first. */
	if (msr == HSWEP_U_MSR_PMON_GLOBAL_STATUS || msr == HSWEP_U_MSR_PMON_GLOBAL_CONFIG)
		sim_socket_sync(sh, m, socket);
	switch (msr) {
	case HSWEP_U_MSR_PMON_GLOBAL_CTL:
		snprintf(what, sizeof(what), "U_MSR_PMON_GLOBAL_CTL (socket %u)", socket);
		rc = hswep_check_write(&hswep_global_ctl_rules, value, what);
		if (rc)
			return rc;
		if (value & HSWEP_U_GLOBAL_CTL_UNFRZ_ALL)
			sim_set_global_freeze(sh, m, socket, 0);
		if (value & HSWEP_U_GLOBAL_CTL_FRZ_ALL)
			sim_set_global_freeze(sh, m, socket, 1);
		sock->global_ctl =
		    value & (HSWEP_U_GLOBAL_CTL_WK_ON_PMI | HSWEP_U_GLOBAL_CTL_PMI_CORE_SEL);
		return 0;
	case HSWEP_U_MSR_PMON_GLOBAL_STATUS:
		snprintf(what, sizeof(what), "U_MSR_PMON_GLOBAL_STATUS (socket %u)", socket);
		rc = hswep_check_write(&hswep_global_status_rules, value, what);
		if (rc)
			return rc;
		sock->global_status &= ~value; /* RW1C */
		return 0;
	case HSWEP_U_MSR_PMON_GLOBAL_CONFIG:
		snprintf(what, sizeof(what), "U_MSR_PMON_GLOBAL_CONFIG (socket %u)", socket);
		rc = hswep_check_write(&hswep_global_config_rules, value, what);
		if (rc)
			return rc;
		sock->global_config = value;
		return 0;
	}
	struct hswep_reg_loc loc;
	struct sim_box *b;
	rc = msr_box(sh, m, socket, msr, &loc, &b);
	if (rc)
		return rc;
	sim_box_sync(sh, m, socket, loc.kind, loc.inst);
	rc = box_write(b, hswep_box(loc.kind), &loc, socket, value, 0);
	sim_lazy_update(sh, m, socket);
	return rc;
}

/* What sits at a PCI function: the UBox socket-ID device, a box function,
 * or nothing (absent, hidden, or not modelled). */
struct pci_target {
	int socket;
	int ubox;
	int capid; /* the PCU capability function (D30:F3) */
	uint8_t kind, inst, role;
	uint16_t did;
};

/* The device ID the model's generation gives a function its description
 * gives `described` (a cousin's own IDs: uncore_platform.pci_ids). */
static uint16_t model_did(const struct sim_model *m, uint16_t described)
{
	return uncore_pci_device_id(uncore_platform_by_name(m->info.platform), described);
}

static int pci_find(const struct sim_shared *sh, const struct sim_model *m, uint32_t bdf,
		    struct pci_target *t)
{
	unsigned dev = UNCORE_BDF_DEV(bdf), fn = UNCORE_BDF_FN(bdf);
	int root;
	t->socket = sim_bus_socket_kind(m, UNCORE_BDF_BUS(bdf), &root);
	t->ubox = 0;
	t->capid = 0;
	if (t->socket < 0)
		return 0;
	if (!root && dev == HSWEP_PCU_CAPID_DEV && fn == HSWEP_PCU_CAPID_FN) {
		t->capid = 1;
		t->did = model_did(m, HSWEP_PCU_CAPID_DID);
		return 1;
	}
	if (!root && dev == HSWEP_UBOX_SOCKETID_DEV && fn == HSWEP_UBOX_SOCKETID_FN) {
		t->ubox = 1;
		t->did = model_did(m, HSWEP_UBOX_SOCKETID_DID);
		return 1;
	}
	if (hswep_decode_pci_fn(dev, fn, &t->kind, &t->inst, &t->role) != 0)
		return 0;
	/* Each box on its own bus: the IRP on the root bus only, the others on
	 * the uncore bus only (a real root bus has other devices at D20, ...). */
	if ((hswep_box(t->kind)->bus == HSWEP_BUS_ROOT) != (root != 0))
		return 0;
	const struct sim_box *b = &sh->sock[t->socket].box[t->kind][t->inst];
	if (!b->fn_present[t->role])
		return 0;
	t->did = model_did(m, hswep_box(t->kind)->pci_fn[t->role][t->inst].did);
	return 1;
}

static int check_pci_access(uint32_t bdf, uint32_t offset, unsigned width, int peek)
{
	if (!(width == 4 || (peek && width == 8)) || (offset & 3) || offset >= 0x1000)
		return uncore_fail(UNCORE_EINVAL,
				   "PCI config access to %02x:%02x.%x+0x%" PRIx32
				   " width %u: the simulator takes aligned 4-byte accesses",
				   UNCORE_BDF_BUS(bdf), UNCORE_BDF_DEV(bdf), UNCORE_BDF_FN(bdf),
				   offset, width);
	return 0;
}

static uint32_t gidnidmap(const struct sim_model *m)
{
	uint32_t map = 0;
	for (unsigned s = 0; s < m->info.sockets; s++)
		map |= (uint32_t)(m->node_id[s] & 7u) << HSWEP_UBOX_GIDNIDMAP_SHIFT(s);
	return map;
}

int sim_pci_read(struct sim_shared *sh, const struct sim_model *m, uint32_t bdf, uint32_t offset,
		 unsigned width, int peek, uint64_t *value)
{
	int rc = check_pci_access(bdf, offset, width, peek);
	if (rc)
		return rc;
	struct pci_target t;
	if (!pci_find(sh, m, bdf, &t)) {
		/* A master abort reads all-ones; the ID dword is what discovery
		 * code probes, everything else is reported as absent. */
		if (offset == 0) {
			*value = 0xffffffffu;
			return 0;
		}
		return uncore_fail(
		    UNCORE_ENODEV, "no device at %02x:%02x.%x on %s (absent or hidden)",
		    UNCORE_BDF_BUS(bdf), UNCORE_BDF_DEV(bdf), UNCORE_BDF_FN(bdf), m->info.name);
	}
	if (offset == 0) {
		*value = HSWEP_PCI_VENDOR_INTEL | (uint32_t)t.did << 16;
		return 0;
	}
	if (t.capid) {
		*value = offset == HSWEP_PCU_CAPID4 ? (uint32_t)(m->chop & 3u) << 6 : 0;
		return 0;
	}
	if (t.ubox) {
		if (offset == HSWEP_UBOX_CPUNODEID)
			*value = m->node_id[t.socket] & HSWEP_UBOX_CPUNODEID_LNID;
		else if (offset == HSWEP_UBOX_GIDNIDMAP)
			*value = gidnidmap(m);
		else
			*value = 0;
		return 0;
	}
	struct hswep_reg_loc loc;
	if (hswep_decode_pci(t.kind, t.inst, t.role, offset, &loc) != 0) {
		*value = 0; /* config space that is not a PMON register */
		return 0;
	}
	struct sim_box *b = &sh->sock[t.socket].box[t.kind][t.inst];
	uint64_t v;
	sim_box_sync(sh, m, (unsigned)t.socket, t.kind, t.inst);
	rc = box_read(b, hswep_box(t.kind), &loc, &v);
	if (rc)
		return rc;
	if (width == 8 && !loc.high)
		*value = v;
	else
		*value = loc.high ? v >> 32 : v & 0xffffffffu;
	return 0;
}

int sim_pci_write(struct sim_shared *sh, const struct sim_model *m, uint32_t bdf, uint32_t offset,
		  unsigned width, uint64_t value)
{
	int rc = check_pci_access(bdf, offset, width, 0);
	if (rc)
		return rc;
	struct pci_target t;
	if (!pci_find(sh, m, bdf, &t))
		return uncore_fail(
		    UNCORE_ENODEV, "no device at %02x:%02x.%x on %s (absent or hidden)",
		    UNCORE_BDF_BUS(bdf), UNCORE_BDF_DEV(bdf), UNCORE_BDF_FN(bdf), m->info.name);
	struct hswep_reg_loc loc;
	if (t.ubox || t.capid || offset == 0 || hswep_decode_pci(t.kind, t.inst, t.role, offset, &loc) != 0)
		return uncore_fail(UNCORE_EFAULT,
				   "write of 0x%" PRIx64 " to %02x:%02x.%x+0x%" PRIx32
				   ": not a writable PMON register",
				   value, UNCORE_BDF_BUS(bdf), UNCORE_BDF_DEV(bdf),
				   UNCORE_BDF_FN(bdf), offset);
	struct sim_box *b = &sh->sock[t.socket].box[t.kind][t.inst];
	sim_box_sync(sh, m, (unsigned)t.socket, t.kind, t.inst);
	rc = box_write(b, hswep_box(t.kind), &loc, (unsigned)t.socket, value & 0xffffffffu, 1);
	sim_lazy_update(sh, m, (unsigned)t.socket);
	return rc;
}
