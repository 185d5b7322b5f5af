/* The shaped kernels (simkernel/shape_kernel.h): every shape's tables are
 * consistent (formats parse, aliases pack through them, every rate is the
 * config of an alias), the perf backend discovers each shape as the driver
 * publishes it (families, instances on both sockets, aliases with their
 * .scale/.unit), and the system calls keep the kernel's rules and count
 * exactly rate x time_enabled. */
#include "harness.h"

#include "events/pfm_compat.h"

#include "events/perfmon/intel_perfmon_tables.h"

#include "backend/perf/perf.h"
#include "common/uncore_error.h"
#include "simkernel/shape_internal.h"
#include "simkernel/shape_kernel.h"
#include "eventset/eventset.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Our table's encoding (code | ucode, filter 1 in config1[63:32]) of
 * Intel's event `name` ("UNC_CHA_TOR_INSERTS.IA_MISS") in PMU
 * <gen>_unc_<family without "uncore_">; 1 when found. */
#define ROW(g, b, arr) {#g, #b, arr, LIBPFM_ARRAY_SIZE(arr)},
static const struct {
	const char *gen, *box;
	const intel_x86_entry_t *events;
	unsigned n;
} perfmon[] = {PERFMON_PMUS(ROW)};

static int table_encoding(const char *gen, const char *family, const char *name, uint64_t *cfg,
			  uint64_t *cfg1)
{
	char ev[96];
	const char *box = family + strlen("uncore_");
	snprintf(ev, sizeof(ev), "%s", name);
	char *dot = strchr(ev, '.');
	const char *um = NULL;
	if (dot) {
		*dot = '\0';
		um = dot + 1;
		for (char *p = dot + 1; *p; p++)
			if (*p == '.')
				*p = '_';
	}
	for (size_t t = 0; t < LIBPFM_ARRAY_SIZE(perfmon); t++) {
		if (strcmp(perfmon[t].gen, gen) || strcmp(perfmon[t].box, box))
			continue;
		for (unsigned e = 0; e < perfmon[t].n; e++) {
			const intel_x86_entry_t *x = &perfmon[t].events[e];
			if (strcmp(x->name, ev))
				continue;
			if (!um && !x->numasks) {
				*cfg = x->code;
				*cfg1 = 0;
				return 1;
			}
			for (unsigned u = 0; u < x->numasks; u++)
				if (!strcmp(x->umasks[u].uname, um ? um : "DEFAULT")) {
					*cfg = x->code | x->umasks[u].ucode;
					*cfg1 = x->umasks[u].ufilters[1] << 32;
					return 1;
				}
		}
	}
	return 0;
}

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
			/* Every PMU of a family counts (Sierra Forest's 144 CHAs). */
			unsigned n = box->n;
			CHECK_EQ_INT(m->plat->boxes[bi]->ninstances, n);
			for (unsigned so = 0; so < s->sockets; so++) {
				CHECK_EQ_INT(uncore_inst_count(&m->present[bi][so]), n);
				CHECK(uncore_inst_has(&m->present[bi][so], n - 1));
			}
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
		 * through the PMU's format files, or the encoding our table
		 * generated from Intel's data gives the event it names: no
		 * dead rows (a family the shape lacks is a dead row too, but
		 * for the old Granite Rapids kernel, whose machine has UPI
		 * links its driver does not publish). */
		struct uncore_perf_sysfs *tree = NULL;
		REQUIRE(uncore_perf_sysfs_read(uncore_shape_kernel_pmu_root(k), &tree) == 0);
		for (unsigned r = 0; r < s->nrates; r++) {
			const struct shape_rate *rt = &s->rates[r];
			char pmu_name[64];
			int found = 0;
			snprintf(pmu_name, sizeof(pmu_name), "%s_0", rt->family);
			const struct uncore_perf_pmu *pmu = uncore_perf_sysfs_find(tree, pmu_name);
			if (!pmu) /* a family of one PMU: no number */
				pmu = uncore_perf_sysfs_find(tree, rt->family);
			if (!pmu && strcmp(s->name, "gnr-old") == 0)
				continue;
			CHECK(pmu != NULL);
			if (rt->event) {
				uint64_t cfg, cfg1;
				found = table_encoding(s->gen, rt->family, rt->event, &cfg, &cfg1) &&
					cfg == rt->config && cfg1 == rt->config1;
				/* and the kernel's formats take it */
				for (unsigned f = 0; found && pmu && f < 2; f++) {
					uint64_t want = f ? rt->config1 : rt->config, have = 0;
					for (unsigned fi = 0; fi < pmu->nfields; fi++)
						if (pmu->fields[fi].config == f)
							have |= uncore_perf_field_mask(&pmu->fields[fi]);
					if (want & ~have)
						HARNESS_FAIL_AT("rate row %u (%s): config%s 0x%llx has "
								"bits no format of %s covers",
								r, rt->event, f ? "1" : "",
								(unsigned long long)want, pmu_name);
				}
			}
			for (unsigned a = 0; !rt->event && pmu && a < pmu->naliases; a++) {
				uint64_t cfg[UNCORE_PERF_NCONFIG] = {0, 0, 0};
				CHECK_EQ_INT(
				    uncore_perf_pmu_add_terms(pmu, pmu->aliases[a].terms, cfg), 0);
				found |= cfg[0] == rt->config && !cfg[1] && !cfg[2];
			}
			if (!found)
				HARNESS_FAIL_AT("rate row %u (%s, config 0x%llx) is no alias of %s and "
						"not our table's encoding",
						r, rt->event ? rt->event : "alias",
						(unsigned long long)rt->config, pmu_name);
		}
		uncore_perf_sysfs_free(tree);
		be->ops->destroy(be); /* and the kernel with it */
	}
	harness_row = NULL;
}

