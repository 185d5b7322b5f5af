/* A simulated kernel of a processor we have no uncore tables for (Skylake-SP,
 * Sapphire Rapids, ...): a sysfs tree copied in shape from the Linux uncore
 * driver of that generation (PMU names uncore_<box>_<n>, cpumask one CPU per
 * socket, format fields, event aliases with .scale/.unit), and the perf
 * system-call layer over it, whose counters count at constant rates on the
 * wall clock (CLOCK_MONOTONIC): each (PMU family, event, umask) of the
 * shape's rate table counts rate x (instance + 1) x (socket + 1) per second
 * on every PMU instance, everything else 0.  So the box-summed kernel
 * aliases and the metrics over them can be checked exactly against the
 * counts, and uncore-stat shows something on a laptop.  Selected with
 * PAPI_INTEL_UNCORE_BACKEND=sim PAPI_INTEL_UNCORE_SIM_KERNEL=<shape>. */
#ifndef UNCORE_SIMKERNEL_SHAPE_KERNEL_H
#define UNCORE_SIMKERNEL_SHAPE_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "backend/perf/perf_sys.h"

struct uncore_shape;
struct uncore_shape_kernel;

/* The shapes: "spr" (Sapphire Rapids), "skx" (Skylake-SP, Cascade Lake), "icx" (Ice Lake-SP),
 * "gnr" (Granite Rapids), "emr" (Emerald Rapids), "srf" (Sierra Forest), "gnr-old" (Granite
 * Rapids on a kernel before the per-scheduler IMC events). */
size_t uncore_shape_count(void);
const struct uncore_shape *uncore_shape_at(size_t i);
const struct uncore_shape *uncore_shape_find(const char *name);
const char *uncore_shape_name(const struct uncore_shape *s);
const char *uncore_shape_title(const struct uncore_shape *s);
/* The generation of our tables it stands for ("spr"; gnr-old: "gnr"). */
const char *uncore_shape_gen(const struct uncore_shape *s);

/* Counts per second of event (config, config1) on instance `inst` of the
 * PMU family `family` ("uncore_imc") on socket `socket`; 0 for anything the
 * shape's rate table does not name. */
uint64_t uncore_shape_rate(const struct uncore_shape *s, const char *family, unsigned inst,
			   unsigned socket, uint64_t config, uint64_t config1);

/* Write the shape's tree into a fresh directory (/dev/shm, else tmpdir
 * ($TMPDIR, read by bind/settings.c; NULL or "": none) or /tmp) and make its
 * kernel.  0, UNCORE_EIO, UNCORE_ENOMEM. */
int uncore_shape_kernel_create(const struct uncore_shape *s, const char *tmpdir,
			       struct uncore_shape_kernel **out);

const char *uncore_shape_kernel_pmu_root(const struct uncore_shape_kernel *k);
const char *uncore_shape_kernel_cpu_root(const struct uncore_shape_kernel *k);

/* Virtual time: from now on the counters move only when a round starts, by
 * step_ns of time each round, so a count between two rounds is exactly
 * rate x step_ns (tests; PAPI_INTEL_UNCORE_SIM_KERNEL_STEP).  A round
 * starts at a look at the kernel's clock (uncore_shape_kernel_now) or a
 * read() when none is under way, or at a read() of a group read in it
 * already; a look after reads ends it (reads no look preceded: the look
 * after the one that dates them), and so does any other call.  So a reader
 * that looks at the clock, reads, and looks again (the event sets' timed
 * reads) gets its counts and their instant together.  (Two readers
 * interleaving untimed and timed reads of the same groups are not: a
 * second read of a group starts a round between their looks.)
 * 0: the wall clock (CLOCK_MONOTONIC), the default. */
void uncore_shape_kernel_set_step(struct uncore_shape_kernel *k, uint64_t step_ns);

/* Its time in ns (an uncore_clock's now_ns: ctx is the kernel); on virtual
 * time a look that starts or ends a round (above). */
int uncore_shape_kernel_now(void *k, uint64_t *ns);

/* read() calls it has answered so far. */
uint64_t uncore_shape_kernel_reads(const struct uncore_shape_kernel *k);

/* Its system-call layer; the layer's destroy destroys the kernel. */
struct uncore_perf_sys *uncore_shape_kernel_sys(struct uncore_shape_kernel *k);

/* Remove the tree once the backend has read it. */
void uncore_shape_kernel_remove_tree(struct uncore_shape_kernel *k);

void uncore_shape_kernel_destroy(struct uncore_shape_kernel *k);

#endif
