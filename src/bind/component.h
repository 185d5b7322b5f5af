/* Everything the PAPI front-end needs, in PAPI-free terms: the chosen
 * backend bound to this machine, the native event code space, and where the
 * counts come from (hardware, or the simulator: then said in every
 * description).  One per process. */
#ifndef UNCORE_BIND_COMPONENT_H
#define UNCORE_BIND_COMPONENT_H

#include "backend/backend.h"
#include "bind/backend_choice.h"
#include "bind/settings.h"
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
	struct uncore_native *native;
	char origin[192]; /* "SIMULATED uncore: model ..." or "hardware: <platform title>" */
	unsigned max_counters; /* counters of one socket, for cmp_info.num_cntrs */
	struct uncore_clock clock; /* for event sets: the host's, or the simulator's virtual time */
	struct uncore_settings settings; /* the environment, as read when opened */
};

/* Probe this machine (CPUID, kernel PMUs, devices, the override in
 * PAPI_INTEL_UNCORE_BACKEND) and open the chosen backend, with the
 * environment as `settings` says (NULL: read it now, uncore_settings_read).
 * 0 and a component, or an error whose detail is the disabled reason (what
 * is missing and how to fix it). */
int uncore_component_open(const struct uncore_settings *settings, struct uncore_component **out);

void uncore_component_close(struct uncore_component *c);

#endif
