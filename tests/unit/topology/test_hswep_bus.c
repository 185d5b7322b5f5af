/* Bus-to-socket discovery (HSX PMON 1.6.1) against every simulator model,
 * including the ones with unusual bus numbers and node-ID maps; the
 * manual's literal, unshifted comparison must get at least one of them
 * wrong, which proves the models can catch that bug. */
#include "../../harness.h"
#include "common/uncore_error.h"
#include "sim/uncore_sim.h"
#include "topology/hswep_bus.h"
#include "fake_regio.h"

#include <errno.h>

static struct uncore_sim *make(const char *model)
{
	struct uncore_sim *sim = NULL;
	if (uncore_sim_create(model, NULL, &sim) != 0)
		HARNESS_FAIL_AT("create %s: %s", model, uncore_error_detail());
	return sim;
}

TEST(every_model_maps_every_socket)
{
	for (size_t i = 0; i < uncore_sim_model_count(); i++) {
		const struct uncore_sim_model_info *info = uncore_sim_model(i);
		if (strcmp(info->platform, "hswep"))
			continue; /* no Haswell-EP PCI buses */
		harness_row = info->name;
		struct uncore_sim *sim = make(info->name);
		if (!sim)
			continue;
		struct uncore_sim_topology topo;
		CHECK_EQ_INT(uncore_sim_topology(sim, &topo), 0);
		struct hswep_bus_map map;
		int rc = hswep_find_buses(uncore_sim_regio(sim), NULL, 0, info->sockets, &map);
		CHECK_EQ_INT(rc, 0);
		CHECK_EQ_INT(map.packages, info->sockets);
		CHECK_EQ_U64(map.found, (1u << info->sockets) - 1);
		for (unsigned s = 0; s < info->sockets; s++) {
			CHECK_EQ_INT(map.bus[s], topo.bus[s]);
			CHECK_EQ_INT(map.node_id[s], topo.node_id[s]);
			CHECK_EQ_INT(map.dev[s], HSWEP_UBOX_SOCKETID_DEV);
			CHECK_EQ_INT(map.fn[s], HSWEP_UBOX_SOCKETID_FN);
			CHECK_EQ_INT(hswep_bus_package(&map, topo.bus[s]), (int)s);
		}
		CHECK_EQ_INT(hswep_bus_package(&map, 0x00), -1);
		uncore_sim_close(sim);
	}
}

/* Root buses (the IRP's, D5:F6 0x2F39) on every model: found by the Linux
 * driver's rule, a bus without a UBox belongs to the next UBox bus above. */
TEST(every_model_finds_every_root_bus)
{
	for (size_t i = 0; i < uncore_sim_model_count(); i++) {
		const struct uncore_sim_model_info *info = uncore_sim_model(i);
		if (strcmp(info->platform, "hswep"))
			continue; /* no Haswell-EP PCI buses */
		harness_row = info->name;
		struct uncore_sim *sim = make(info->name);
		if (!sim)
			continue;
		struct uncore_sim_topology topo;
		CHECK_EQ_INT(uncore_sim_topology(sim, &topo), 0);
		struct hswep_bus_map map;
		CHECK_EQ_INT(hswep_find_buses(uncore_sim_regio(sim), NULL, 0, 0, &map), 0);
		CHECK_EQ_INT(hswep_find_root_buses(uncore_sim_regio(sim), NULL, 0, 5, 6, 0x2f39, &map),
			     0);
		CHECK_EQ_U64(map.root_found, (1u << info->sockets) - 1);
		for (unsigned s = 0; s < info->sockets; s++) {
			CHECK_EQ_INT(map.root_bus[s], topo.root_bus[s]);
			CHECK_EQ_INT(hswep_bus_owner(&map, topo.root_bus[s]), (int)s);
			CHECK_EQ_INT(hswep_bus_owner(&map, topo.bus[s]), (int)s);
		}
		uncore_sim_close(sim);
	}
}

