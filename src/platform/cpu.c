/* CPUID identification and the table of supported uncore platforms.
 * Model numbers: Intel SDM Vol. 4, table 2-1 (DisplayFamily_DisplayModel);
 * the Xeon 7100 series is NetBurst (family 0xF, model 6), SDM Vol. 3B 18.21. */
#include "platform/cpu.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static const unsigned hswep_models[] = {0x3f, 0};
static const unsigned skl_models[] = {0x4e, 0x5e, 0};
/* 0x2e is Nehalem-EX (Xeon 7500), a different uncore: not supported.  0x1f
 * (Auburndale/Havendale) is not either: the kernel has no uncore PMU for it
 * and no such part was sold (nhm/HARDWARE-DECISIONS.md N1). */
static const unsigned nhm_models[] = {0x1a, 0x1e, 0};
static const unsigned x7400_models[] = {0x1d, 0};
static const unsigned x7100_models[] = {0x06, 0};

static const struct uncore_platform_desc platforms[] = {
	{.id = UNCORE_PLATFORM_HSWEP, .name = "hswep", .title = "Intel Xeon E5/E7 v3 (Haswell-EP)",
	 .family = 6, .models = hswep_models},
	{.id = UNCORE_PLATFORM_SKL, .name = "skl", .title = "6th generation Intel Core (Skylake client)",
	 .family = 6, .models = skl_models},
	{.id = UNCORE_PLATFORM_NHM, .name = "nhm", .title = "Intel Core i7 / Xeon 5500 (Nehalem)",
	 .family = 6, .models = nhm_models},
	{.id = UNCORE_PLATFORM_X7400, .name = "x7400", .title = "Intel Xeon 7400 (Dunnington)",
	 .family = 6, .models = x7400_models},
	/* Family 0xF model 6 is also the Pentium D 9xx and Pentium 4 6x1, which
	 * have no L3 and no L3 EMON: only a part with an L3 is a Xeon 7100
	 * (x7400/HARDWARE-DECISIONS.md X1). */
	{.id = UNCORE_PLATFORM_X7400, .name = "x7100", .title = "Intel Xeon 7100 (Tulsa)",
	 .family = 0xf, .models = x7100_models, .needs_l3 = 1},
};

int uncore_cpu_identify(struct uncore_cpu_id *out)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned eax, ebx, ecx, edx;
	struct uncore_cpu_id id;

	memset(&id, 0, sizeof(id));
	if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
		return uncore_fail(UNCORE_ENOSUPP, "CPUID is not available");
	memcpy(id.vendor, &ebx, 4);
	memcpy(id.vendor + 4, &edx, 4);
	memcpy(id.vendor + 8, &ecx, 4);
	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		return uncore_fail(UNCORE_ENOSUPP, "CPUID leaf 1 is not available");
	/* SDM Vol. 2A, CPUID EAX=1: display family/model include the extended
	 * fields for family 6 and 0xF. */
	unsigned base_family = (eax >> 8) & 0xf;
	id.family = base_family == 0xf ? base_family + ((eax >> 20) & 0xff) : base_family;
	id.model = (eax >> 4) & 0xf;
	if (base_family == 6 || base_family == 0xf)
		id.model |= ((eax >> 16) & 0xf) << 4;
	id.stepping = eax & 0xf;
	/* The L3 (SDM Vol. 2A, CPUID leaf 4 "Deterministic Cache Parameters",
	 * else leaf 2's descriptors). */
	unsigned max = __get_cpuid_max(0, NULL);
	if (max >= 4) {
		unsigned sub[16][4];
		unsigned n = 0;
		while (n < 16) {
			__cpuid_count(4, n, sub[n][0], sub[n][1], sub[n][2], sub[n][3]);
			if ((sub[n][0] & 0x1f) == 0)
				break;
			n++;
		}
		id.l3_kb = uncore_cpuid4_l3_kb((const unsigned(*)[4])sub, n);
	}
	if (!id.l3_kb && max >= 2) {
		unsigned r[4];
		__cpuid(2, r[0], r[1], r[2], r[3]);
		id.l3_kb = uncore_cpuid2_l3_kb(r, id.family, id.model);
	}
	*out = id;
	return 0;
#else
	(void)out;
	return uncore_fail(UNCORE_ENOSUPP, "not an x86 processor");
#endif
}

