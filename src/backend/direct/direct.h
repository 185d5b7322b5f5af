/* The direct backend: programs the uncore PMON boxes itself through the
 * register-access interface (real MSR/PCI/MMIO devices, or the simulator, by
 * the very same code).  Haswell-EP, Skylake client, Nehalem and Xeon
 * 7100/7400, all through the one engine (engine.h).  Every write goes
 * through an allowlist of the PMON registers of the boxes in the programmed
 * plan (access/allowlist.h), so nothing else can ever be written. */
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
	/* Socket ownership (backend/direct/socket_hold.h): program() holds every socket
	 * of the plan before its first write and unprogram() lets go, so a
	 * second process is refused with the owner named.  lock_dir: the lock
	 * directory (NULL: the default; the simulator: one per machine, see
	 * uncore_sim_lock_dir); no_socket_lock: none (a private simulator). */
	const char *lock_dir;
	int no_socket_lock;
	/* CPUs: socket of each (-1 offline), from the topology or the model. */
	unsigned ncpus;
	const int16_t *cpu_socket;
	/* Physical cores per package (0: not known).  Haswell-EP has a CBo per
	 * core: discovery counts no more CBos than this, as the Linux driver
	 * caps them at the package's core count. */
	unsigned cores_per_package;
	/* "SIMULATED uncore: ..." or "" (hardware), copied to machine.origin. */
	const char *origin;
	/* Why a part of the uncore cannot be reached, when the caller knows
	 * better than discovery (Skylake: the IMC window could not be mapped,
	 * and why); copied to machine.absent_note.  NULL: discovery's reason. */
	const char *absent_note;
};

/* Discover the machine behind cfg->io (sockets and their PCI buses from the
 * UBox node-ID registers, manual 1.6.1; which boxes are present) and make a
 * backend.  0, or an error with the detail set. */
int uncore_direct_open_hswep(const struct uncore_direct_config *cfg, struct uncore_backend **out);

/* The same for generation `p`, Haswell-EP or a cousin on its description
 * (its event tables, its PCI device IDs). */
struct uncore_platform;
int uncore_direct_open_hswep_of(const struct uncore_platform *p,
				const struct uncore_direct_config *cfg, struct uncore_backend **out);

/* The same with the machine already known (discovery done by the caller,
 * or a test's fake register file). */
int uncore_direct_create_hswep(const struct uncore_direct_config *cfg,
			       const struct uncore_machine *machine, struct uncore_backend **out);

/* Skylake client (6th generation Core, seed 001): discover the machine
 * behind cfg->io (one package; CBos from MSR_UNC_CBO_CONFIG, SKL 2.4.1; the
 * IMC counters at MCHBAR from PCI 0:0.0, SKL 3.3, present when their MMIO
 * registers can be read) and make a backend.  0, or an error with the detail
 * set (MSR_UNC_CBO_CONFIG unreadable: not a Skylake client uncore, or no MSR
 * access).  A missing IMC is not an error: machine.absent_note says why. */
int uncore_direct_open_skl(const struct uncore_direct_config *cfg, struct uncore_backend **out);

/* The same with the machine known; `mchbar` is the masked MCHBAR (0: no IMC
 * counters). */
int uncore_direct_create_skl(const struct uncore_direct_config *cfg,
			     const struct uncore_machine *machine, uint64_t mchbar,
			     struct uncore_backend **out);

/* A generation whose uncore is MSRs only (access UNCORE_ACCESS_MSR: Nehalem,
 * Xeon 7100/7400), one PMU per package, the engine's description of its
 * platform object.  Sockets: from cfg->cpu_socket when given, else every
 * socket whose global control MSR can be read (socket 0 must: else the
 * error says MSR access or the processor is wrong). */
int uncore_direct_open_msr(const struct uncore_platform *gen, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out);

/* The same for the generation called `platform` (platform/platform.h names). */
int uncore_direct_open_msr_platform(const char *platform, const struct uncore_direct_config *cfg,
				    struct uncore_backend **out);

#endif
