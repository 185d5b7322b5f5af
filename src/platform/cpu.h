/* Which processor this is: CPUID vendor, family, model and stepping, and the
 * uncore generation (platform/platform.h) papi-uncore supports on it. */
#ifndef UNCORE_PLATFORM_CPU_H
#define UNCORE_PLATFORM_CPU_H

#include <stddef.h>

#include "platform/platform.h"

struct uncore_cpu_id {
	char vendor[13];  /* "GenuineIntel" */
	unsigned family;  /* display family (base + extended) */
	unsigned model;   /* display model (base + extended << 4) */
	unsigned stepping;
	int hypervisor;   /* CPUID.1:ECX[31]: a virtual machine's CPU (SDM Vol. 2A:
			   * "not used, always 0" on hardware; hypervisors set it) */
};

/* Read CPUID of the CPU we run on.  0, or UNCORE_ENOSUPP on a non-x86 build. */
int uncore_cpu_identify(struct uncore_cpu_id *out);

/* The supported generation of a CPU, or NULL. */
const struct uncore_platform *uncore_platform_for_cpu(const struct uncore_cpu_id *cpu);

#endif
