/* A simulated Linux kernel in front of the simulator, for the perf backend:
 * it writes a sysfs tree describing the simulated machine's uncore PMUs as
 * the Linux uncore driver does (names, types, cpumasks, format fields,
 * event aliases; plus the msr and software PMUs), and offers the perf
 * system-call layer (backend/perf/perf_sys.h), which decodes each
 * perf_event_attr through the format files of that tree into register
 * values and programs the simulated boxes with the direct backend's box
 * programming, so counts through the perf backend are exact.  It keeps
 * the kernel's semantics the backend relies on: groups, enable/disable/
 * reset, 64-bit counts, time_enabled/time_running, read formats. */
#ifndef UNCORE_SIM_PERF_H
#define UNCORE_SIM_PERF_H

#include <stdint.h>

#include "backend/perf/perf_sys.h"
#include "sim/uncore_sim.h"

struct uncore_sim_perf;

/* Write the tree under `root` (an existing, empty directory): PMUs in
 * root/bus/event_source/devices, CPUs in root/devices/system/cpu.  The
 * kernel keeps using `sim` (not owned). */
int uncore_sim_perf_create(struct uncore_sim *sim, const char *root, struct uncore_sim_perf **out);

/* The machine `o` names (uncore_sim_regio_open) behind a simulated kernel
 * whose tree is written to a fresh directory under /dev/shm (else tmpdir,
 * else /tmp); destroying the kernel removes the tree and closes the
 * machine.  For the component's PAPI_INTEL_UNCORE_SIM_KERNEL=perf; `share`
 * (PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE, NULL or "": none)
 * "uncore_imc_0=1/4,..." multiplexes PMUs (uncore_sim_perf_set_share). */
#define UNCORE_SIM_ENV_KERNEL       "PAPI_INTEL_UNCORE_SIM_KERNEL"
#define UNCORE_SIM_ENV_KERNEL_SHARE "PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE"
int uncore_sim_perf_open(const struct uncore_sim_options *o, const char *tmpdir, const char *share,
			 struct uncore_sim_perf **out);

/* Remove the tree written by uncore_sim_perf_open once the backend has
 * read it (the kernel keeps what it parsed; reload is then impossible). */
void uncore_sim_perf_remove_tree(struct uncore_sim_perf *k);

/* The simulator behind the kernel. */
struct uncore_sim *uncore_sim_perf_machine(struct uncore_sim_perf *k);

/* Its system-call layer; the layer's destroy destroys the kernel. */
struct uncore_perf_sys *uncore_sim_perf_sys(struct uncore_sim_perf *k);

/* The tree's directories, for struct uncore_perf_config. */
const char *uncore_sim_perf_pmu_root(const struct uncore_sim_perf *k);
const char *uncore_sim_perf_cpu_root(const struct uncore_sim_perf *k);

/* Re-read the format files (after a test changed them: the kernel then
 * decodes attributes through the new layout). */
int uncore_sim_perf_reload(struct uncore_sim_perf *k);

void uncore_sim_perf_destroy(struct uncore_sim_perf *k);

/* Observation and fault injection. */

struct uncore_sim_perf_stats {
	uint64_t open, read, ioctl, close;
	unsigned open_fds;
};
void uncore_sim_perf_stats(const struct uncore_sim_perf *k, struct uncore_sim_perf_stats *out);

enum uncore_sim_perf_op {
	UNCORE_SIM_PERF_OPEN = 0,
	UNCORE_SIM_PERF_READ,
	UNCORE_SIM_PERF_IOCTL,
	UNCORE_SIM_PERF_CLOSE,
	UNCORE_SIM_PERF_OPS
};

/* The nth next call of `op` (1 = the next) fails with -err, once. */
int uncore_sim_perf_fail(struct uncore_sim_perf *k, enum uncore_sim_perf_op op, unsigned nth,
			 int err);

/* An unprivileged caller (perf_event_paranoid above 0, no CAP_PERFMON):
 * system-wide opens fail with EACCES.  Default: privileged. */
void uncore_sim_perf_set_privileged(struct uncore_sim_perf *k, int privileged);

/* Multiplexing: the groups of PMU `pmu` run `num`/`den` of the time they
 * are enabled (their counts are that share of the traffic, time_running
 * that share of time_enabled), as when the kernel rotates more groups than
 * the PMU has counters.  1/1 by default. */
int uncore_sim_perf_set_share(struct uncore_sim_perf *k, const char *pmu, unsigned num,
			      unsigned den);

/* The config words the kernel last accepted for an event of PMU `pmu`
 * (for tests comparing the backend's packing with expectations). */
int uncore_sim_perf_last_config(const struct uncore_sim_perf *k, const char *pmu, uint64_t cfg[3]);

/* The CPU the last event of PMU `pmu` was opened on (as asked, before the
 * kernel moves an uncore event to its box's CPU). */
int uncore_sim_perf_last_cpu(const struct uncore_sim_perf *k, const char *pmu, int *cpu);

#endif
