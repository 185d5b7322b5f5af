/* What a Haswell-EP machine has, found through the register-access
 * interface alone (so the simulator is discovered exactly like hardware):
 * the packages and their uncore PCI buses from the UBox node-ID registers
 * (manual 1.6.1, topology/hswep_bus.c) and their root buses (where the IRP
 * is) -- or, for a non-root msr-safe user who sees only the first 64 bytes
 * of config space, the packages from the CPU topology with the PCI boxes
 * absent -- then which boxes answer: a PCI box whose PMON function shows Intel's
 * vendor ID and the box's device ID (Table 1-3 as corrected in
 * platform/hswep/HARDWARE-DECISIONS.md), an MSR box whose box control (UBox: first counter control)
 * can be read without a fault (Table 1-2). */
#include "backend/direct/direct.h"

#include "common/uncore_error.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/platform.h"
#include "topology/hswep_bus.h"

#include <stdio.h>
#include <string.h>

#define PCI_VENDOR_INTEL 0x8086u

/* 1 present, 0 absent, <0 error (permission, I/O). */
static int probe_instance(const struct uncore_platform *p, struct uncore_regio *io,
			  const struct hswep_box_desc *d, unsigned inst, unsigned socket, unsigned bus)
{
	struct uncore_reg r;
	uint64_t v;
	int rc;

	if (d->space == UNCORE_SPACE_PCI) {
		const struct hswep_pci_fn *fn = d->pci_fn[HSWEP_FN_PMON];
		if (!fn)
			return 0;
		memset(&r, 0, sizeof(r));
		r.space = UNCORE_SPACE_PCI;
		r.width = 4;
		r.socket = (uint16_t)socket;
		r.bdf = UNCORE_BDF(bus, fn[inst].dev, fn[inst].fn);
		r.addr = 0; /* vendor ID 15:0, device ID 31:16 */
		rc = uncore_regio_read(io, &r, &v);
		if (rc == UNCORE_ENODEV || rc == UNCORE_EIO || rc == UNCORE_EFAULT) {
			uncore_error_clear();
			return 0;
		}
		if (rc < 0)
			return rc;
		return (v & 0xffffu) == PCI_VENDOR_INTEL &&
		       ((v >> 16) & 0xffffu) == uncore_pci_device_id(p, fn[inst].did);
	}
	rc = hswep_reg(d, inst, d->box_ctl != HSWEP_NO_REG ? HSWEP_REG_BOX_CTL : HSWEP_REG_CTL, 0,
		       socket, bus, &r);
	if (rc < 0)
		return rc;
	rc = uncore_regio_read(io, &r, &v);
	if (rc == UNCORE_EFAULT || rc == UNCORE_ENODEV) {
		uncore_error_clear(); /* #GP: no such MSR, so no such box */
		return 0;
	}
	return rc < 0 ? rc : 1;
}

/* Packages and buses from the UBox node-ID registers (1.6.1), root buses
 * from the IRP's function (D5:F6, the only PMON box there; a package whose
 * root bus is not found has no IRP). */
static int buses_to_machine(const struct uncore_platform *p, const struct uncore_direct_config *cfg,
			    struct hswep_bus_map *map, struct uncore_machine *m)
{
	m->nsockets = map->packages;
	if (m->nsockets == 0 || m->nsockets > UNCORE_MACHINE_MAX_SOCKETS ||
	    map->found != (1u << m->nsockets) - 1)
		return uncore_fail(
		    UNCORE_ENODEV,
		    "uncore bus discovery found packages 0x%x of %u: a package's UBox "
		    "is missing from PCI configuration space",
		    map->found, map->packages);
	const struct hswep_pci_fn *irp = hswep_box(HSWEP_BOX_IRP)->pci_fn[HSWEP_FN_PMON];
	int rc = hswep_find_root_buses(cfg->io, NULL, 0, irp[0].dev, irp[0].fn,
				       uncore_pci_device_id(p, irp[0].did), map);
	if (rc < 0)
		return rc;
	for (unsigned s = 0; s < m->nsockets; s++) {
		m->pci_bus[s] = map->bus[s];
		m->pci_root_bus[s] = map->root_bus[s];
		m->node_id[s] = map->node_id[s];
	}
	return 0;
}

