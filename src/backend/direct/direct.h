/* The direct backend: programs the uncore PMON boxes itself through the
 * register-access interface (real MSR/PCI devices, or the simulator, by the
 * very same code).  Haswell-EP today.  Every write goes through an
 * allowlist of the PMON registers of the boxes in the programmed plan
 * (access/allowlist.h), so nothing else can ever be written. */
#ifndef UNCORE_BACKEND_DIRECT_H
#define UNCORE_BACKEND_DIRECT_H

#include "access/regio.h"
#include "backend/backend.h"

struct uncore_direct_config {
	struct uncore_regio *io; /* device access; the backend owns it when own_io */
	int own_io;
	/* Freeze each socket's counters around a read (manual 2.1.3 a): all
	 * counters of a socket then come from one instant.  Costs two MSR
	 * writes per socket per read. */
	int read_freeze;
	/* Socket ownership (core/socket_hold.h): program() holds every socket
	 * of the plan before its first write and unprogram() lets go, so a
	 * second process is refused with the owner named.  lock_dir: the lock
	 * directory (NULL: the default; the simulator: one per machine, see
	 * uncore_sim_lock_dir); no_socket_lock: none (a private simulator). */
	const char *lock_dir;
	int no_socket_lock;
	/* CPUs: socket of each (-1 offline), from the topology or the model. */
	unsigned ncpus;
	const int16_t *cpu_socket;
	/* "SIMULATED uncore: ..." or "" (hardware), copied to machine.origin. */
	const char *origin;
};

/* Discover the machine behind cfg->io (sockets and their PCI buses from the
 * UBox node-ID registers, manual 1.6.1; which boxes are present) and make a
 * backend.  0, or an error with the detail set. */
int uncore_direct_open_hswep(const struct uncore_direct_config *cfg, struct uncore_backend **out);

/* The same with the machine already known (discovery done by the caller,
 * or a test's fake register file). */
int uncore_direct_create_hswep(const struct uncore_direct_config *cfg,
			       const struct uncore_machine *machine, struct uncore_backend **out);

/* The register layout of an event-registry box type, or NULL. */
struct hswep_box_desc;
const struct hswep_box_desc *uncore_direct_hswep_layout(const struct uncore_box_type *bt);

#endif