/* The real two-socket layout: IRP at 00:05.6 and 80:05.6. */
TEST(root_buses_of_a_real_two_socket_board)
{
	struct uncore_sim *sim = make("e5-2699v3-2s");
	struct hswep_bus_map map;
	CHECK_EQ_INT(hswep_find_buses(uncore_sim_regio(sim), NULL, 0, 0, &map), 0);
	CHECK_EQ_INT(hswep_find_root_buses(uncore_sim_regio(sim), NULL, 0, 5, 6, 0x2f39, &map), 0);
	CHECK_EQ_INT(map.root_bus[0], 0x00);
	CHECK_EQ_INT(map.root_bus[1], 0x80);
	/* Every bus up to 7f is socket 0's, 80 to ff socket 1's. */
	CHECK_EQ_INT(hswep_bus_owner(&map, 0x00), 0);
	CHECK_EQ_INT(hswep_bus_owner(&map, 0x7f), 0);
	CHECK_EQ_INT(hswep_bus_owner(&map, 0x80), 1);
	CHECK_EQ_INT(hswep_bus_owner(&map, 0xff), 1);
	uncore_sim_close(sim);
	/* Sockets out of bus order: root bus 80 belongs to socket 0 (bus ff). */
	sim = make("e5-2620v3-2s");
	CHECK_EQ_INT(hswep_find_buses(uncore_sim_regio(sim), NULL, 0, 0, &map), 0);
	CHECK_EQ_INT(hswep_find_root_buses(uncore_sim_regio(sim), NULL, 0, 5, 6, 0x2f39, &map), 0);
	CHECK_EQ_INT(map.root_bus[0], 0x80);
	CHECK_EQ_INT(map.root_bus[1], 0x00);
	uncore_sim_close(sim);
}

TEST(unusual_layouts_are_what_we_test)
{
	/* Guard against a model edit that makes the discovery test trivial. */
	struct uncore_sim *sim = make("e7-8890v3-4s");
	struct hswep_bus_map map;
	CHECK_EQ_INT(hswep_find_buses(uncore_sim_regio(sim), NULL, 0, 0, &map), 0);
	CHECK_EQ_INT(map.bus[0], 0x7f);
	CHECK_EQ_INT(map.bus[1], 0xff);
	CHECK_EQ_INT(map.bus[2], 0x3f);
	CHECK_EQ_INT(map.bus[3], 0xbf);
	CHECK_EQ_INT(map.node_id[2], 7);
	uncore_sim_close(sim);
	sim = make("e5-2620v3-2s");
	CHECK_EQ_INT(hswep_find_buses(uncore_sim_regio(sim), NULL, 0, 0, &map), 0);
	CHECK_EQ_INT(map.bus[0], 0xff);
	CHECK_EQ_INT(map.bus[1], 0x7f);
	CHECK_EQ_INT(map.node_id[1], 2);
	uncore_sim_close(sim);
}

/* The manual's sample code, literally: it compares unshifted triplets. */
static void manual_literal(struct uncore_regio *io, int *bus_of_package)
{
	for (int p = 0; p < 8; p++)
		bus_of_package[p] = -1;
	for (unsigned bus = 0; bus < 256; bus++) {
		struct uncore_reg r = {
		    .space = UNCORE_SPACE_PCI,
		    .width = 4,
		    .bdf = UNCORE_BDF(bus, HSWEP_UBOX_SOCKETID_DEV, HSWEP_UBOX_SOCKETID_FN)};
		uint64_t id, lnid, map;
		if (uncore_regio_read(io, &r, &id) || (id >> 16) != HSWEP_UBOX_SOCKETID_DID)
			continue;
		r.addr = HSWEP_UBOX_CPUNODEID;
		uncore_regio_read(io, &r, &lnid);
		r.addr = HSWEP_UBOX_GIDNIDMAP;
		uncore_regio_read(io, &r, &map);
		uint64_t gid = lnid & 7;
		static const uint64_t masks[8] = {0x7,    0x38,    0x1c0,    0xe00,
						  0x7000, 0x38000, 0x1c0000, 0x700000};
		for (int p = 0; p < 8; p++)
			if ((map & masks[p]) == gid) {
				gid = (uint64_t)p;
				break;
			}
		bus_of_package[gid & 7] = (int)bus;
	}
}

