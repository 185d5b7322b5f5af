/* MSR access as the direct backend uses it: /dev/cpu/N/msr where this
 * process may use it, else msr-safe, always behind the write allowlist of
 * the platform's PMON MSRs (platform/msr_ranges.h), so that no write outside
 * the uncore PMON registers' writable bits can reach a device. */
#ifndef UNCORE_BIND_MSR_OPEN_H
#define UNCORE_BIND_MSR_OPEN_H

#include <stddef.h>

#include "access/regio.h"

enum uncore_msr_method {
	UNCORE_MSR_AUTO = 0, /* msr, else msr-safe */
	UNCORE_MSR_DEV,      /* /dev/cpu/N/msr only */
	UNCORE_MSR_SAFE,     /* msr-safe only */
};

struct uncore_msr_open_options {
	enum uncore_msr_method method;
	const char *platform;     /* the generation whose MSR table is the allowlist: "hswep" */
	const int *cpu_of_socket; /* from uncore_topology_cpu_map() */
	size_t nsockets;
	const char *dev_root;           /* NULL: /dev/cpu */
	const char *allow_writes_param; /* NULL: the msr driver's (msr_dev.h) */
};

/* Open and wrap.  The result is an "allowlist" regio owning the device
 * regio (uncore_allowlist_inner() gives it, e.g. for its name).  When no
 * method works the detail gives the reason of each one tried. */
int uncore_msr_open(const struct uncore_msr_open_options *o, struct uncore_regio **out);

#endif