static const char *format_of(const struct uncore_shape *s, const char *family, const char *name)
{
	for (unsigned b = 0; b < s->nboxes; b++)
		if (!strcmp(s->boxes[b].family, family))
			for (unsigned f = 0; f < s->boxes[b].nformats; f++)
				if (!strcmp(s->boxes[b].formats[f].name, name))
					return s->boxes[b].formats[f].format;
	return "(none)";
}

/* The format files the kernel's driver publishes, where earlier shapes had
 * them wrong (uncore_snbep.c): ICX UPI umask_ext4, the SKX and ICX CHA
 * tid_en and filter fields, SPR's CHA tid_en2; the IIO channel masks. */
TEST(format_files_are_the_drivers)
{
	const struct uncore_shape *skx = uncore_shape_find("skx"), *icx = uncore_shape_find("icx");
	const struct uncore_shape *spr = uncore_shape_find("spr"), *gnr = uncore_shape_find("gnr");
	REQUIRE(skx && icx && spr && gnr);
	CHECK_EQ_STR(format_of(icx, "uncore_upi", "umask"), "config:8-15,32-55");
	CHECK_EQ_STR(format_of(skx, "uncore_upi", "umask"), "config:8-15,32-43,45-55");
	CHECK_EQ_STR(format_of(skx, "uncore_cha", "tid_en"), "config:19");
	CHECK_EQ_STR(format_of(skx, "uncore_cha", "filter_tid"), "config1:0-8");
	CHECK_EQ_STR(format_of(skx, "uncore_cha", "filter_state"), "config1:17-26");
	CHECK_EQ_STR(format_of(skx, "uncore_cha", "filter_opc0"), "config1:41-50");
	CHECK_EQ_STR(format_of(skx, "uncore_cha", "filter_opc1"), "config1:51-60");
	CHECK_EQ_STR(format_of(skx, "uncore_cha", "filter_isoc"), "config1:63");
	CHECK_EQ_STR(format_of(icx, "uncore_cha", "umask"), "config:8-15,32-57");
	CHECK_EQ_STR(format_of(icx, "uncore_cha", "tid_en"), "config:19");
	CHECK_EQ_STR(format_of(icx, "uncore_cha", "filter_tid"), "config1:0-9");
	CHECK_EQ_STR(format_of(spr, "uncore_cha", "tid_en"), "config:16");
	CHECK_EQ_STR(format_of(skx, "uncore_iio", "ch_mask"), "config:36-43");
	CHECK_EQ_STR(format_of(icx, "uncore_iio", "ch_mask"), "config:36-47");
	CHECK_EQ_STR(format_of(gnr, "uncore_iio", "fc_mask"), "config:48-50");
	CHECK_EQ_STR(format_of(gnr, "uncore_pcu", "thresh"), "config:24-31");
}

