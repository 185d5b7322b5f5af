/* Internals shared by the perf backend's files: the backend object, the
 * binding of each box instance to its kernel PMU and CPUs, and the kernel
 * event source (PMUs no table knows, named by their sysfs aliases). */
#ifndef UNCORE_BACKEND_PERF_INTERNAL_H
#define UNCORE_BACKEND_PERF_INTERNAL_H

#include <pthread.h>

#include "backend/perf/perf.h"
#include "backend/perf/perf_sysfs.h"

#define PERF_MAX_INSTANCES   UNCORE_MAX_INSTANCES /* PMUs of a family (plan/machine.h) */
#define PERF_KERNEL_COUNTERS 8  /* events one kernel PMU instance takes from a set */

/* The kernel PMU of one box instance and, per socket, the CPU its events
 * are opened on (-1: not on that socket). */
struct perf_binding {
	const struct uncore_perf_pmu *pmu;
	int cpu[UNCORE_MACHINE_MAX_SOCKETS];
};

/* A box type made from kernel PMUs: "msr", or a numbered family
 * "uncore_imc" of uncore_imc_0..N. */
struct perf_family {
	struct uncore_box_type box;
	char name[64];
	char desc[200];
	const struct uncore_perf_pmu *ref; /* first present instance: formats, aliases */
	unsigned first_alias;              /* its first entry in the enumeration */
	/* Numbered members past PERF_MAX_INSTANCES (none on any processor we
	 * know: Sierra Forest has 144 CHAs a socket): not counted, so the
	 * family refuses summed events, which would miss them, and says so. */
	unsigned beyond;
};

#define PERF_ATTR_BLOCK  256
#define PERF_ATTR_BLOCKS 256 /* 65,536 distinct kernel events per process */

/* A kernel event's config words; the plan carries its index as the
 * control value of the slot. */
struct perf_attr {
	uint64_t cfg[UNCORE_PERF_NCONFIG];
};

struct perf_kernel_events {
	struct uncore_event_source base;
	struct perf_backend *b;
	struct perf_family *fam;
	unsigned nfam;
	/* Interned config words, in blocks that never move: events are
	 * parsed (and interned) from any thread while others program sets
	 * with the entries already made, so `lock` guards the table and an
	 * entry, once made, stays where it is. */
	pthread_mutex_t lock;
	struct perf_attr *attr_block[PERF_ATTR_BLOCKS];
	unsigned nattrs;
	unsigned nentries; /* aliases listed, over all families */
	char **pmu_names;
	unsigned npmu_names;
	unsigned nprimary; /* pmu_names[0..nprimary): whole PMUs and families */
};

/* One event group (a PMU instance on one CPU).  The first fields are all
 * the read path touches, prepared at program time: the read() to make, the
 * buffer it fills (the kernel's PERF_FORMAT_GROUP layout with both times)
 * and where each value it returns goes in the plan's raw values. */
struct perf_group {
	int leader;          /* fd */
	unsigned n;          /* events, leader included */
	size_t bytes;        /* what read() returns: (3 + n) words */
	uint64_t *buf;       /* 3 + n words: nr, time_enabled, time_running, values */
	unsigned *slots;     /* n: the plan slot each member counts */
	unsigned first_slot; /* with contiguous: slots[k] == first_slot + k */
	int contiguous;      /* the values go to consecutive slots: one copy */
	const struct uncore_perf_pmu *pmu;
	int cpu;
	int *fds; /* n, fds[0] == leader */
};

struct perf_backend {
	struct uncore_backend base;
	/* What a read touches, together (one cache line). */
	struct uncore_perf_sys *sys;
	int sys_real; /* sys is the real layer: the read path calls read(2) itself */
	int in_place; /* one group, values in slot order: read_headroom's case */
	struct perf_group *groups;
	unsigned ngroups;
	/* Accounting (acceptance: one read() per PMU instance per read). */
	uint64_t nopen, nread, nioctl, nclose;
	struct uncore_perf_sysfs *sysfs;
	char paranoid_path[256];
	/* The platform the machine sees: the table's boxes, then kernel families. */
	struct uncore_event_platform plat;
	const struct uncore_box_type **boxes;
	unsigned ntable;           /* boxes[0..ntable) come from the tables */
	struct perf_binding *bind; /* [box * PERF_MAX_INSTANCES + instance] */
	struct perf_kernel_events kev;
	/* Programmed state. */
	const struct uncore_plan *plan;
	unsigned *slot_group;              /* per slot: its group */
	struct uncore_slot_status *status; /* per slot, saved at unprogram for later queries */
	unsigned nstatus;
	int running;
};

static inline struct perf_binding *perf_bind(struct perf_backend *b, unsigned box, unsigned inst)
{
	return &b->bind[box * PERF_MAX_INSTANCES + inst];
}

/* Build the kernel families from the sysfs PMUs into b->kev and append
 * their box types to b->boxes (after the table's).  0 or an error. */
int perf_kernel_events_init(struct perf_backend *b);
void perf_kernel_events_fini(struct perf_backend *b);

/* The config words of kernel attr `id` (a slot's control value). */
const struct perf_attr *perf_kernel_attr(const struct perf_backend *b, uint64_t id);

/* Turn a failed perf_event_open into our code and an actionable detail. */
int perf_open_error(const struct perf_backend *b, int err, const struct uncore_perf_pmu *pmu,
		    int cpu, const uint64_t cfg[UNCORE_PERF_NCONFIG], unsigned group_size);

#endif
