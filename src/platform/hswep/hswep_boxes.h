/* Haswell-EP uncore box descriptors: one static, never-modified descriptor per
 * box kind giving where its PMON registers are (MSR base + stride, or PCI
 * device/function per instance + config offsets), how wide its counters are
 * and which bits of each register software may write.  What a given machine
 * has (instances present, bus numbers) lives in the topology, not here. */
#ifndef UNCORE_HSWEP_BOXES_H
#define UNCORE_HSWEP_BOXES_H

#include <stddef.h>
#include <stdint.h>

#include "access/regio.h"

enum hswep_box_kind {
	HSWEP_BOX_UBOX = 0,
	HSWEP_BOX_CBO,
	HSWEP_BOX_SBO,
	HSWEP_BOX_HA,
	HSWEP_BOX_IMC,
	HSWEP_BOX_IRP,
	HSWEP_BOX_PCU,
	HSWEP_BOX_QPI,
	HSWEP_BOX_R2PCIE,
	HSWEP_BOX_R3QPI,
	HSWEP_BOX_KINDS
};

#define HSWEP_MAX_INSTANCES 18
#define HSWEP_MAX_COUNTERS  4
#define HSWEP_MAX_FILTERS   8
#define HSWEP_MAX_EXTRAS    5
#define HSWEP_NO_REG        0xffffu
#define HSWEP_NO_BIT        0xffu

/* The clock a box's counters tick with. */
enum hswep_clock {
	HSWEP_CLK_UCLK = 0, /* uncore clock: UBox, CBo, SBo, HA, IRP, R2PCIe, R3QPI */
	HSWEP_CLK_DCLK,     /* DRAM clock (half the DDR rate): iMC (2.6.3.2) */
	HSWEP_CLK_PCLK,     /* PCU clock (2.8.6 CLOCKTICKS "pclk Cycles") */
	HSWEP_CLK_QFCLK,    /* QPI flit clock (2.9.6 CLOCKTICKS "qfclks") */
	HSWEP_CLK_TSC,      /* time-stamp counter: PCU C-state residency MSRs */
	HSWEP_CLOCKS
};

/* Errata and oddities the driver must work around (see each box's section). */
#define HSWEP_ERRATUM_CTL_WRITE_TWICE 0x1u /* SBo, R2PCIe, R3QPI: write CTL twice */
#define HSWEP_ERRATUM_CTL_RST_STICKY  0x2u /* QPI: CTL.rst does not self-clear */
/* SBo: BOX_CTL takes one newly set bit per write; more raise a #GP (the
 * Linux driver writes it "bit by bit to avoid spurious #GPs";
 * HARDWARE-DECISIONS.md H8). */
#define HSWEP_ERRATUM_BOX_CTL_ONE_BIT 0x4u

/* Which PCI function of an instance a register lives in. */
enum hswep_pci_fn_role {
	HSWEP_FN_PMON = 0, /* the box's PMON function */
	HSWEP_FN_AUX,      /* QPI packet mask/match function (D8/D9/D10:F6) */
	HSWEP_FN_MISC,     /* QPI misc function with QPI_RATE_STATUS (D8/D10:F0) */
	HSWEP_FN_ROLES
};

/* Which PCI bus of a package a box's functions sit on.  Every PMON box but
 * the IRP is on the package's uncore bus (the UBox's bus, 1.6.1); the IRP is
 * an IIO function on the package's root bus (00:05.6 and 80:05.6 on a
 * two-socket board), which holds no UBox: the Linux driver maps such a bus
 * to the package whose UBox bus is the next one above it, and so do we
 * (topology/hswep_bus.h).  Evidence: src/platform/hswep/HARDWARE-DECISIONS.md. */
enum hswep_bus_kind {
	HSWEP_BUS_UNCORE = 0,
	HSWEP_BUS_ROOT,
};

struct hswep_pci_fn {
	uint8_t dev;
	uint8_t fn;
	uint16_t did;
};

