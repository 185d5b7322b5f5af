/* Event-set clocks (see clock.h). */
#include "eventset/clock.h"

#include <cpuid.h>
#include <stdlib.h>
#include <string.h>

/* The TSC frequency in the brand string of CPUID leaves 0x80000002-4
 * ("Intel(R) Xeon(R) CPU E5-2699 v3 @ 2.30GHz"), or 0. */
static uint64_t brand_tsc_hz(void)
{
	unsigned regs[12], max = __get_cpuid_max(0x80000000, NULL);
	char brand[49];
	if (max < 0x80000004)
		return 0;
	for (unsigned i = 0; i < 3; i++)
		__get_cpuid(0x80000002 + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2],
			    &regs[4 * i + 3]);
	memcpy(brand, regs, 48);
	brand[48] = '\0';
	const char *at = strstr(brand, "@ ");
	if (!at)
		return 0;
	char *end;
	double v = strtod(at + 2, &end);
	if (end == at + 2 || v <= 0)
		return 0;
	if (strncmp(end, "GHz", 3) == 0)
		return (uint64_t)(v * 1e9 + 0.5);
	if (strncmp(end, "MHz", 3) == 0)
		return (uint64_t)(v * 1e6 + 0.5);
	return 0;
}

void uncore_clock_host(struct uncore_clock *out)
{
	memset(out, 0, sizeof(*out));
	out->tsc_hz = brand_tsc_hz();
}