TEST(manual_literal_code_fails_on_unusual_maps)
{
	int wrong_models = 0;
	for (size_t i = 0; i < uncore_sim_model_count(); i++) {
		const struct uncore_sim_model_info *info = uncore_sim_model(i);
		if (strcmp(info->platform, "hswep"))
			continue; /* no Haswell-EP PCI buses */
		struct uncore_sim *sim = make(info->name);
		struct uncore_sim_topology topo;
		uncore_sim_topology(sim, &topo);
		int bus_of[8];
		manual_literal(uncore_sim_regio(sim), bus_of);
		int wrong = 0;
		for (unsigned s = 0; s < info->sockets; s++)
			wrong |= bus_of[s] != topo.bus[s];
		wrong_models += wrong;
		if (!strcmp(info->name, "e5-2699v3-2s"))
			CHECK_EQ_INT(wrong, 0); /* identity node map: works by accident */
		uncore_sim_close(sim);
	}
	CHECK_EQ_INT(wrong_models, 2);
}

TEST(candidate_list_and_errors)
{
	struct uncore_sim *sim = make("e5-2699v3-2s");
	struct uncore_regio *io = uncore_sim_regio(sim);
	struct hswep_bus_map map;
	const uint8_t buses[] = {0x00, 0x7f, 0x80, 0xff};
	CHECK_EQ_INT(hswep_find_buses(io, buses, 4, 0, &map), 0);
	CHECK_EQ_INT(map.bus[1], 0xff);
	/* Only socket 1's bus: package 0 missing. */
	const uint8_t only1[] = {0xff};
	CHECK_EQ_INT(hswep_find_buses(io, only1, 1, 0, &map), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "not of all packages");
	const uint8_t none[] = {0x10};
	CHECK_EQ_INT(hswep_find_buses(io, none, 1, 0, &map), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "no UBox device (8086:2f1e)");
	/* Permission denied on config space aborts the scan with that error. */
	struct uncore_sim_fault f = {.space = UNCORE_SPACE_PCI,
				     .op = UNCORE_SIM_OP_READ,
				     .socket = -1,
				     .bdf = -1,
				     .addr = -1,
				     .nth = 1,
				     .count = 0,
				     .error = EACCES};
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
	CHECK_EQ_INT(hswep_find_buses(io, buses, 4, 0, &map), UNCORE_EPERM);
	uncore_sim_clear_faults(sim);
	/* An unreadable function is skipped like an absent one. */
	f.error = EIO;
	f.bdf = UNCORE_BDF(0x7f, 0, 0);
	CHECK_EQ_INT(uncore_sim_inject_fault(sim, &f), 0);
	CHECK_EQ_INT(hswep_find_buses(io, buses, 4, 0, &map), 0);
	CHECK_EQ_INT(map.bus[0], 0x7f);
	uncore_sim_close(sim);
}

static void put_ubox(struct fake_regio *f, unsigned bus, unsigned dev, unsigned fn, uint32_t nid,
		     uint32_t map)
{
	struct uncore_reg r = {
	    .space = UNCORE_SPACE_PCI, .width = 4, .bdf = UNCORE_BDF(bus, dev, fn)};
	r.addr = 0;
	fake_regio_set(f, &r, HSWEP_PCI_VENDOR_INTEL | HSWEP_UBOX_SOCKETID_DID << 16);
	r.addr = HSWEP_UBOX_CPUNODEID;
	fake_regio_set(f, &r, nid);
	r.addr = HSWEP_UBOX_GIDNIDMAP;
	fake_regio_set(f, &r, map);
}

/* The quick pass looks only at D16:F5; a UBox elsewhere is still found by
 * the manual's full scan, and the quick pass costs 256 reads. */
