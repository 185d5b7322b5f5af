/* Bus-to-socket discovery for Haswell-EP (HSX PMON 1.6.1).  The manual's
 * sample code compares each GIDNIDMAP triplet *unshifted* with the node ID
 * ((mapping & 0x38) == gid, ...), which only works by accident; here each
 * triplet is shifted down before the comparison, which is what the
 * accompanying comment ("every three bits ... maps to a particular node")
 * describes. */
#include "topology/hswep_bus.h"

#include <inttypes.h>
#include <string.h>

#include "common/uncore_error.h"

static int read_cfg(struct uncore_regio *io, unsigned bus, unsigned dev, unsigned fn, unsigned off,
		    uint32_t *out)
{
	struct uncore_reg r = {
	    .space = UNCORE_SPACE_PCI, .width = 4, .bdf = UNCORE_BDF(bus, dev, fn), .addr = off};
	uint64_t v;
	int rc = uncore_regio_read(io, &r, &v);
	if (rc == 0)
		*out = (uint32_t)v;
	return rc;
}

/* The package of node `nid` in the node-ID map, or -1. */
static int package_of(uint32_t map, unsigned nid)
{
	for (unsigned p = 0; p < HSWEP_MAX_PACKAGES; p++)
		if (((map & HSWEP_UBOX_GIDNIDMAP_NODE(p)) >> HSWEP_UBOX_GIDNIDMAP_SHIFT(p)) == nid)
			return (int)p;
	return -1;
}

/* Look for the UBox on `bus`: at its usual place only (quick), or at every
 * device and function as the manual's code does. */
static int probe_bus(struct uncore_regio *io, unsigned bus, int everywhere, uint16_t did,
		     struct hswep_bus_map *out)
{
	unsigned dev0 = everywhere ? 0 : HSWEP_UBOX_SOCKETID_DEV;
	unsigned dev1 = everywhere ? 32 : HSWEP_UBOX_SOCKETID_DEV + 1;
	for (unsigned dev = dev0; dev < dev1; dev++) {
		unsigned fn0 = everywhere ? 0 : HSWEP_UBOX_SOCKETID_FN;
		unsigned fn1 = everywhere ? 8 : HSWEP_UBOX_SOCKETID_FN + 1;
		for (unsigned fn = fn0; fn < fn1; fn++) {
			uint32_t id;
			int rc = read_cfg(io, bus, dev, fn, 0, &id);
			if (rc == UNCORE_ENODEV || rc == UNCORE_EIO)
				continue; /* nothing there (or unreadable): skip */
			if (rc)
				return rc;
			if ((id & 0xffffu) != HSWEP_PCI_VENDOR_INTEL ||
			    (id >> 16) != did)
				continue;
			uint32_t lnid, map;
			if ((rc = read_cfg(io, bus, dev, fn, HSWEP_UBOX_CPUNODEID, &lnid)) != 0 ||
			    (rc = read_cfg(io, bus, dev, fn, HSWEP_UBOX_GIDNIDMAP, &map)) != 0)
				return rc;
			unsigned nid = lnid & HSWEP_UBOX_CPUNODEID_LNID;
			int p = package_of(map, nid);
			if (p < 0)
				return uncore_fail(
				    UNCORE_ENODEV,
				    "UBox at %02x:%02x.%x has node ID %u, which GIDNIDMAP "
				    "0x%08" PRIx32 " does not list",
				    bus, dev, fn, nid, map);
			if ((out->found >> p & 1) && out->bus[p] != bus)
				return uncore_fail(
				    UNCORE_ECONFLICT,
				    "buses %02x and %02x both claim package %d (node ID %u)",
				    out->bus[p], bus, p, nid);
			out->found |= 1u << p;
			out->bus[p] = (uint8_t)bus;
			out->node_id[p] = (uint8_t)nid;
			out->dev[p] = (uint8_t)dev;
			out->fn[p] = (uint8_t)fn;
			if ((unsigned)p + 1 > out->packages)
				out->packages = (unsigned)p + 1;
			return 0; /* one UBox per package bus */
		}
	}
	return 0;
}

