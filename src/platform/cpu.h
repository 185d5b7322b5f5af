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
	char brand[64];   /* "AMD EPYC 9654 96-Core Processor" (CPUID 0x80000002-4,
			   * /proc/cpuinfo's model name); "" when none */
};

/* The CPU we run on: CPUID, then the kernel's account of it in /proc/cpuinfo
 * (vendor_id, cpu family, model, stepping, model name, the hypervisor
 * flag) where it has one.  The kernel reads the same CPUID, so on a real
 * machine both agree; reading its account too makes our library see the
 * processor PAPI's hardware information shows (PAPI reads /proc/cpuinfo),
 * and lets the tests show a program another host (tests/fakes/fake_host.c).
 * The L3 size is CPUID's alone.  0, or UNCORE_ENOSUPP on a non-x86 build. */
int uncore_cpu_identify(struct uncore_cpu_id *out);

/* Overlay the first processor of a /proc/cpuinfo-format file onto *id:
 * 1 when it named vendor, family and model (the others as it has them), 0
 * when it did not (id untouched), -1 when it cannot be read. */
int uncore_cpu_read_cpuinfo(const char *path, struct uncore_cpu_id *id);

/* The processor in words for a message: "AMD EPYC 9654 96-Core Processor
 * (AuthenticAMD family 25 model 0x11)", with ", a virtual machine" after
 * the identification when the hypervisor flag is set. */
void uncore_cpu_describe(const struct uncore_cpu_id *cpu, char *buf, size_t len);

/* Why this processor has no uncore tables here, for a message: "<describe>:
 * not an Intel processor, no Intel uncore tables", or "no uncore tables for
 * <describe>". */
void uncore_cpu_no_tables(const struct uncore_cpu_id *cpu, char *buf, size_t len);

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
