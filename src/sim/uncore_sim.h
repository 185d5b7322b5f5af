/* The register-level simulator of the uncores we support (Haswell-EP; the
 * flat PMUs of Skylake client, Nehalem and Xeon 7100/7400):
 * public C API.  A simulated machine lives in a shared-memory file so several
 * processes can use it at once; programs reach its registers through the
 * ordinary register-access interface (access/regio.h), exactly as they reach
 * real MSRs and PCI config space.  Scenario format: src/sim/SCENARIOS.md. */
#ifndef UNCORE_SIM_H
#define UNCORE_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "access/regio.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"

struct uncore_sim;

/* Environment variables that select the simulator (see uncore_sim_open_env). */
#define UNCORE_SIM_ENV_BACKEND  "PAPI_INTEL_UNCORE_BACKEND" /* "sim" selects it */
#define UNCORE_SIM_ENV_SIM      "PAPI_INTEL_UNCORE_SIM"     /* model name or instance path */
#define UNCORE_SIM_ENV_SCENARIO "PAPI_INTEL_UNCORE_SIM_SCENARIO"
#define UNCORE_SIM_ENV_LOG      "PAPI_INTEL_UNCORE_SIM_LOG"
#define UNCORE_SIM_ENV_USER     "PAPI_INTEL_UNCORE_SIM_USER" /* "root" or "msr-safe" */

/* Models. */

struct uncore_sim_model_info {
	const char *name;        /* "e5-2699v3-2s" */
	const char *sku;         /* "Xeon E5-2699 v3" */
	const char *description; /* one line: sockets, boxes, oddities */
	unsigned sockets;
	const char *platform; /* its generation (platform/platform.h name): "hswep", "skl", ... */
	int flat; /* a flat PMU (sim_flat.h), not the Haswell-EP box model */
	/* The built-in scenario a private machine of this model runs when none
	 * is named (NULL: UNCORE_SIM_DEFAULT_SCENARIO, the Haswell-EP demo). */
	const char *default_scenario;
};

/* The model called `name`, or NULL. */
const struct uncore_sim_model_info *uncore_sim_model_by_name(const char *name);

/* The uncore platform of the machine `machine` names (a model, or the
 * path of a shared instance; NULL or "": the default model), or NULL. */
const char *uncore_sim_platform_of(const char *machine);

size_t uncore_sim_model_count(void);
/* The i-th model, or NULL. */
const struct uncore_sim_model_info *uncore_sim_model(size_t i);

/* Lifetime. */

/* Create a machine of model `model` in a new shared-memory file `path` (it
 * must not exist), or, with path NULL, in anonymous shared memory that only
 * this process and its fork()ed children see.  Registers start at their
 * hardware reset values; time starts at 0. */
int uncore_sim_create(const char *model, const char *path, struct uncore_sim **out);

/* Attach to an existing machine created by another process. */
int uncore_sim_open(const char *path, struct uncore_sim **out);

/* A follower of the shared machine `leader` (which it owns from now on,
 * also when it fails; a leader from uncore_sim_regio_open is no longer its
 * regio's): a private machine with the leader's model, scenario, faults
 * and log, and registers of its own at their reset values, whose time is
 * always the leader's (sim_follow.c).  Its regio (uncore_sim_regio) owns
 * it.  The simulated perf_event kernel counts on one per process, as a
 * kernel gives each process counters of its own.  Its lock directory is
 * the leader's. */
int uncore_sim_follow(struct uncore_sim *leader, struct uncore_sim **out);

/* Whether `sim` is a shared instance (a file other processes may open). */
int uncore_sim_is_shared(const struct uncore_sim *sim);

/* Detach: the machine stays for others (and for a later uncore_sim_open). */
void uncore_sim_close(struct uncore_sim *sim);

/* Detach and remove the machine's file (processes still attached keep their
 * mapping).  0, or an error if the file could not be removed. */
int uncore_sim_destroy(struct uncore_sim *sim);

/* Where processes sharing this machine keep their socket-ownership locks
 * (backend/direct/socket_lock.h): "<absolute instance path>.locks", so that two
 * simulated machines never block each other while processes sharing one
 * exclude each other per socket as on hardware.  "" for a private machine
 * (no other process can program it).  uncore_sim_destroy removes it. */
int uncore_sim_lock_dir(struct uncore_sim *sim, char *buf, size_t len);