TEST(quick_pass_and_full_scan)
{
	struct uncore_regio *io = fake_regio_create(0);
	struct fake_regio *f = fake_regio_of(io);
	struct hswep_bus_map map;
	fake_regio_set_default(f, 0xffffffffu); /* absent functions read all ones */
	/* node IDs 3 and 6; GIDNIDMAP: package 0 = node 3, package 1 = node 6 */
	put_ubox(f, 0x3f, HSWEP_UBOX_SOCKETID_DEV, HSWEP_UBOX_SOCKETID_FN, 3, 3 | 6 << 3);
	put_ubox(f, 0xbf, HSWEP_UBOX_SOCKETID_DEV, HSWEP_UBOX_SOCKETID_FN, 6, 3 | 6 << 3);
	CHECK_EQ_INT(hswep_find_buses(io, NULL, 0, 0, &map), 0);
	CHECK_EQ_INT(map.packages, 2);
	CHECK_EQ_INT(map.bus[0], 0x3f);
	CHECK_EQ_INT(map.bus[1], 0xbf);
	CHECK(fake_regio_accesses(f) <= 256 + 4);
	uncore_regio_destroy(io);

	io = fake_regio_create(0);
	f = fake_regio_of(io);
	fake_regio_set_default(f, 0xffffffffu);
	put_ubox(f, 0x12, 8, 2, 0, 0 | 1 << 3);
	put_ubox(f, 0x92, 8, 2, 1, 0 | 1 << 3);
	CHECK_EQ_INT(hswep_find_buses(io, NULL, 0, 0, &map), 0);
	CHECK_EQ_INT(map.packages, 2);
	CHECK_EQ_INT(map.bus[0], 0x12);
	CHECK_EQ_INT(map.bus[1], 0x92);
	CHECK_EQ_INT(map.dev[1], 8);
	CHECK(fake_regio_accesses(f) > 60000); /* the full scan ran */
	uncore_regio_destroy(io);
}

/* Package 0's UBox at its usual place, package 1's elsewhere: the quick
 * pass finds one package, which is complete only if the machine had one.
 * With the CPU topology's two packages the full scan runs and finds both;
 * a UBox missing altogether is an error naming both counts. */
TEST(displaced_ubox_of_a_later_package_is_found)
{
	struct uncore_regio *io = fake_regio_create(0);
	struct fake_regio *f = fake_regio_of(io);
	struct hswep_bus_map map;
	fake_regio_set_default(f, 0xffffffffu);
	put_ubox(f, 0x7f, HSWEP_UBOX_SOCKETID_DEV, HSWEP_UBOX_SOCKETID_FN, 0, 0 | 1 << 3);
	put_ubox(f, 0xff, 8, 2, 1, 0 | 1 << 3);
	CHECK_EQ_INT(hswep_find_buses(io, NULL, 0, 2, &map), 0);
	CHECK_EQ_INT(map.packages, 2);
	CHECK_EQ_U64(map.found, 3);
	CHECK_EQ_INT(map.bus[0], 0x7f);
	CHECK_EQ_INT(map.bus[1], 0xff);
	CHECK_EQ_INT(map.dev[1], 8);
	CHECK_EQ_INT(map.fn[1], 2);
	CHECK(fake_regio_accesses(f) > 60000); /* the full scan ran */
	uncore_regio_destroy(io);

	/* The same machine with package 1's UBox hidden: refused. */
	io = fake_regio_create(0);
	f = fake_regio_of(io);
	fake_regio_set_default(f, 0xffffffffu);
	put_ubox(f, 0x7f, HSWEP_UBOX_SOCKETID_DEV, HSWEP_UBOX_SOCKETID_FN, 0, 0 | 1 << 3);
	CHECK_EQ_INT(hswep_find_buses(io, NULL, 0, 2, &map), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "buses of 1 packages, but the CPU topology has 2");
	uncore_regio_destroy(io);
}

/* Through the direct backend on the simulator: the topology's socket count
 * reaches the bus scan (a four-socket model keeps its four sockets). */
TEST(quick_pass_trusted_when_the_topology_agrees)
{
	struct uncore_sim *sim = make("e7-8890v3-4s");
	struct hswep_bus_map map;
	CHECK_EQ_INT(hswep_find_buses(uncore_sim_regio(sim), NULL, 0, 4, &map), 0);
	CHECK_EQ_INT(map.packages, 4);
	/* A topology with more packages than the machine shows: refused. */
	CHECK_EQ_INT(hswep_find_buses(uncore_sim_regio(sim), NULL, 0, 5, &map), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "the CPU topology has 5");
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(every_model_maps_every_socket);
	RUN(every_model_finds_every_root_bus);
	RUN(root_buses_of_a_real_two_socket_board);
	RUN(unusual_layouts_are_what_we_test);
	RUN(manual_literal_code_fails_on_unusual_maps);
	RUN(candidate_list_and_errors);
	RUN(quick_pass_and_full_scan);
	RUN(displaced_ubox_of_a_later_package_is_found);
	RUN(quick_pass_trusted_when_the_topology_agrees);
	return harness_done();
}
