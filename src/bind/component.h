/* Everything the PAPI front-end needs, in PAPI-free terms: the chosen
 * backend bound to this machine, the native event code space, and where the
 * counts come from (hardware, or the simulator: then said in every
 * description).  One per process. */
#ifndef UNCORE_BIND_COMPONENT_H
#define UNCORE_BIND_COMPONENT_H

#include <pthread.h>

#include "backend/backend.h"
#include "bind/backend_choice.h"
#include "bind/group.h"
#include "bind/settings.h"
#include "platform/cpu.h"
#include "common/uncore_error.h"
#include "bind/description.h" /* the component's description in PAPI's field */
#include "eventset/clock.h"
#include "eventset/native.h"
#include "eventset/share.h"

struct uncore_component {
	enum uncore_backend_kind kind;
	struct uncore_backend *be; /* owned by `share` */
	/* The process's event sets count through views of this hub
	 * (eventset/share.h): many sets at once, one process per socket. */
	struct uncore_share *share;
	char lock_dir[4200]; /* socket locks between processes ("" : the default) */
	int no_socket_lock;  /* a private simulator: nobody else can count there */
	struct uncore_group group; /* this process's measurement group (bind/group.h) */
	struct uncore_native *native;
	struct uncore_cpu_id cpu; /* the processor the probe saw (platform/cpu.h) */
	char origin[192];      /* "SIMULATED uncore: model ..." or "hardware: <platform title>" */
	unsigned max_counters; /* counters of one socket, for cmp_info.num_cntrs */
	struct uncore_clock clock; /* for event sets: the host's, or the simulator's virtual time */
	/* The environment, as read when opened: the caller's (which must
	 * outlive the component) or own_settings. */
	const struct uncore_settings *settings;
	struct uncore_settings *own_settings;
	/* Start-up (uncore_component_probe) and the first use
	 * (uncore_component_bind). */
	struct uncore_probe_result choice;
	struct uncore_perf_sysfs *sysfs; /* read by the probe, until the perf backend takes it */
	/* Kernel PMUs only: binding waits for the first use; until then the
	 * listing's backend (its event source) gives PAPI the PMU names and
	 * the number of events (kept: PAPI holds the names). */
	int deferred;
	struct uncore_backend *listing;
	pthread_mutex_t bind_lock;
	int bind_done;
	struct uncore_saved_error bind_result;
};

/* Probe this machine (CPUID, kernel PMUs, devices, the override in
 * PAPI_INTEL_UNCORE_BACKEND) and open the chosen backend, with the
 * environment as `settings` says (NULL: read it now, uncore_settings_read;
 * else kept, not copied: it must outlive the component).
 * 0 and a component, or an error whose detail is the disabled reason (what
 * is missing and how to fix it). */
int uncore_component_open(const struct uncore_settings *settings, struct uncore_component **out);

/* Start-up only, for PAPI_library_init: choose the backend and say what
 * PAPI asks at init (usable or why not, the description, the PMU names and
 * the number of events), but bind to the machine only where that needs it
 * (tables: the presets need the machine's boxes).  With kernel PMUs only,
 * the PMUs' files, the CPUs and the backend wait for
 * uncore_component_bind.  `cpu`: the processor as PAPI identified it (NULL:
 * CPUID here).  Errors as uncore_component_open. */
int uncore_component_probe(const struct uncore_settings *settings, const struct uncore_cpu_id *cpu,
			   struct uncore_component **out);

/* Bind a probed component (be, share, native), once: the first caller
 * discovers while the others wait; every caller gets the first's result,
 * its detail included.  0 or the error of uncore_component_open. */
int uncore_component_bind(struct uncore_component *c);

/* The number of native events and PAPI's routing names, bound or not:
 * while deferred, from the listing (the same names; the count as the
 * listing shows it, exact once bound). */
unsigned uncore_component_native_count(const struct uncore_component *c);
const char *const *uncore_component_pmu_names(const struct uncore_component *c, unsigned *n);

void uncore_component_close(struct uncore_component *c);

/* The component's description: "Intel uncore, <backend> backend: <origin>". */
void uncore_component_describe(const struct uncore_component *c, char *buf, size_t len);

/* The description in PAPI's field of `dlen` bytes, with `holders` (who
 * holds which socket, "" for none) before the origin. */
void uncore_component_describe_fitted(const struct uncore_component *c, const char *holders,
				      char *description, size_t dlen);

/* What the description last said (uncore_component_holders keeps it):
 * which sockets another process held, and the origin then (a deferred
 * binding changes it). */
struct uncore_described {
	int valid;
	uint32_t elsewhere;
	char origin[sizeof(((struct uncore_component *)0)->origin)];
};

/* Who holds each socket (eventset/share.h, uncore_share_holders) into
 * `holders`, and the description that says it first, fitted to `dlen`
 * (PAPI's field).  1 when another process holds a socket (its events read 0
 * there: README "MPI jobs and threads"), 0 when none does, -1 on error;
 * 2, writing nothing, when `last` says the description already says so
 * (no socket held elsewhere, now and then, and the same origin).  `last`
 * is updated; the caller serialises the calls that share it. */
int uncore_component_holders(const struct uncore_component *c, char *description, size_t dlen,
			     char *holders, size_t hlen, struct uncore_described *last);

/* Whether `pmu` (len bytes) is one of c's PMU names or a numbered instance
 * of one; and whether `name` is "PMU::..." with such a PMU. */
int uncore_component_has_pmu(const struct uncore_component *c, const char *pmu, size_t len);
int uncore_component_names_pmu(const struct uncore_component *c, const char *name);

/* PAPI_event_name_to_code in two steps, the front-end binding the component
 * between them: the name as the user gave it (`given`, perf's and Intel's
 * spellings too) in ours (`name`), then the native code of that `name`
 * (not spelled again: give uncore_component_code what the first gave).  0; or
 * UNCORE_NAME_NOT_OURS for a name of no PMU of ours (another component's,
 * PAPI_TOT_INS): not an error to say; or the error to report.  `c` may be
 * NULL (not initialised) for the first. */
#define UNCORE_NAME_NOT_OURS 1
int uncore_component_spell(const struct uncore_component *c, const char *given, char *name,
			   size_t len);
int uncore_component_code(const struct uncore_component *c, const char *name, uint32_t *code);

#endif