/* The SBos the part has, from the PCU's capability function (D30:F3,
 * 0x2FC0) register CAPID4 at 0x94: chop (bits 7:6) 0 is the 6-8 core die
 * with two SBos (the Linux driver's hswep_has_limit_sbox).  0: no limit
 * known (the function is absent or unreadable; probing decides). */
static unsigned sbos_from_capid4(const struct uncore_platform *p, struct uncore_regio *io,
				 unsigned bus)
{
	struct uncore_reg r = {.space = UNCORE_SPACE_PCI,
			       .width = 4,
			       .bdf = UNCORE_BDF(bus, HSWEP_PCU_CAPID_DEV, HSWEP_PCU_CAPID_FN)};
	uint64_t id = 0, capid4 = 0;
	int rc = uncore_regio_read(io, &r, &id);
	if (rc == 0 && (id & 0xffff) == PCI_VENDOR_INTEL && (id >> 16) == uncore_pci_device_id(p, HSWEP_PCU_CAPID_DID)) {
		r.addr = HSWEP_PCU_CAPID4;
		rc = uncore_regio_read(io, &r, &capid4);
		if (rc == 0)
			return (capid4 & HSWEP_PCU_CAPID4_CHOP) == 0 ? 2 : 0;
	}
	uncore_error_clear();
	return 0;
}

/* Packages from the caller's CPU topology (package ids of the online CPUs),
 * when PCI config space cannot tell them. */
static int sockets_from_cpus(const struct uncore_direct_config *cfg, struct uncore_machine *m)
{
	unsigned n = 0;
	for (unsigned c = 0; c < cfg->ncpus && c < UNCORE_MAX_CPUS; c++)
		if (cfg->cpu_socket[c] >= 0 && (unsigned)cfg->cpu_socket[c] + 1 > n)
			n = (unsigned)cfg->cpu_socket[c] + 1;
	if (n == 0 || n > UNCORE_MACHINE_MAX_SOCKETS)
		return uncore_fail(
		    UNCORE_ENODEV,
		    "PCI config space is not readable past 64 bytes (not root) and the "
		    "CPU topology gives %u packages: cannot tell the sockets",
		    n);
	uncore_error_clear();
	m->nsockets = n;
	return 0;
}

int uncore_direct_open_hswep(const struct uncore_direct_config *cfg, struct uncore_backend **out)
{
	return uncore_direct_open_hswep_of(&uncore_platform_hswep, cfg, out);
}

/* A machine of `p`: Haswell-EP, or a cousin on its description with its
 * own event tables and PCI device IDs (uncore_platform.pci_ids). */
