/* The registry of uncore box types: one static descriptor per box type of a
 * platform (counters, widths, instance and perf PMU names, the layout of its
 * control and filter registers, its modifiers, and its event table in
 * libpfm4's format), and read-only enumeration of events, unit masks and
 * modifiers for the PAPI component and the tools.  Nothing here changes at
 * run time; what a machine actually has (instances, sockets) is topology. */
#ifndef UNCORE_EVENTS_REGISTRY_H
#define UNCORE_EVENTS_REGISTRY_H

#include "platform/cpu.h"

#include <stddef.h>
#include <stdint.h>

struct intel_x86_entry; /* a row of an event table (events/pfm_compat.h) */

/* Filter registers a box can have: CBo FILTER0/1, HA OPCODEMATCH and the
 * ADDRMATCH pair, QPI MATCH and MASK pairs, Nehalem MSRs 396h and 301h. */
#define UNCORE_MAX_FILTERS 2

/* Register a modifier writes: the control register or filter register n. */
#define UNCORE_REG_CTL       0
#define UNCORE_REG_FILTER(n) (1 + (n))

enum uncore_mod_kind {
	UNCORE_MOD_FIELD,     /* the value goes into `field` of register `reg` */
	UNCORE_MOD_FREQ_BAND, /* PCU: byte (ev_sel - band0 code) of the band filter */
};

/* Modifier flags. */
#define UNCORE_MODF_ONLY_IF_REQUIRED 0x1 /* allowed only when a umask requires it (nf) */

/* One modifier a box supports (":t=4", ":e").  The event table says which
 * events allow it (modmsk bit `attr`); this says where its value goes, in the
 * manual's layout of the box's registers. */
struct uncore_mod_desc {
	const char *name; /* as typed after ':', e.g. "t" */
	const char *desc;
	uint8_t attr;       /* modmsk bit it answers to (SNBEP_UNC_ATTR_T8) */
	uint8_t kind;       /* enum uncore_mod_kind */
	uint8_t is_bool;    /* 0/1 value, may be given without "=value" */
	uint8_t reg;        /* UNCORE_REG_CTL or UNCORE_REG_FILTER(n) */
	uint64_t field;     /* mask of the field in `reg` */
	uint64_t occ_field; /* control-register field used instead for occupancy events, or 0 */
	uint64_t ctl_also;  /* control bits set as well when the modifier is given (tid_en) */
	uint64_t min, max;  /* accepted values */
	unsigned flags;     /* UNCORE_MODF_* */
	/* The Linux driver's sysfs format fields carrying `field`, occ_field
	 * and ctl_also ("a|b": the first one a PMU has; NULL: none), from
	 * which the perf backend packs an encoding (backend/perf/perf_encode.c). */
	const char *perf, *perf_occ, *perf_also;
};

/* A further field of a control register that the table's unit masks set
 * (an IIO's channel and function masks) and the kernel's format name of it. */
struct uncore_ctl_field {
	uint64_t mask;
	const char *perf;
};

/* The fields of a box's counter control register (masks, manual names). */
struct uncore_ctl_layout {
	const char *name; /* "Cn_MSR_PMON_CTL" */
	uint64_t ev_sel;
	uint64_t umask;
	uint64_t ev_sel_ext; /* 0 if the box has none */
	uint64_t en;         /* never set by the encoder: the backend enables */
	uint64_t occ_sel;    /* PCU occupancy-counter select, or 0 */
	uint64_t occ_event;  /* ev_sel bits that mark an occupancy event (PCU ev_sel[7]), or 0 */
	uint64_t writable;   /* every field software may program, en included */
	/* Further fields unit masks set (ucode), each with its kernel name;
	 * none: NULL. */
	const struct uncore_ctl_field *fields;
	unsigned nfields;
};

/* A filter (match) register of a box and its fields. */
struct uncore_filter_desc {
	const char *name;       /* "Cn_MSR_PMON_BOX_FILTER0" */
	const uint64_t *fields; /* field masks, 0-terminated */
	/* The kernel format field of each field (parallel to fields; NULL or
	 * a NULL entry: the kernel publishes none), or, for a 64-bit value
	 * the kernel splits in two, the fields of its low and high dwords. */
	const char *const *perf;
	const char *perf_dwords[2];
};

