/* Opening the component on each backend the choice can give, as the PAPI
 * front-end does (uncore_component_probe, _bind, _open, _close): the
 * simulator of every generation, the simulated perf_event kernel, the
 * kernel shapes of processors without tables, the perf backend on a fake
 * sysfs tree with tables and (deferred to the first use) without, and the
 * refusals, each with the reason a user sees. */
#include "bind/component.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "fake_sysfs.h"
#include "harness.h"
#include "support/tmpdir.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct uncore_cpu_id SKL = {"GenuineIntel", 6, 0x5e, 3, 8192, 0, ""};
/* Alder Lake: a processor we have no uncore tables for. */
static const struct uncore_cpu_id ADL = {"GenuineIntel", 6, 0x97, 2, 8192, 0, ""};
static const struct uncore_cpu_id HSX = {"GenuineIntel", 6, 0x3f, 2, 8192, 0, ""};

static void settings(struct uncore_settings *s, const char *backend, const char *locks)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->backend, sizeof(s->backend), "%s", backend);
	snprintf(s->lock_dir, sizeof(s->lock_dir), "%s", locks);
	snprintf(s->sim_scenario, sizeof(s->sim_scenario), "none");
}

/* A set of `names` on the component's hub, started as the front-end does
 * (the component's clock): 0, or the error (said on stderr). */
static int start_set(struct uncore_component *c, const char *const *names, unsigned n,
		     struct uncore_backend **view, struct uncore_set **set)
{
	int rc = uncore_component_bind(c);
	if (rc == 0)
		rc = uncore_share_view(c->share, view);
	if (rc == 0)
		rc = uncore_set_create(*view, set);
	if (rc == 0)
		uncore_set_clock(*set, &c->clock);
	if (rc == 0)
		rc = uncore_set_assign(*set, names, n);
	if (rc == 0)
		rc = uncore_set_start(*set);
	if (rc < 0)
		fprintf(stderr, "  %s: %s: %s\n", names[0], uncore_strerror(rc), uncore_error_detail());
	return rc;
}

static void end_set(struct uncore_backend *view, struct uncore_set *set)
{
	uncore_set_destroy(set);
	if (view)
		view->ops->destroy(view); /* a set does not own its backend */
}

/* Count `name` for a set on the component's hub: 0 and the value, or the error. */
static int count_once(struct uncore_component *c, const char *name, uint64_t *v)
{
	struct uncore_backend *view = NULL;
	struct uncore_set *set = NULL;
	int rc = start_set(c, &name, 1, &view, &set);
	if (rc == 0 && (rc = uncore_set_read(set, v)) < 0)
		fprintf(stderr, "  %s: %s: %s\n", name, uncore_strerror(rc), uncore_error_detail());
	end_set(view, set);
	return rc;
}

TEST(simulator_of_every_generation)
{
	static const struct {
		const char *model, *event, *origin;
	} rows[] = {
	    {"e5-2699v3-2s", "hswep_unc_imc::UNC_M_CAS_COUNT:RD", "SIMULATED"},
	    {"i7-6700k", "skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:READ_I", "SIMULATED"},
	    {"x5570-2s", "nhm_unc_guide::UNC_GQ_ALLOC:RT", "SIMULATED"},
	    {"x7460-4s", "x7400_unc_gbsq::GBSQ_TRANSACTIONS", "SIMULATED"},
	};
	const char *locks = test_mkdtemp("comp-sim");
	REQUIRE(locks);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct uncore_settings s;
		harness_row = rows[i].model;
		settings(&s, "sim", locks);
		snprintf(s.sim, sizeof(s.sim), "%s", rows[i].model);
		struct uncore_component *c = NULL;
		CHECK_EQ_INT(uncore_component_probe(&s, &HSX, &c), 0);
		if (!c)
			continue;
		CHECK_CONTAINS(c->origin, rows[i].origin);
		CHECK_EQ_INT(c->kind, UNCORE_BACKEND_SIM);
		/* The simulator's clock: scenario "none" stands still. */
		uint64_t v = ~0ull;
		CHECK_EQ_INT(count_once(c, rows[i].event, &v), 0);
		CHECK_EQ_U64(v, 0);
		CHECK(c->clock.now_ns != NULL);
		uint64_t t0 = 0, t1 = 0;
		CHECK_EQ_INT(c->clock.now_ns(c->clock.ctx, &t0), 0);
		CHECK_EQ_INT(c->clock.now_ns(c->clock.ctx, &t1), 0);
		CHECK(t1 >= t0);
		unsigned n = 0;
		CHECK(uncore_component_pmu_names(c, &n) != NULL && n > 0);
		uncore_component_close(c);
	}
	harness_row = NULL;
	test_rmtree(locks);
}

