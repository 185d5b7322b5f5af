/* Backend choice: every combination of override, platform and access gives
 * the expected backend, or a disabled reason that names the fix. */
#include "common/uncore_error.h"
#include "bind/backend_choice.h"
#include "harness.h"

#include <string.h>

static struct uncore_probe_input input(const char *env, unsigned family, unsigned model)
{
	struct uncore_probe_input in;
	memset(&in, 0, sizeof(in));
	in.backend_env = env;
	snprintf(in.cpu.vendor, sizeof(in.cpu.vendor), "GenuineIntel");
	in.cpu.family = family;
	in.cpu.model = model;
	return in;
}

TEST(parse_accepts_the_four_names_only)
{
	enum uncore_backend_kind k;
	CHECK_EQ_INT(uncore_backend_parse(NULL, &k), 0);
	CHECK_EQ_INT(k, UNCORE_BACKEND_AUTO);
	CHECK_EQ_INT(uncore_backend_parse("DIRECT", &k), 0);
	CHECK_EQ_INT(k, UNCORE_BACKEND_DIRECT);
	CHECK_EQ_INT(uncore_backend_parse("sim", &k), 0);
	CHECK_EQ_INT(k, UNCORE_BACKEND_SIM);
	CHECK_EQ_INT(uncore_backend_parse("msr", &k), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "auto, perf, direct, sim, service");
}

TEST(unsupported_cpu_is_disabled_with_model_and_fix)
{
	struct uncore_probe_input in = input(NULL, 6, 0xa7);
	struct uncore_probe_result r;
	in.have_simulator = 1;
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "family 6 model 0xa7");
	CHECK_CONTAINS(r.reason, "PAPI_INTEL_UNCORE_BACKEND=sim");
	/* Another vendor's processor is named as such, with no Intel advice. */
	in = input(NULL, 25, 0x11);
	snprintf(in.cpu.vendor, sizeof(in.cpu.vendor), "AuthenticAMD");
	snprintf(in.cpu.brand, sizeof(in.cpu.brand), "AMD EPYC 9654 96-Core Processor");
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "AMD EPYC 9654 96-Core Processor (AuthenticAMD family 25 model "
				 "0x11): not an Intel processor");
	CHECK(strstr(r.reason, "modprobe") == NULL);
}

TEST(auto_prefers_perf_then_direct)
{
	struct uncore_probe_result r;
	struct uncore_probe_input in = input("auto", 6, 0x3f);
	in.have_perf_uncore = 1;
	in.have_direct_access = 1;
	uncore_probe_decide(&in, &r);
	CHECK(r.usable);
	CHECK_EQ_INT(r.backend, UNCORE_BACKEND_PERF);
	in.have_perf_uncore = 0;
	uncore_probe_decide(&in, &r);
	CHECK_EQ_INT(r.backend, UNCORE_BACKEND_DIRECT);
	in.have_direct_access = 0;
	in.direct_missing = "/dev/cpu/0/msr";
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "/dev/cpu/0/msr");
	CHECK_CONTAINS(r.reason, "modprobe msr");
}

TEST(forced_backend_is_honoured_or_explained)
{
	struct uncore_probe_result r;
	struct uncore_probe_input in = input("direct", 6, 0x3f);
	in.have_perf_uncore = 1;
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "modprobe msr");
	in = input("perf", 6, 0x3f);
	in.have_direct_access = 1;
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "no uncore PMU");
	in = input("sim", 6, 0xa7);
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "no simulator");
	in.have_simulator = 1;
	uncore_probe_decide(&in, &r);
	CHECK(r.usable);
	CHECK_EQ_INT(r.backend, UNCORE_BACKEND_SIM);
	in = input("bogus", 6, 0x3f);
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "bogus is invalid");
}

/* Kernel PMUs described by sysfs (msr, power...) make the perf backend
 * usable without tables: on a processor we have none for, or when perf is
 * asked for on one whose uncore driver is missing; never instead of the
 * disabled reason under auto, and never for direct. */