/* Box flags. */
#define UNCORE_BOXF_UFILTER_VALUE                                                                  \
	0x1 /* ufilters[n] is the whole value of filter n (QPI                                     \
	     * match/mask pairs), not libpfm4's set/clear masks */
#define UNCORE_BOXF_FILTERS_WHOLE                                                                  \
	0x2 /* an event using the filters depends on all their                                     \
	     * fields (a zero mask field means "do not compare") */
#define UNCORE_BOXF_FREERUN                                                                        \
	0x4 /* free-running counters only: nothing to program;                                     \
	     * an event's code names its counter */
#define UNCORE_BOXF_UCODE_WHOLE                                                                    \
	0x8 /* ucode is a whole image of the control field                                         \
	     * (bits 7:0 included; no CODE_OVERRIDE) */
#define UNCORE_BOXF_NO_ENABLE                                                                      \
	0x10 /* no enable bit: a non-zero control value counts                                     \
	      * (Xeon 7100/7400 EMON, SDM 18.21.3) */
#define UNCORE_BOXF_FIXED_FF                                                                       \
	0x40 /* the kernel selects the fixed counter by event 0xff                                 \
	      * (uncore.c UNCORE_FIXED_EVENT), whatever the table's code */
#define UNCORE_BOXF_KERNEL                                                                         \
	0x20 /* made at run time from a kernel PMU (perf backend): no event                        \
	      * table; instances are named <name>_<i> as the kernel names                          \
	      * them; a slot's control value is the backend's attr id */

/* Which box filter a table's ufilters[from] programs, for events with this
 * ev_sel (Nehalem: one "extra register" slot in the table, two MSRs). */
struct uncore_ufilter_route {
	uint16_t ev_sel;
	uint8_t from; /* ufilters index in the table */
	uint8_t to;   /* index in box->filters */
};

/* Events whose counts a box filter selects whatever their unit masks
 * program in it (the kernel's extra_regs of a box: the Skylake-SP CHA's
 * TOR events count only the opcodes FILTER1 matches, with 0 as a value of
 * its own): an event whose control value matches (ctl & ctl_mask) ==
 * ctl_value depends on `fields` of filter `filter`, so that two such
 * events needing different values never share the box (events/encode.c). */
struct uncore_filter_claim {
	uint64_t ctl_mask, ctl_value;
	uint8_t filter; /* index in box->filters */
	uint64_t fields;
};

