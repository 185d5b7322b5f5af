/* The shaped kernels (simkernel/shape_kernel.h): every shape's tables are
 * consistent (formats parse, aliases pack through them, every rate is the
 * config of an alias), the perf backend discovers each shape as the driver
 * publishes it (families, instances on both sockets, aliases with their
 * .scale/.unit), and the system calls keep the kernel's rules and count
 * exactly rate x time_enabled. */
#include "harness.h"

#include "backend/perf/perf.h"
#include "common/uncore_error.h"
#include "simkernel/shape_internal.h"
#include "simkernel/shape_kernel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int open_backend(const struct uncore_shape *s, struct uncore_shape_kernel **k,
			struct uncore_backend **be)
{
	struct uncore_perf_config cfg;
	int rc = uncore_shape_kernel_create(s, NULL, k);
	if (rc < 0)
		return rc;
	memset(&cfg, 0, sizeof(cfg));
	cfg.pmu_root = uncore_shape_kernel_pmu_root(*k);
	cfg.cpu_root = uncore_shape_kernel_cpu_root(*k);
	cfg.sys = uncore_shape_kernel_sys(*k);
	cfg.origin = "SIMULATED kernel";
	rc = uncore_perf_open(&cfg, be);
	if (rc < 0)
		uncore_shape_kernel_destroy(*k);
	return rc;
}

static int box_index(const struct uncore_machine *m, const char *name)
{
	for (unsigned b = 0; b < m->plat->nboxes; b++)
		if (strcmp(m->plat->boxes[b]->name, name) == 0)
			return (int)b;
	return -1;
}

TEST(every_shape_is_discovered_as_its_driver_publishes_it)
{
	for (size_t i = 0; i < uncore_shape_count(); i++) {
		const struct uncore_shape *s = uncore_shape_at(i);
		struct uncore_shape_kernel *k = NULL;
		struct uncore_backend *be = NULL;
		harness_row = s->name;
		int rc = open_backend(s, &k, &be);
		if (rc < 0)
			fprintf(stderr, "  %s: %s\n", uncore_strerror(rc), uncore_error_detail());
		REQUIRE(rc == 0);
		const struct uncore_machine *m = &be->machine;
		CHECK_EQ_INT(m->nsockets, s->sockets);
		for (unsigned b = 0; b < s->nboxes; b++) {
			const struct shape_box *box = &s->boxes[b];
			int bi = box_index(m, box->family);
			harness_row = box->family;
			CHECK(bi >= 0);
			if (bi < 0)
				continue;
			/* A family counts its first 32 PMUs (machine.present). */
			unsigned n = box->n < 32 ? box->n : 32;
			CHECK_EQ_INT(m->plat->boxes[bi]->ninstances, n);
			for (unsigned so = 0; so < s->sockets; so++)
				CHECK_EQ_U64(m->present[bi][so],
					     n == 32 ? 0xffffffffu : (1u << n) - 1);
			for (unsigned a = 0; a < box->naliases; a++) {
				struct uncore_perf_alias al;
				CHECK_EQ_INT(uncore_perf_kernel_alias(be, box->family,
								      box->aliases[a].name, &al),
					     0);
				CHECK_EQ_STR(al.terms, box->aliases[a].terms);
				CHECK_EQ_STR(al.scale,
					     box->aliases[a].scale ? box->aliases[a].scale : "");
				CHECK_EQ_STR(al.unit,
					     box->aliases[a].unit ? box->aliases[a].unit : "");
			}
		}
		harness_row = s->name;
		/* Every rate is the config an alias of its family packs to
		 * through the PMU's format files: no dead rows. */
		struct uncore_perf_sysfs *tree = NULL;
		REQUIRE(uncore_perf_sysfs_read(uncore_shape_kernel_pmu_root(k), &tree) == 0);
		for (unsigned r = 0; r < s->nrates; r++) {
			char pmu_name[64];
			int found = 0;
			snprintf(pmu_name, sizeof(pmu_name), "%s_0", s->rates[r].family);
			const struct uncore_perf_pmu *pmu = uncore_perf_sysfs_find(tree, pmu_name);
			CHECK(pmu != NULL);
			for (unsigned a = 0; pmu && a < pmu->naliases; a++) {
				uint64_t cfg[UNCORE_PERF_NCONFIG] = {0, 0, 0};
				CHECK_EQ_INT(
				    uncore_perf_pmu_add_terms(pmu, pmu->aliases[a].terms, cfg), 0);
				found |= cfg[0] == s->rates[r].config && !cfg[1] && !cfg[2];
			}
			if (!found)
				HARNESS_FAIL_AT("rate row %u (config 0x%llx) is no alias of %s", r,
						(unsigned long long)s->rates[r].config, pmu_name);
		}
		uncore_perf_sysfs_free(tree);
		be->ops->destroy(be); /* and the kernel with it */
	}
	harness_row = NULL;
}

