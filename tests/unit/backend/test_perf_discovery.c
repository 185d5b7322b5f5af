/* Discovery on fake Skylake-client and Nehalem trees, with a recording
 * system-call layer: table box types map to the kernel's PMU names
 * (skl_unc_cbo2 -> uncore_cbox_2, skl_unc_clock -> uncore_cbox_0,
 * nhm_unc_guide -> uncore), each socket is counted on the CPU its cpumask
 * names, events of one PMU instance form one group, kernel PMUs without
 * tables are enumerated and usable by alias and by fields, and a processor
 * without tables gets the kernel PMUs alone. */
#include "backend/perf/perf.h"
#include "backend/perf/perf_sysfs.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "eventset/native.h"
#include "fake_sysfs.h"
#include "harness.h"
#include "tmpdir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A kernel that accepts everything and remembers what it was asked. */
struct rec_sys {
	struct uncore_perf_sys sys;
	unsigned n;
	struct {
		uint32_t type;
		uint64_t config[3];
		int cpu, group_fd, disabled;
		uint64_t read_format;
	} open[64];
	unsigned nread;
	/* single_fixed (kernel uncore.c, uncore_pmu_event_init): the fixed
	 * event 0xff on these PMU types is EINVAL (the fake SKL tree's
	 * uncore_cbox_1..3 are types 13..15). */
	uint32_t fixed_einval_lo, fixed_einval_hi;
};

static int rec_open(struct uncore_perf_sys *s, struct perf_event_attr *a, pid_t pid, int cpu,
		    int group_fd, unsigned long flags)
{
	struct rec_sys *r = (struct rec_sys *)s;
	(void)pid;
	(void)flags;
	if (r->n == 64)
		return -EMFILE;
	if (a->config == 0xff && a->type >= r->fixed_einval_lo && a->type <= r->fixed_einval_hi)
		return -EINVAL;
	r->open[r->n].type = a->type;
	r->open[r->n].config[0] = a->config;
	r->open[r->n].config[1] = a->config1;
	r->open[r->n].config[2] = a->config2;
	r->open[r->n].cpu = cpu;
	r->open[r->n].group_fd = group_fd;
	r->open[r->n].disabled = a->disabled;
	r->open[r->n].read_format = a->read_format;
	return 100 + (int)r->n++;
}

/* A group read: nr, enabled, running, then zeros. */
static ssize_t rec_read(struct uncore_perf_sys *s, int fd, void *buf, size_t len)
{
	struct rec_sys *r = (struct rec_sys *)s;
	uint64_t *w = buf;
	unsigned nr = 0;
	r->nread++;
	for (unsigned i = 0; i < r->n; i++)
		nr += (int)i == fd - 100 || r->open[i].group_fd == fd;
	if (len < (3 + nr) * 8)
		return -ENOSPC;
	memset(buf, 0, (3 + nr) * 8);
	w[0] = nr;
	w[1] = w[2] = 1000;
	return (ssize_t)((3 + nr) * 8);
}

static int rec_ioctl(struct uncore_perf_sys *s, int fd, unsigned long req, unsigned long arg)
{
	(void)s;
	(void)fd;
	(void)req;
	(void)arg;
	return 0;
}

static int rec_close(struct uncore_perf_sys *s, int fd)
{
	(void)s;
	(void)fd;
	return 0;
}

static struct rec_sys recorder(void)
{
	struct rec_sys r;
	memset(&r, 0, sizeof(r));
	r.sys.open = rec_open;
	r.sys.read = rec_read;
	r.sys.ioctl = rec_ioctl;
	r.sys.close = rec_close;
	return r;
}

static int open_on(const char *root, const char *plat, struct rec_sys *r,
		   struct uncore_backend **be)
{
	struct uncore_perf_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.pmu_root = fake_sysfs_pmu_root(root);
	cfg.cpu_root = fake_sysfs_cpu_root(root);
	cfg.sys = &r->sys;
	cfg.plat = plat ? uncore_event_platform_by_name(plat) : NULL;
	int rc = uncore_perf_open(&cfg, be);
	if (rc < 0)
		fprintf(stderr, "  open: %s: %s\n", uncore_strerror(rc), uncore_error_detail());
	return rc;
}