/* One box type of a platform. */
struct uncore_box_type {
	const char *name;   /* libpfm4 PMU name without instance: "hswep_unc_imc" */
	const char *kind;   /* short kind: "imc" */
	unsigned layout;    /* the platform's register layout of this box kind:
			     * enum hswep_box_kind (platform/hswep/hswep_boxes.h);
			     * 0 on the other platforms, whose one description is
			     * the direct engine's (backend/direct/desc_*.c) */
	const char *desc;   /* one line for listings */
	const char *manual; /* where it is specified: "HSX uncore PMON 2.6" */
	unsigned ninstances;    /* most instances a socket can have; numbered names if > 1 */
	const char *perf_pmu;   /* Linux perf PMU name, "_<i>" appended if ninstances > 1;
				 * NULL: no perf PMU serves this box */
	unsigned ngeneric;      /* generic counters per instance */
	unsigned counter_width; /* bits */
	unsigned nfixed;        /* fixed (or free-running) counters per instance */
	unsigned fixed_width;
	unsigned cntmsk_shift;   /* table cntmsk bit (shift + i) is generic counter i */
	uint64_t cntmsk_fixed;   /* table cntmsk bits of the fixed counters (nfixed bits), or 0 */
	uint64_t fixed_ctl_mods; /* control bits a fixed event may program (IMC: invert), else 0 */
	const struct intel_x86_entry *events; /* the manual's */
	unsigned nevents;
	/* Per event (parallel to events): the most it adds to a counter per
	 * cycle of the box's clock (the manual's "Max. Inc/Cyc"); NULL when the
	 * tables do not say (then one per cycle is assumed where needed). */
	const uint16_t *maxinc;
	/* Events that Intel's event data lists and the manual omits: a
	 * separate table (Haswell-EP: libpfm4-events/events/supplement/),
	 * event indices nevents .. nevents + nsupplement - 1 of the box, each
	 * description marked; supplement_maxinc parallel to it.  Every index
	 * goes through box_event() (events/table.h) and uncore_box_nevents(). */
	const struct intel_x86_entry *supplement;
	unsigned nsupplement;
	const uint16_t *supplement_maxinc;
	const struct uncore_ctl_layout *ctl;
	const struct uncore_filter_desc *filters;
	unsigned nfilters;
	const struct uncore_mod_desc *mods;
	unsigned nmods;
	const struct uncore_ufilter_route *routes; /* exceptions to ufilters[n] -> filter n */
	unsigned nroutes;
	uint8_t freq_band0; /* PCU: ev_sel of band 0 for UNCORE_MOD_FREQ_BAND */
	uint8_t code_shift; /* table code/ucode are images of the field at this bit
			     * (Xeon 7100/7400: 32, the MSR's event control field) */
	unsigned flags;     /* UNCORE_BOXF_* */
	/* What the kernel's driver of this box does with an encoding (perf
	 * backend): NULL, it programs every field as given; else this
	 * rewrites ctl and filter[] as the driver would need them (used[]:
	 * the filter bits the event depends on), or refuses with the reason. */
	int (*kernel_rules)(const struct uncore_box_type *box, uint64_t *ctl, uint64_t *filter,
			    const uint64_t *used, unsigned nfilters);
	/* The counters (bit mask) the kernel's driver lets an event with
	 * control value ctl use: its counter constraints, so that the perf
	 * backend plans only groups the kernel accepts; NULL: every counter. */
	uint64_t (*kernel_counters)(const struct uncore_box_type *box, uint64_t ctl);
	/* Whether the kernel's driver programs this box's match registers for
	 * a matching event ctl on instance `instance` (perf backend): 0, or a
	 * refusal with the reason; NULL: on every instance. */
	int (*kernel_match_rules)(const struct uncore_box_type *box, unsigned instance, uint64_t ctl);
	/* Free-running counters: the kernel's event code of the counter at
	 * each offset of the table's codes (perf backend); none: NULL. */
	const struct uncore_freerun_kernel *kernel_freerun;
	unsigned nkernel_freerun;
	const struct uncore_filter_claim *claims; /* struct uncore_filter_claim */
	unsigned nclaims;
};

/* Every event of a box: the manual's, then its supplement's. */
static inline unsigned uncore_box_nevents(const struct uncore_box_type *box)
{
	return box->nevents + box->nsupplement;
}

/* 1 when event `ev` of the box is from its supplement (not in the manual). */
static inline int uncore_box_event_is_supplement(const struct uncore_box_type *box, unsigned ev)
{
	return ev >= box->nevents && ev < uncore_box_nevents(box);
}

/* The kernel's event code of a free-running counter (its sysfs "event"). */
struct uncore_freerun_kernel {
	uint16_t offset; /* the table code's offset of the counter */
	uint16_t event;  /* the kernel's event value for it */
};

/* The box types of one platform. */
struct uncore_event_platform {
	const struct uncore_platform *platform; /* its generation; NULL: kernel PMUs only */
	const char *name; /* "hswep", as in platform/platform.h */
	const struct uncore_box_type *const *boxes;
	unsigned nboxes;
	/* Its tables are generated from Intel's perfmon event data
	 * (libpfm4-events/tools/gen_perfmon.py), not libpfm4's own tables of
	 * the generation (which differ): tests comparing with libpfm4 skip it. */
	int from_intel_perfmon;
};

/* Built-in platforms, in a fixed order (for listings); NULL past the end. */
const struct uncore_event_platform *uncore_event_platform_at(unsigned i);

/* The built-in platform with this id, or NULL.  Two platforms share the
 * Xeon 7100/7400 id; this returns "x7400": use the _by_name form with the
 * name platform/cpu.h gives the CPU. */
