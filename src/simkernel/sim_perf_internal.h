/* Internals of the simulated kernel (simkernel/uncore_sim_perf.h): the driver's
 * description of each Haswell-EP box kind - its sysfs format fields and
 * where the driver puts each field's value in the box's registers - and
 * the sysfs tree writer. */
#ifndef UNCORE_SIM_PERF_INTERNAL_H
#define UNCORE_SIM_PERF_INTERNAL_H

#include <stdint.h>

#include "plan/machine.h"

/* Registers a field lands in: the counter control, or logical filter n
 * (as events/registry_hswep.c numbers the box's filters). */
#define SK_CTL 0
#define SK_F0  1
#define SK_F1  2
/* A field the driver publishes but never decodes (the HSX PCU's occ_edge,
 * declared config:14-51 over occ_sel, edge, inv and thresh): its bits
 * reach the hardware through the other fields; bits only it covers must
 * be 0. */
#define SK_DOC 3

struct sk_field {
	const char *name;
	const char *format; /* the text of format/<name> */
	uint8_t reg;        /* SK_CTL, SK_F0, SK_F1 */
	uint64_t hwmask;    /* where the value's bits go, low bit first */
};

struct sk_alias {
	const char *name;
	const char *terms;
	const char *scale; /* or NULL */
	const char *unit;  /* or NULL */
};

struct sk_kind {
	const char *kind; /* events/registry kind: "cbo" */
	const struct sk_field *fields;
	unsigned nfields;
	const struct sk_alias *aliases;
	unsigned naliases;
	uint8_t has_fixed; /* event 0xff selects the box's fixed counter */
};

/* The driver description of box kind `kind`, or NULL (no perf PMU). */
const struct sk_kind *sim_perf_kind(const char *kind);

/* Fixed PMU type numbers of the fake tree. */
#define SK_TYPE_SOFTWARE   1
#define SK_TYPE_TRACEPOINT 2
#define SK_TYPE_MSR        14
#define SK_TYPE_FIRST_BOX  20

/* Write the tree for machine `m` under root (see uncore_sim_perf_create).
 * 0 or UNCORE_EIO. */
int sim_perf_write_tree(const char *root, const struct uncore_machine *m);

#endif
