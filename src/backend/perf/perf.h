/* The perf_event backend: counts through the kernel's PMUs (the uncore
 * drivers' uncore_* PMUs, and any other PMU sysfs describes), discovered
 * from /sys/bus/event_source/devices.  All events of one PMU instance on
 * one CPU form one group read with PERF_FORMAT_GROUP, so a read costs one
 * read() per PMU instance in use; each socket is counted on the CPU the
 * PMU's cpumask names (the topology's when it has none); multiplexed
 * groups are scaled by time_enabled / time_running and say so. */
#ifndef UNCORE_BACKEND_PERF_H
#define UNCORE_BACKEND_PERF_H

#include "backend/backend.h"
#include "backend/perf/perf_format.h"
#include "backend/perf/perf_sysfs.h"
#include "backend/perf/perf_sys.h"
#include "plan/sched.h"

struct uncore_perf_sysfs;

#define UNCORE_PERF_PARANOID_PATH "/proc/sys/kernel/perf_event_paranoid"

struct uncore_perf_config {
	const char *pmu_root; /* NULL: /sys/bus/event_source/devices */
	/* The PMUs already read from pmu_root (uncore_perf_sysfs_read, for the
	 * backend choice's probes), taken over: freed with the backend, or by
	 * uncore_perf_open when it fails; NULL: read pmu_root. */
	struct uncore_perf_sysfs *sysfs;
	const char *cpu_root;        /* NULL: /sys/devices/system/cpu */
	const char *paranoid_path;   /* NULL: UNCORE_PERF_PARANOID_PATH */
	struct uncore_perf_sys *sys; /* NULL: the real system calls; else owned (destroyed) */
	/* Event tables to map onto the kernel's PMUs, or NULL: kernel PMUs
	 * only (a processor we have no tables for). */
	const struct uncore_event_platform *plat;
	const char *origin; /* copied to machine.origin; NULL: "hardware" */
	/* Check at start-up whether this user may count system-wide
	 * (uncore_perf_permission; 0: do, the usual), so that the component
	 * can say why not before anything is added. */
	int no_probe;
	/* Start-up only: `sysfs` is a listing (uncore_perf_sysfs_list) and
	 * the CPUs are not read; the backend names its PMUs and counts their
	 * events (the event source's pmu_names and count) and can do nothing
	 * else. */
	int listing;
};

/* Discover the PMUs and CPUs and make a backend.  0, or an error whose
 * detail is fit for a disabled reason (no PMUs, permission with the
 * perf_event_paranoid value and the CAP_PERFMON alternative). */
int uncore_perf_open(const struct uncore_perf_config *cfg, struct uncore_backend **out);

/* Whether this process may count a whole CPU, judged without opening an
 * event (perf_event_paranoid and the capabilities, or what the simulated
 * kernel `sys` says; NULL: the real kernel).  0, or UNCORE_EPERM with the
 * paranoid level read from `paranoid_path` (NULL: the real one) and the
 * ways out. */
int uncore_perf_permission(struct uncore_perf_sys *sys, const char *paranoid_path);

/* perf_event_paranoid from `path` (NULL: the real one), INT_MIN when
 * unreadable. */
int uncore_perf_paranoid_level(const char *path);

/* UNCORE_EPERM, the detail saying what counting `counting` (a PMU's name)
 * for a whole CPU needs, with the paranoid level read from `paranoid_path`
 * (NULL: the real one) and the fixes; prefixed with "`what`: " unless
 * NULL.  The one wording of start-up's check and of a refused open. */
int uncore_perf_denied(const char *what, const char *counting, const char *paranoid_path);

/* Whether `pmu_root` has a kernel PMU serving a box type of `plat`
 * (uncore_box_perf_name of some instance).  1 or 0. */
int uncore_perf_has_platform_pmu(const char *pmu_root, const struct uncore_event_platform *plat);

/* Whether `pmu_root` has any PMU countable by its sysfs aliases (msr,
 * power, cstate, software...).  1 or 0. */
int uncore_perf_has_kernel_pmus(const char *pmu_root);

/* The same questions of PMUs already read (the component reads the
 * directory once for the probes and the backend). */
int uncore_perf_sysfs_has_platform_pmu(const struct uncore_perf_sysfs *s,
				       const struct uncore_event_platform *plat);
int uncore_perf_sysfs_has_kernel_pmus(const struct uncore_perf_sysfs *s);

/* A count scaled to the whole enabled time when the kernel multiplexed its
 * group: count * enabled / running (count itself when running >= enabled;
 * 0 when it never ran). */
uint64_t uncore_perf_scale(uint64_t count, uint64_t enabled, uint64_t running);

/* The kernel PMU serving instance `instance` of box type `box` (index in
 * machine.plat->boxes) and the CPU its events on `socket` are opened on:
 * 0, or UNCORE_ENODEV when there is none. */
int uncore_perf_binding(const struct uncore_backend *b, unsigned box, unsigned instance,
			unsigned socket, const char **pmu, int *cpu);

/* What the backend opens for slot `slot` of `plan` (for --explain): the
 * kernel PMU, its type, the CPU and the config words.  Nothing is opened.
 * 0, UNCORE_EINVAL when `b` is not a perf backend, or the error programming
 * the slot would give (no kernel PMU, a field without a format). */
struct uncore_perf_slot_attr {
	const char *pmu;
	uint32_t type;
	int cpu;
	uint64_t config[UNCORE_PERF_NCONFIG];
};
int uncore_perf_slot_attr(const struct uncore_backend *b, const struct uncore_plan *plan,
			  unsigned slot, struct uncore_perf_slot_attr *out);

/* The event alias `alias` (any case) of the kernel PMU family `family`
 * ("uncore_imc": every uncore_imc_N) or single PMU ("msr") as sysfs gives
 * it: terms, .scale, .unit.  0; UNCORE_ENOEVENT when there is no such
 * family or alias, UNCORE_EINVAL when `b` is not a perf backend. */
int uncore_perf_kernel_alias(const struct uncore_backend *b, const char *family, const char *alias,
			     struct uncore_perf_alias *out);

/* System calls made so far by the backend, by kind. */
struct uncore_perf_calls {
	uint64_t open, read, ioctl, close;
};
int uncore_perf_calls(const struct uncore_backend *b, struct uncore_perf_calls *out);

#endif