static int box_index(const struct uncore_backend *be, const char *name)
{
	for (unsigned b = 0; b < be->machine.plat->nboxes; b++)
		if (strcmp(be->machine.plat->boxes[b]->name, name) == 0)
			return (int)b;
	return -1;
}

TEST(skylake_client_boxes_map_to_the_kernels_pmus)
{
	const char *root = fake_sysfs_mkdtemp("disc-skl");
	struct rec_sys r = recorder();
	struct uncore_backend *be = NULL;
	CHECK(root && fake_sysfs_skl(root) == 0);
	CHECK_EQ_INT(open_on(root, "skl", &r, &be), 0);
	if (!be) {
		test_rmtree(root);
		return;
	}
	/* Discovery opens no event: the permission is judged without one
	 * (uncore_perf_permission), and the opens wait for programming. */
	CHECK_EQ_INT(r.n, 0);
	const struct uncore_machine *m = &be->machine;
	CHECK_EQ_INT(m->nsockets, 1);
	static const struct {
		const char *box;
		uint32_t present;
		unsigned instance;
		const char *pmu;
	} rows[] = {
	    {"skl_unc_cbo", 0xf, 2, "uncore_cbox_2"},
	    {"skl_unc_arb", 1, 0, "uncore_arb"},
	    {"skl_unc_clock", 1, 0, "uncore_cbox_0"},
	    {"skl_unc_imc", 1, 0, "uncore_imc"},
	    {"uncore_cbox", 0xf, 3, "uncore_cbox_3"},
	    {"msr", 1, 0, "msr"},
	    {"power", 1, 0, "power"},
	    {"cstate_core", 1, 0, "cstate_core"},
	    {"software", 1, 0, "software"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		harness_row = rows[i].box;
		int b = box_index(be, rows[i].box);
		CHECK(b >= 0);
		if (b < 0)
			continue;
		CHECK_EQ_U64(m->present[b][0].w[0], rows[i].present);
		const char *pmu = NULL;
		int cpu = -1;
		CHECK_EQ_INT(uncore_perf_binding(be, (unsigned)b, rows[i].instance, 0, &pmu, &cpu),
			     0);
		CHECK_EQ_STR(pmu, rows[i].pmu);
		CHECK_EQ_INT(cpu, 0);
	}
	harness_row = NULL;
	CHECK_EQ_INT(box_index(be, "tracepoint"), -1);
	CHECK_EQ_INT(box_index(be, "breakpoint"), -1);

	/* One group per PMU instance: CBo 0 holds the lookup and the clock. */
	struct uncore_set *set = NULL;
	CHECK_EQ_INT(uncore_set_create(be, &set), 0);
	const char *names[] = {"skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI",
			       "skl_unc_clock::UNC_CLOCK",
			       "skl_unc_imc::DRAM_DATA_READS",
			       "uncore_imc::data_writes",
			       "cstate_core::c6-residency",
			       "uncore_cbox_1::event=0x22,umask=0x41,cmask=3"};
	CHECK_EQ_INT(uncore_set_assign(set, names, 6), 0);
	r.n = 0;
	CHECK_EQ_INT(uncore_set_start(set), 0);
	CHECK_EQ_INT(r.n, 9); /* 4 lookups, the clock, 2 IMC, the C6 residency, the raw one */
	unsigned leaders = 0;
	for (unsigned i = 0; i < r.n; i++) {
		char row[64];
		snprintf(row, sizeof(row), "open %u type %u", i, r.open[i].type);
		harness_row = row;
		CHECK_EQ_U64(r.open[i].read_format, PERF_FORMAT_GROUP |
							PERF_FORMAT_TOTAL_TIME_ENABLED |
							PERF_FORMAT_TOTAL_TIME_RUNNING);
		CHECK_EQ_INT(r.open[i].cpu, 0);
		if (r.open[i].group_fd < 0) {
			leaders++;
			CHECK_EQ_INT(r.open[i].disabled, 1);
		}
		if (r.open[i].type == 12 && r.open[i].config[0] == 0xff)
			CHECK(r.open[i].group_fd >= 0); /* the clock joins CBo 0's group */
		if (r.open[i].type == 13 && r.open[i].group_fd >= 0)
			CHECK_EQ_U64(r.open[i].config[0],
				     0x3004122); /* the raw event, in CBo 1's group */
		if (r.open[i].type == 17)
			CHECK(r.open[i].config[0] == 1 || r.open[i].config[0] == 2);
		if (r.open[i].type == 11)
			CHECK_EQ_U64(r.open[i].config[0], 2);
	}
	harness_row = NULL;
	CHECK_EQ_INT(leaders, 6); /* cbox 0-3, imc, cstate_core */
	uint64_t v[6];
	r.nread = 0;
	CHECK_EQ_INT(uncore_set_read(set, v), 0);
	CHECK_EQ_INT(r.nread, 6);
	CHECK_EQ_INT(uncore_set_stop(set, v), 0);
	uncore_set_destroy(set);
	be->ops->destroy(be);
	test_rmtree(root);
}

TEST(nehalem_counts_each_socket_on_its_cpumask_cpu)
{
	const char *root = fake_sysfs_mkdtemp("disc-nhm");
	struct rec_sys r = recorder();
	struct uncore_backend *be = NULL;
	CHECK(root && fake_sysfs_nhm(root) == 0);
	CHECK_EQ_INT(open_on(root, "nhm", &r, &be), 0);
	if (!be) {
		test_rmtree(root);
		return;
	}
	CHECK_EQ_INT(be->machine.nsockets, 2);
	struct uncore_set *set = NULL;
	CHECK_EQ_INT(uncore_set_create(be, &set), 0);
	const char *names[] = {"nhm_unc_guide::UNC_CLK_UNHALTED",
			       "uncore::qmc_normal_reads_any:socket=1", "msr::tsc:cpu=5"};
	CHECK_EQ_INT(uncore_set_assign(set, names, 3), 0);
	r.n = 0;
	CHECK_EQ_INT(uncore_set_start(set), 0);
	CHECK_EQ_INT(r.n, 4);
	unsigned on0 = 0, on4 = 0;
	for (unsigned i = 0; i < r.n; i++) {
		on0 += r.open[i].cpu == 0;
		on4 += r.open[i].cpu == 4;
		if (r.open[i].type == 6 && r.open[i].cpu == 4 && r.open[i].group_fd >= 0)
			CHECK_EQ_U64(r.open[i].config[0], 0x0f2c);
	}
	CHECK_EQ_INT(on0, 1); /* the clock on socket 0 */
	CHECK_EQ_INT(on4, 3); /* the clock and the alias on socket 1; msr on socket 1's CPU */
	CHECK_EQ_INT(uncore_set_stop(set, NULL), 0);
	/* The Nehalem address/opcode matcher is not programmable through perf. */
	unsigned idx;
	CHECK_EQ_INT(uncore_set_assign(set, NULL, 0), 0);
	/* Refused when added, not at start. */
	CHECK_EQ_INT(uncore_set_add(set, "UNC_GQ_TRACKER_OCCUP:RT_LLC_MISS:o", &idx), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "the kernel's uncore PMU has no format field");
	uncore_set_destroy(set);
	be->ops->destroy(be);
	test_rmtree(root);
}

TEST(kernel_events_are_enumerated_after_the_tables)
{
	const char *root = fake_sysfs_mkdtemp("disc-nat");
	struct rec_sys r = recorder();
	struct uncore_backend *be = NULL;
	struct uncore_native *n = NULL;
	CHECK(root && fake_sysfs_skl(root) == 0);
	CHECK_EQ_INT(open_on(root, "skl", &r, &be), 0);
	if (be)
		CHECK_EQ_INT(uncore_native_create(be->machine.plat, &n), 0);
	if (!n) {
		if (be)
			be->ops->destroy(be);
		test_rmtree(root);
		return;
	}
	unsigned tables = uncore_native_count(n);
	CHECK_EQ_INT(uncore_native_set_source(n, be->events), 0);
	/* uncore_cbox: clockticks; uncore_imc: 5; msr: 3; power: 1;
	 * cstate_core: 2; software: 10 */
	CHECK_EQ_INT(uncore_native_count(n) - tables, 1 + 5 + 3 + 1 + 2 + 10);
	uint32_t code;
	unsigned seen = 0, kernel = 0;
	int after_tables = 0, ok = 1;
	for (int rc = uncore_native_enum(n, &code, UNCORE_ENUM_FIRST); rc == 0;
	     rc = uncore_native_enum(n, &code, UNCORE_ENUM_EVENTS)) {
		struct uncore_native_info info;
		seen++;
		CHECK_EQ_INT(uncore_native_info(n, code, &info), 0);
		int is_kernel = (code & UNCORE_NATIVE_KERNEL) != 0;
		if (after_tables && !is_kernel)
			ok = 0;
		after_tables |= is_kernel;
		if (!is_kernel)
			continue;
		kernel++;
		uint32_t back;
		CHECK_EQ_INT(uncore_native_code(n, info.name, &back), 0);
		CHECK_EQ_U64(back, code);
		if (strcmp(info.name, "uncore_imc::data_reads") == 0)
			CHECK_CONTAINS(info.desc, "6.103515625e-5 MiB");
		if (strcmp(info.name, "uncore_cbox::clockticks") == 0)
			CHECK_CONTAINS(info.desc, "counted on uncore_cbox_0 (the kernel's single_fixed)");
		uint32_t sub = code;
		CHECK(uncore_native_enum(n, &sub, UNCORE_ENUM_UMASKS) < 0);
	}
	CHECK(ok); /* kernel events come after every table event */
	CHECK_EQ_INT(seen, uncore_native_count(n));
	CHECK_EQ_INT(kernel, uncore_native_count(n) - tables);
	/* Other strings get named codes; unknown kernel events are refused. */
	CHECK_EQ_INT(uncore_native_code(n, "msr::tsc:socket=0", &code), 0);
	CHECK(code & UNCORE_NATIVE_NAMED);
	CHECK_EQ_INT(uncore_native_code(n, "msr::nope", &code), UNCORE_ENOEVENT);
	CHECK_CONTAINS(uncore_error_detail(), "aperf, mperf, tsc");
	/* PMU names: table types and the metric PMU, kernel PMUs and families,
	 * then instances. */
	unsigned np;
	const char *const *names = uncore_native_pmu_names(n, &np);
	CHECK(np > 8);
	if (np > 8) {
		CHECK_EQ_STR(names[0], "skl_unc_cbo");
		CHECK_EQ_STR(names[4], "skl_metric");
		CHECK_EQ_STR(names[5], "cstate_core");
		CHECK_EQ_STR(names[np - 1], "uncore_cbox_3");
	}
	uncore_native_destroy(n);
	be->ops->destroy(be);
	test_rmtree(root);
}

/* The client cbox PMUs share one fixed counter, which the kernel gives to
 * uncore_cbox_0 only (single_fixed): the family's clockticks is opened
 * once, there, and a later cbox's is refused at add with the reason
 * (platform/skl/HARDWARE-DECISIONS.md S2). */
TEST(skl_cbox_clockticks_is_counted_once_on_the_first_cbox)
{
	const char *root = fake_sysfs_mkdtemp("disc-single");
	struct rec_sys r = recorder();
	r.fixed_einval_lo = 13;
	r.fixed_einval_hi = 15;
	struct uncore_backend *be = NULL;
	CHECK(root && fake_sysfs_skl(root) == 0);
	CHECK_EQ_INT(open_on(root, NULL, &r, &be), 0);
	if (!be) {
		test_rmtree(root);
		return;
	}
	struct uncore_set *set = NULL;
	CHECK_EQ_INT(uncore_set_create(be, &set), 0);
	unsigned idx;
	CHECK_EQ_INT(uncore_set_add(set, "uncore_cbox::clockticks", &idx), 0);
	CHECK_EQ_INT(uncore_set_add(set, "uncore_cbox_2::clockticks", &idx), UNCORE_ECOMBO);
	CHECK_CONTAINS(uncore_error_detail(), "uncore_cbox_0 only (single_fixed)");
	CHECK_EQ_INT(uncore_set_add(set, "uncore_cbox::event=0xff:box=1", &idx), UNCORE_ECOMBO);
	int rc = uncore_set_start(set);
	CHECK_EQ_INT(rc, 0);
	if (rc)
		fprintf(stderr, "  start: %s\n", uncore_error_detail());
	unsigned fixed = 0;
	for (unsigned i = 0; i < r.n; i++)
		if (r.open[i].config[0] == 0xff) {
			fixed++;
			CHECK_EQ_INT(r.open[i].type, 12); /* uncore_cbox_0 */
		}
	CHECK_EQ_INT(fixed, 1);
	uint64_t v[1] = {0};
	CHECK_EQ_INT(uncore_set_stop(set, v), 0);
	uncore_set_destroy(set);
	be->ops->destroy(be);
	test_rmtree(root);
}

TEST(a_processor_without_tables_gets_the_kernel_pmus)
{
	const char *root = fake_sysfs_mkdtemp("disc-none");
	struct rec_sys r = recorder();
	struct uncore_backend *be = NULL;
	CHECK(root && fake_sysfs_skl(root) == 0);
	CHECK_EQ_INT(open_on(root, NULL, &r, &be), 0);
	if (!be) {
		test_rmtree(root);
		return;
	}
	CHECK_EQ_STR(be->machine.plat->name, "kernel");
	CHECK_EQ_INT(box_index(be, "skl_unc_cbo"), -1);
	struct uncore_set *set = NULL;
	CHECK_EQ_INT(uncore_set_create(be, &set), 0);
	unsigned idx;
	CHECK_EQ_INT(uncore_set_add(set, "msr::tsc", &idx), 0);
	CHECK_EQ_INT(uncore_set_add(set, "uncore_cbox::clockticks", &idx), 0);
	CHECK_EQ_INT(uncore_set_add(set, "skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI", &idx),
		     UNCORE_ENOEVENT);
	uncore_set_destroy(set);
	be->ops->destroy(be);

	/* No countable PMU at all: a reason. */
	const char *empty = fake_sysfs_mkdtemp("disc-empty");
	CHECK(empty && test_put(empty, "devices/system/cpu/online", "0\n") == 0 &&
	      test_put(empty, "devices/system/cpu/cpu0/topology/physical_package_id", "0\n") == 0 &&
	      test_put(empty, "bus/event_source/devices/tracepoint/type", "2\n") == 0);
	CHECK_EQ_INT(open_on(empty, NULL, &r, &be), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "no PMU that can be counted");
	CHECK_EQ_INT(uncore_perf_has_kernel_pmus(fake_sysfs_pmu_root(empty)), 0);

	/* The PMU directory is read once: the probes' reading serves the
	 * backend, which reads no directory of its own (its root here does
	 * not exist). */
	struct uncore_perf_sysfs *once = NULL;
	CHECK_EQ_INT(uncore_perf_sysfs_read(fake_sysfs_pmu_root(root), &once), 0);
	CHECK_EQ_INT(uncore_perf_sysfs_has_kernel_pmus(once), 1);
	CHECK_EQ_INT(uncore_perf_sysfs_has_platform_pmu(once, uncore_event_platform_by_name("skl")),
		     1);
	CHECK_EQ_INT(uncore_perf_sysfs_has_platform_pmu(once, uncore_event_platform_by_name("nhm")),
		     0);
	struct uncore_perf_config oc;
	memset(&oc, 0, sizeof(oc));
	oc.pmu_root = "/nonexistent/pmus";
	oc.cpu_root = fake_sysfs_cpu_root(root);
	oc.sysfs = once;
	oc.sys = &r.sys;
	oc.plat = uncore_event_platform_by_name("skl");
	CHECK_EQ_INT(uncore_perf_open(&oc, &be), 0);
	CHECK(be && be->machine.plat && box_index(be, "skl_unc_cbo") >= 0);
	if (be)
		be->ops->destroy(be);
	CHECK_EQ_INT(uncore_perf_has_kernel_pmus(fake_sysfs_pmu_root(root)), 1);
	CHECK_EQ_INT(uncore_perf_has_platform_pmu(fake_sysfs_pmu_root(root),
						  uncore_event_platform_by_name("skl")),
		     1);
	CHECK_EQ_INT(uncore_perf_has_platform_pmu(fake_sysfs_pmu_root(root),
						  uncore_event_platform_by_name("nhm")),
		     0);
	test_rmtree(empty);
	test_rmtree(root);
}

/* Start-up lists the PMUs (names and alias counts, no file opened:
 * uncore_perf_sysfs_list) and names the kernel's PMUs and counts their
 * events from that listing alone; the first use reads everything.  Both
 * must agree: same PMUs, same alias counts, same names and count of
 * events from a backend built on each.  On a fake tree (numbered family,
 * .scale/.unit qualifiers, the software PMU) and on this machine's. */
static void listing_agrees(const char *pmu_root, const char *cpu_root)
{
	struct uncore_perf_sysfs *full = NULL, *list = NULL;
	CHECK_EQ_INT(uncore_perf_sysfs_read(pmu_root, &full), 0);
	CHECK_EQ_INT(uncore_perf_sysfs_list(pmu_root, &list), 0);
	if (!full || !list) {
		uncore_perf_sysfs_free(full);
		uncore_perf_sysfs_free(list);
		return;
	}
	CHECK_EQ_INT(list->listed_only, 1);
	CHECK_EQ_INT(list->npmus, full->npmus);
	for (unsigned i = 0; i < list->npmus && i < full->npmus; i++) {
		CHECK_EQ_STR(list->pmus[i].name, full->pmus[i].name);
		if (uncore_perf_pmu_countable(&full->pmus[i], NULL))
			CHECK_EQ_INT(list->pmus[i].naliases, full->pmus[i].naliases);
		CHECK(list->pmus[i].aliases == NULL && list->pmus[i].fields == NULL);
	}
	CHECK_EQ_INT(uncore_perf_sysfs_has_kernel_pmus(list),
		     uncore_perf_sysfs_has_kernel_pmus(full));

	struct rec_sys r = recorder();
	struct uncore_perf_config lc, fc;
	struct uncore_backend *lb = NULL, *fb = NULL;
	memset(&lc, 0, sizeof(lc));
	lc.sysfs = list;
	lc.listing = 1;
	memset(&fc, 0, sizeof(fc));
	fc.sysfs = full;
	fc.cpu_root = cpu_root;
	fc.sys = &r.sys;
	CHECK_EQ_INT(uncore_perf_open(&lc, &lb), 0);
	CHECK_EQ_INT(uncore_perf_open(&fc, &fb), 0);
	if (lb && fb) {
		CHECK_EQ_INT(lb->events->ops->count(lb->events),
			     fb->events->ops->count(fb->events));
		unsigned ln, fn, lp, fp;
		const char *const *lnames = lb->events->ops->pmu_names(lb->events, &ln, &lp);
		const char *const *fnames = fb->events->ops->pmu_names(fb->events, &fn, &fp);
		CHECK_EQ_INT(ln, fn);
		CHECK_EQ_INT(lp, fp);
		for (unsigned i = 0; i < ln && i < fn; i++)
			CHECK_EQ_STR(lnames[i], fnames[i]);
	}
	CHECK_EQ_INT(r.n, 0); /* neither opened an event */
	if (lb)
		lb->ops->destroy(lb);
	if (fb)
		fb->ops->destroy(fb);
}

TEST(the_startup_listing_agrees_with_discovery)
{
	const char *root = fake_sysfs_mkdtemp("disc-list");
	CHECK(root && fake_sysfs_skl(root) == 0);
	if (root)
		listing_agrees(fake_sysfs_pmu_root(root), fake_sysfs_cpu_root(root));
	struct uncore_perf_sysfs *here = NULL;
	if (uncore_perf_sysfs_read(NULL, &here) == 0 && uncore_perf_sysfs_has_kernel_pmus(here))
		listing_agrees(NULL, NULL);
	else
		uncore_error_clear(); /* no perf_event here: the fake tree said it */
	uncore_perf_sysfs_free(here);
	if (root)
		test_rmtree(root);
}

int main(void)
{
	RUN(skylake_client_boxes_map_to_the_kernels_pmus);
	RUN(nehalem_counts_each_socket_on_its_cpumask_cpu);
	RUN(kernel_events_are_enumerated_after_the_tables);
	RUN(skl_cbox_clockticks_is_counted_once_on_the_first_cbox);
	RUN(a_processor_without_tables_gets_the_kernel_pmus);
	RUN(the_startup_listing_agrees_with_discovery);
	return harness_done();
}
