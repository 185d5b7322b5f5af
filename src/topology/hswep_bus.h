/* Haswell-EP bus-to-socket discovery (HSX PMON 1.6.1): find the PCI bus that
 * holds each package's uncore PMON devices by locating every UBox socket-ID
 * device and matching its node ID against the node-ID mapping register.
 * Works only through the register-access interface, so the same code runs
 * on sysfs PCI config space and on the simulator. */
#ifndef UNCORE_TOPOLOGY_HSWEP_BUS_H
#define UNCORE_TOPOLOGY_HSWEP_BUS_H

#include <stddef.h>
#include <stdint.h>

#include "access/regio.h"
#include "platform/hswep/hswep_regs.h"

struct hswep_bus_map {
	unsigned packages;                   /* highest package found + 1 */
	uint32_t found;                      /* bit p: package p's bus is known */
	uint8_t bus[HSWEP_MAX_PACKAGES];     /* uncore bus of package p */
	uint8_t node_id[HSWEP_MAX_PACKAGES]; /* its node ID (CPUNODEID) */
	uint8_t dev[HSWEP_MAX_PACKAGES];     /* where its UBox device was found */
	uint8_t fn[HSWEP_MAX_PACKAGES];
	uint32_t root_found;                  /* bit p: package p's root bus is known */
	uint8_t root_bus[HSWEP_MAX_PACKAGES]; /* root bus of package p (hswep_find_root_buses) */
};

/* Scan the candidate buses (`buses`, or all 256 when NULL) for the UBox
 * socket-ID device (every device and function, as the manual's code does),
 * read its node ID (config offset 0x40, bits 2:0) and the node-ID map (0x54,
 * three bits per package) and record package -> bus.  Package p is the
 * field of GIDNIDMAP, bits 3p+2:3p, that holds the local node ID.  Absent
 * functions (all-ones IDs, or a read that fails with UNCORE_ENODEV or
 * UNCORE_EIO) are skipped; a permission error aborts.  0, or a negative
 * code: UNCORE_ENODEV when no UBox was found or a node ID is missing from
 * the map, UNCORE_ECONFLICT when two buses claim one package.  `packages`:
 * the number of packages the CPU topology has (0: unknown); the quick scan
 * of the usual UBox place is trusted only when it finds that many, and a
 * different number after the full scan is UNCORE_ENODEV. */
int hswep_find_buses(struct uncore_regio *io, const uint8_t *buses, size_t nbuses,
		     unsigned packages, struct hswep_bus_map *out);

/* The same for a cousin whose UBox function has device ID `ubox_did`
 * (Broadwell-EP: 0x6F1E) where Haswell-EP's has 0x2F1E. */
int hswep_find_buses_did(struct uncore_regio *io, const uint8_t *buses, size_t nbuses,
			 unsigned packages, uint16_t ubox_did, struct hswep_bus_map *out);

/* The package whose uncore devices sit on `bus`, or -1. */
int hswep_bus_package(const struct hswep_bus_map *map, unsigned bus);

/* The package a bus without a UBox belongs to: the one whose UBox bus is the
 * next one at or above `bus` (the rule of the Linux uncore driver, which is
 * how a root bus 00 belongs to the package of uncore bus 7f and 80 to ff on
 * two-socket boards); -1 when no UBox bus is at or above it. */
int hswep_bus_owner(const struct hswep_bus_map *map, unsigned bus);

/* Find each package's root bus: the bus, other than the uncore buses, where
 * PCI function dev.fn answers with Intel's vendor ID and device ID `did`
 * (the IRP, D5:F6 0x2F39), owned as hswep_bus_owner() says.  Scans the
 * candidate buses (`buses`, or all 256 when NULL) and fills root_found and
 * root_bus of `map`; a package whose function is not found keeps its bit
 * clear.  0, or a negative code for a permission error (absent or
 * unreadable functions are skipped). */
int hswep_find_root_buses(struct uncore_regio *io, const uint8_t *buses, size_t nbuses,
			  unsigned dev, unsigned fn, uint16_t did, struct hswep_bus_map *map);

#endif
