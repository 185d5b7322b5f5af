/* Which processor this is: CPUID vendor, family, model and stepping, and the
 * uncore platform (if any) that papi-uncore supports on it. */
#ifndef UNCORE_PLATFORM_CPU_H
#define UNCORE_PLATFORM_CPU_H

#include <stddef.h>

struct uncore_cpu_id {
	char vendor[13];  /* "GenuineIntel" */
	unsigned family;  /* display family (base + extended) */
	unsigned model;   /* display model (base + extended << 4) */
	unsigned stepping;
	unsigned l3_kb; /* size of a level-3 cache (CPUID leaf 4, else 2); 0: none */
};

enum uncore_platform_id {
	UNCORE_PLATFORM_NONE = 0,
	UNCORE_PLATFORM_HSWEP,  /* Xeon E5/E7 v3 (Haswell-EP/EX) */
	UNCORE_PLATFORM_SKL,    /* 6th generation Core (Skylake client) */
	UNCORE_PLATFORM_NHM,    /* Core i7 / Xeon 5500 (Nehalem) */
	UNCORE_PLATFORM_X7400,  /* Xeon 7100 / 7400 L3 (Tulsa / Dunnington) */
};

struct uncore_platform_desc {
	enum uncore_platform_id id;
	const char *name;        /* "hswep" */
	const char *title;       /* "Intel Xeon E5/E7 v3 (Haswell-EP)" */
	unsigned family;
	const unsigned *models;  /* display models, 0-terminated */
	unsigned needs_l3;       /* only a part with an L3 cache (l3_kb) is this platform */
};

/* Read CPUID of the CPU we run on.  0, or UNCORE_ENOSUPP on a non-x86 build. */
int uncore_cpu_identify(struct uncore_cpu_id *out);

/* The supported platform of a CPU, or NULL. */
const struct uncore_platform_desc *uncore_platform_for_cpu(const struct uncore_cpu_id *cpu);

/* Why a processor that looks like a supported one is not ("" for others):
 * a sentence to add to "no supported uncore" (HARDWARE-DECISIONS.md N1, X1). */
const char *uncore_platform_near_miss(const struct uncore_cpu_id *cpu);

/* The L3 size in KiB from CPUID leaf 4's subleaves (EAX..EDX of each, in
 * order, n of them) or leaf 2's descriptor bytes (EAX..EDX) on a processor
 * of `family`/`model`; 0 when they name no level-3 cache. */
unsigned uncore_cpuid4_l3_kb(const unsigned (*sub)[4], unsigned n);
unsigned uncore_cpuid2_l3_kb(const unsigned regs[4], unsigned family, unsigned model);

/* The platform called `name` ("hswep"), or NULL. */
const struct uncore_platform_desc *uncore_platform_by_name(const char *name);

/* All supported platforms, for listings and error messages. */
const struct uncore_platform_desc *uncore_platforms(size_t *count);

/* "Haswell-EP (6/0x3f), Skylake client (6/0x4e,0x5e), ..." for messages. */
int uncore_platforms_describe(char *buf, size_t len);

#endif