TEST(simulated_kernels)
{
	static const struct {
		const char *kernel, *event, *origin;
	} rows[] = {
	    {"perf", "hswep_unc_imc::UNC_M_CAS_COUNT:RD", "simulated kernel, SIMULATED"},
	    {"spr", "uncore_imc::cas_count_read", "SIMULATED kernel"},
	};
	const char *locks = test_mkdtemp("comp-simk");
	REQUIRE(locks);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct uncore_settings s;
		harness_row = rows[i].kernel;
		settings(&s, "sim", locks);
		snprintf(s.sim_kernel, sizeof(s.sim_kernel), "%s", rows[i].kernel);
		snprintf(s.tmpdir, sizeof(s.tmpdir), "%s", locks);
		struct uncore_component *c = NULL;
		CHECK_EQ_INT(uncore_component_probe(&s, &HSX, &c), 0);
		if (!c) {
			fprintf(stderr, "  %s\n", uncore_error_detail());
			continue;
		}
		CHECK_CONTAINS(c->origin, rows[i].origin);
		CHECK_EQ_INT(c->kind, UNCORE_BACKEND_PERF);
		uint64_t v = ~0ull;
		CHECK_EQ_INT(count_once(c, rows[i].event, &v), 0);
		uncore_component_close(c);
	}
	/* A kernel name we do not know: refused with the names we do. */
	struct uncore_settings s;
	settings(&s, "sim", locks);
	snprintf(s.sim_kernel, sizeof(s.sim_kernel), "vax");
	struct uncore_component *c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&s, &HSX, &c), UNCORE_EINVAL);
	CHECK(c == NULL);
	CHECK_CONTAINS(uncore_error_detail(), "PAPI_INTEL_UNCORE_SIM_KERNEL=vax");
	CHECK_CONTAINS(uncore_error_detail(), ", spr");
	harness_row = NULL;
	test_rmtree(locks);
}

/* A kernel shape on virtual time (PAPI_INTEL_UNCORE_SIM_KERNEL_STEP = 1 s):
 * the component's clock is the kernel's (shape_now), so a set's metrics
 * and counting time are of the same reads as its counts: Sapphire Rapids'
 * scenario reads 10 M CAS x (1 + ... + 8 channels) x (1 + 2 sockets) =
 * 1.08 G a second, 69.12 GB/s of 64 bytes, exactly, every read one step. */
TEST(kernel_shape_on_virtual_time)
{
	const char *locks = test_mkdtemp("comp-step");
	REQUIRE(locks);
	struct uncore_settings s;
	settings(&s, "sim", locks);
	snprintf(s.sim_kernel, sizeof(s.sim_kernel), "spr");
	snprintf(s.sim_kernel_step, sizeof(s.sim_kernel_step), "1000000000");
	snprintf(s.tmpdir, sizeof(s.tmpdir), "%s", locks);
	struct uncore_component *c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&s, &HSX, &c), 0);
	REQUIRE(c != NULL);
	struct uncore_backend *view = NULL;
	struct uncore_set *set = NULL;
	static const char *const names[] = {"uncore_imc::cas_count_read", "spr_metric::DRAM_READ_BW",
					    "spr_metric::COUNTING_TIME"};
	int rc = start_set(c, names, 3, &view, &set);
	CHECK_EQ_INT(rc, 0);
	for (unsigned r = 1; rc == 0 && r <= 3; r++) {
		uint64_t v[3] = {0, 0, 0};
		double bw, ns;
		CHECK_EQ_INT(uncore_set_read(set, v), 0);
		memcpy(&bw, &v[1], sizeof(bw));
		memcpy(&ns, &v[2], sizeof(ns));
		CHECK_EQ_U64(v[0], 1080000000ull * r);
		CHECK(fabs(bw - 69.12) < 1e-9);
		CHECK(fabs(ns - 1e9 * r) < 1e-3);
	}
	end_set(view, set);
	uncore_component_close(c);
	/* A step that is no positive number of nanoseconds is refused. */
	snprintf(s.sim_kernel_step, sizeof(s.sim_kernel_step), "-5");
	c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&s, &HSX, &c), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=-5");
	uncore_component_close(c);
	test_rmtree(locks);
}

/* The perf backend on a fake kernel's tree: a Skylake client has tables
 * (bound at start-up); a Sapphire Rapids has none (kernel PMUs only: the
 * listing at start-up, the backend at the first use). */