const struct uncore_event_platform *uncore_event_platform_get(enum uncore_platform_id id);

/* The built-in platform called `name` ("hswep", "x7100"), or NULL. */
const struct uncore_event_platform *uncore_event_platform_by_name(const char *name);

/* The box type called `name` ("hswep_unc_imc", any case) in `plat`, or in
 * every built-in platform when plat is NULL; NULL if none. */
const struct uncore_box_type *uncore_box_type_find(const struct uncore_event_platform *plat,
						   const char *name);

/* Name of instance `i` ("hswep_unc_imc3", "hswep_unc_pcu"); i < 0: the type's
 * name.  0, or UNCORE_ENOSPACE / UNCORE_EINVAL. */
int uncore_box_instance_name(const struct uncore_box_type *box, int i, char *buf, size_t len);

/* Linux perf PMU name of instance `i` ("uncore_imc_3", "uncore_pcu"). */
int uncore_box_perf_name(const struct uncore_box_type *box, int i, char *buf, size_t len);

/* Enumeration (indices are stable; no allocation). */

struct uncore_event_info {
	const char *name;
	const char *desc;
	const char *equiv; /* event it is an alias of, or NULL */
	uint32_t code;     /* table code: ev_sel, plus ev_sel_ext / fixed umask bits */
	uint32_t flags;    /* INTEL_X86_* as in the table */
	unsigned numasks;
	unsigned ngroups;
	uint64_t counters; /* generic counters it may use (bit i = counter i) */
	int fixed;         /* counts on the fixed counter */
	unsigned nmods;    /* modifiers it accepts (uncore_box_event_mod) */
};

struct uncore_umask_info {
	const char *name;
	const char *desc;
	const char *equiv; /* umasks it stands for, or NULL */
	uint64_t ucode;    /* table ucode (register image) */
	uint32_t flags;
	unsigned group;
	int is_default;
};

/* Event `ev` of `box`.  0, or UNCORE_EINVAL for an index past the end. */
int uncore_box_event_info(const struct uncore_box_type *box, unsigned ev,
			  struct uncore_event_info *out);

/* Unit mask `um` of event `ev`. */
int uncore_box_umask_info(const struct uncore_box_type *box, unsigned ev, unsigned um,
			  struct uncore_umask_info *out);

/* The i-th modifier event `ev` accepts, or NULL past the end. */
const struct uncore_mod_desc *uncore_box_event_mod(const struct uncore_box_type *box, unsigned ev,
						   unsigned i);

/* Index of the event called `name` (any case), or UNCORE_ENOEVENT. */
int uncore_box_find_event(const struct uncore_box_type *box, const char *name);

/* Index of umask `name` of event `ev` (any case), or UNCORE_ENOUMASK. */
int uncore_box_find_umask(const struct uncore_box_type *box, unsigned ev, const char *name);

/* The modifier descriptor of `box` answering modmsk bit `attr`, or NULL. */
const struct uncore_mod_desc *uncore_box_mod_by_attr(const struct uncore_box_type *box,
						     unsigned attr);

/* The box filter (index in box->filters) that table slot ufilters[n] of
 * event `e` programs: n, unless a route of the box says otherwise. */
unsigned uncore_box_filter_of(const struct uncore_box_type *box, const struct intel_x86_entry *e,
			      unsigned n);

/* Counter mask of a table cntmsk in the box's numbering: generic counters
 * (bit i = counter i) and, separately, the fixed counter.  Inline: every
 * encoding asks both (events/encode.c). */
static inline uint64_t uncore_box_generic_counters(const struct uncore_box_type *box,
						   uint64_t cntmsk)
{
	uint64_t all = box->ngeneric >= 64 ? ~0ULL : (1ULL << box->ngeneric) - 1;
	return (cntmsk >> box->cntmsk_shift) & all;
}

static inline int uncore_box_is_fixed_cntmsk(const struct uncore_box_type *box, uint64_t cntmsk)
{
	return box->cntmsk_fixed && (cntmsk & box->cntmsk_fixed);
}

#endif