/* Write rules of a register: software may write `valid` bits, `ignored`
 * ("ig") bits are accepted and dropped, `must1` bits must be written as 1;
 * any other bit is reserved and a write of 1 to it is an error. */
struct hswep_reg_rules {
	uint64_t valid;
	uint64_t ignored;
	uint64_t must1;
};

enum hswep_extra_kind {
	HSWEP_EXTRA_FREE_RUNNING = 0, /* counts on its own; `writable` says if SW may set it */
	HSWEP_EXTRA_STATUS,           /* read-only status value given by the topology */
};

/* Registers outside the counter/control pairs: filters and free-running
 * counters.  MSR offsets are absolute MSR addresses for extras and relative
 * to the box base for filters. */
struct hswep_filter_desc {
	const char *name;
	uint16_t offset;
	uint8_t fn_role; /* enum hswep_pci_fn_role (PCI boxes) */
	struct hswep_reg_rules rules;
};

/* Where a logical filter of the event registry (CBo FILTER0/1, HA opcode
 * and address match, PCU bands, QPI packet match and mask: one value each,
 * a register pair as 64 bits) lands: `bits` bits of the value from bit
 * `shift` into filter register `reg` (index in filters[]). */
#define HSWEP_MAX_ROUTES 4
struct hswep_filter_route {
	uint8_t nroutes;
	struct {
		uint8_t reg;
		uint8_t shift;
		uint8_t bits;
	} to[HSWEP_MAX_ROUTES];
};

struct hswep_extra_desc {
	const char *name;
	uint32_t offset;
	uint8_t fn_role;
	uint8_t kind;     /* enum hswep_extra_kind */
	uint8_t width;    /* counting width in bits */
	uint8_t clock;    /* enum hswep_clock of a free-running counter */
	uint8_t writable; /* RW-V (1) or RO (0) */
	struct hswep_reg_rules rules;
};

struct hswep_box_desc {
	const char *name;    /* libpfm4 / perf style: "cbo" */
	const char *title;   /* manual's name: "Caching Agent (CBo)" */
	const char *section; /* manual section: "2.3" */
	uint8_t kind;        /* enum hswep_box_kind */
	uint8_t space;       /* UNCORE_SPACE_MSR or UNCORE_SPACE_PCI */
	uint8_t bus;         /* enum hswep_bus_kind (PCI boxes) */
	uint8_t clock;       /* enum hswep_clock */
	uint8_t max_instances;
	uint8_t num_counters;
	uint8_t ctr_width;   /* bits; overflow is a carry out of bit ctr_width-1 */
	uint8_t thresh_bits; /* width of CTL.thresh: 8 or 5 */
	uint32_t errata;     /* HSWEP_ERRATUM_* */
	/* MSR boxes: register n of instance i is msr_base + msr_stride * i + n. */
	uint32_t msr_base;
	uint32_t msr_stride;
	/* Offsets: from the instance base (MSR) or in config space (PCI);
	 * HSWEP_NO_REG when the box has no such register. */
	uint16_t box_ctl;
	uint16_t box_status;
	uint16_t ctl[HSWEP_MAX_COUNTERS];
	uint16_t ctr[HSWEP_MAX_COUNTERS];
	uint16_t fixed_ctl;
	uint16_t fixed_ctr;
	/* PCI boxes: one function per instance and role (NULL: none). */
	const struct hswep_pci_fn *pci_fn[HSWEP_FN_ROLES];
	uint8_t num_filters;
	const struct hswep_filter_desc *filters;
	uint8_t num_routes; /* one per logical filter of the event registry */
	const struct hswep_filter_route *routes;
	uint8_t num_extras;
	const struct hswep_extra_desc *extras;
	struct hswep_reg_rules box_ctl_rules;
	struct hswep_reg_rules status_rules; /* valid = the RW1C ov bits */
	struct hswep_reg_rules ctl_rules;
	struct hswep_reg_rules ctr_rules;
	struct hswep_reg_rules fixed_ctl_rules;
	struct hswep_reg_rules fixed_ctr_rules;
	uint8_t fixed_status_bit; /* BOX_STATUS.ov bit of the fixed counter */
	/* U_MSR_PMON_GLOBAL_STATUS bit an overflow message of instance i sets
	 * (HSWEP_NO_BIT: the box cannot send one); NULL: none at all. */
	const uint8_t *global_status_bit;
	uint8_t fixed_global_status_bit; /* UBox fixed counter: ov_u_fixed */
	uint64_t global_status_also;     /* R3QPI: ov_rq (bit 35) as well */
};