/* Scenario and time. */

/* Replace the scenario with the one in file `spec` (relative includes are
 * resolved against its directory) or, when `spec` has no '/' and is no
 * readable file, with the built-in scenario of that name ("stream" or
 * "stream.scn": src/sim/scenarios/, compiled in).  Its times are relative to
 * now. */
int uncore_sim_load_scenario(struct uncore_sim *sim, const char *spec);

/* The built-in scenarios' names, ", "-separated ("boxes, demo-stream, ..."). */
int uncore_sim_scenario_names(char *buf, size_t len);

/* 1 when `spec` names a scenario uncore_sim_load_scenario would find (a
 * readable file or a built-in name), else 0. */
int uncore_sim_scenario_exists(const char *spec);

/* The scenario a PAPI program gets on the simulator when
 * PAPI_INTEL_UNCORE_SIM_SCENARIO is unset (uncore_sim_regio_open). */
#define UNCORE_SIM_DEFAULT_SCENARIO "demo-stream"
/* The machine of uncore_sim_regio_open and uncore_sim_platform_of when
 * none is named: the two-socket Haswell-EP model. */
#define UNCORE_SIM_DEFAULT_MACHINE "e5-2699v3-2s"

/* The same from a string; `origin` names it in error messages. */
int uncore_sim_load_scenario_text(struct uncore_sim *sim, const char *text, const char *origin);

/* Advance virtual time by `ns` nanoseconds. */
int uncore_sim_advance(struct uncore_sim *sim, uint64_t ns);

/* Current simulated time in nanoseconds since creation. */
int uncore_sim_now(struct uncore_sim *sim, uint64_t *ns);

/* The same as an event set's clock reads it (eventset/clock.h, now_ns with
 * the simulator as its ctx): the simulator's time is the machine's, as its
 * registers are. */
int uncore_sim_clock(void *sim, uint64_t *ns);

enum uncore_sim_clock_mode {
	UNCORE_SIM_CLOCK_VIRTUAL = 0, /* time moves only when advanced (default) */
	UNCORE_SIM_CLOCK_WALL = 1,    /* time follows the wall clock from now on */
};
int uncore_sim_set_clock(struct uncore_sim *sim, enum uncore_sim_clock_mode mode);

/* The same; in wall mode simulated time runs `rate` times as fast as the
 * wall clock (1 to UNCORE_SIM_MAX_WALL_RATE), so that hours of counting,
 * with a background reader keeping up, take seconds. */
#define UNCORE_SIM_MAX_WALL_RATE 1000000u
int uncore_sim_set_clock_rate(struct uncore_sim *sim, enum uncore_sim_clock_mode mode,
			      unsigned rate);

/* Virtual time added before every register access (0 by default): makes the
 * two 32-bit halves of a PCI counter read from different instants. */
int uncore_sim_set_access_ns(struct uncore_sim *sim, uint64_t ns);

/* Audit log and fault injection. */

/* Log every register access of every process using this machine, one JSON
 * object per line, appended to `path`; NULL stops logging. */
int uncore_sim_set_log(struct uncore_sim *sim, const char *path);

/* The current log file ("" when logging is off). */
int uncore_sim_log_path(struct uncore_sim *sim, char *buf, size_t len);

enum uncore_sim_op { UNCORE_SIM_OP_ANY = 0, UNCORE_SIM_OP_READ = 1, UNCORE_SIM_OP_WRITE = 2 };

/* Which accesses fail, when, and how.  -1 in a selector field means "any". */
struct uncore_sim_fault {
	int space;      /* UNCORE_SPACE_MSR, UNCORE_SPACE_PCI or -1 */
	int op;         /* enum uncore_sim_op */
	int socket;     /* MSR socket, or -1 */
	int64_t bdf;    /* PCI device UNCORE_BDF(bus, dev, fn) (a whole device), or -1 */
	int64_t addr;   /* MSR address or PCI config offset, or -1 */
	unsigned nth;   /* the first failing matching access: 1 = the next one */
	unsigned count; /* how many fail: 1 = transient, 0 = every one from then on */
	int error;      /* EIO, EACCES or ENODEV (errno values) */
};