unsigned uncore_cpuid4_l3_kb(const unsigned (*sub)[4], unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned type = sub[i][0] & 0x1f, level = (sub[i][0] >> 5) & 0x7;
		if (type == 0)
			break;
		if (level != 3 || (type != 1 && type != 3)) /* data or unified */
			continue;
		/* (ways + 1) * (partitions + 1) * (line size + 1) * (sets + 1) */
		unsigned long long bytes = (unsigned long long)((sub[i][1] >> 22) + 1) *
					   (((sub[i][1] >> 12) & 0x3ff) + 1) *
					   ((sub[i][1] & 0xfff) + 1) * ((unsigned long long)sub[i][2] + 1);
		return (unsigned)(bytes >> 10);
	}
	return 0;
}

/* SDM Vol. 2A, Table 3-12 (CPUID leaf 2 descriptors): the third-level
 * cache sizes in KiB.  0x49 is an L3 only on family 0xF model 6 (the Xeon
 * MP); elsewhere it is an L2. */
static const struct {
	unsigned char desc;
	unsigned kb;
} l3_descriptors[] = {
    {0x22, 512},  {0x23, 1024},  {0x25, 2048},  {0x29, 4096},  {0x46, 4096},
    {0x47, 8192}, {0x4a, 6144},  {0x4b, 8192},  {0x4c, 12288}, {0x4d, 16384},
    {0xd0, 512},  {0xd1, 1024},  {0xd2, 2048},  {0xd6, 1024},  {0xd7, 2048},
    {0xd8, 4096}, {0xdc, 1536},  {0xdd, 3072},  {0xde, 6144},  {0xe2, 2048},
    {0xe3, 4096}, {0xe4, 8192},  {0xea, 12288}, {0xeb, 18432}, {0xec, 24576},
};

unsigned uncore_cpuid2_l3_kb(const unsigned regs[4], unsigned family, unsigned model)
{
	for (unsigned r = 0; r < 4; r++) {
		if (regs[r] & 0x80000000u) /* bit 31 set: the register holds no descriptors */
			continue;
		for (unsigned b = r == 0 ? 1 : 0; b < 4; b++) { /* AL is the count, not one */
			unsigned char d = (unsigned char)(regs[r] >> (8 * b));
			if (d == 0x49 && family == 0xf && model == 6)
				return 4096;
			for (size_t i = 0; i < sizeof(l3_descriptors) / sizeof(l3_descriptors[0]); i++)
				if (l3_descriptors[i].desc == d)
					return l3_descriptors[i].kb;
		}
	}
	return 0;
}

const char *uncore_platform_near_miss(const struct uncore_cpu_id *cpu)
{
	if (strcmp(cpu->vendor, "GenuineIntel") != 0)
		return "";
	if (cpu->family == 0xf && cpu->model == 6 && !cpu->l3_kb)
		return "; family 0xF model 6 without an L3 cache (CPUID leaves 4 and 2) is a "
		       "Pentium D or Pentium 4, which has no L3 EMON: only a Xeon 7100 is counted";
	if (cpu->family == 6 && cpu->model == 0x1f)
		return "; model 0x1f (Nehalem Auburndale/Havendale) is not supported: Linux has no "
		       "uncore PMU for it and no such part was sold";
	return "";
}

const struct uncore_platform_desc *uncore_platform_for_cpu(const struct uncore_cpu_id *cpu)
{
	if (strcmp(cpu->vendor, "GenuineIntel") != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++) {
		if (platforms[i].family != cpu->family)
			continue;
		if (platforms[i].needs_l3 && !cpu->l3_kb)
			continue;
		for (const unsigned *m = platforms[i].models; *m; m++)
			if (*m == cpu->model)
				return &platforms[i];
	}
	return NULL;
}

const struct uncore_platform_desc *uncore_platform_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++)
		if (strcmp(platforms[i].name, name) == 0)
			return &platforms[i];
	return NULL;
}

const struct uncore_platform_desc *uncore_platforms(size_t *count)
{
	*count = sizeof(platforms) / sizeof(platforms[0]);
	return platforms;
}

int uncore_platforms_describe(char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++) {
		int n = snprintf(buf + used, len - used, "%s%s (%x/", i ? ", " : "", platforms[i].name,
				 platforms[i].family);
		if (n < 0 || (size_t)n >= len - used)
			return UNCORE_ENOSPACE;
		used += (size_t)n;
		for (const unsigned *m = platforms[i].models; *m; m++) {
			n = snprintf(buf + used, len - used, "%s0x%x", m == platforms[i].models ? "" : ",",
				     *m);
			if (n < 0 || (size_t)n >= len - used)
				return UNCORE_ENOSPACE;
			used += (size_t)n;
		}
		n = snprintf(buf + used, len - used, ")");
		if (n < 0 || (size_t)n >= len - used)
			return UNCORE_ENOSPACE;
		used += (size_t)n;
	}
	return 0;
}