TEST(the_cas_aliases_are_64_bytes_a_count)
{
	for (size_t i = 0; i < uncore_shape_count(); i++) {
		const struct uncore_shape *s = uncore_shape_at(i);
		harness_row = s->name;
		for (unsigned b = 0; b < s->nboxes; b++)
			for (unsigned a = 0; a < s->boxes[b].naliases; a++) {
				const struct shape_alias *al = &s->boxes[b].aliases[a];
				if (strncmp(al->name, "cas_count", 9) != 0)
					continue;
				CHECK_EQ_STR(al->unit, "MiB");
				CHECK_NEAR(strtod(al->scale, NULL) * 1048576.0, 64.0, 0);
			}
	}
	harness_row = NULL;
}

/* Raw perf terms (perf_sysfs.h, uncore_perf_pmu_add_terms): an empty term
 * and a field given twice with two values are refused; numbers are decimal
 * or hex with 0x (issue 29). */
TEST(raw_terms_are_checked)
{
	struct uncore_perf_sysfs *tree = NULL;
	struct uncore_shape_kernel *k = NULL;
	REQUIRE(uncore_shape_kernel_create(uncore_shape_find("skx"), NULL, &k) == 0);
	REQUIRE(uncore_perf_sysfs_read(uncore_shape_kernel_pmu_root(k), &tree) == 0);
	const struct uncore_perf_pmu *pmu = uncore_perf_sysfs_find(tree, "uncore_imc_0");
	REQUIRE(pmu != NULL);
	static const struct {
		const char *terms;
		int rc;
		const char *detail;
	} rows[] = {
	    {"event=0x4,umask=0x3", 0, ""},
	    {"event=0x4,event=0x4", 0, ""},
	    {"event=0x4,,umask=0x3", UNCORE_ESYNTAX, "empty term"},
	    {"event=0x4,", UNCORE_ESYNTAX, "empty term"},
	    {",event=0x4", UNCORE_ESYNTAX, "empty term"},
	    {"event=0x4,event=0x5", UNCORE_ECOMBO, "event given twice with different values"},
	    {"event=-4", UNCORE_ESYNTAX, "decimal, or hex"},
	    {"ev\x1bnt=1", UNCORE_ENOMOD, "'ev\\x1bnt'"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t cfg[UNCORE_PERF_NCONFIG] = {0, 0, 0};
		harness_row = rows[i].terms;
		CHECK_EQ_INT(uncore_perf_pmu_add_terms(pmu, rows[i].terms, cfg), rows[i].rc);
		if (rows[i].rc)
			CHECK_CONTAINS(uncore_error_detail(), rows[i].detail);
	}
	harness_row = NULL;
	uint64_t cfg[UNCORE_PERF_NCONFIG] = {0, 0, 0};
	CHECK_EQ_INT(uncore_perf_pmu_add_terms(pmu, "event=010", cfg), 0);
	CHECK_EQ_U64(cfg[0] & 0xff, 10); /* decimal, not octal 8 */
	uncore_perf_sysfs_free(tree);
	uncore_shape_kernel_destroy(k);
}

/* Sapphire Rapids with 56 CHAs: a family counts 32 PMUs, so a sum over
 * uncore_cha is refused, saying why, rather than missing 24 of them; the
 * IMC family beside it is whole. */
TEST(a_family_of_more_than_32_pmus_refuses_sums_and_says_why)
{
	struct uncore_shape_kernel *k = NULL;
	struct uncore_backend *be = NULL;
	struct uncore_sched_event ev;
	REQUIRE(open_backend(uncore_shape_find("spr"), &k, &be) == 0);
	const struct uncore_event_source *src = be->events;
	uncore_error_clear();
	CHECK_EQ_INT(
	    src->ops->parse((struct uncore_event_source *)src, "uncore_cha::event=0x1", &ev),
	    UNCORE_ECOMBO);
	CHECK_CONTAINS(uncore_error_detail(), "this kernel has 56 uncore_cha PMUs");
	CHECK_CONTAINS(uncore_error_detail(), "would miss uncore_cha_32 and above");
	CHECK_EQ_INT(
	    src->ops->parse((struct uncore_event_source *)src, "uncore_cha_5::event=0x1", &ev), 0);
	CHECK_EQ_INT(
	    src->ops->parse((struct uncore_event_source *)src, "uncore_cha::event=0x1:box=31", &ev),
	    0);
	CHECK_EQ_INT(
	    src->ops->parse((struct uncore_event_source *)src, "uncore_imc::cas_count_read", &ev),
	    0);
	be->ops->destroy(be);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

TEST(system_calls_keep_the_kernel_rules_and_count_rate_times_time)
{
	const struct uncore_shape *s = uncore_shape_find("spr");
	struct uncore_shape_kernel *k = NULL;
	REQUIRE(s && uncore_shape_kernel_create(s, NULL, &k) == 0);
	struct uncore_perf_sys *sys = uncore_shape_kernel_sys(k);
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = 0; /* no such PMU */
	CHECK_EQ_INT(sys->open(sys, &a, -1, 0, -1, 0), -ENOENT);
	/* uncore_imc_3: the types follow the tree's order (56 CHAs, then IMCs). */
	a.type = SHAPE_FIRST_TYPE + 56 + 3;
	a.config = 0xcf05; /* cas_count_read */
	a.disabled = 1;
	a.read_format =
	    PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	CHECK_EQ_INT(sys->open(sys, &a, 1234, 0, -1, 0), -EINVAL); /* per task: refused */
	a.config = 1ull << 60;                                     /* umask_ext4 stops at bit 55 */
	CHECK_EQ_INT(sys->open(sys, &a, -1, 0, -1, 0), -EINVAL);
	a.config = 0xcf05;
	int lead = sys->open(sys, &a, -1, 60, -1, 0); /* a CPU of socket 1 */
	REQUIRE(lead >= 0);
	a.config = 0xf005; /* cas_count_write, in the same group */
	int member = sys->open(sys, &a, -1, 60, lead, 0);
	REQUIRE(member >= 0);
	CHECK_EQ_INT(sys->ioctl(sys, lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	uint64_t t0 = mono_ns();
	while (mono_ns() - t0 < 20000000)
		;
	uint64_t buf[5];
	CHECK_EQ_INT(sys->read(sys, lead, buf, sizeof(buf)), (int)sizeof(buf));
	CHECK_EQ_U64(buf[0], 2);
	CHECK(buf[1] >= 20000000 && buf[1] == buf[2]);
	/* Channel 3 of socket 1: 10 M x 4 x 2 reads, 5 M x 4 x 2 writes a second. */
	CHECK_EQ_U64(buf[3], (uint64_t)((unsigned __int128)80000000 * buf[1] / 1000000000));
	CHECK_EQ_U64(buf[4], (uint64_t)((unsigned __int128)40000000 * buf[1] / 1000000000));
	CHECK_EQ_INT(sys->ioctl(sys, lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP), 0);
	CHECK_EQ_INT(sys->ioctl(sys, lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP), 0);
	uint64_t after[5];
	CHECK_EQ_INT(sys->read(sys, lead, after, sizeof(after)), (int)sizeof(after));
	CHECK_EQ_U64(after[3], 0); /* reset clears the count, not the times */
	CHECK(after[1] >= buf[1]);
	CHECK_EQ_INT(sys->close(sys, member), 0);
	CHECK_EQ_INT(sys->close(sys, lead), 0);
	sys->destroy(sys);
}

int main(void)
{
	RUN(every_shape_is_discovered_as_its_driver_publishes_it);
	RUN(the_cas_aliases_are_64_bytes_a_count);
	RUN(a_family_of_more_than_32_pmus_refuses_sums_and_says_why);
	RUN(raw_terms_are_checked);
	RUN(system_calls_keep_the_kernel_rules_and_count_rate_times_time);
	return harness_done();
}
