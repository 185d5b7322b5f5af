/* Haswell-EP (Xeon E5/E7 v3) for the direct engine (engine.h): its ten box
 * kinds as data over the one register description of
 * platform/hswep/hswep_boxes.c (addresses, PCI functions, write rules,
 * filter routes), reached through three small hooks.  The engine runs the
 * manual's monitoring-session recipe (HSX PMON 2.1.2) from the data here:
 * every box but the UBox has a box control (freeze, reset of controls and
 * of counters, 17:16 must be 1 except on R2PCIe and R3QPI); the UBox has
 * none, so its counters are zeroed through their data registers and
 * enabled at start (2.1.2 d note); SBo, R2PCIe and R3QPI counter controls
 * are written twice (2.4.2, 2.10.2, 2.11.2); the SBo box control takes one
 * new bit per write (HARDWARE-DECISIONS.md H8); PCI counters are read as
 * two dwords.  U_MSR_PMON_GLOBAL_CTL (2.1.5) only freezes around reads and
 * clears a freeze left by anyone at start: the boxes freeze themselves.
 *
 * Read interval: the fastest each clock domain runs on any E5/E7 v3 part,
 * rounded up (a wrap bound must hold on the fastest machine), times each
 * event's Max. Inc/Cyc.  UCLK: the family's highest uncore ratio is 30
 * (3.0 GHz); DCLK: half the DDR rate, DDR4-2133 at most on v3 parts (1.067
 * GHz), 1.2 GHz allowed; PCLK: the PCU's fixed 1 GHz clock (2.8.6
 * CLOCKTICKS); QFCLK: 9.6 GT/s links carry one flit per 8 transfers (1.2
 * GHz, 2.9.6 CLOCKTICKS). */
#include "backend/direct/engine.h"

#include "common/uncore_error.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"

#include <stdlib.h>

#define UCLK_HZ  UINT64_C(3000000000)
#define DCLK_HZ  UINT64_C(1200000000)
#define PCLK_HZ  UINT64_C(1000000000)
#define QFCLK_HZ UINT64_C(1200000000)

static const enum hswep_reg_kind role_reg[] = {
    [DIRECT_REG_CTL] = HSWEP_REG_CTL,
    [DIRECT_REG_CTR] = HSWEP_REG_CTR,
    [DIRECT_REG_FILTER] = HSWEP_REG_FILTER,
    [DIRECT_REG_FIXED_CTL] = HSWEP_REG_FIXED_CTL,
    [DIRECT_REG_FIXED_CTR] = HSWEP_REG_FIXED_CTR,
    [DIRECT_REG_BOX_CTL] = HSWEP_REG_BOX_CTL,
};

/* Box instance `inst` of package `socket`, with that package's buses. */
static struct hswep_box_at hsx_at(const struct uncore_machine *m, unsigned socket, unsigned inst)
{
	int bus = m && socket < UNCORE_MACHINE_MAX_SOCKETS;
	return (struct hswep_box_at){.inst = inst,
				     .socket = socket,
				     .uncore_bus = bus ? m->pci_bus[socket] : 0,
				     .root_bus = bus ? m->pci_root_bus[socket] : 0};
}

/* PCI registers on the package's uncore or root bus (hswep_box_bus); PCI
 * counters as their low dword (the engine reads the high one at +4).  One
 * call into the register description (hswep_box_regs). */
static int hsx_reg(const struct direct_kind *k, const struct uncore_machine *m, unsigned socket,
		   unsigned inst, enum direct_reg_role role, unsigned idx, uint64_t mmio_base,
		   struct uncore_reg *out)
{
	(void)mmio_base;
	struct hswep_reg_req req = {.kind = role_reg[role], .index = idx};
	struct hswep_box_at at = hsx_at(m, socket, inst);
	int rc = hswep_box_regs(k->layout, &at, 1, &req, 1);
	if (rc == 0)
		*out = req.reg;
	return rc;
}

/* The register's write rules (the manual's field tables): its valid and
 * must-be-1 bits. */
static uint64_t hsx_writable(const struct direct_kind *k, enum direct_reg_role role, unsigned idx)
{
	const struct hswep_reg_rules *r =
	    hswep_reg_rules(hswep_box(k->layout), role_reg[role], idx);
	return r ? r->valid | r->must1 : 0;
}

/* Every register a claim asks for of every box of the kind, in one call
 * (the engine's allowlist of the claimed boxes): hsx_reg and hsx_writable
 * of each. */
