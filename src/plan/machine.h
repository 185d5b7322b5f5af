/* What one machine actually has, as a backend found it: the event platform,
 * how many sockets, which instances of each box type are present on each
 * socket, and the CPU and PCI bus used to reach each socket.  The tables
 * (events/registry.h, platform/hswep/) describe what a platform *may* have;
 * this describes what *this* machine has.  Plain data, filled once. */
#ifndef UNCORE_PLAN_MACHINE_H
#define UNCORE_PLAN_MACHINE_H

#include <stdint.h>

#include "events/registry.h"

#define UNCORE_MACHINE_MAX_SOCKETS 8
#define UNCORE_MAX_BOX_TYPES 64 /* table box types plus kernel PMU families (perf) */
#define UNCORE_MAX_CPUS 1024
/* Instances of one box type on one socket: Granite Rapids has 128 CHAs a
 * socket, Sierra Forest 144; room for twice that. */
#define UNCORE_MAX_INSTANCES 256

/* Which instances of a box type a socket has: bit i of w[i / 64] for
 * instance i. */
struct uncore_instances {
	uint64_t w[UNCORE_MAX_INSTANCES / 64];
};

static inline void uncore_inst_add(struct uncore_instances *s, unsigned i)
{
	if (i < UNCORE_MAX_INSTANCES)
		s->w[i / 64] |= 1ull << (i % 64);
}

static inline int uncore_inst_has(const struct uncore_instances *s, unsigned i)
{
	return i < UNCORE_MAX_INSTANCES && (s->w[i / 64] >> (i % 64) & 1);
}

static inline unsigned uncore_inst_count(const struct uncore_instances *s)
{
	unsigned n = 0;
	for (unsigned k = 0; k < UNCORE_MAX_INSTANCES / 64; k++)
		n += (unsigned)__builtin_popcountll(s->w[k]);
	return n;
}

/* The lowest instance present, or -1. */
static inline int uncore_inst_first(const struct uncore_instances *s)
{
	for (unsigned k = 0; k < UNCORE_MAX_INSTANCES / 64; k++)
		if (s->w[k])
			return (int)(k * 64 + (unsigned)__builtin_ctzll(s->w[k]));
	return -1;
}

/* Instances 0 .. n-1. */
static inline void uncore_inst_fill(struct uncore_instances *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		uncore_inst_add(s, i);
}

struct uncore_machine {
	const struct uncore_event_platform *plat;
	unsigned nsockets;
	/* present[b][s]: the instances of plat->boxes[b] on socket s */
	struct uncore_instances present[UNCORE_MAX_BOX_TYPES][UNCORE_MACHINE_MAX_SOCKETS];
	int socket_cpu[UNCORE_MACHINE_MAX_SOCKETS]; /* CPU that reaches the socket (MSR, perf), -1 if none */
	uint8_t pci_bus[UNCORE_MACHINE_MAX_SOCKETS]; /* uncore PCI bus of the socket (manual 1.6.1) */
	uint8_t pci_root_bus[UNCORE_MACHINE_MAX_SOCKETS]; /* its root bus (IIO functions: the
							   * Haswell-EP IRP), when found */
	uint8_t node_id[UNCORE_MACHINE_MAX_SOCKETS]; /* QPI node ID of the socket (1.6.1 CPUNODEID);
						      * all 0 when not known */
	unsigned ncpus;                              /* CPUs known (index < ncpus) */
	int16_t cpu_socket[UNCORE_MAX_CPUS];          /* socket of each CPU, -1 if offline */
	char origin[160];                    /* "SIMULATED uncore: ..." or "hardware" */
	/* Why the box types in absent_boxes (bit b: plat->boxes[b]) are
	 * missing, when discovery knows: added to the scheduler's "not
	 * present" errors for them. */
	uint64_t absent_boxes;
	char absent_note[200];
};
_Static_assert(UNCORE_MAX_BOX_TYPES <= 64, "absent_boxes has one bit per box type");

/* Index of `box` in m->plat->boxes, or -1. */
int uncore_machine_box_index(const struct uncore_machine *m, const struct uncore_box_type *box);

/* The socket of CPU `cpu` (for ":cpu=N"): 0 or UNCORE_ENODEV. */
int uncore_machine_socket_of_cpu(const struct uncore_machine *m, int cpu, unsigned *socket);

#endif