int hswep_find_buses(struct uncore_regio *io, const uint8_t *buses, size_t nbuses,
		     unsigned packages, struct hswep_bus_map *out)
{
	return hswep_find_buses_did(io, buses, nbuses, packages, HSWEP_UBOX_SOCKETID_DID, out);
}

int hswep_find_buses_did(struct uncore_regio *io, const uint8_t *buses, size_t nbuses,
			 unsigned packages, uint16_t did, struct hswep_bus_map *out)
{
	struct hswep_bus_map map;
	size_t n = buses ? nbuses : 256;
	/* First the UBox's usual place on every bus (256 reads rather than
	 * 65,536: start-up cost of every PAPI process); the manual's full scan
	 * when that does not find a complete set of packages.  "Complete" is
	 * the CPU topology's package count when the caller knows it: without
	 * it, a machine whose last package has its UBox elsewhere would pass
	 * the quick scan as a smaller machine. */
	for (int everywhere = 0; everywhere < 2; everywhere++) {
		memset(&map, 0, sizeof(map));
		for (size_t i = 0; i < n; i++) {
			int rc = probe_bus(io, buses ? buses[i] : (unsigned)i, everywhere, did, &map);
			if (rc)
				return rc;
		}
		if (map.found && map.found == (1u << map.packages) - 1 &&
		    (!packages || map.packages == packages))
			break;
	}
	if (!map.found)
		return uncore_fail(
		    UNCORE_ENODEV,
		    "no UBox device (8086:%04x) on %zu scanned PCI buses; is this a Xeon "
		    "E5/E7 v3 (Haswell-EP) or v4 (Broadwell-EP) and is PCI config space readable?",
		    did, n);
	if (map.found != (1u << map.packages) - 1)
		return uncore_fail(UNCORE_ENODEV,
				   "found the uncore buses of packages 0x%" PRIx32
				   " but not of all "
				   "packages below %u",
				   map.found, map.packages);
	if (packages && map.packages != packages)
		return uncore_fail(UNCORE_ENODEV,
				   "found the uncore buses of %u packages, but the CPU topology "
				   "has %u: a package's UBox (8086:%04x) is not in PCI "
				   "configuration space",
				   map.packages, packages, did);
	*out = map;
	return 0;
}

int hswep_bus_package(const struct hswep_bus_map *map, unsigned bus)
{
	for (unsigned p = 0; p < map->packages; p++)
		if ((map->found >> p & 1) && map->bus[p] == bus)
			return (int)p;
	return -1;
}

int hswep_bus_owner(const struct hswep_bus_map *map, unsigned bus)
{
	int best = -1;
	for (unsigned p = 0; p < map->packages; p++)
		if ((map->found >> p & 1) && map->bus[p] >= bus &&
		    (best < 0 || map->bus[p] < map->bus[best]))
			best = (int)p;
	return best;
}

int hswep_find_root_buses(struct uncore_regio *io, const uint8_t *buses, size_t nbuses,
			  unsigned dev, unsigned fn, uint16_t did, struct hswep_bus_map *map)
{
	size_t n = buses ? nbuses : 256;
	map->root_found = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned bus = buses ? buses[i] : (unsigned)i;
		if (hswep_bus_package(map, bus) >= 0)
			continue; /* an uncore bus: no IIO functions there */
		uint32_t id;
		int rc = read_cfg(io, bus, dev, fn, 0, &id);
		if (rc == UNCORE_ENODEV || rc == UNCORE_EIO || rc == UNCORE_EFAULT) {
			uncore_error_clear();
			continue;
		}
		if (rc)
			return rc;
		if ((id & 0xffffu) != HSWEP_PCI_VENDOR_INTEL || (id >> 16) != did)
			continue;
		int p = hswep_bus_owner(map, bus);
		/* The lowest bus wins: one IIO root per package on Haswell-EP. */
		if (p < 0 || (map->root_found >> p & 1))
			continue;
		map->root_found |= 1u << p;
		map->root_bus[p] = (uint8_t)bus;
	}
	return 0;
}
