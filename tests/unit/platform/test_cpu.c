/* Platform identification: the CPUID table maps each supported model to
 * its platform and refuses everything else. */
#include "harness.h"
#include "platform/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct uncore_cpu_id make_cpu(const char *vendor, unsigned family, unsigned model)
{
	struct uncore_cpu_id id;
	memset(&id, 0, sizeof(id));
	snprintf(id.vendor, sizeof(id.vendor), "%s", vendor);
	id.family = family;
	id.model = model;
	return id;
}

TEST(known_models_map_to_platforms)
{
	struct {
		unsigned family, model;
		const char *platform;
	} rows[] = {
		{6, 0x3f, "hswep"}, {6, 0x4e, "skl"},   {6, 0x5e, "skl"},  {6, 0x1a, "nhm"},
		{6, 0x1e, "nhm"},   {6, 0x1d, "x7400"},
		{0xf, 0x06, "x7100"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct uncore_cpu_id id = make_cpu("GenuineIntel", rows[i].family, rows[i].model);
		id.l3_kb = 16384; /* the Xeon 7100's L3 (Xeon 7140M: 16 MB) */
		const struct uncore_platform *p = uncore_platform_for_cpu(&id);
		CHECK(p != NULL);
		if (p)
			CHECK_EQ_STR(p->name, rows[i].platform);
	}
}

TEST(unsupported_models_and_vendors_are_refused)
{
	struct uncore_cpu_id vm = make_cpu("GenuineIntel", 6, 0xa7);
	CHECK(uncore_platform_for_cpu(&vm) == NULL);
	struct uncore_cpu_id amd = make_cpu("AuthenticAMD", 6, 0x3f);
	CHECK(uncore_platform_for_cpu(&amd) == NULL);
}

/* Nehalem model 0x1f has no kernel uncore PMU and was never sold (N1);
 * family 0xF model 6 without an L3 is a Pentium D or Pentium 4, not a Xeon
 * 7100 (X1): both refused, saying why. */
TEST(near_misses_are_refused_with_the_reason)
{
	struct uncore_cpu_id g = make_cpu("GenuineIntel", 6, 0x1f);
	CHECK(uncore_platform_for_cpu(&g) == NULL);
	CHECK_CONTAINS(uncore_platform_near_miss(&g), "no uncore PMU");
	struct uncore_cpu_id pd = make_cpu("GenuineIntel", 0xf, 0x06);
	CHECK(uncore_platform_for_cpu(&pd) == NULL);
	CHECK_CONTAINS(uncore_platform_near_miss(&pd), "Pentium D");
	pd.l3_kb = 4096;
	CHECK(uncore_platform_for_cpu(&pd) != NULL);
	CHECK_EQ_STR(uncore_platform_near_miss(&pd), "");
	struct uncore_cpu_id h = make_cpu("GenuineIntel", 6, 0x3f);
	CHECK_EQ_STR(uncore_platform_near_miss(&h), "");
}

/* CPUID leaf 2 descriptors (SDM Vol. 2A Table 3-12) and leaf 4 subleaves. */
TEST(l3_from_cpuid_leaves_2_and_4)
{
	/* Xeon 7140M: AL = 1, descriptors 0x4d (16 MB L3) among others. */
	unsigned tulsa[4] = {0x004d0001u, 0, 0, 0x007d2c00u};
	CHECK_EQ_INT(uncore_cpuid2_l3_kb(tulsa, 0xf, 6), 16384);
	/* 0x49: a 4 MB L3 on family 0xF model 6 only, elsewhere an L2. */
	unsigned d49[4] = {0x00490001u, 0, 0, 0};
	CHECK_EQ_INT(uncore_cpuid2_l3_kb(d49, 0xf, 6), 4096);
	CHECK_EQ_INT(uncore_cpuid2_l3_kb(d49, 6, 0x17), 0);
	/* Pentium D 9xx: L1 and L2 descriptors only (0x7d: 2 MB L2). */
	unsigned presler[4] = {0x00000001u, 0, 0, 0x007d0c00u};
	CHECK_EQ_INT(uncore_cpuid2_l3_kb(presler, 0xf, 6), 0);
	/* A register with bit 31 set holds no descriptors. */
	unsigned invalid[4] = {0x00000001u, 0x8000004du, 0, 0};
	CHECK_EQ_INT(uncore_cpuid2_l3_kb(invalid, 0xf, 6), 0);
	/* Leaf 4: L1d, L1i, L2, then an L3 of 16 ways x 64 B x 16384 sets. */
	const unsigned sub[5][4] = {
	    {0x21, (7u << 22) | 63, 63, 0},           {0x22, (3u << 22) | 63, 63, 0},
	    {0x43, (15u << 22) | 63, 1023, 0},        {0x63, (15u << 22) | 63, 16383, 0},
	    {0, 0, 0, 0},
	};
	CHECK_EQ_INT(uncore_cpuid4_l3_kb(sub, 5), 16384);
	CHECK_EQ_INT(uncore_cpuid4_l3_kb(sub, 3), 0);
}

TEST(describe_lists_every_platform)
{
	char buf[512];
	CHECK_EQ_INT(uncore_platforms_describe(buf, sizeof(buf)), 0);
	CHECK_CONTAINS(buf, "hswep (6/0x3f)");
	CHECK_CONTAINS(buf, "skl (6/0x4e,0x5e)");
	char tiny[8];
	CHECK(uncore_platforms_describe(tiny, sizeof(tiny)) < 0);
}

TEST(a_cousin_takes_the_first_description_of_its_id)
{
	const struct uncore_platform *nhm = uncore_platform_by_name("nhm");
	CHECK(nhm != NULL);
	CHECK(uncore_platform_description(uncore_platform_by_name("wsm")) == nhm);
	CHECK(uncore_platform_description(nhm) == nhm);
	CHECK(uncore_platform_description(uncore_platform_by_name("kbl")) ==
	      uncore_platform_by_name("skl"));
	CHECK(uncore_platform_description(uncore_platform_by_name("bdx")) ==
	      uncore_platform_by_name("hswep"));
	CHECK(uncore_platform_description(uncore_platform_by_name("x7100")) ==
	      uncore_platform_by_name("x7400"));
	CHECK(uncore_platform_description(uncore_platform_by_name("spr")) ==
	      uncore_platform_by_name("spr"));
	CHECK(uncore_platform_description(NULL) == NULL);
}

TEST(identify_reads_this_cpu)
{
	struct uncore_cpu_id id;
	CHECK_EQ_INT(uncore_cpu_identify(&id), 0);
	CHECK(id.family != 0);
	CHECK(strlen(id.vendor) == 12);
}

/* The kernel's account of the processor: the first block of a
 * /proc/cpuinfo, whole words of its flags. */
TEST(cpuinfo_overlays_the_first_processor)
{
	char path[] = "/tmp/test_cpu_cpuinfoXXXXXX";
	int fd = mkstemp(path);
	REQUIRE(fd >= 0);
	FILE *f = fdopen(fd, "w");
	REQUIRE(f != NULL);
	fputs("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
	      "model name\t: AMD EPYC 9654 96-Core Processor\nstepping\t: 1\n"
	      "flags\t\t: fpu hypervisor_x lahf_lm hypervisor\n\n"
	      "processor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 63\n\n",
	      f);
	fclose(f);
	struct uncore_cpu_id id = make_cpu("GenuineIntel", 6, 0xa7);
	id.l3_kb = 1024;
	CHECK_EQ_INT(uncore_cpu_read_cpuinfo(path, &id), 1);
	CHECK_EQ_STR(id.vendor, "AuthenticAMD");
	CHECK_EQ_INT(id.family, 25);
	CHECK_EQ_INT(id.model, 0x11);
	CHECK_EQ_INT(id.stepping, 1);
	CHECK_EQ_INT(id.hypervisor, 1);
	CHECK_EQ_INT(id.l3_kb, 1024); /* CPUID's */
	CHECK_EQ_STR(id.brand, "AMD EPYC 9654 96-Core Processor");

	/* "hypervisor_x" is not the flag; a file without a model leaves id. */
	f = fopen(path, "w");
	REQUIRE(f != NULL);
	fputs("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\n"
	      "flags\t\t: fpu hypervisor_x\n",
	      f);
	fclose(f);
	id.hypervisor = 1;
	CHECK_EQ_INT(uncore_cpu_read_cpuinfo(path, &id), 1);
	CHECK_EQ_INT(id.model, 0xcf);
	CHECK_EQ_INT(id.hypervisor, 0);
	f = fopen(path, "w");
	REQUIRE(f != NULL);
	fputs("processor\t: 0\nvendor_id\t: IBM\n", f);
	fclose(f);
	CHECK_EQ_INT(uncore_cpu_read_cpuinfo(path, &id), 0);
	CHECK_EQ_STR(id.vendor, "GenuineIntel");
	unlink(path);
	CHECK(uncore_cpu_read_cpuinfo(path, &id) < 0);
}

/* Messages name the processor; another vendor's is said to be one. */
TEST(describe_and_no_tables_name_the_processor)
{
	char buf[256];
	struct uncore_cpu_id amd = make_cpu("AuthenticAMD", 25, 0x11);
	snprintf(amd.brand, sizeof(amd.brand), "AMD EPYC 9654 96-Core Processor");
	uncore_cpu_describe(&amd, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "AMD EPYC 9654 96-Core Processor (AuthenticAMD family 25 model 0x11)");
	amd.hypervisor = 1;
	uncore_cpu_no_tables(&amd, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "AMD EPYC 9654 96-Core Processor (AuthenticAMD family 25 model 0x11), a "
			  "virtual machine: not an Intel processor, no Intel uncore tables");
	struct uncore_cpu_id rkl = make_cpu("GenuineIntel", 6, 0xa7);
	uncore_cpu_no_tables(&rkl, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "no uncore tables for GenuineIntel family 6 model 0xa7");
}

int main(void)
{
	RUN(known_models_map_to_platforms);
	RUN(unsupported_models_and_vendors_are_refused);
	RUN(near_misses_are_refused_with_the_reason);
	RUN(l3_from_cpuid_leaves_2_and_4);
	RUN(describe_lists_every_platform);
	RUN(a_cousin_takes_the_first_description_of_its_id);
	RUN(identify_reads_this_cpu);
	RUN(cpuinfo_overlays_the_first_processor);
	RUN(describe_and_no_tables_name_the_processor);
	return harness_done();
}
