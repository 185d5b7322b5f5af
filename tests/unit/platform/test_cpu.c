/* Platform identification: the CPUID table maps each supported model to
 * its platform and refuses everything else. */
#include "harness.h"
#include "platform/cpu.h"

#include <string.h>

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
		{6, 0x1e, "nhm"},   {6, 0x1f, "nhm"},  {6, 0x1d, "x7400"},
		{0xf, 0x06, "x7100"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct uncore_cpu_id id = make_cpu("GenuineIntel", rows[i].family, rows[i].model);
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

TEST(describe_lists_every_platform)
{
	char buf[512];
	CHECK_EQ_INT(uncore_platforms_describe(buf, sizeof(buf)), 0);
	CHECK_CONTAINS(buf, "hswep (6/0x3f)");
	CHECK_CONTAINS(buf, "skl (6/0x4e,0x5e)");
	char tiny[8];
	CHECK(uncore_platforms_describe(tiny, sizeof(tiny)) < 0);
}

TEST(identify_reads_this_cpu)
{
	struct uncore_cpu_id id;
	CHECK_EQ_INT(uncore_cpu_identify(&id), 0);
	CHECK(id.family != 0);
	CHECK(strlen(id.vendor) == 12);
}

int main(void)
{
	RUN(known_models_map_to_platforms);
	RUN(unsupported_models_and_vendors_are_refused);
	RUN(describe_lists_every_platform);
	RUN(identify_reads_this_cpu);
	return harness_done();
}
