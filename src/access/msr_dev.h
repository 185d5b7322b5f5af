/* MSR access through the Linux msr driver: /dev/cpu/N/msr, one pread or
 * pwrite of 8 bytes at offset = MSR index per access, on the CPU chosen for
 * the register's socket (topology/cpu_topology.h).  Needs root or
 * CAP_SYS_RAWIO; msr_safe.h is the unprivileged alternative. */
#ifndef UNCORE_ACCESS_MSR_DEV_H
#define UNCORE_ACCESS_MSR_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "access/regio.h"

#define UNCORE_MSR_DEV_ROOT "/dev/cpu"

/* What both MSR backends are opened with. */
struct uncore_msr_options {
	const int *cpu_of_socket; /* socket (package id) -> CPU; -1 where none */
	size_t nsockets;          /* entries in cpu_of_socket */
	const char *dev_root;     /* NULL: UNCORE_MSR_DEV_ROOT (tests: a temp dir) */
	/* The msr driver's allow_writes parameter (NULL: UNCORE_MSR_ALLOW_WRITES). */
	const char *allow_writes_param;
};

#define UNCORE_MSR_ALLOW_WRITES "/sys/module/msr/parameters/allow_writes"

/* Open root/N/msr for the CPU of every socket (read-write, or read-only
 * when only that is permitted: writes then fail with UNCORE_EPERM).  The
 * regio's name is "msr"; uncore_regio_destroy() closes and frees it all.
 * 0 or a negative UNCORE_E* code whose detail says how to get access. */
int uncore_msr_dev_open(const struct uncore_msr_options *opt, struct uncore_regio **out);

/* The same over another per-CPU device file ("msr_safe": msr_safe.c uses it
 * for single accesses), with msr-safe's wording in errors when `msr_safe`. */
int uncore_msr_dev_open_as(const struct uncore_msr_options *opt, const char *leaf, int msr_safe,
			   struct uncore_regio **out);

/* The errno of a failed MSR device access turned into our code and detail
 * (shared by the msr and msr-safe backends):
 *   EIO            the rdmsr/wrmsr faulted (#GP: no such MSR on this CPU, or a
 *                  reserved bit was set)                  -> UNCORE_EFAULT
 *   EACCES, EPERM  not permitted (or, for msr-safe, not in its allowlist)
 *                                                         -> UNCORE_EPERM
 *   ENOENT, ENXIO, ENODEV  no such device / CPU offline   -> UNCORE_ENODEV
 * `path` is the device, `msr` the register (or -1 for an open), `op` "read",
 * "write" or "open", `msr_safe` selects the msr-safe wording. */
int uncore_msr_fail(int err, const char *path, int64_t msr, const char *op, int msr_safe);

/* A refused write through /dev/cpu/N/msr: when the msr driver's
 * allow_writes parameter (file `param`, NULL: UNCORE_MSR_ALLOW_WRITES)
 * says "off", every write is EPERM whatever the privileges, and the
 * detail says so and how to turn it on; otherwise uncore_msr_fail(). */
int uncore_msr_write_fail(int err, const char *path, int64_t msr, const char *param);

#endif
