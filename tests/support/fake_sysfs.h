/* Fake sysfs trees of kernels with uncore drivers, for the perf backend's
 * tests: root/bus/event_source/devices (PMUs with type, cpumask, format,
 * events) and root/devices/system/cpu (online CPUs and their packages), as
 * Linux publishes them on a Skylake client and on a two-socket Nehalem
 * (formats from arch/x86/events/intel/uncore_snb.c).  The Haswell-EP tree
 * is the simulated kernel's (simkernel/uncore_sim_perf.h). */
#ifndef UNCORE_TEST_FAKE_SYSFS_H
#define UNCORE_TEST_FAKE_SYSFS_H

/* A fresh directory for a tree, on tmpfs when there is one (trees have
 * hundreds of small files).  Static storage, eight calls deep; NULL on
 * failure. */
const char *fake_sysfs_mkdtemp(const char *tag);

/* Core i7-6700 like: one socket, 8 CPUs; uncore_cbox_0..3 (cpumask 0) with
 * a clockticks alias, uncore_arb, uncore_imc with its free-running aliases,
 * plus msr, power, cstate_core, software, tracepoint.  0 or -1. */
int fake_sysfs_skl(const char *root);

/* Xeon 5500 like: two sockets of 4 CPUs; one PMU "uncore" (cpumask 0,4)
 * with an 8-bit cmask, plus msr and software.  0 or -1. */
int fake_sysfs_nhm(const char *root);

/* The two sysfs directories of a tree (static storage). */
const char *fake_sysfs_pmu_root(const char *root);
const char *fake_sysfs_cpu_root(const char *root);

#endif