/* Register kinds, for the accessors and for address decoding. */
enum hswep_reg_kind {
	HSWEP_REG_BOX_CTL = 0,
	HSWEP_REG_BOX_STATUS,
	HSWEP_REG_CTL,
	HSWEP_REG_CTR,
	HSWEP_REG_FIXED_CTL,
	HSWEP_REG_FIXED_CTR,
	HSWEP_REG_FILTER,
	HSWEP_REG_EXTRA,
	HSWEP_REG_KINDS
};

/* The descriptor of a box kind; NULL for an out-of-range kind. */
const struct hswep_box_desc *hswep_box(enum hswep_box_kind kind);

/* The descriptor called `name` ("cbo", "imc", ...), or NULL. */
const struct hswep_box_desc *hswep_box_by_name(const char *name);

/* The register `kind`/`index` (counter, filter or extra index; 0 otherwise)
 * of instance `inst` on package `socket`, whose functions sit on PCI bus
 * `bus` (PCI boxes only: the value of hswep_box_bus()).  PCI counters are returned as their low dword (width 4); the
 * high dword is at addr + 4.  0, or UNCORE_ENODEV when the box has no such
 * register, UNCORE_EINVAL for an out-of-range instance or index. */
int hswep_reg(const struct hswep_box_desc *d, unsigned inst, enum hswep_reg_kind kind,
	      unsigned index, unsigned socket, unsigned bus, struct uncore_reg *out);

/* The bus of box `d`'s PCI functions on a package whose uncore bus is
 * `uncore_bus` and root bus `root_bus` (enum hswep_bus_kind). */
static inline unsigned hswep_box_bus(const struct hswep_box_desc *d, unsigned uncore_bus,
				     unsigned root_bus)
{
	return d->bus == HSWEP_BUS_ROOT ? root_bus : uncore_bus;
}

/* The write rules of register `kind`/`index` of box `d`. */
const struct hswep_reg_rules *hswep_reg_rules(const struct hswep_box_desc *d,
					      enum hswep_reg_kind kind, unsigned index);

/* One register of a box asked for with others (hswep_box_regs): its kind
 * and index in; its address (hswep_reg) and the bits software may write
 * (valid | must1 of its rules; 0 without rules) out. */
struct hswep_reg_req {
	enum hswep_reg_kind kind;
	unsigned index;
	struct uncore_reg reg;
	uint64_t writable;
};

/* A box instance whose registers are asked for (hswep_box_regs): its
 * instance, its package and that package's uncore and root buses. */
struct hswep_box_at {
	unsigned inst, socket, uncore_bus, root_bus;
};

/* hswep_reg and the writable bits of n registers of each of the nat
 * instances at[] of box kind `box`: req holds nat lists of n, end to end
 * (req[a * n + i] for at[a]), each with its kind and index in.  One call for
 * every box of a kind a claim asks for (the direct backend's allowlist of
 * the claimed boxes).  0, or hswep_reg's first error. */
int hswep_box_regs(enum hswep_box_kind box, const struct hswep_box_at *at, unsigned nat,
		   struct hswep_reg_req *req, unsigned n);

/* Check a write against its rules: 0, or UNCORE_EFAULT with a detail naming
 * the register (`what`) and the offending bits. */
int hswep_check_write(const struct hswep_reg_rules *rules, uint64_t value, const char *what);

