/* The simulated kernel answers wrong uses of perf_event_open(2) as Linux
 * does (kernel/events/core.c, arch/x86/events/intel/uncore.c), so that the
 * perf backend's handling of them is tested: a group member on another
 * PMU than its leader is -EINVAL, a file descriptor that is not an event
 * is -EBADF, a read into a buffer too small for the format is -ENOSPC, an
 * ioctl that is not enable, disable or reset is -ENOTTY; the format files
 * are re-read only while no event is open.  On the Haswell-EP model's
 * UBox and CBo 0 PMUs, their types read from the kernel's tree. */
#include "common/uncore_error.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "simkernel/uncore_sim_perf.h"
#include "support/tmpdir.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned pmu_type(struct uncore_sim_perf *k, const char *pmu)
{
	char path[700], buf[32] = "";
	snprintf(path, sizeof(path), "%s/%s/type", uncore_sim_perf_pmu_root(k), pmu);
	FILE *f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		HARNESS_FAIL_AT("cannot read %s", path);
	if (f)
		fclose(f);
	return (unsigned)strtoul(buf, NULL, 10);
}

TEST(wrong_uses_get_the_kernels_errors)
{
	const char *root = test_mkdtemp("simkernel-abi");
	REQUIRE(root);
	struct uncore_sim *sim = NULL;
	struct uncore_sim_perf *k = NULL;
	REQUIRE(uncore_sim_create("e5-2699v3-2s", NULL, &sim) == 0);
	REQUIRE(uncore_sim_perf_create(sim, root, &k) == 0);
	struct uncore_perf_sys *sys = uncore_sim_perf_sys(k);
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = pmu_type(k, "uncore_ubox");
	a.config = 0x42; /* UNC_U_EVENT_MSG, the UBox event 0x42 */
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.disabled = 1;
	int leader = sys->open(sys, &a, -1, 0, -1, 0);
	REQUIRE(leader >= 0);

	/* A member on another PMU than its leader's. */
	struct perf_event_attr m = a;
	m.type = pmu_type(k, "uncore_cbox_0");
	CHECK_EQ_INT(sys->open(sys, &m, -1, 0, leader, 0), -EINVAL);
	/* A leader that is not an event. */
	CHECK_EQ_INT(sys->open(sys, &a, -1, 0, leader + 1000, 0), -EINVAL);

	uint64_t buf[8];
	CHECK_EQ_INT(sys->read(sys, leader, buf, sizeof(buf)), 3 * (int)sizeof(uint64_t));
	CHECK_EQ_INT(sys->read(sys, leader, buf, 2 * sizeof(uint64_t)), -ENOSPC);
	CHECK_EQ_INT(sys->read(sys, leader + 1000, buf, sizeof(buf)), -EBADF);
	CHECK_EQ_INT(sys->ioctl(sys, leader, PERF_EVENT_IOC_PERIOD, 0), -ENOTTY);
	CHECK_EQ_INT(sys->ioctl(sys, leader + 1000, PERF_EVENT_IOC_ENABLE, 0), -EBADF);
	CHECK_EQ_INT(sys->ioctl(sys, leader, PERF_EVENT_IOC_ENABLE, 0), 0);

	/* The formats are re-read only with no event open. */
	CHECK_EQ_INT(uncore_sim_perf_reload(k), UNCORE_ESTATE);
	CHECK_CONTAINS(uncore_error_detail(), "reload with events open");
	CHECK_EQ_INT(sys->close(sys, leader), 0);
	CHECK_EQ_INT(sys->close(sys, leader), -EBADF);
	CHECK_EQ_INT(uncore_sim_perf_reload(k), 0);
	uncore_error_clear();
	uncore_sim_perf_destroy(k);
	uncore_sim_destroy(sim);
	test_rmtree(root);
}

int main(void)
{
	RUN(wrong_uses_get_the_kernels_errors);
	return harness_done();
}
