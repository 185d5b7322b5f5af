/* CPU topology from sysfs: fake trees built in a temporary directory (two
 * sockets with interleaved CPU numbering and offline CPUs, broken trees)
 * and the real tree of the machine running the test. */
#include "common/uncore_error.h"
#include "harness.h"
#include "support/tmpdir.h"
#include "topology/cpu_topology.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *base;
static char root[256];

/* Each test builds its tree in a fresh directory under `base`. */
static void fresh_root(const char *name)
{
	snprintf(root, sizeof(root), "%s/%s", base, name);
	mkdir(root, 0755);
}

static void put(const char *rel, const char *text)
{
	if (test_put(root, rel, text))
		HARNESS_FAIL_AT("cannot create %s/%s", root, rel);
}

static void cpu_pkg(unsigned cpu, unsigned pkg)
{
	char rel[64], v[16];
	snprintf(rel, sizeof(rel), "cpu%u/topology/physical_package_id", cpu);
	snprintf(v, sizeof(v), "%u\n", pkg);
	put(rel, v);
}

/* Eight CPUs, even ones in package 0 and odd ones in package 1 (the usual
 * numbering of two-socket Xeons), CPUs 1 and 6 offline. */
static void two_socket_tree(void)
{
	for (unsigned c = 0; c < 8; c++)
		cpu_pkg(c, c % 2);
	put("online", "0,2-5,7\n");
}

TEST(two_sockets_interleaved_with_offline_cpus)
{
	fresh_root("interleaved");
	two_socket_tree();
	struct uncore_cpu_topology t;
	CHECK_EQ_INT(uncore_topology_read(root, NULL, 0, &t), 0);
	CHECK_EQ_INT(t.nsockets, 2);
	CHECK_EQ_INT(t.online_cpus, 6);
	CHECK_EQ_INT(t.socket[0].package_id, 0);
	CHECK_EQ_INT(t.socket[0].cpu, 0);
	CHECK_EQ_INT(t.socket[0].online_cpus, 3); /* 0, 2, 4 */
	CHECK_EQ_INT(t.socket[1].package_id, 1);
	CHECK_EQ_INT(t.socket[1].cpu, 3);         /* 1 is offline */
	CHECK_EQ_INT(t.socket[1].online_cpus, 3); /* 3, 5, 7 */
	CHECK_EQ_INT(uncore_topology_cpu_of(&t, 1), 3);
	CHECK_EQ_INT(uncore_topology_cpu_of(&t, 2), -1);

	int map[4];
	CHECK_EQ_INT(uncore_topology_cpu_map(&t, map, 4), 2);
	CHECK_EQ_INT(map[0], 0);
	CHECK_EQ_INT(map[1], 3);
	CHECK_EQ_INT(map[2], -1);
}

/* Physical cores: distinct core_id values per package (hyperthread
 * siblings share one); without core_id files the count is 0 (unknown). */
TEST(physical_cores_per_package)
{
	fresh_root("cores");
	/* 8 CPUs, 2 packages, 2 cores each, 2 threads per core: CPU c is package
	 * c % 2, core (c / 2) % 2 -- and core ids need not be contiguous. */
	static const unsigned core_ids[] = {0, 0, 4, 4, 0, 0, 4, 4};
	for (unsigned c = 0; c < 8; c++) {
		char rel[64], v[16];
		cpu_pkg(c, c % 2);
		snprintf(rel, sizeof(rel), "cpu%u/topology/core_id", c);
		snprintf(v, sizeof(v), "%u\n", core_ids[c]);
		put(rel, v);
	}
	put("online", "0-7\n");
	struct uncore_cpu_topology t;
	CHECK_EQ_INT(uncore_topology_read(root, NULL, 0, &t), 0);
	CHECK_EQ_INT(t.socket[0].online_cpus, 4);
	CHECK_EQ_INT(t.socket[0].cores, 2);
	CHECK_EQ_INT(t.socket[1].cores, 2);
	fresh_root("nocores");
	two_socket_tree();
	CHECK_EQ_INT(uncore_topology_read(root, NULL, 0, &t), 0);
	CHECK_EQ_INT(t.socket[0].cores, 0);
}