static int hsx_regs(const struct direct_kind *k, const struct uncore_machine *m,
		    const struct direct_box_at *at, unsigned nat, struct direct_box_reg *regs,
		    unsigned n)
{
	if (n > DIRECT_MAX_BOX_REGS || nat > UNCORE_MACHINE_MAX_SOCKETS * 256u)
		return uncore_fail(UNCORE_ENOSPACE, "%s: %u registers of %u boxes asked at once",
				   k->title, n, nat);
	struct hswep_reg_req *req = calloc((size_t)nat * n + 1, sizeof(*req));
	struct hswep_box_at *hat = calloc((size_t)nat + 1, sizeof(*hat));
	int rc = req && hat ? 0
			    : uncore_fail(UNCORE_ENOMEM, "out of memory asking %u %s registers",
					  nat * n, k->title);
	for (size_t i = 0; rc == 0 && i < (size_t)nat * n; i++)
		req[i] = (struct hswep_reg_req){.kind = role_reg[regs[i].role], .index = regs[i].idx};
	for (unsigned a = 0; rc == 0 && a < nat; a++)
		hat[a] = hsx_at(m, at[a].socket, at[a].inst);
	if (rc == 0)
		rc = hswep_box_regs(k->layout, hat, nat, req, n);
	for (size_t i = 0; rc == 0 && i < (size_t)nat * n; i++) {
		regs[i].reg = req[i].reg;
		regs[i].writable = req[i].writable;
	}
	free(req);
	free(hat);
	return rc;
}

/* A planned filter of the event registry spans one or more filter
 * registers (HA address match, QPI match/mask pairs): hswep_filter_route. */
static int hsx_filter_writes(const struct direct_kind *k, unsigned filter, uint64_t value,
			     struct direct_filter_write out[DIRECT_MAX_FILTER_WRITES])
{
	const struct hswep_filter_route *route = hswep_filter_route(k->layout, filter);
	if (!route || route->nroutes > DIRECT_MAX_FILTER_WRITES)
		return uncore_fail(UNCORE_ENOSUPP, "filter %u of %s has no register route", filter,
				   k->title);
	for (unsigned i = 0; i < route->nroutes; i++) {
		uint64_t v = value >> route->to[i].shift;
		if (route->to[i].bits < 64)
			v &= (UINT64_C(1) << route->to[i].bits) - 1;
		out[i].reg = route->to[i].reg;
		out[i].value = v;
	}
	return route->nroutes;
}

/* Every kind: counters with .en (bit 22 in every CTL and FIXED_CTL), the
 * register description's addresses and rules. */
#define HSX_KIND(lay)                                                                              \
	.layout = (lay), .ctl_enable = HSWEP_PMON_CTL_EN, .fixed_ctl_enable = HSWEP_PMON_CTL_EN,   \
	.reg = hsx_reg, .writable = hsx_writable, .regs = hsx_regs,                                \
	.filter_writes = hsx_filter_writes, .write_all_filters = 1
/* A box control (2.1.2); must1: "Reserved; SW must write to 1". */
#define BOX_CTL(must1)                                                                             \
	.box_ctl = 1, .box_ctl_must1 = (must1), .box_ctl_frz = HSWEP_PMON_BOX_CTL_FRZ,             \
	.box_ctl_rst_ctrl = HSWEP_PMON_BOX_CTL_RST_CTRL,                                           \
	.box_ctl_rst_ctrs = HSWEP_PMON_BOX_CTL_RST_CTRS
#define MUST1 HSWEP_PMON_BOX_CTL_RSV_MUST1

