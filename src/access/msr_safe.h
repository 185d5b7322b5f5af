/* MSR access through LLNL's msr-safe module, which lets unprivileged users
 * read and write the MSRs an administrator lists in /dev/cpu/msr_allowlist
 * (utils/msr-safe-allowlist generates our list).  Single accesses go through
 * /dev/cpu/N/msr_safe; uncore_regio_batch() makes a whole set of reads and
 * writes (a read's freeze, counter reads, thaw) with ONE ioctl on
 * /dev/cpu/msr_batch. */
#ifndef UNCORE_ACCESS_MSR_SAFE_H
#define UNCORE_ACCESS_MSR_SAFE_H

#include <stdint.h>
#include <sys/ioctl.h>

#include "access/msr_dev.h"

/* The batch ABI as msr-safe documents it (README "/dev/cpu/msr_batch";
 * header msr_safe.h): one op per MSR access, errors per op as negative
 * errno values.  `version` (msr-safe >= 2.0) carries MAJOR<<16 | MINOR<<8 |
 * PATCH and must match the module's major version; earlier modules do not
 * read it (it occupies what was padding before the ops pointer). */
struct uncore_msr_batch_op {
	uint16_t cpu;     /* in: CPU that runs rdmsr/wrmsr */
	uint16_t isrdmsr; /* in: nonzero = read, 0 = write */
	int32_t err;      /* out: 0 or -errno of this op */
	uint32_t msr;     /* in: MSR index */
	uint64_t msrdata; /* in/out: value written or read */
	uint64_t wmask;   /* out: the allowlist write mask of the MSR */
};

struct uncore_msr_batch_array {
	uint32_t numops;
	uint32_t version;
	struct uncore_msr_batch_op *ops;
};

#define UNCORE_X86_IOC_MSR_BATCH _IOWR('c', 0xA2, struct uncore_msr_batch_array)

/* The version we announce when the module does not tell its own. */
#define UNCORE_MSR_SAFE_VERSION ((2u << 16) | (0u << 8) | 0u)

struct uncore_msr_safe_options {
	struct uncore_msr_options msr; /* socket->CPU map and device root */
	/* How the batch request is issued: NULL for ioctl(2) on the batch
	 * device.  Tests plug in a model of the module here.  Returns 0, or -1
	 * with errno set, like ioctl. */
	int (*batch_ioctl)(int fd, struct uncore_msr_batch_array *a, void *arg);
	void *batch_arg;
};

/* Open root/N/msr_safe for every socket's CPU and root/msr_batch (without
 * the batch device, a batch is made one access at a time).  The regio's
 * name is "msr-safe"; uncore_regio_destroy() releases everything. */
int uncore_msr_safe_open(const struct uncore_msr_safe_options *opt, struct uncore_regio **out);

/* Whether a batch of this regio uses the batch device. */
int uncore_msr_safe_has_batch(const struct uncore_regio *io);

#endif