TEST(kernel_pmus_alone_activate_perf_only_where_nothing_better_exists)
{
	struct uncore_probe_result r;
	struct uncore_probe_input in = input(NULL, 6, 0x97);
	in.have_kernel_pmus = 1;
	uncore_probe_decide(&in, &r);
	CHECK(r.usable);
	CHECK_EQ_INT(r.backend, UNCORE_BACKEND_PERF);
	CHECK_EQ_INT(r.kernel_only, 1);
	CHECK(r.platform == NULL);
	in.backend_env = "direct";
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "model 0x97");
	in = input("auto", 6, 0x3f);
	in.have_kernel_pmus = 1;
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "load the uncore perf driver");
	in.backend_env = "perf";
	uncore_probe_decide(&in, &r);
	CHECK(r.usable);
	CHECK_EQ_INT(r.kernel_only, 1);
	CHECK(r.platform != NULL);
	in.have_perf_uncore = 1;
	uncore_probe_decide(&in, &r);
	CHECK(r.usable);
	CHECK_EQ_INT(r.kernel_only, 0);
}

/* Sapphire Rapids (tables from Intel's data, counted through the kernel
 * only): its uncore PMUs give perf; without them (a virtual machine, issue
 * 26 item 7) the kernel's other PMUs, never the direct backend or its
 * "modprobe msr" advice, even with /dev/cpu/0/msr open; the reason names
 * the processor and, in a VM, the hypervisor instead of a driver to load. */
TEST(kernel_only_generations_never_get_direct_advice)
{
	struct uncore_probe_result r;
	struct uncore_probe_input in = input(NULL, 6, 0x8f);
	in.have_direct_access = 1;
	in.have_perf_uncore = 1;
	uncore_probe_decide(&in, &r);
	CHECK(r.usable);
	CHECK_EQ_INT(r.backend, UNCORE_BACKEND_PERF);
	CHECK_EQ_INT(r.kernel_only, 0);
	CHECK(r.platform != NULL && strcmp(r.platform->name, "spr") == 0);
	in.have_perf_uncore = 0;
	in.have_kernel_pmus = 1;
	uncore_probe_decide(&in, &r);
	CHECK(r.usable);
	CHECK_EQ_INT(r.backend, UNCORE_BACKEND_PERF);
	CHECK_EQ_INT(r.kernel_only, 1);
	in.have_kernel_pmus = 0;
	in.cpu.hypervisor = 1;
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "Sapphire Rapids");
	CHECK_CONTAINS(r.reason, "virtual machine");
	CHECK(strstr(r.reason, "modprobe") == NULL);
	in.cpu.hypervisor = 0;
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "intel_uncore");
	CHECK(strstr(r.reason, "msr") == NULL);
	in = input("direct", 6, 0x8f);
	in.have_direct_access = 1;
	uncore_probe_decide(&in, &r);
	CHECK(!r.usable);
	CHECK_CONTAINS(r.reason, "does not program this generation");
	/* Cascade Lake is Skylake-SP's model from stepping 5. */
	in = input(NULL, 6, 0x55);
	in.have_perf_uncore = 1;
	in.cpu.stepping = 4;
	uncore_probe_decide(&in, &r);
	CHECK(r.platform && strcmp(r.platform->name, "skx") == 0);
	in.cpu.stepping = 7;
	uncore_probe_decide(&in, &r);
	CHECK(r.platform && strcmp(r.platform->name, "clx") == 0);
}

int main(void)
{
	RUN(parse_accepts_the_four_names_only);
	RUN(unsupported_cpu_is_disabled_with_model_and_fix);
	RUN(auto_prefers_perf_then_direct);
	RUN(forced_backend_is_honoured_or_explained);
	RUN(kernel_pmus_alone_activate_perf_only_where_nothing_better_exists);
	RUN(kernel_only_generations_never_get_direct_advice);
	return harness_done();
}
