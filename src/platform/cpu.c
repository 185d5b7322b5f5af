/* CPUID identification (family, model, the L3 from leaf 4 or 2), and the
 * generation of a CPU (the models each generation lists, and what else it
 * needs, src/platform/<gen>/<gen>.c). */
#include "platform/cpu.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <stdlib.h>
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
	/* The brand string (SDM Vol. 2A, CPUID 0x80000002-0x80000004: 48
	 * bytes, NUL-terminated, often led by spaces). */
	/* (unsigned: clang's cpuid.h returns int, GCC's unsigned) */
	if ((unsigned)__get_cpuid_max(0x80000000, NULL) >= 0x80000004u) {
		unsigned b[12];
		for (unsigned l = 0; l < 3; l++)
			__cpuid(0x80000002 + l, b[4 * l], b[4 * l + 1], b[4 * l + 2], b[4 * l + 3]);
		char text[49];
		memcpy(text, b, 48);
		text[48] = '\0';
		const char *t = text;
		while (*t == ' ')
			t++;
		snprintf(id.brand, sizeof(id.brand), "%s", t);
	}
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
	/* The kernel's account (cpu.h says why); unreadable: CPUID's. */
	if (uncore_cpu_read_cpuinfo("/proc/cpuinfo", &id) < 0)
		uncore_error_clear();
	*out = id;
	return 0;
#else
	(void)out;
	return uncore_fail(UNCORE_ENOSUPP, "not an x86 processor");
#endif
}

/* The value of a "key\t: value" line of /proc/cpuinfo when its key is
 * `key`, else NULL. */
static const char *cpuinfo_value(const char *line, const char *key)
{
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0)
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != ':')
		return NULL;
	line++;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

static int cpuinfo_number(const char *v, unsigned *out)
{
	char *end;
	unsigned long x = strtoul(v, &end, 10);
	if (end == v || x > 0xffff)
		return 0;
	*out = (unsigned)x;
	return 1;
}

int uncore_cpu_read_cpuinfo(const char *path, struct uncore_cpu_id *id)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return uncore_fail(UNCORE_ENODEV, "%s: cannot be read", path);
	struct uncore_cpu_id k = *id;
	int vendor = 0, family = 0, model = 0, lines = 0;
	char line[8192];
	const char *v;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0]) {
			if (lines)
				break; /* the first processor's block only */
			continue;
		}
		lines++;
		if ((v = cpuinfo_value(line, "vendor_id")) && strlen(v) < sizeof(k.vendor)) {
			snprintf(k.vendor, sizeof(k.vendor), "%s", v);
			vendor = 1;
		} else if ((v = cpuinfo_value(line, "cpu family")))
			family = cpuinfo_number(v, &k.family);
		else if ((v = cpuinfo_value(line, "model name")))
			snprintf(k.brand, sizeof(k.brand), "%s", v);
		else if ((v = cpuinfo_value(line, "model")))
			model = cpuinfo_number(v, &k.model);
		else if ((v = cpuinfo_value(line, "stepping")))
			cpuinfo_number(v, &k.stepping);
		else if ((v = cpuinfo_value(line, "flags"))) {
			/* A whole word of the list: "hypervisor". */
			k.hypervisor = 0;
			for (const char *w = v; *w;) {
				size_t n = strcspn(w, " ");
				if (n == 10 && strncmp(w, "hypervisor", 10) == 0)
					k.hypervisor = 1;
				w += n;
				w += strspn(w, " ");
			}
		}
	}
	fclose(f);
	if (!(vendor && family && model))
		return 0;
	*id = k;
	return 1;
}

void uncore_cpu_describe(const struct uncore_cpu_id *cpu, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%.12s family %u model 0x%x%s%s", cpu->brand,
		 cpu->brand[0] ? " (" : "", cpu->vendor[0] ? cpu->vendor : "unknown vendor",
		 cpu->family, cpu->model, cpu->brand[0] ? ")" : "",
		 cpu->hypervisor ? ", a virtual machine" : "");
}

void uncore_cpu_no_tables(const struct uncore_cpu_id *cpu, char *buf, size_t len)
{
	char d[160];
	uncore_cpu_describe(cpu, d, sizeof(d));
	if (strcmp(cpu->vendor, "GenuineIntel") != 0)
		snprintf(buf, len, "%s: not an Intel processor, no Intel uncore tables", d);
	else
		snprintf(buf, len, "no uncore tables for %s", d);
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

static int listed(const unsigned *models, unsigned model)
{
	for (const unsigned *m = models; m && *m; m++)
		if (*m == model)
			return 1;
	return 0;
}

const char *uncore_platform_near_miss(const struct uncore_cpu_id *cpu)
{
	const struct uncore_platform *p;
	if (strcmp(cpu->vendor, "GenuineIntel") != 0)
		return "";
	for (unsigned i = 0; (p = uncore_platform_at(i)) != NULL; i++) {
		if (p->family != cpu->family || !p->not_why)
			continue;
		if (listed(p->not_models, cpu->model) ||
		    (p->needs_l3 && !cpu->l3_kb && listed(p->models, cpu->model)))
			return p->not_why;
	}
	return "";
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
		if (p->needs_l3 && !cpu->l3_kb)
			continue;
		if (listed(p->models, cpu->model))
			return p;
	}
	return NULL;
}