/* A decoded address: which box instance and which of its registers. */
struct hswep_reg_loc {
	uint8_t kind; /* enum hswep_box_kind */
	uint8_t inst;
	uint8_t reg;   /* enum hswep_reg_kind */
	uint8_t index; /* counter/filter/extra index */
	uint8_t high;  /* PCI: the access hits the high dword of a 64-bit register */
};

/* Decode an MSR address into a box register: 0 or UNCORE_ENODEV when no box
 * register lives there (the global control MSRs are not box registers). */
int hswep_decode_msr(uint32_t msr, struct hswep_reg_loc *out);

/* Which instance and role of which box a PCI device/function is: 0 or
 * UNCORE_ENODEV. */
int hswep_decode_pci_fn(unsigned dev, unsigned fn, uint8_t *kind, uint8_t *inst, uint8_t *role);

/* Decode a dword config offset of a given box function into a register: 0
 * or UNCORE_ENODEV. */
int hswep_decode_pci(uint8_t kind, uint8_t inst, uint8_t role, unsigned offset,
		     struct hswep_reg_loc *out);

/* Name of a register for messages: "C3_CTL2", "HA1_BOX_STATUS", ... */
int hswep_reg_name(const struct hswep_reg_loc *loc, char *buf, size_t len);

/* The route of logical filter `filter` of box kind `kind`, or NULL. */
const struct hswep_filter_route *hswep_filter_route(enum hswep_box_kind kind, unsigned filter);

/* Number of logical filters routed for box kind `kind`. */
unsigned hswep_filter_route_count(enum hswep_box_kind kind);

/* Global control registers (HSX PMON 2.1.5). */
extern const struct hswep_reg_rules hswep_global_ctl_rules;
extern const struct hswep_reg_rules hswep_global_status_rules;
extern const struct hswep_reg_rules hswep_global_config_rules;

/* Filter and extra register indices (for hswep_reg(..., HSWEP_REG_FILTER or
 * HSWEP_REG_EXTRA, index, ...)). */
enum {
	HSWEP_CBO_FILTER0 = 0, /* Cn_MSR_PMON_BOX_FILTER0 (Table 2-18) */
	HSWEP_CBO_FILTER1 = 1, /* Cn_MSR_PMON_BOX_FILTER1 (Table 2-19) */
	HSWEP_HA_ADDRMATCH0 = 0,
	HSWEP_HA_ADDRMATCH1 = 1,
	HSWEP_HA_OPCODEMATCH = 2,
	HSWEP_PCU_BOX_FILTER = 0,
	HSWEP_QPI_RX_MATCH0 = 0,
	HSWEP_QPI_RX_MATCH1 = 1,
	HSWEP_QPI_RX_MASK0 = 2,
	HSWEP_QPI_RX_MASK1 = 3,
	HSWEP_QPI_TX_MATCH0 = 4,
	HSWEP_QPI_TX_MATCH1 = 5,
	HSWEP_QPI_TX_MASK0 = 6,
	HSWEP_QPI_TX_MASK1 = 7,
};
enum {
	HSWEP_PCU_CORE_CC6 = 0,    /* PCU_MSR_CORE_CC6_CTR 0x3FD (Table 2-161) */
	HSWEP_PCU_CORE_CC3 = 1,    /* 0x3FC (Table 2-162) */
	HSWEP_PCU_CORE_PC2 = 2,    /* 0x60D (Table 2-163) */
	HSWEP_PCU_CORE_PC3 = 3,    /* 0x3F8 (Table 2-164) */
	HSWEP_PCU_FREE_3F9 = 4,    /* 0x3F9: listed in Table 1-2 only */
	HSWEP_QPI_LINK_IDLE = 0,   /* Q_Py_PCI_PMON_LINK_IDLE 0xC8 (Table 2-178) */
	HSWEP_QPI_LINK_LLR = 1,    /* Q_Py_PCI_PMON_LINK_LLR 0xD0 (Table 2-179) */
	HSWEP_QPI_RATE_STATUS = 2, /* QPI_RATE_STATUS 0xD4, misc function (Table 2-177) */
};

#endif
