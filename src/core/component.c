/* Opening the component: probe the machine, choose the backend
 * (core/backend_choice.c), and bind it.  The simulator is chosen only when
 * asked for (PAPI_INTEL_UNCORE_BACKEND=sim), never as a silent fallback,
 * and then says so in the component's description. */
#include "core/component.h"

#include "access/composite.h"
#include "access/msr_dev.h"
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "sim/uncore_sim.h"
#include "topology/cpu_topology.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ENV_BACKEND "PAPI_INTEL_UNCORE_BACKEND"
#define ENV_READ_FREEZE "PAPI_INTEL_UNCORE_READ_FREEZE"

/* Does the kernel expose any uncore PMU (perf_event uncore drivers)? */
static int kernel_has_uncore_pmu(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d)) != NULL)
		found = strncmp(e->d_name, "uncore", 6) == 0;
	closedir(d);
	return found;
}

static int read_freeze_wanted(void)
{
	const char *v = getenv(ENV_READ_FREEZE);
	return !(v && strcmp(v, "0") == 0);
}

static int sim_now(void *ctx, uint64_t *ns)
{
	return uncore_sim_now(ctx, ns);
}

static int open_sim(struct uncore_component *c)
{
	struct uncore_regio *io;
	struct uncore_direct_config cfg;
	struct uncore_sim_topology topo;
	char origin[160];
	int rc = uncore_sim_regio_from_env(&io);

	if (rc < 0)
		return rc;
	/* Metrics time their interval with the simulator's clock (virtual or
	 * wall, as its scenario says) and its model's TSC. */
	c->clock.now_ns = sim_now;
	c->clock.ctx = uncore_sim_from_regio(io);
	if (uncore_sim_topology(c->clock.ctx, &topo) == 0)
		c->clock.tsc_hz = topo.clock_hz[HSWEP_CLK_TSC];
	if (uncore_sim_describe(uncore_sim_from_regio(io), origin, sizeof(origin)) < 0)
		snprintf(origin, sizeof(origin), "SIMULATED uncore");
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = io;
	cfg.own_io = 1;
	cfg.read_freeze = read_freeze_wanted();
	cfg.origin = origin;
	rc = uncore_direct_open_hswep(&cfg, &c->be);
	if (rc < 0) {
		uncore_regio_destroy(io);
		return rc;
	}
	snprintf(c->origin, sizeof(c->origin), "%s", origin);
	return 0;
}

/* Real devices: MSRs through /dev/cpu/N/msr on one CPU per socket. */
static int open_direct(struct uncore_component *c, const struct uncore_platform_desc *platform)
{
	struct uncore_cpu_topology topo;
	int cpu_of_socket[UNCORE_MAX_SOCKETS];
	struct uncore_msr_options mo;
	struct uncore_regio *msr = NULL, *io = NULL;
	struct uncore_direct_config cfg;
	int rc;

	if (platform->id != UNCORE_PLATFORM_HSWEP)
		return uncore_fail(UNCORE_ENOSUPP,
				   "%s: the direct backend supports Haswell-EP only; use the perf backend "
				   "(kernel uncore PMUs)",
				   platform->name);
	rc = uncore_topology_read(NULL, NULL, 0, &topo);
	if (rc < 0)
		return rc;
	for (unsigned s = 0; s < topo.nsockets && s < UNCORE_MAX_SOCKETS; s++)
		cpu_of_socket[s] = topo.socket[s].cpu;
	memset(&mo, 0, sizeof(mo));
	mo.cpu_of_socket = cpu_of_socket;
	mo.nsockets = topo.nsockets;
	rc = uncore_msr_dev_open(&mo, &msr);
	if (rc == 0)
		rc = uncore_composite_open(msr, NULL, NULL, &io);
	if (rc < 0) {
		uncore_regio_destroy(msr);
		return rc;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = io;
	cfg.own_io = 1;
	cfg.read_freeze = read_freeze_wanted();
	cfg.origin = platform->title;
	rc = uncore_direct_open_hswep(&cfg, &c->be);
	if (rc < 0) {
		uncore_regio_destroy(io);
		return rc;
	}
	snprintf(c->origin, sizeof(c->origin), "%s", platform->title);
	return 0;
}

int uncore_component_open(struct uncore_component **out)
{
	struct uncore_probe_input in;
	struct uncore_probe_result choice;
	struct uncore_component *c;
	int rc;

	memset(&in, 0, sizeof(in));
	in.backend_env = getenv(ENV_BACKEND);
	rc = uncore_cpu_identify(&in.cpu);
	if (rc < 0)
		return rc;
	in.have_perf_uncore = 0; /* the perf_event backend is not part of this build yet */
	in.have_direct_access = access("/dev/cpu/0/msr", R_OK | W_OK) == 0;
	in.direct_missing = "/dev/cpu/0/msr";
	in.have_simulator = 1;
	if (kernel_has_uncore_pmu() && !in.have_direct_access)
		in.direct_missing = "/dev/cpu/0/msr (kernel uncore PMUs exist, but this build has no "
				    "perf backend yet)";
	uncore_probe_decide(&in, &choice);
	if (!choice.usable)
		return uncore_fail(UNCORE_ENOSUPP, "%s", choice.reason);

	c = calloc(1, sizeof(*c));
	if (!c)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the component");
	c->kind = choice.backend;
	uncore_clock_host(&c->clock);
	if (choice.backend == UNCORE_BACKEND_SIM)
		rc = open_sim(c);
	else if (choice.backend == UNCORE_BACKEND_DIRECT)
		rc = open_direct(c, choice.platform);
	else
		rc = uncore_fail(UNCORE_ENOSUPP, "the %s backend is not available in this build",
				 uncore_backend_name(choice.backend));
	if (rc == 0)
		rc = uncore_native_create(c->be->machine.plat, &c->native);
	if (rc < 0) {
		char detail[512];
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
		uncore_component_close(c);
		return uncore_fail(rc, "%s backend: %s", uncore_backend_name(choice.backend), detail);
	}
	*out = c;
	return 0;
}

void uncore_component_close(struct uncore_component *c)
{
	if (!c)
		return;
	uncore_native_destroy(c->native);
	if (c->be)
		c->be->ops->destroy(c->be);
	free(c);
}