/* Instance counts of the top parts the shapes stand for. */
TEST(instance_counts_of_a_top_part)
{
	static const struct {
		const char *shape, *family;
		unsigned n;
	} rows[] = {
	    {"skx", "uncore_cha", 28},  {"skx", "uncore_imc", 6},     {"skx", "uncore_upi", 3},
	    {"icx", "uncore_cha", 40},  {"icx", "uncore_imc", 12},    {"icx", "uncore_upi", 3},
	    {"spr", "uncore_cha", 56},  {"spr", "uncore_imc", 8},     {"spr", "uncore_upi", 4},
	    {"emr", "uncore_cha", 64},  {"gnr", "uncore_cha", 128},   {"gnr", "uncore_imc", 12},
	    {"gnr", "uncore_upi", 6},   {"srf", "uncore_cha", 144},   {"srf", "uncore_imc", 8},
	    {"gnr-old", "uncore_cha", 128}, {"gnr-old", "uncore_upi", 0},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct uncore_shape *s = uncore_shape_find(rows[i].shape);
		harness_row = rows[i].shape;
		REQUIRE(s != NULL);
		unsigned n = 0;
		for (unsigned b = 0; b < s->nboxes; b++)
			if (!strcmp(s->boxes[b].family, rows[i].family))
				n = s->boxes[b].n;
		CHECK_EQ_INT(n, rows[i].n);
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

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Granite Rapids with 128 CHAs and Sierra Forest with 144: a sum over
 * uncore_cha takes every one, and :box= reaches the last. */
TEST(a_family_of_more_than_32_pmus_is_summed_whole)
{
	static const char *const shapes[] = {"spr", "gnr", "srf"};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct uncore_shape_kernel *k = NULL;
		struct uncore_backend *be = NULL;
		struct uncore_sched_event ev;
		harness_row = shapes[i];
		REQUIRE(open_backend(uncore_shape_find(shapes[i]), &k, &be) == 0);
		const struct uncore_event_source *src = be->events;
		struct uncore_event_source *s = (struct uncore_event_source *)src;
		CHECK_EQ_INT(src->ops->parse(s, "uncore_cha::event=0x1", &ev), 0);
		CHECK_EQ_INT(ev.ref.instance, UNCORE_ALL);
		CHECK_EQ_INT(src->ops->parse(s, "uncore_cha_5::event=0x1", &ev), 0);
		char last[64];
		snprintf(last, sizeof(last), "uncore_cha::event=0x1:box=%u",
			 uncore_inst_count(&be->machine.present[box_index(&be->machine,
									     "uncore_cha")][0]) -
			     1);
		CHECK_EQ_INT(src->ops->parse(s, last, &ev), 0);
		be->ops->destroy(be);
	}
	harness_row = NULL;
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
	/* uncore_imc_3: the types follow the tree's order (56 CHAs, 12 IIO,
	 * 12 IRP, 12 M2PCIe, the PCU, then the IMCs). */
	a.type = SHAPE_FIRST_TYPE + 56 + 12 + 12 + 12 + 1 + 3;
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

/* Virtual time (PAPI_INTEL_UNCORE_SIM_KERNEL_STEP): the counters move a step
 * per round and never otherwise; a look at the clock before reads starts
 * their round and gives their instant, the look after them ends it; reads
 * without a look start a round (or a new one when a group is read again)
 * and the next look dates them. */
TEST(virtual_time_moves_a_step_a_round_and_the_clock_dates_the_reads)
{
	const struct uncore_shape *s = uncore_shape_find("spr");
	struct uncore_shape_kernel *k = NULL;
	REQUIRE(s && uncore_shape_kernel_create(s, NULL, &k) == 0);
	uncore_shape_kernel_set_step(k, 1000000000);
	struct uncore_perf_sys *sys = uncore_shape_kernel_sys(k);
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = SHAPE_FIRST_TYPE + 56 + 12 + 12 + 12 + 1 + 3; /* uncore_imc_3 */
	a.config = 0xcf05;                                     /* cas_count_read */
	a.disabled = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	int fd = sys->open(sys, &a, -1, 60, -1, 0); /* socket 1: 10 M x 4 x 2 = 80 M/s */
	REQUIRE(fd >= 0);
	CHECK_EQ_INT(sys->ioctl(sys, fd, PERF_EVENT_IOC_ENABLE, 0), 0); /* at 0 */
	uint64_t t = 0, buf[2] = {0, 0};
	/* A timed read: look, read, look. */
	CHECK_EQ_INT(uncore_shape_kernel_now(k, &t), 0);
	CHECK_EQ_U64(t, 1000000000);
	CHECK_EQ_INT(sys->read(sys, fd, buf, sizeof(buf)), (int)sizeof(buf));
	CHECK_EQ_U64(buf[0], 80000000);
	CHECK_EQ_U64(buf[1], 1000000000);
	CHECK_EQ_INT(uncore_shape_kernel_now(k, &t), 0);
	CHECK_EQ_U64(t, 1000000000);
	/* Reads without a look: a round each, as the same group is read again. */
	CHECK_EQ_INT(sys->read(sys, fd, buf, sizeof(buf)), (int)sizeof(buf));
	CHECK_EQ_U64(buf[0], 160000000);
	CHECK_EQ_INT(sys->read(sys, fd, buf, sizeof(buf)), (int)sizeof(buf));
	CHECK_EQ_U64(buf[0], 240000000);
	/* The next look dates them, the one after it ends their round. */
	CHECK_EQ_INT(uncore_shape_kernel_now(k, &t), 0);
	CHECK_EQ_U64(t, 3000000000);
	CHECK_EQ_INT(uncore_shape_kernel_now(k, &t), 0);
	CHECK_EQ_U64(t, 3000000000);
	/* A look with no round under way starts one; looks before its reads
	 * see the same instant. */
	CHECK_EQ_INT(uncore_shape_kernel_now(k, &t), 0);
	CHECK_EQ_U64(t, 4000000000);
	CHECK_EQ_INT(uncore_shape_kernel_now(k, &t), 0);
	CHECK_EQ_U64(t, 4000000000);
	CHECK_EQ_INT(sys->read(sys, fd, buf, sizeof(buf)), (int)sizeof(buf));
	CHECK_EQ_U64(buf[0], 320000000);
	/* Any other call ends a round: disabled at 4 s, counting stops there. */
	CHECK_EQ_INT(sys->ioctl(sys, fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	CHECK_EQ_INT(uncore_shape_kernel_now(k, &t), 0);
	CHECK_EQ_U64(t, 5000000000);
	CHECK_EQ_INT(sys->read(sys, fd, buf, sizeof(buf)), (int)sizeof(buf));
	CHECK_EQ_U64(buf[0], 320000000);
	CHECK_EQ_U64(buf[1], 4000000000);
	CHECK_EQ_INT(sys->close(sys, fd), 0);
	sys->destroy(sys);
}

/* An event set summing Intel's UNC_CHA_TOR_INSERTS.IA_MISS over the 128 CHAs
 * of both Granite Rapids sockets: one read() per PMU instance (256), and
 * the count the scenario defines, 3 M x (1 + ... + 128) x (1 + 2) a second,
 * within the time bounds of the run. */
TEST(a_128_cha_family_read_is_one_read_per_instance_and_exact)
{
	struct uncore_shape_kernel *k = NULL;
	struct uncore_backend *be = NULL;
	struct uncore_set *set = NULL;
	REQUIRE(open_backend(uncore_shape_find("gnr"), &k, &be) == 0);
	REQUIRE(uncore_set_create(be, &set) == 0);
	static const char *const names[] = {"uncore_cha::event=0x35:umask=0xc001fe01"};
	int rc = uncore_set_assign(set, names, 1);
	if (rc < 0)
		fprintf(stderr, "  %s\n", uncore_error_detail());
	REQUIRE(rc == 0);
	uint64_t t0 = mono_ns();
	REQUIRE(uncore_set_start(set) == 0);
	uint64_t t1 = mono_ns();
	while (mono_ns() - t1 < 20000000)
		;
	uint64_t v[1] = {0}, r0 = uncore_shape_kernel_reads(k);
	uint64_t t2 = mono_ns();
	REQUIRE(uncore_set_read(set, v) == 0);
	uint64_t t3 = mono_ns();
	CHECK_EQ_U64(uncore_shape_kernel_reads(k) - r0, 256);
	const double rate = 3e6 * (128 * 129 / 2) * 3; /* both sockets, a second */
	CHECK((double)v[0] >= rate * (double)(t2 - t1) / 1e9 * 0.999);
	CHECK((double)v[0] <= rate * (double)(t3 - t0) / 1e9 * 1.001);
	uncore_set_stop(set, v);
	uncore_set_destroy(set);
	be->ops->destroy(be);
}

int main(void)
{
	RUN(every_shape_is_discovered_as_its_driver_publishes_it);
	RUN(format_files_are_the_drivers);
	RUN(instance_counts_of_a_top_part);
	RUN(the_cas_aliases_are_64_bytes_a_count);
	RUN(a_family_of_more_than_32_pmus_is_summed_whole);
	RUN(raw_terms_are_checked);
	RUN(system_calls_keep_the_kernel_rules_and_count_rate_times_time);
	RUN(virtual_time_moves_a_step_a_round_and_the_clock_dates_the_reads);
	RUN(a_128_cha_family_read_is_one_read_per_instance_and_exact);
	return harness_done();
}