TEST(override_list_is_checked)
{
	fresh_root("override");
	two_socket_tree();
	struct uncore_cpu_topology t;
	int cpus[4];
	size_t n;
	CHECK_EQ_INT(uncore_topology_parse_override("4, 7", cpus, 4, &n), 0);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(uncore_topology_read(root, cpus, n, &t), 0);
	CHECK_EQ_INT(t.socket[0].cpu, 4);
	CHECK_EQ_INT(t.socket[1].cpu, 7);

	int wrong_pkg[] = {3, 7};
	CHECK_EQ_INT(uncore_topology_read(root, wrong_pkg, 2, &t), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "CPU override 3 is in package 1");
	int offline[] = {0, 1};
	CHECK_EQ_INT(uncore_topology_read(root, offline, 2, &t), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "CPU override 1 is not online");
	int too_few[] = {0};
	CHECK_EQ_INT(uncore_topology_read(root, too_few, 1, &t), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "2 sockets");

	CHECK_EQ_INT(uncore_topology_parse_override("4;7", cpus, 4, &n), UNCORE_ESYNTAX);
	CHECK_EQ_INT(uncore_topology_parse_override("1,2,3", cpus, 2, &n), UNCORE_ENOSPACE);
}

TEST(sparse_package_ids)
{
	fresh_root("sparse");
	cpu_pkg(0, 0);
	cpu_pkg(1, 3);
	put("online", "0-1\n");
	struct uncore_cpu_topology t;
	CHECK_EQ_INT(uncore_topology_read(root, NULL, 0, &t), 0);
	CHECK_EQ_INT(t.nsockets, 2);
	int map[8];
	CHECK_EQ_INT(uncore_topology_cpu_map(&t, map, 8), 4);
	CHECK_EQ_INT(map[3], 1);
	CHECK_EQ_INT(map[1], -1);
}

TEST(broken_trees_fail_with_the_path)
{
	fresh_root("broken");
	struct uncore_cpu_topology t;
	put("online", "0-2\n");
	cpu_pkg(0, 0);
	cpu_pkg(1, 0);
	char rel[512];
	snprintf(rel, sizeof(rel), "%s/cpu2/topology/physical_package_id", root);
	unlink(rel);
	CHECK_EQ_INT(uncore_topology_read(root, NULL, 0, &t), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "cpu2/topology/physical_package_id");
	CHECK_CONTAINS(uncore_error_detail(), "CPU 2 is online");

	put("online", "0-x\n");
	CHECK_EQ_INT(uncore_topology_read(root, NULL, 0, &t), UNCORE_ESYNTAX);
	put("online", "\n");
	CHECK_EQ_INT(uncore_topology_read(root, NULL, 0, &t), UNCORE_ENODEV);
	CHECK_EQ_INT(uncore_topology_read("/nonexistent-uncore-root", NULL, 0, &t), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "/nonexistent-uncore-root/online");
}

static int collect(unsigned cpu, void *arg)
{
	char *s = arg;
	size_t l = strlen(s);
	snprintf(s + l, 64 - l, "%u.", cpu);
	return 0;
}

TEST(cpulist_syntax)
{
	char got[64] = "";
	CHECK_EQ_INT(uncore_cpulist_parse("0-2,5,7-8\n", collect, got), 0);
	CHECK_EQ_STR(got, "0.1.2.5.7.8.");
	CHECK_EQ_INT(uncore_cpulist_parse("3-1", collect, got), UNCORE_ESYNTAX);
	CHECK_EQ_INT(uncore_cpulist_parse("1,,2", collect, got), UNCORE_ESYNTAX);
	got[0] = '\0';
	CHECK_EQ_INT(uncore_cpulist_parse("", collect, got), 0);
	CHECK_EQ_STR(got, "");
}

TEST(this_machine)
{
	struct uncore_cpu_topology t;
	CHECK_EQ_INT(uncore_topology_read(NULL, NULL, 0, &t), 0);
	CHECK(t.nsockets >= 1);
	CHECK_EQ_INT(t.online_cpus, sysconf(_SC_NPROCESSORS_ONLN));
	unsigned sum = 0;
	for (unsigned i = 0; i < t.nsockets; i++) {
		sum += t.socket[i].online_cpus;
		CHECK(t.socket[i].cpu >= 0);
	}
	CHECK_EQ_INT(sum, t.online_cpus);
	printf("  this machine: %u socket(s), %u online CPUs, socket %u served by CPU %d\n",
	       t.nsockets, t.online_cpus, t.socket[0].package_id, t.socket[0].cpu);
}

int main(void)
{
	base = test_mkdtemp("topo");
	if (!base)
		return 1;
	RUN(two_sockets_interleaved_with_offline_cpus);
	RUN(physical_cores_per_package);
	RUN(override_list_is_checked);
	RUN(sparse_package_ids);
	RUN(broken_trees_fail_with_the_path);
	RUN(cpulist_syntax);
	RUN(this_machine);
	test_rmtree(base);
	return harness_done();
}
