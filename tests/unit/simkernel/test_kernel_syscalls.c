/* The two simulated kernels' system-call layers (the simulated Haswell-EP
 * kernel of simkernel/sim_perf.c and the shaped kernels of shape_kernel.c)
 * answer wrong calls as Linux's perf_event does, so the perf backend's
 * handling of each errno is tested against them: a bad attribute, an
 * unknown PMU type, an uncore event per task or on no CPU, an offline CPU,
 * sampling, descriptors that are not events, an unknown ioctl, a buffer
 * too small, too many events, an unprivileged system-wide open; and a read
 * carries the fields its read_format asks for, in the kernel's order. */
#include "backend/perf/perf_sys.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "sim/uncore_sim.h"
#include "simkernel/shape_kernel.h"
#include "simkernel/uncore_sim_perf.h"
#include "support/tmpdir.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

static uint32_t pmu_type(const char *pmu_root, const char *pmu)
{
	char path[700], buf[32] = "";
	snprintf(path, sizeof(path), "%s/%s/type", pmu_root, pmu);
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return (uint32_t)strtoul(buf, NULL, 10);
}

static struct perf_event_attr attr_of(uint32_t type)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.read_format =
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	return a;
}

/* What both layers must answer, on a PMU of type `type` and CPU `cpu`. */
static void common_answers(struct uncore_perf_sys *s, uint32_t type, int cpu, int max_cpu)
{
	struct perf_event_attr a = attr_of(type);
	CHECK_EQ_INT(s->open(s, NULL, -1, cpu, -1, 0), -EINVAL);
	struct perf_event_attr small = a;
	small.size = 8;
	CHECK_EQ_INT(s->open(s, &small, -1, cpu, -1, 0), -EINVAL);
	struct perf_event_attr other = a;
	other.type = 0x7fff0000u;
	CHECK_EQ_INT(s->open(s, &other, -1, cpu, -1, 0), -ENOENT);
	CHECK_EQ_INT(s->open(s, &a, 1234, cpu, -1, 0), -EINVAL); /* per task */
	CHECK_EQ_INT(s->open(s, &a, -1, -1, -1, 0), -EINVAL);    /* on no CPU */
	CHECK_EQ_INT(s->open(s, &a, -1, max_cpu + 1000, -1, 0), -ENODEV);
	struct perf_event_attr sampling = a;
	sampling.sample_period = 1000;
	CHECK_EQ_INT(s->open(s, &sampling, -1, cpu, -1, 0), -EINVAL);
	int fd = s->open(s, &a, -1, cpu, -1, 0);
	CHECK(fd >= 0);
	uint64_t v[4] = {0};
	/* value, time enabled, time running, id */
	CHECK_EQ_INT(s->read(s, fd, v, sizeof(v)), 32);
	CHECK_EQ_U64(v[3], (uint64_t)fd);
	CHECK_EQ_U64(v[1], v[2]); /* never multiplexed here */
	CHECK_EQ_INT(s->read(s, fd, v, 8), -ENOSPC);
	CHECK_EQ_INT(s->read(s, 99999, v, sizeof(v)), -EBADF);
	CHECK_EQ_INT(s->ioctl(s, 99999, PERF_EVENT_IOC_ENABLE, 0), -EBADF);
	CHECK_EQ_INT(s->ioctl(s, fd, PERF_EVENT_IOC_ID, 0), -ENOTTY);
	CHECK_EQ_INT(s->close(s, 99999), -EBADF);
	CHECK_EQ_INT(s->close(s, fd), 0);
	CHECK_EQ_INT(s->read(s, fd, v, sizeof(v)), -EBADF); /* closed */
	/* Descriptors run out, as RLIMIT_NOFILE would make them. */
	static int fds[8192];
	int n = 0, rc = 0;
	while (n < 8192 && (rc = s->open(s, &a, -1, cpu, -1, 0)) >= 0)
		fds[n++] = rc;
	CHECK_EQ_INT(rc, -EMFILE);
	CHECK(n > 0);
	for (int i = 0; i < n; i++)
		s->close(s, fds[i]);
}

TEST(the_simulated_haswell_ep_kernel)
{
	const char *dir = test_mkdtemp("ksys");
	REQUIRE(dir);
	struct uncore_sim_options o = {.machine = "e5-2699v3-2s", .scenario = "none"};
	struct uncore_sim_perf *k = NULL;
	REQUIRE(uncore_sim_perf_open(&o, dir, NULL, &k) == 0);
	struct uncore_perf_sys *s = uncore_sim_perf_sys(k);
	uint32_t type = pmu_type(uncore_sim_perf_pmu_root(k), "uncore_imc_0");
	CHECK(type > 0);
	common_answers(s, type, 0, 72);
	/* An unprivileged caller (perf_event_paranoid above 0). */
	uncore_sim_perf_set_privileged(k, 0);
	struct perf_event_attr a = attr_of(type);
	CHECK_EQ_INT(s->open(s, &a, -1, 0, -1, 0), -EACCES);
	uncore_sim_perf_set_privileged(k, 1);
	s->destroy(s); /* destroys the kernel and its machine */
	test_rmtree(dir);
}

TEST(a_shaped_kernel)
{
	const char *dir = test_mkdtemp("ksys-shape");
	REQUIRE(dir);
	const struct uncore_shape *sh = uncore_shape_find("spr");
	REQUIRE(sh != NULL);
	struct uncore_shape_kernel *k = NULL;
	REQUIRE(uncore_shape_kernel_create(sh, dir, &k) == 0);
	struct uncore_perf_sys *s = uncore_shape_kernel_sys(k);
	uint32_t type = pmu_type(uncore_shape_kernel_pmu_root(k), "uncore_imc_0");
	CHECK(type > 0);
	common_answers(s, type, 0, 4096);
	struct perf_event_attr a = attr_of(type);
	a.config = ~0ull; /* bits the driver's event mask does not allow */
	CHECK_EQ_INT(s->open(s, &a, -1, 0, -1, 0), -EINVAL);
	uncore_shape_kernel_destroy(k);
	test_rmtree(dir);
}

int main(void)
{
	RUN(the_simulated_haswell_ep_kernel);
	RUN(a_shaped_kernel);
	return harness_done();
}