/* Add a fault rule (shared by all processes): 0 or UNCORE_ENOSPACE/EINVAL. */
int uncore_sim_inject_fault(struct uncore_sim *sim, const struct uncore_sim_fault *fault);
int uncore_sim_clear_faults(struct uncore_sim *sim);

/* Register access. */

/* The register-access interface of this machine (owned by `sim`; its
 * destroy operation does nothing).  MSRs: width 8, addressed by socket and
 * MSR number.  PCI: width 4, dword-aligned offsets; the bus number names the
 * socket (its uncore bus, or its root bus for the IRP).  Errors: UNCORE_EFAULT for a reserved bit or an unknown MSR (the
 * #GP of hardware), UNCORE_ENODEV for a register of an absent device,
 * UNCORE_EINVAL for a bad width or alignment, injected faults as injected. */
struct uncore_regio *uncore_sim_regio(struct uncore_sim *sim);

/* Who this process is on the simulated machine: root (the default) reaches
 * every register; an unprivileged msr-safe user reaches the MSRs (through
 * msr-safe with our allowlist loaded) but, like any non-root reader of
 * /sys/bus/pci/devices/.../config, only the first 64 bytes of PCI
 * configuration space: a read past them fails with UNCORE_EPERM, as the
 * sysfs backend reports the kernel's short read, and every PCI write with
 * UNCORE_EPERM.  Per attachment (per process), not shared. */
enum uncore_sim_user {
	UNCORE_SIM_USER_ROOT = 0,
	UNCORE_SIM_USER_MSR_SAFE = 1,
};
int uncore_sim_set_user(struct uncore_sim *sim, enum uncore_sim_user user);

/* The machine behind a regio made by this module (NULL for any other). */
struct uncore_sim *uncore_sim_from_regio(struct uncore_regio *io);

/* Inspection. */

struct uncore_sim_topology {
	char model[32];
	char scenario[128];
	unsigned sockets;
	unsigned cores; /* per socket: CPUs c*cores ... are socket c's */
	uint8_t bus[HSWEP_MAX_PACKAGES];      /* uncore bus of each socket */
	uint8_t root_bus[HSWEP_MAX_PACKAGES]; /* its root bus (the IRP's) */
	uint8_t node_id[HSWEP_MAX_PACKAGES];
	uint32_t present[HSWEP_BOX_KINDS]; /* instance masks (PMON function/MSRs present) */
	uint32_t populated_imc;            /* channels with DIMMs */
	uint64_t clock_hz[HSWEP_CLOCKS];
	int clock_mode; /* enum uncore_sim_clock_mode */
	uint64_t now_ns;
};

int uncore_sim_topology(struct uncore_sim *sim, struct uncore_sim_topology *out);

/* Read a register without side effects, time, logging or faults.  PCI
 * counters may be read whole with width 8. */
int uncore_sim_peek(struct uncore_sim *sim, const struct uncore_reg *r, uint64_t *value);

/* Whether socket `socket`'s counters are globally frozen (frz_all or an
 * overflow-triggered freeze). */
int uncore_sim_global_frozen(struct uncore_sim *sim, unsigned socket, int *frozen);

/* "SIMULATED uncore: model e5-2699v3-2s (Xeon E5-2699 v3, 2 sockets),
 * scenario stream": what output produced on the simulator must say. */
int uncore_sim_describe(struct uncore_sim *sim, char *buf, size_t len);

/* How the component picks its machine: each field is the value of the
 * environment variable named (read once, bind/settings.h); NULL or "" when
 * unset. */
struct uncore_sim_options {
	const char *machine;  /* PAPI_INTEL_UNCORE_SIM: model name or instance path */
	const char *scenario; /* PAPI_INTEL_UNCORE_SIM_SCENARIO */
	const char *user;     /* PAPI_INTEL_UNCORE_SIM_USER: "root" or "msr-safe" */
	const char *log;      /* PAPI_INTEL_UNCORE_SIM_LOG */
};

/* Open the machine o->machine names: an existing instance if it is a path
 * to one, else a new private machine of that model (default
 * "e5-2699v3-2s"); then load o->scenario if set and log to o->log if set;
 * user "msr-safe" makes this process an unprivileged msr-safe user
 * (uncore_sim_set_user).  The returned regio owns the machine:
 * uncore_regio_destroy() closes it (and frees the regio). */
int uncore_sim_regio_open(const struct uncore_sim_options *o, struct uncore_regio **out);

#endif
