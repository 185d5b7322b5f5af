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
	unsigned l3_kb; /* size of a level-3 cache (CPUID leaf 4, else 2); 0: none */
	int hypervisor;   /* CPUID.1:ECX[31]: a virtual machine's CPU (SDM Vol. 2A:
			   * "not used, always 0" on hardware; hypervisors set it) */
};

/* Read CPUID of the CPU we run on.  0, or UNCORE_ENOSUPP on a non-x86 build. */
int uncore_cpu_identify(struct uncore_cpu_id *out);

/* The supported generation of a CPU, or NULL. */
const struct uncore_platform *uncore_platform_for_cpu(const struct uncore_cpu_id *cpu);

/* Why a processor that looks like a supported generation is not, as its
 * platform object says (not_models, needs_l3: its HARDWARE-DECISIONS.md N1,
 * X1); "" for any other. */
const char *uncore_platform_near_miss(const struct uncore_cpu_id *cpu);

/* The L3 size in KiB from CPUID leaf 4's subleaves (EAX..EDX of each, in
 * order, n of them) or leaf 2's descriptor bytes (EAX..EDX) on a processor
 * of `family`/`model`; 0 when they name no level-3 cache. */
unsigned uncore_cpuid4_l3_kb(const unsigned (*sub)[4], unsigned n);
unsigned uncore_cpuid2_l3_kb(const unsigned regs[4], unsigned family, unsigned model);

#endif
