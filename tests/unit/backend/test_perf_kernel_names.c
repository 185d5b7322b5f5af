/* Names of events of the kernel's own PMUs (a processor without tables, or
 * any PMU besides them): "uncore_cbox::event=0x22", "uncore_cbox_1::...",
 * with :socket=, :cpu= and :box= qualifiers.  Each wrong name is refused
 * with the reason, nothing added: an empty event, a qualifier without a
 * number or past its range, two that contradict each other or the PMU
 * named, and a sum over a family larger than this version counts (on a
 * fake sysfs tree: a Skylake client's four uncore_cbox PMUs and one
 * numbered past UNCORE_MAX_INSTANCES). */
#include "backend/perf/perf.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "fake_sysfs.h"
#include "harness.h"
#include "plan/machine.h"
#include "support/tmpdir.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	int rc;
	const char *why;
} rows[] = {
    {"uncore_cbox_0::event=0x22,umask=0x41", 0, ""},
    {"uncore_cbox_0::event=0x22:socket0", 0, ""}, /* glued, as perf writes it */
    {"uncore_cbox_0::event=0x22:cpu=0", 0, ""},
    {"uncore_cbox_0::", UNCORE_ESYNTAX, "empty event name after '::'"},
    {"uncore_cbox_0::event=0x22:socket=x", UNCORE_ESYNTAX, "socket needs a number: socket=N"},
    {"uncore_cbox_0::event=0x22:cpu", UNCORE_ESYNTAX, "cpu needs a number: cpu=N"},
    {"uncore_cbox_0::event=0x22:socket=100000", UNCORE_ERANGE, "socket=100000 is out of range"},
    {"uncore_cbox_0::event=0x22:socket=0:socket=1", UNCORE_ECOMBO,
     "socket=1 contradicts the socket given before (0)"},
    {"uncore_cbox_0::event=0x22:socket=0:cpu=0", UNCORE_ECOMBO,
     "give either :socket= or :cpu= (which selects its socket), not both"},
    {"uncore_cbox_1::event=0x22:box=2", UNCORE_ECOMBO,
     "box=2 contradicts the instance given before (1)"},
    {"uncore_cbox::event=0x22:box=9", UNCORE_ERANGE, "box=9 is out of range [0-3]"},
    /* The family's sum would miss uncore_cbox_300: refused, the members
     * are counted by their own names. */
    {"uncore_cbox::event=0x22", UNCORE_ECOMBO, "this kernel has 5 uncore_cbox PMUs"},
};

TEST(kernel_event_names_are_checked)
{
	const char *root = fake_sysfs_mkdtemp("kernel-names");
	REQUIRE(root);
	REQUIRE(fake_sysfs_skl(root) == 0);
	char rel[200];
	snprintf(rel, sizeof(rel), "bus/event_source/devices/uncore_cbox_%d/",
		 UNCORE_MAX_INSTANCES + 44);
	const char *files[][2] = {{"type", "60\n"}, {"cpumask", "0\n"}, {"format/event", "config:0-7\n"}};
	for (unsigned i = 0; i < 3; i++) {
		char path[300];
		snprintf(path, sizeof(path), "%s%s", rel, files[i][0]);
		REQUIRE(test_put(root, path, files[i][1]) == 0);
	}
	struct uncore_perf_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.pmu_root = fake_sysfs_pmu_root(root);
	cfg.cpu_root = fake_sysfs_cpu_root(root);
	struct uncore_backend *be = NULL;
	struct uncore_set *set = NULL;
	REQUIRE(uncore_perf_open(&cfg, &be) == 0);
	REQUIRE(uncore_set_create(be, &set) == 0);
	unsigned added = 0;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		unsigned idx = 0;
		harness_row = rows[i].name;
		uncore_error_clear();
		int rc = uncore_set_add(set, rows[i].name, &idx);
		CHECK_EQ_INT(rc, rows[i].rc);
		if (rows[i].rc == 0)
			added++;
		else
			CHECK_CONTAINS(uncore_error_detail(), rows[i].why);
	}
	harness_row = NULL;
	CHECK_EQ_INT(uncore_set_count(set), added); /* nothing of a refused name */
	uncore_set_destroy(set);
	be->ops->destroy(be);
	test_rmtree(root);
}

int main(void)
{
	RUN(kernel_event_names_are_checked);
	return harness_done();
}
