/* Sockets and CPUs of this machine, from sysfs: which packages exist, which
 * CPUs are online in each, and the one CPU per socket through which that
 * socket's uncore MSRs are accessed (/dev/cpu/N/msr reaches the uncore of
 * the package CPU N belongs to).  The sysfs root is a parameter so tests can
 * use fake trees. */
#ifndef UNCORE_TOPOLOGY_CPU_TOPOLOGY_H
#define UNCORE_TOPOLOGY_CPU_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

/* Haswell-EP E7 v3 scales to 8 sockets; leave room for larger machines. */
#define UNCORE_MAX_SOCKETS 32

#define UNCORE_SYSFS_CPU_ROOT "/sys/devices/system/cpu"

#define UNCORE_TOPOLOGY_MAX_CPUS 1024

struct uncore_socket_info {
	unsigned package_id;  /* physical_package_id */
	int cpu;              /* the CPU used for this socket's MSRs */
	unsigned online_cpus; /* online CPUs in the package */
	unsigned cores;       /* physical cores among them (distinct core_id; 0: not known) */
	uint64_t core_seen[4]; /* core_ids 0-255 seen (for `cores`) */
};

struct uncore_cpu_topology {
	unsigned nsockets;    /* sockets with at least one online CPU */
	unsigned online_cpus; /* all online CPUs */
	/* Sorted by package_id. */
	struct uncore_socket_info socket[UNCORE_MAX_SOCKETS];
	/* Package id of every online CPU below UNCORE_TOPOLOGY_MAX_CPUS, -1
	 * for the others; ncpu_ids = highest online CPU + 1 (for ":cpu=N"). */
	unsigned ncpu_ids;
	int16_t cpu_package[UNCORE_TOPOLOGY_MAX_CPUS];
};

/* Read the topology under `root` (NULL: UNCORE_SYSFS_CPU_ROOT): the online
 * list from root/online, each CPU's package from
 * root/cpuN/topology/physical_package_id.  Each socket's CPU is its lowest
 * numbered online CPU (deterministic across runs and tools, and the CPU
 * least likely to be taken offline), unless `override` gives one CPU per
 * socket in package order (noverride entries; NULL/0: none); an override
 * CPU must be online and in that socket.  0 or a negative UNCORE_E* code. */
int uncore_topology_read(const char *root, const int *override, size_t noverride,
			 struct uncore_cpu_topology *out);

/* The CPU serving package `package_id`, or -1 when there is no such socket. */
int uncore_topology_cpu_of(const struct uncore_cpu_topology *t, unsigned package_id);

/* Fill map[p] with the CPU of package p for p < nmap, -1 where there is
 * none: the socket→CPU map the MSR backends take.  Returns the number of
 * entries needed (highest package id + 1). */
size_t uncore_topology_cpu_map(const struct uncore_cpu_topology *t, int *map, size_t nmap);

/* Parse a CPU list as the kernel writes it ("0-3,8,10-11\n") calling
 * fn(cpu, arg) for each CPU in order; stops at and returns fn's first
 * non-zero result.  0, the callback's code, or UNCORE_ESYNTAX. */
int uncore_cpulist_parse(const char *text, int (*fn)(unsigned cpu, void *arg), void *arg);

/* Parse an override list "3,17" (one CPU per socket, in package order) into
 * cpus[]: 0 with *n set, UNCORE_ESYNTAX, or UNCORE_ENOSPACE. */
int uncore_topology_parse_override(const char *text, int *cpus, size_t max, size_t *n);

#endif
