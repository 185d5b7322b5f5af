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
/* 0x2e is Nehalem-EX (Xeon 7500), a different uncore: not supported. */
static const unsigned nhm_models[] = {0x1a, 0x1e, 0x1f, 0};
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
	{.id = UNCORE_PLATFORM_X7400, .name = "x7100", .title = "Intel Xeon 7100 (Tulsa)",
	 .family = 0xf, .models = x7100_models},
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
	*out = id;
	return 0;
#else
	(void)out;
	return uncore_fail(UNCORE_ENOSUPP, "not an x86 processor");
#endif
}

const struct uncore_platform_desc *uncore_platform_for_cpu(const struct uncore_cpu_id *cpu)
{
	if (strcmp(cpu->vendor, "GenuineIntel") != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(platforms) / sizeof(platforms[0]); i++) {
		if (platforms[i].family != cpu->family)
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