static const struct direct_kind hsx_kinds[] = {
    {.kind = "ubo",
     .title = "UBox",
     .section = "HSX 2.2",
     HSX_KIND(HSWEP_BOX_UBOX),
     .space = UNCORE_SPACE_MSR,
     .max_instances = HSWEP_UBOX_INSTANCES,
     .ncounters = HSWEP_UBOX_COUNTERS,
     .width = HSWEP_CTR_WIDTH,
     .nfixed = 1,
     .enable_at_start = 1, /* "The UBox does not have a Box Control register" */
     .clock_hz = UCLK_HZ},
    {.kind = "cbo",
     .title = "Caching Agent (CBo)",
     .section = "HSX 2.3",
     HSX_KIND(HSWEP_BOX_CBO),
     .space = UNCORE_SPACE_MSR,
     .max_instances = HSWEP_CBO_INSTANCES,
     .ncounters = HSWEP_COUNTERS,
     .width = HSWEP_CTR_WIDTH,
     .nfilters = 2,
     BOX_CTL(MUST1),
     .clock_hz = UCLK_HZ},
    {.kind = "sbo",
     .title = "Ring-to-Ring Interface (SBo)",
     .section = "HSX 2.4",
     HSX_KIND(HSWEP_BOX_SBO),
     .space = UNCORE_SPACE_MSR,
     .max_instances = HSWEP_SBO_INSTANCES,
     .ncounters = HSWEP_COUNTERS,
     .width = HSWEP_CTR_WIDTH,
     BOX_CTL(HSWEP_SBO_BOX_CTL_KERNEL_BIT16),
     .box_ctl_one_bit = 1,
     .ctl_write_twice = 1,
     .clock_hz = UCLK_HZ},
    {.kind = "ha",
     .title = "Home Agent (HA)",
     .section = "HSX 2.5",
     HSX_KIND(HSWEP_BOX_HA),
     .space = UNCORE_SPACE_PCI,
     .max_instances = HSWEP_HA_INSTANCES,
     .ncounters = HSWEP_COUNTERS,
     .width = HSWEP_CTR_WIDTH,
     .nfilters = 3,
     BOX_CTL(MUST1),
     .clock_hz = UCLK_HZ},
    {.kind = "imc",
     .title = "Memory Controller (iMC)",
     .section = "HSX 2.6",
     HSX_KIND(HSWEP_BOX_IMC),
     .space = UNCORE_SPACE_PCI,
     .max_instances = HSWEP_IMC_INSTANCES,
     .ncounters = HSWEP_COUNTERS,
     .width = HSWEP_CTR_WIDTH,
     .nfixed = 1,
     BOX_CTL(MUST1),
     .clock_hz = DCLK_HZ},
    {.kind = "irp",
     .title = "IIO Ring Port (IRP)",
     .section = "HSX 2.7",
     HSX_KIND(HSWEP_BOX_IRP),
     .space = UNCORE_SPACE_PCI,
     .max_instances = HSWEP_IRP_INSTANCES,
     .ncounters = HSWEP_COUNTERS,
     .width = HSWEP_CTR_WIDTH,
     BOX_CTL(MUST1),
     .clock_hz = UCLK_HZ},
    {.kind = "pcu",
     .title = "Power Control Unit (PCU)",
     .section = "HSX 2.8",
     HSX_KIND(HSWEP_BOX_PCU),
     .space = UNCORE_SPACE_MSR,
     .max_instances = HSWEP_PCU_INSTANCES,
     .ncounters = HSWEP_COUNTERS,
     .width = HSWEP_CTR_WIDTH,
     .nfilters = 1,
     BOX_CTL(MUST1),
     .clock_hz = PCLK_HZ},
    {.kind = "qpi",
     .title = "Intel QPI Link Layer",
     .section = "HSX 2.9",
     HSX_KIND(HSWEP_BOX_QPI),
     .space = UNCORE_SPACE_PCI,
     .max_instances = HSWEP_QPI_INSTANCES,
     .ncounters = HSWEP_COUNTERS,
     .width = HSWEP_CTR_WIDTH,
     .nfilters = 8,
     BOX_CTL(MUST1),
     .clock_hz = QFCLK_HZ},
    /* R2PCIe and R3QPI box controls: bits 31:9 "ignored", none must be 1
     * (Tables 2-213, 2-230). */
    {.kind = "r2pcie",
     .title = "R2PCIe",
     .section = "HSX 2.10",
     HSX_KIND(HSWEP_BOX_R2PCIE),
     .space = UNCORE_SPACE_PCI,
     .max_instances = HSWEP_R2PCIE_INSTANCES,
     .ncounters = HSWEP_COUNTERS,
     .width = HSWEP_CTR_WIDTH,
     BOX_CTL(0),
     .ctl_write_twice = 1,
     .clock_hz = UCLK_HZ},
    {.kind = "r3qpi",
     .title = "R3QPI",
     .section = "HSX 2.11",
     HSX_KIND(HSWEP_BOX_R3QPI),
     .space = UNCORE_SPACE_PCI,
     .max_instances = HSWEP_R3QPI_INSTANCES,
     .ncounters = HSWEP_R3QPI_COUNTERS,
     .width = HSWEP_R3QPI_CTR_WIDTH,
     BOX_CTL(0),
     .ctl_write_twice = 1,
     .clock_hz = UCLK_HZ},
};

const struct direct_platform direct_platform_hswep = {
    .title = "Haswell-EP uncore",
    .kinds = hsx_kinds,
    .nkinds = sizeof(hsx_kinds) / sizeof(hsx_kinds[0]),
    .global_msr = HSWEP_U_MSR_PMON_GLOBAL_CTL,
    /* Only the freeze commands are ever written (no PMI: counters are polled). */
    .global_writable = HSWEP_U_GLOBAL_CTL_FRZ_ALL | HSWEP_U_GLOBAL_CTL_UNFRZ_ALL,
    .counting = HSWEP_U_GLOBAL_CTL_UNFRZ_ALL,
    .held = HSWEP_U_GLOBAL_CTL_FRZ_ALL,
    /* Programming and stop freeze the boxes themselves (2.1.2 a, f). */
    .global_skip = 1u << DIRECT_GLOBAL_PROGRAM | 1u << DIRECT_GLOBAL_STOP,
    .global_start_first = 1,
};

int uncore_direct_create_hswep(const struct uncore_direct_config *cfg,
			       const struct uncore_machine *machine, struct uncore_backend **out)
{
	return direct_engine_create(&direct_platform_hswep, cfg, machine, 0, out);
}