int uncore_direct_open_hswep_of(const struct uncore_platform *p,
				const struct uncore_direct_config *cfg, struct uncore_backend **out)
{
	struct uncore_machine m;
	struct hswep_bus_map map;
	int rc;

	if (!cfg || !cfg->io)
		return uncore_fail(UNCORE_EINVAL, "direct backend: no register access");
	memset(&m, 0, sizeof(m));
	m.plat = p ? p->events : NULL;
	if (!m.plat)
		return uncore_fail(UNCORE_ENOSUPP, "no event tables for %s in this build",
				   p ? p->title : "this generation");
	memset(&map, 0, sizeof(map));
	int pci_denied = 0;
	/* The CPU topology's package count, so that the quick bus scan cannot
	 * take a machine with a displaced UBox for a smaller one. */
	unsigned packages = 0;
	for (unsigned c = 0; cfg->cpu_socket && c < cfg->ncpus && c < UNCORE_MAX_CPUS; c++)
		if (cfg->cpu_socket[c] >= 0 && (unsigned)cfg->cpu_socket[c] + 1 > packages)
			packages = (unsigned)cfg->cpu_socket[c] + 1;
	rc = hswep_find_buses_did(cfg->io, NULL, 0, packages,
				  uncore_pci_device_id(p, HSWEP_UBOX_SOCKETID_DID), &map);
	if (rc == UNCORE_EPERM && cfg->cpu_socket && cfg->ncpus) {
		/* Config space past its first 64 bytes is unreadable: a non-root
		 * user (msr-safe).  Sockets from the CPU topology; the MSR boxes
		 * (UBox, CBo, SBo, PCU) still work, the PCI boxes cannot. */
		rc = sockets_from_cpus(cfg, &m);
		if (rc < 0)
			return rc;
		pci_denied = 1;
	} else if (rc < 0) {
		return rc;
	} else {
		rc = buses_to_machine(p, cfg, &map, &m);
		if (rc < 0)
			return rc;
	}

	unsigned sbo_limit = pci_denied ? 0 : sbos_from_capid4(p, cfg->io, m.pci_bus[0]);
	unsigned cbos[UNCORE_MACHINE_MAX_SOCKETS] = {0};
	for (unsigned b = 0; b < m.plat->nboxes && b < UNCORE_MAX_BOX_TYPES; b++) {
		const struct uncore_box_type *bt = m.plat->boxes[b];
		const struct hswep_box_desc *d = hswep_box(bt->layout);
		if (!d)
			continue;
		unsigned n = bt->ninstances < d->max_instances ? bt->ninstances : d->max_instances;
		/* A CBo per core (2.3); the Linux driver caps the CBos at the
		 * package's core count (hswep_uncore_cpu_init) rather than
		 * trusting that a fused-off slice's MSRs fault. */
		if (d->kind == HSWEP_BOX_CBO && cfg->cores_per_package &&
		    cfg->cores_per_package < n)
			n = cfg->cores_per_package;
		/* SBos: two on the 6-8 core die (PCU CAPID4, hswep_has_limit_sbox). */
		if (d->kind == HSWEP_BOX_SBO && sbo_limit && sbo_limit < n)
			n = sbo_limit;
		if (d->space == UNCORE_SPACE_PCI && pci_denied) {
			m.absent_boxes |= UINT64_C(1) << b;
			continue;
		}
		for (unsigned s = 0; s < m.nsockets; s++) {
			if (d->space == UNCORE_SPACE_PCI && d->bus == HSWEP_BUS_ROOT &&
			    !(map.root_found >> s & 1))
				continue;
			unsigned bus = hswep_box_bus(d, m.pci_bus[s], m.pci_root_bus[s]);
			for (unsigned i = 0; i < n && i < 32; i++) {
				rc = probe_instance(p, cfg->io, d, i, s, bus);
				if (rc < 0)
					return rc;
				if (rc) {
					uncore_inst_add(&m.present[b][s], i);
					if (d->kind == HSWEP_BOX_CBO)
						cbos[s]++;
				}
			}
		}
	}

	/* CPUs: from the caller's topology; else one per CBo, i.e. per core
	 * (HSX 2.3.1: a CBo per core), numbered socket by socket. */
	if (cfg->cpu_socket && cfg->ncpus) {
		m.ncpus = cfg->ncpus < UNCORE_MAX_CPUS ? cfg->ncpus : UNCORE_MAX_CPUS;
		memcpy(m.cpu_socket, cfg->cpu_socket, m.ncpus * sizeof(m.cpu_socket[0]));
	} else {
		for (unsigned s = 0; s < m.nsockets; s++)
			for (unsigned c = 0; c < cbos[s] && m.ncpus < UNCORE_MAX_CPUS; c++)
				m.cpu_socket[m.ncpus++] = (int16_t)s;
	}
	for (unsigned s = 0; s < m.nsockets; s++)
		m.socket_cpu[s] = -1;
	for (unsigned c = m.ncpus; c-- > 0;)
		if (m.cpu_socket[c] >= 0)
			m.socket_cpu[m.cpu_socket[c]] = (int)c;
	if (pci_denied)
		snprintf(
		    m.absent_note, sizeof(m.absent_note),
		    "PCI boxes need root: Linux shows non-root users only the first 64 bytes of "
		    "PCI config space (MSR boxes UBox, CBo, SBo, PCU work through msr-safe)");
	snprintf(m.origin, sizeof(m.origin), "%s", cfg->origin ? cfg->origin : "hardware");
	return uncore_direct_create_hswep(cfg, &m, out);
}
