/* CPUID identification, and the generation of a CPU (the models each
 * generation lists, src/platform/<gen>/<gen>.c). */
#include "platform/cpu.h"

#include "common/uncore_error.h"

#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

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
	id.hypervisor = (ecx >> 31) & 1;
	*out = id;
	return 0;
#else
	(void)out;
	return uncore_fail(UNCORE_ENOSUPP, "not an x86 processor");
#endif
}

const struct uncore_platform *uncore_platform_for_cpu(const struct uncore_cpu_id *cpu)
{
	const struct uncore_platform *p;
	if (strcmp(cpu->vendor, "GenuineIntel") != 0)
		return NULL;
	for (unsigned i = 0; (p = uncore_platform_at(i)) != NULL; i++) {
		if (p->family != cpu->family)
			continue;
		if ((p->stepping_min || p->stepping_max) &&
		    (cpu->stepping < p->stepping_min || cpu->stepping > p->stepping_max))
			continue;
		for (const unsigned *m = p->models; *m; m++)
			if (*m == cpu->model)
				return p;
	}
	return NULL;
}