TEST(perf_backend_on_a_fake_kernel)
{
	const char *root = test_mkdtemp("comp-perf");
	REQUIRE(root);
	char sys[600], locks[600];
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(locks, sizeof(locks), "%s/locks", root);
	mkdir(locks, 0700);
	REQUIRE(mkdir(sys, 0700) == 0);
	REQUIRE(fake_sysfs_skl(sys) == 0);
	REQUIRE(test_put(root, "proc/sys/kernel/perf_event_paranoid", "0\n") == 0);
	struct uncore_settings s;
	settings(&s, "", locks);
	snprintf(s.test_root, sizeof(s.test_root), "%s", root);

	struct uncore_component *c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&s, &SKL, &c), 0);
	if (c) {
		CHECK_EQ_INT(c->kind, UNCORE_BACKEND_PERF);
		CHECK_EQ_INT(c->deferred, 0);
		CHECK(c->native != NULL);
		CHECK_CONTAINS(c->origin, "Skylake");
		uncore_component_close(c);
	}

	c = NULL;
	CHECK_EQ_INT(uncore_component_probe(&s, &ADL, &c), 0);
	if (c) {
		CHECK_EQ_INT(c->deferred, 1);
		CHECK_CONTAINS(c->origin, "kernel PMUs only");
		unsigned n0 = 0, n1 = 0;
		const char *const *before = uncore_component_pmu_names(c, &n0);
		unsigned count0 = uncore_component_native_count(c);
		CHECK(before != NULL && n0 > 0);
		CHECK_EQ_INT(uncore_component_bind(c), 0);
		CHECK(c->native != NULL);
		CHECK(uncore_component_pmu_names(c, &n1) != NULL);
		CHECK_EQ_INT(n1, n0);
		/* the listing counts aliases; bound, every event is known */
		CHECK(count0 > 0 && uncore_component_native_count(c) > 0);
		/* A second bind gives the first's result. */
		CHECK_EQ_INT(uncore_component_bind(c), 0);
		uncore_component_close(c);
	}

	/* perf_event_paranoid 2 and no privilege: refused with the fix.  Root
	 * (CAP_SYS_ADMIN) may count whatever the file says. */
	REQUIRE(test_put(root, "proc/sys/kernel/perf_event_paranoid", "2\n") == 0);
	c = NULL;
	int rc = uncore_component_probe(&s, &ADL, &c);
	if (geteuid() == 0) {
		CHECK_EQ_INT(rc, 0);
	} else {
		CHECK_EQ_INT(rc, UNCORE_EPERM);
		CHECK_CONTAINS(uncore_error_detail(), "perf_event_paranoid");
	}
	uncore_component_close(c);

	/* The direct backend asked for on a platform it does not program. */
	c = NULL;
	settings(&s, "direct", locks);
	snprintf(s.test_root, sizeof(s.test_root), "%s", root);
	CHECK(uncore_component_probe(&s, &ADL, &c) < 0);
	CHECK(c == NULL);
	test_rmtree(root);
}

/* uncore_component_open reads the environment itself. */
TEST(open_reads_the_environment)
{
	const char *locks = test_mkdtemp("comp-env");
	REQUIRE(locks);
	setenv("PAPI_INTEL_UNCORE_BACKEND", "sim", 1);
	setenv("PAPI_INTEL_UNCORE_SIM", "x5570-2s", 1);
	setenv("PAPI_INTEL_UNCORE_SIM_SCENARIO", "none", 1);
	setenv("PAPI_INTEL_UNCORE_LOCK_DIR", locks, 1);
	struct uncore_component *c = NULL;
	CHECK_EQ_INT(uncore_component_open(NULL, &c), 0);
	if (c) {
		CHECK_EQ_STR(c->be->machine.plat->name, "nhm");
		CHECK_EQ_STR(c->settings->sim, "x5570-2s");
	}
	uncore_component_close(c);
	setenv("PAPI_INTEL_UNCORE_BACKEND", "nonsense", 1);
	c = NULL;
	CHECK(uncore_component_open(NULL, &c) < 0);
	CHECK(c == NULL);
	CHECK_CONTAINS(uncore_error_detail(), "nonsense");
	unsetenv("PAPI_INTEL_UNCORE_BACKEND");
	unsetenv("PAPI_INTEL_UNCORE_SIM");
	unsetenv("PAPI_INTEL_UNCORE_SIM_SCENARIO");
	unsetenv("PAPI_INTEL_UNCORE_LOCK_DIR");
	test_rmtree(locks);
}

int main(void)
{
	RUN(simulator_of_every_generation);
	RUN(simulated_kernels);
	RUN(kernel_shape_on_virtual_time);
	RUN(perf_backend_on_a_fake_kernel);
	RUN(open_reads_the_environment);
	return harness_done();
}
