/* Opening the component: probe the machine, choose the backend
 * (bind/backend_choice.c), and bind it.  The simulator is chosen only when
 * asked for (PAPI_INTEL_UNCORE_BACKEND=sim), never as a silent fallback,
 * and then says so in the component's description. */
#include "bind/component.h"

#include "access/composite.h"
#include "access/mmio.h"
#include "access/msr_dev.h"
#include "bind/msr_open.h"
#include "access/pci_cfg.h"
#include "backend/direct/direct.h"
#include "backend/direct/socket_lock.h"
#include "backend/perf/perf.h"
#include "backend/perf/perf_sysfs.h"
#include "backend/service/service.h"
#include "common/uncore_error.h"
#include "events/spelling.h"
#include "backend/service/protocol.h"
#include "sim/uncore_sim.h"
#include "simkernel/shape_kernel.h"
#include "simkernel/uncore_sim_perf.h"
#include "topology/cpu_topology.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A device or sysfs path under the test root (PAPI_INTEL_UNCORE_TEST_ROOT),
 * or NULL without one: each layer then opens its real path, the same
 * string as `path`.  `buf` holds the result. */
static const char *dev_path(const struct uncore_component *c, const char *path, char *buf,
			    size_t len)
{
	if (!c->settings->test_root[0])
		return NULL;
	snprintf(buf, len, "%s%s", c->settings->test_root, path);
	return buf;
}

static int read_freeze_wanted(const struct uncore_component *c)
{
	return uncore_settings_default_on(c->settings->read_freeze);
}

/* Metrics time their interval with the simulator's clock (virtual or wall,
 * as its scenario says) and its model's TSC. */
static void use_sim_clock(struct uncore_component *c, struct uncore_sim *sim)
{
	struct uncore_sim_topology topo;
	c->clock.now_ns = uncore_sim_clock;
	c->clock.ctx = sim;
	if (uncore_sim_topology(sim, &topo) == 0)
		c->clock.tsc_hz = topo.clock_hz[HSWEP_CLK_TSC];
}

/* The origin of a processor without tables: which processor the probe saw
 * and why it has none (issue 26: say what is and is not available; never
 * advice for another vendor's processor). */
static void kernel_only_origin(struct uncore_component *c)
{
	char why[sizeof(c->origin)];
	uncore_cpu_no_tables(&c->cpu, why, sizeof(why));
	snprintf(c->origin, sizeof(c->origin), "kernel PMUs only: %.170s", why);
}

/* Kernel PMUs only on a generation with tables: none of the tables' boxes
 * is there, and an event of theirs named anyway is refused saying why
 * (plan/sched.c adds the note to "no box is present"). */
static void tables_absent(struct uncore_machine *m, const struct uncore_platform *platform,
			  int hypervisor)
{
	for (unsigned b = 0; b < platform->events->nboxes && b < 64; b++)
		m->absent_boxes |= UINT64_C(1) << b;
	if (!platform->direct_open && hypervisor)
		snprintf(m->absent_note, sizeof(m->absent_note),
			 "the hypervisor exposes no uncore PMU to this virtual machine: count on "
			 "the host");
	else if (!platform->direct_open)
		snprintf(m->absent_note, sizeof(m->absent_note),
			 "the kernel exposes no uncore PMU: load the intel_uncore driver");
	else
		snprintf(m->absent_note, sizeof(m->absent_note),
			 "the kernel exposes no uncore PMU of %s: load the uncore driver, or use "
			 "PAPI_INTEL_UNCORE_BACKEND=direct",
			 platform->name);
}

/* The kernel's PMUs: the platform's uncore PMUs mapped onto its tables
 * (platform NULL: none, a processor without tables) and every other PMU
 * sysfs describes. */
static int open_perf(struct uncore_component *c, const struct uncore_platform *platform,
		     int kernel_only, struct uncore_perf_sysfs *sysfs)
{
	struct uncore_perf_config cfg;
	char cpus[UNCORE_SETTING_MAX + 64], paranoid[UNCORE_SETTING_MAX + 64];
	memset(&cfg, 0, sizeof(cfg));
	cfg.sysfs = sysfs;
	cfg.cpu_root = dev_path(c, UNCORE_SYSFS_CPU_ROOT, cpus, sizeof(cpus));
	cfg.paranoid_path = dev_path(c, UNCORE_PERF_PARANOID_PATH, paranoid, sizeof(paranoid));
	cfg.plat = platform ? platform->events : NULL;
	cfg.origin = platform ? platform->title : "kernel PMUs";
	int rc = uncore_perf_open(&cfg, &c->be);
	if (rc < 0)
		return rc;
	if (platform && kernel_only)
		tables_absent(&c->be->machine, platform, c->cpu.hypervisor);
	if (!platform)
		kernel_only_origin(c);
	else if (kernel_only && !platform->direct_open && c->cpu.hypervisor)
		snprintf(c->origin, sizeof(c->origin),
			 "%s in a virtual machine; kernel PMUs only: the hypervisor exposes no "
			 "uncore PMU (%s uncore events, presets and metrics need the host)",
			 platform->title, platform->name);
	else if (kernel_only && !platform->direct_open)
		snprintf(c->origin, sizeof(c->origin),
			 "%s; kernel PMUs only: the kernel exposes no uncore PMU (load the "
			 "intel_uncore driver)",
			 platform->title);
	else if (kernel_only)
		snprintf(c->origin, sizeof(c->origin),
			 "%s; kernel PMUs only: no uncore PMU of %s (load the uncore driver, or "
			 "use the direct backend)",
			 platform->title, platform->name);
	else
		snprintf(c->origin, sizeof(c->origin), "%s", platform->title);
	return 0;
}

/* The generation of a simulated machine: its model's (uncore-sim models). */
static const struct uncore_platform *sim_platform(struct uncore_sim *sim)
{
	struct uncore_sim_topology t;
	const char *name = NULL;
	if (uncore_sim_topology(sim, &t) == 0)
		for (size_t i = 0; i < uncore_sim_model_count(); i++)
			if (!strcmp(uncore_sim_model(i)->name, t.model))
				name = uncore_sim_model(i)->platform;
	const struct uncore_platform *p = uncore_platform_by_name(name);
	if (!p || !p->direct_open)
		uncore_fail(UNCORE_ENOSUPP,
			    "simulated model %s: no generation \"%s\" the direct "
			    "backend programs",
			    t.model, name ? name : "(none)");
	return p && p->direct_open ? p : NULL;
}

/* The simulator behind a simulated perf_event kernel
 * (PAPI_INTEL_UNCORE_SIM_KERNEL=perf): the perf backend on simulated
 * counts. */
static int open_sim_perf(struct uncore_component *c)
{
	struct uncore_sim_perf *k;
	struct uncore_perf_config cfg;
	char origin[160];
	struct uncore_sim_options so;
	uncore_settings_sim(c->settings, &so);
	int rc = uncore_sim_perf_open(&so, c->settings->tmpdir, c->settings->sim_kernel_share, &k);
	if (rc < 0)
		return rc;
	if (uncore_sim_describe(uncore_sim_perf_machine(k), origin, sizeof(origin)) < 0)
		snprintf(origin, sizeof(origin), "SIMULATED uncore");
	memset(&cfg, 0, sizeof(cfg));
	cfg.pmu_root = uncore_sim_perf_pmu_root(k);
	cfg.cpu_root = uncore_sim_perf_cpu_root(k);
	cfg.sys = uncore_sim_perf_sys(k);
	const struct uncore_platform *gen = sim_platform(uncore_sim_perf_machine(k));
	if (!gen) {
		uncore_sim_perf_destroy(k);
		return UNCORE_ENOSUPP;
	}
	cfg.plat = gen->events;
	cfg.origin = origin;
	rc = uncore_perf_open(&cfg, &c->be);
	if (rc < 0) {
		uncore_sim_perf_destroy(k);
		return rc;
	}
	/* Discovery is done: the tree is not needed any more, and a program
	 * that never calls PAPI_shutdown leaves nothing behind. */
	uncore_sim_perf_remove_tree(k);
	/* The machine lives as long as the backend (its system-call layer). */
	use_sim_clock(c, uncore_sim_perf_machine(k));
	/* Processes sharing the simulated machine exclude each other per
	 * socket as the direct backend's do. */
	rc = uncore_sim_lock_dir(uncore_sim_perf_machine(k), c->lock_dir, sizeof(c->lock_dir));
	if (rc < 0)
		return rc;
	c->no_socket_lock = c->lock_dir[0] == '\0';
	c->kind = UNCORE_BACKEND_PERF;
	snprintf(c->origin, sizeof(c->origin), "simulated kernel, %.160s", origin);
	return 0;
}

/* The simulated kernel's clock for the metrics' intervals (virtual time:
 * PAPI_INTEL_UNCORE_SIM_KERNEL_STEP). */
static int shape_now(void *ctx, uint64_t *ns)
{
	return uncore_shape_kernel_now(ctx, ns);
}

/* A simulated kernel shaped as a Xeon counted through the kernel's PMUs
 * (PAPI_INTEL_UNCORE_SIM_KERNEL=spr, skx, icx, gnr, ...): the perf backend
 * with the tables of the generation it stands for, on the shape's sysfs
 * tree and constant-rate counters. */
static int open_sim_shape(struct uncore_component *c, const struct uncore_shape *shape)
{
	struct uncore_shape_kernel *k;
	struct uncore_perf_config cfg;
	char origin[200];
	uint64_t step = 0;
	const char *st = c->settings->sim_kernel_step;
	if (*st) {
		char *end = NULL;
		unsigned long long v = strtoull(st, &end, 0);
		if (!end || *end || v == 0 || st[0] == '-')
			return uncore_fail(UNCORE_EINVAL,
					   "PAPI_INTEL_UNCORE_SIM_KERNEL_STEP=%.40s: give the "
					   "nanoseconds of simulated time a round of reads adds "
					   "(a positive integer)",
					   st);
		step = v;
	}
	const struct uncore_platform *gen = uncore_platform_by_name(uncore_shape_gen(shape));
	int rc = uncore_shape_kernel_create(shape, c->settings->tmpdir, &k);
	if (rc < 0)
		return rc;
	if (step)
		uncore_shape_kernel_set_step(k, step);
	snprintf(origin, sizeof(origin), "SIMULATED kernel: %s", uncore_shape_title(shape));
	memset(&cfg, 0, sizeof(cfg));
	cfg.pmu_root = uncore_shape_kernel_pmu_root(k);
	cfg.cpu_root = uncore_shape_kernel_cpu_root(k);
	cfg.sys = uncore_shape_kernel_sys(k);
	cfg.plat = gen ? gen->events : NULL;
	cfg.origin = origin;
	rc = uncore_perf_open(&cfg, &c->be);
	if (rc < 0) {
		uncore_shape_kernel_destroy(k);
		return rc;
	}
	uncore_shape_kernel_remove_tree(k);
	if (step) {
		/* The kernel lives as long as the backend (its system calls). */
		c->clock.now_ns = shape_now;
		c->clock.ctx = k;
	}
	/* One fake kernel per process: nothing to share between processes. */
	c->no_socket_lock = 1;
	c->kind = UNCORE_BACKEND_PERF;
	if (gen)
		snprintf(c->origin, sizeof(c->origin), "%.120s; tables: %.60s", origin, gen->title);
	else
		snprintf(c->origin, sizeof(c->origin), "%.150s; no uncore tables", origin);
	return 0;
}

static int open_sim(struct uncore_component *c)
{
	struct uncore_regio *io;
	struct uncore_direct_config cfg;
	char origin[160], locks[4200];
	const char *kernel = c->settings->sim_kernel;
	if (strcmp(kernel, "perf") == 0)
		return open_sim_perf(c);
	if (uncore_shape_find(kernel))
		return open_sim_shape(c, uncore_shape_find(kernel));
	if (*kernel && strcmp(kernel, "none") != 0) {
		char shapes[128] = "";
		size_t o = 0;
		for (size_t i = 0; i < uncore_shape_count() && o < sizeof(shapes); i++)
			o += (size_t)snprintf(shapes + o, sizeof(shapes) - o, ", %s",
					      uncore_shape_name(uncore_shape_at(i)));
		return uncore_fail(UNCORE_EINVAL,
				   "%s=%s: use perf (the perf backend on a simulated Haswell-EP "
				   "kernel), none (the direct backend), or a kernel shaped as a "
				   "processor without our tables%s",
				   UNCORE_SIM_ENV_KERNEL, kernel, shapes);
	}
	struct uncore_sim_options so;
	uncore_settings_sim(c->settings, &so);
	int rc = uncore_sim_regio_open(&so, &io);

	if (rc < 0)
		return rc;
	use_sim_clock(c, uncore_sim_from_regio(io));
	if (uncore_sim_describe(uncore_sim_from_regio(io), origin, sizeof(origin)) < 0)
		snprintf(origin, sizeof(origin), "SIMULATED uncore");
	/* Socket locks per simulated machine: two instances never block each other. */
	rc = uncore_sim_lock_dir(uncore_sim_from_regio(io), locks, sizeof(locks));
	if (rc < 0) {
		uncore_regio_destroy(io);
		return rc;
	}
	/* The model's CPU topology (cores numbered socket by socket), as
	 * /sys/devices/system/cpu gives it on hardware: discovery falls back to
	 * it when PCI config space is not readable (a msr-safe user). */
	int16_t sim_cpu_socket[UNCORE_MAX_CPUS];
	struct uncore_sim_topology topo;
	unsigned ncpus = 0;
	memset(&topo, 0, sizeof(topo));
	if (uncore_sim_topology(uncore_sim_from_regio(io), &topo) == 0)
		for (unsigned s = 0; s < topo.sockets; s++)
			for (unsigned k = 0; k < topo.cores && ncpus < UNCORE_MAX_CPUS; k++)
				sim_cpu_socket[ncpus++] = (int16_t)s;
	memset(&cfg, 0, sizeof(cfg));
	cfg.ncpus = ncpus;
	cfg.cpu_socket = sim_cpu_socket;
	cfg.cores_per_package = topo.cores;
	cfg.lock_dir = locks;
	cfg.no_socket_lock = locks[0] == '\0';
	cfg.io = io;
	cfg.own_io = 1;
	cfg.read_freeze = read_freeze_wanted(c);
	cfg.origin = origin;
	const struct uncore_platform *platform = sim_platform(uncore_sim_from_regio(io));
	rc = platform ? platform->direct_open(platform, &cfg, &c->be) : UNCORE_ENOSUPP;
	if (rc < 0) {
		uncore_regio_destroy(io);
		return rc;
	}
	snprintf(c->origin, sizeof(c->origin), "%s", origin);
	snprintf(c->lock_dir, sizeof(c->lock_dir), "%s", locks);
	c->no_socket_lock = cfg.no_socket_lock;
	return 0;
}

/* Counters in an MMIO window that PCI configuration space locates (Skylake
 * client IMC: MCHBAR, seed 001 3.3): a read-only /dev/mem mapping of it.
 * Failure is not fatal (the MSR boxes work without it): *mmio stays NULL
 * and `why` says what to fix. */
static void open_mmio_window(const struct uncore_component *c,
			     const struct uncore_platform *platform, struct uncore_regio *pci,
			     struct uncore_regio **mmio, char *why, size_t len)
{
	uint64_t base, size;
	char mem[UNCORE_SETTING_MAX + 64];
	int rc = platform->mmio_window(pci, &base, &size);
	if (rc == 0)
		rc = uncore_mmio_open(dev_path(c, UNCORE_MMIO_DEV_MEM, mem, sizeof(mem)), base,
				      (size_t)size, mmio);
	if (rc < 0)
		snprintf(why, len, "IMC counters unavailable: %s", uncore_error_detail());
	uncore_error_clear();
}

/* Real devices: MSRs through /dev/cpu/N/msr (or msr-safe) on one CPU per
 * socket, behind the platform's MSR allowlist (bind/msr_open.c); PCI
 * configuration space through libpci or sysfs; Skylake client: MMIO through
 * /dev/mem for the IMC. */
static int open_direct(struct uncore_component *c, const struct uncore_platform *platform)
{
	struct uncore_cpu_topology topo;
	int cpu_of_socket[UNCORE_MAX_SOCKETS];
	int16_t cpu_socket[UNCORE_TOPOLOGY_MAX_CPUS];
	struct uncore_msr_open_options mo;
	struct uncore_regio *msr = NULL, *pci = NULL, *mmio = NULL, *io = NULL;
	struct uncore_direct_config cfg;
	char imc_why[200] = "";
	char cpus[UNCORE_SETTING_MAX + 64], msr_root[UNCORE_SETTING_MAX + 64],
	    allow_writes[UNCORE_SETTING_MAX + 64];
	/* PCI needed, or only to find an MMIO window (Skylake client
	 * MCHBAR), or not at all (Nehalem, Xeon 7100/7400: MSRs only). */
	int pci_for_mmio = (platform->access & UNCORE_ACCESS_PCI_MMIO) != 0;
	int want_pci = (platform->access & (UNCORE_ACCESS_PCI | UNCORE_ACCESS_PCI_MMIO)) != 0;
	int rc;

	if (!platform->direct_open)
		return uncore_fail(UNCORE_ENOSUPP,
				   "%s: the direct backend does not program this platform; use the "
				   "perf backend (kernel uncore PMUs) on this processor",
				   platform->name);
	rc = uncore_topology_read(dev_path(c, UNCORE_SYSFS_CPU_ROOT, cpus, sizeof(cpus)), NULL, 0,
				  &topo);
	if (rc < 0)
		return rc;
	size_t nsockets = uncore_topology_cpu_map(&topo, cpu_of_socket, UNCORE_MAX_SOCKETS);
	/* Socket numbers are package ids (uncore_topology_cpu_map), as the
	 * UBox node-ID map numbers packages (manual 1.6.1). */
	for (unsigned cpu = 0; cpu < UNCORE_TOPOLOGY_MAX_CPUS; cpu++)
		cpu_socket[cpu] = topo.cpu_package[cpu];
	memset(&mo, 0, sizeof(mo));
	mo.method = UNCORE_MSR_AUTO;
	mo.platform = platform->name;
	mo.cpu_of_socket = cpu_of_socket;
	mo.nsockets = nsockets;
	mo.dev_root = dev_path(c, UNCORE_MSR_DEV_ROOT, msr_root, sizeof(msr_root));
	mo.allow_writes_param =
	    dev_path(c, UNCORE_MSR_ALLOW_WRITES, allow_writes, sizeof(allow_writes));
	rc = uncore_msr_open(&mo, &msr);
	if (rc == 0 && want_pci) {
		struct uncore_pci_options po;
		char sysfs[UNCORE_SETTING_MAX + 64], mcfg[UNCORE_SETTING_MAX + 64],
		    lockdown[UNCORE_SETTING_MAX + 64], mem[UNCORE_SETTING_MAX + 64];
		memset(&po, 0, sizeof(po));
		rc = uncore_pci_method_parse(c->settings->pci, &po);
		po.sysfs_root = dev_path(c, UNCORE_PCI_SYSFS_ROOT, sysfs, sizeof(sysfs));
		po.mcfg_path = dev_path(c, UNCORE_ACPI_MCFG_PATH, mcfg, sizeof(mcfg));
		po.lockdown_path = dev_path(c, UNCORE_LOCKDOWN_PATH, lockdown, sizeof(lockdown));
		po.mem_path = dev_path(c, UNCORE_PCI_ECAM_DEV, mem, sizeof(mem));
		if (rc == 0)
			rc = uncore_pci_cfg_open(&po, &pci);
		if (rc < 0 && pci_for_mmio) { /* only the IMC needs PCI there */
			snprintf(imc_why, sizeof(imc_why),
				 "IMC counters unavailable: no PCI access to read MCHBAR: %s",
				 uncore_error_detail());
			uncore_error_clear();
			pci = NULL;
			rc = 0;
		}
	}
	if (rc == 0 && pci_for_mmio && pci)
		open_mmio_window(c, platform, pci, &mmio, imc_why, sizeof(imc_why));
	if (rc == 0)
		rc = uncore_composite_open(msr, pci, mmio, &io);
	if (rc < 0) {
		uncore_regio_destroy(msr);
		uncore_regio_destroy(pci);
		uncore_regio_destroy(mmio);
		return rc;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = io;
	cfg.own_io = 1;
	cfg.read_freeze = read_freeze_wanted(c);
	cfg.origin = platform->title;
	cfg.lock_dir = c->lock_dir;
	cfg.ncpus = topo.ncpu_ids;
	cfg.cpu_socket = cpu_socket;
	for (unsigned i = 0; i < topo.nsockets; i++)
		if (topo.socket[i].cores > cfg.cores_per_package)
			cfg.cores_per_package = topo.socket[i].cores;
	cfg.absent_note = imc_why[0] ? imc_why : NULL;
	rc = platform->direct_open(platform, &cfg, &c->be);
	if (rc < 0) {
		uncore_regio_destroy(io);
		return rc;
	}
	/* The PCI path and, when it is not the one asked for, why (visible in
	 * the component's description and uncore-stat). */
	const char *why = pci ? uncore_pci_cfg_fallback_reason(pci) : "";
	if (pci)
		snprintf(c->origin, sizeof(c->origin), "%.80s; PCI: %s%s%.90s", platform->title,
			 pci->ops->name, *why ? ", " : "", why);
	else
		snprintf(c->origin, sizeof(c->origin), "%s", platform->title);
	return 0;
}

/* Kernel PMUs only (no tables for this processor): start-up lists the
 * PMUs and their aliases (names and counts, no file opened), checks the
 * permission without opening an event, and leaves the rest to the first
 * use.  This is what a program that never counts an uncore event pays
 * (bench_startup). */
static int defer_perf(struct uncore_component *c, struct uncore_perf_sysfs *listing)
{
	struct uncore_perf_config cfg;
	char paranoid[UNCORE_SETTING_MAX + 64];
	int rc = uncore_perf_permission(
	    NULL, dev_path(c, UNCORE_PERF_PARANOID_PATH, paranoid, sizeof(paranoid)));
	if (rc < 0) {
		uncore_perf_sysfs_free(listing);
		return rc;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.sysfs = listing;
	cfg.listing = 1;
	cfg.origin = "kernel PMUs";
	rc = uncore_perf_open(&cfg, &c->listing);
	if (rc < 0)
		return rc;
	kernel_only_origin(c);
	c->deferred = 1;
	return 0;
}

/* uncored's socket as the settings say, or NULL when not to look. */
static const char *service_path(const struct uncore_settings *s)
{
	if (strcmp(s->service, "none") == 0)
		return NULL;
	return s->service[0] ? s->service : UNCORED_DEFAULT_SOCKET;
}

/* The node service (README "uncored, the node service"): it arbitrates
 * between every process of the node, each socket once within a measurement
 * group (service/server.h), so no socket lock here. */
static int open_service(struct uncore_component *c)
{
	const char *path = service_path(c->settings);
	/* The service keeps "each socket once" within the group. */
	uncore_group_identify(c->settings, (int)getpid(), (int)getppid(), &c->group);
	int rc = uncore_service_open(path ? path : UNCORED_DEFAULT_SOCKET,
				     c->group.single ? "" : c->group.key, &c->be, c->origin,
				     sizeof(c->origin));
	if (rc < 0)
		return rc;
	c->no_socket_lock = 1;
	c->lock_dir[0] = '\0';
	/* Metrics time their intervals by the samples' instants, the time of
	 * the counts a read returns (service.h; the TSC frequency stays the
	 * host's). */
	c->clock.now_ns = uncore_service_now;
	c->clock.ctx = c->be;
	return 0;
}

/* Discovery proper: the chosen backend bound to the machine, the shared
 * counters, the code space.  With bind_lock held. */
static int bind_now(struct uncore_component *c)
{
	int rc;
	uncore_clock_host(&c->clock);
	if (c->choice.backend == UNCORE_BACKEND_SERVICE)
		rc = open_service(c);
	else if (c->choice.backend == UNCORE_BACKEND_SIM)
		rc = open_sim(c);
	else if (c->choice.backend == UNCORE_BACKEND_DIRECT)
		rc = open_direct(c, c->choice.platform);
	else
		rc = open_perf(c, c->choice.platform, c->choice.kernel_only, c->sysfs);
	c->sysfs = NULL; /* taken over by open_perf */
	if (rc == 0) {
		/* README "MPI jobs and threads": each socket once within a
		 * measurement group; on the perf backend the kernel arbitrates
		 * between groups (a lock per group), on the direct backend one
		 * process of the node programs a socket (the node's lock). */
		uncore_group_identify(c->settings, (int)getpid(), (int)getppid(), &c->group);
		int perf = c->kind == UNCORE_BACKEND_PERF;
		/* On the perf backend a process alone has nobody to exclude. */
		struct uncore_share_config sc = {c->lock_dir[0] ? c->lock_dir : NULL,
						 c->no_socket_lock || (perf && c->group.single)};
		rc = uncore_share_create(c->be, &sc, &c->share);
		if (rc == 0)
			uncore_share_set_clock(c->share, &c->clock);
		if (rc < 0) {
			c->be->ops->destroy(c->be);
			c->be = NULL;
		} else if ((rc = uncore_share_set_group(c->share, c->group.key,
							perf ? c->group.tag : NULL)) < 0) {
			uncore_share_release(c->share); /* and the backend it owns */
			c->share = NULL;
			c->be = NULL;
		}
	}
	if (rc == 0)
		rc = uncore_native_create(c->be->machine.plat, &c->native);
	if (rc == 0)
		rc = uncore_native_set_source(c->native, c->be->events);
	if (rc == 0 && c->choice.kernel_only)
		uncore_native_list_kernel_only(c->native);
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		uncore_native_destroy(c->native);
		c->native = NULL;
		if (c->share)
			uncore_share_release(c->share);
		else if (c->be)
			c->be->ops->destroy(c->be);
		c->share = NULL;
		c->be = NULL;
		return uncore_fail(rc, "%s backend: %s", uncore_backend_name(c->choice.backend),
				   err.detail);
	}
	return 0;
}

int uncore_component_bind(struct uncore_component *c)
{
	pthread_mutex_lock(&c->bind_lock);
	if (!c->bind_done) {
		int rc = bind_now(c);
		uncore_error_save(&c->bind_result, rc);
		c->bind_done = 1;
	}
	int rc = c->bind_result.code;
	if (rc < 0)
		uncore_error_restore(&c->bind_result);
	pthread_mutex_unlock(&c->bind_lock);
	return rc;
}

/* Bind a probed component, or close it keeping the reason of the failure. */
static int bind_or_close(struct uncore_component *c, struct uncore_component **out)
{
	int rc = uncore_component_bind(c);
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		uncore_component_close(c);
		return uncore_error_restore(&err);
	}
	*out = c;
	return 0;
}

int uncore_component_probe(const struct uncore_settings *settings, const struct uncore_cpu_id *cpu,
			   struct uncore_component **out)
{
	struct uncore_probe_input in;
	struct uncore_probe_result choice;
	struct uncore_component *c;
	int rc = 0;

	c = calloc(1, sizeof(*c));
	if (!c)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the component");
	pthread_mutex_init(&c->bind_lock, NULL);
	/* The caller's settings are used where they are (start-up copies
	 * nothing it need not: bench_startup); a utility's are read here. */
	if (!settings) {
		c->own_settings = malloc(sizeof(*c->own_settings));
		if (!c->own_settings) {
			uncore_component_close(c);
			return uncore_fail(UNCORE_ENOMEM, "out of memory for the component");
		}
		if ((rc = uncore_settings_read(c->own_settings)) < 0) {
			uncore_component_close(c);
			return rc;
		}
		settings = c->own_settings;
	}
	c->settings = settings;
	memset(&in, 0, sizeof(in));
	in.backend_env = c->settings->backend;
	if (cpu)
		in.cpu = *cpu;
	else if ((rc = uncore_cpu_identify(&in.cpu)) < 0) {
		uncore_component_close(c);
		return rc;
	}
	const struct uncore_platform *platform = uncore_platform_for_cpu(&in.cpu);
	/* The kernel's PMU directory, read once: for the probes and, when the
	 * perf backend is chosen, for the backend itself.  Without tables for
	 * this processor only the kernel's own PMUs can be offered: their
	 * listing is enough to choose. */
	struct uncore_perf_sysfs *sysfs = NULL;
	char pmus[UNCORE_SETTING_MAX + 64], msr0[UNCORE_SETTING_MAX + 64],
	    safe0[UNCORE_SETTING_MAX + 64];
	const char *pmu_root = dev_path(c, UNCORE_PERF_PMU_ROOT, pmus, sizeof(pmus));
	if ((platform ? uncore_perf_sysfs_read(pmu_root, &sysfs)
		      : uncore_perf_sysfs_list(pmu_root, &sysfs)) < 0) {
		sysfs = NULL; /* no perf_event: neither probe finds a PMU */
		uncore_error_clear();
	}
	in.have_perf_uncore =
	    platform && uncore_perf_sysfs_has_platform_pmu(sysfs, platform->events);
	in.have_kernel_pmus = uncore_perf_sysfs_has_kernel_pmus(sysfs);
	/* Asked only when there are tables to program directly. */
	const char *msr = dev_path(c, UNCORE_MSR_DEV_ROOT "/0/msr", msr0, sizeof(msr0));
	const char *safe = dev_path(c, UNCORE_MSR_DEV_ROOT "/0/msr_safe", safe0, sizeof(safe0));
	in.have_direct_access =
	    platform && (access(msr ? msr : UNCORE_MSR_DEV_ROOT "/0/msr", R_OK | W_OK) == 0 ||
			 access(safe ? safe : UNCORE_MSR_DEV_ROOT "/0/msr_safe", R_OK | W_OK) == 0);
	in.direct_missing = "/dev/cpu/0/msr or /dev/cpu/0/msr_safe";
	in.have_simulator = 1;
	in.service_path = service_path(c->settings);
	struct stat sst;
	in.have_service = in.service_path && stat(in.service_path, &sst) == 0 && S_ISSOCK(sst.st_mode);
	uncore_probe_decide(&in, &choice);
	if (choice.usable && choice.backend != UNCORE_BACKEND_PERF) {
		uncore_perf_sysfs_free(sysfs);
		sysfs = NULL;
	}
	/* Socket locks between processes: the directory the settings say (the
	 * simulator replaces it with its machine's own). */
	if (choice.usable)
		rc = uncore_socket_lock_default_dir(c->settings->lock_dir, c->settings->runtime_dir,
						    c->lock_dir, sizeof(c->lock_dir));
	if (!choice.usable || rc < 0) {
		uncore_perf_sysfs_free(sysfs);
		uncore_component_close(c);
		return choice.usable ? rc : uncore_fail(UNCORE_ENOSUPP, "%s", choice.reason);
	}
	c->kind = choice.backend;
	c->choice = choice;
	c->cpu = in.cpu;
	if (choice.backend == UNCORE_BACKEND_PERF && !choice.platform) {
		rc = defer_perf(c, sysfs);
		if (rc < 0) {
			struct uncore_saved_error err;
			uncore_error_save(&err, rc);
			uncore_component_close(c);
			return uncore_fail(rc, "perf backend: %s", err.detail);
		}
		*out = c;
		return 0;
	}
	c->sysfs = sysfs;
	return bind_or_close(c, out);
}

int uncore_component_open(const struct uncore_settings *settings, struct uncore_component **out)
{
	struct uncore_component *c = NULL;
	int rc = uncore_component_probe(settings, NULL, &c);
	if (rc < 0)
		return rc;
	return bind_or_close(c, out);
}

/* While deferred, the listing's event source says both: with kernel PMUs
 * only the code space holds its events alone, and its PMU names in its
 * order (eventset/native.h: no table events, no metrics). */
unsigned uncore_component_native_count(const struct uncore_component *c)
{
	if (c->native)
		return uncore_native_count(c->native);
	return c->listing->events->ops->count(c->listing->events);
}

const char *const *uncore_component_pmu_names(const struct uncore_component *c, unsigned *n)
{
	unsigned primary;
	if (!c->listing)
		return uncore_native_pmu_names(c->native, n);
	return c->listing->events->ops->pmu_names(c->listing->events, n, &primary);
}

void uncore_component_close(struct uncore_component *c)
{
	if (!c)
		return;
	uncore_native_destroy(c->native);
	if (c->share)
		uncore_share_release(c->share); /* destroys be with the last event set */
	else if (c->be)
		c->be->ops->destroy(c->be);
	if (c->listing)
		c->listing->ops->destroy(c->listing);
	uncore_perf_sysfs_free(c->sysfs);
	pthread_mutex_destroy(&c->bind_lock);
	free(c->own_settings);
	free(c);
}

void uncore_component_describe(const struct uncore_component *c, char *buf, size_t len)
{
	snprintf(buf, len, "Intel uncore, %s backend: %s", uncore_backend_name(c->kind), c->origin);
}

void uncore_component_describe_fitted(const struct uncore_component *c, const char *holders,
				      char *description, size_t dlen)
{
	char head[1400];
	snprintf(head, sizeof(head), "Intel uncore, %s backend: %s%s",
		 uncore_backend_name(c->kind), holders, holders[0] ? "; " : "");
	uncore_description_fit_tail(description, dlen, head, c->origin);
}

int uncore_component_holders(const struct uncore_component *c, char *description, size_t dlen,
			     char *holders, size_t hlen, struct uncore_described *last)
{
	/* Every start asks; the text is made only when there is news. */
	uint32_t elsewhere = uncore_share_held_elsewhere(c->share);
	if (last->valid && !elsewhere && !last->elsewhere && strcmp(last->origin, c->origin) == 0)
		return 2;
	if (uncore_share_holders(c->share, holders, hlen) < 0)
		return -1;
	uncore_component_describe_fitted(c, holders, description, dlen);
	last->valid = 1;
	last->elsewhere = elsewhere;
	snprintf(last->origin, sizeof(last->origin), "%s", c->origin);
	return holders[0] != '\0';
}

/* PAPI's routing rule, as our PAPI patch extends it (papi-patches/README.md):
 * a PMU name of ours, or a numbered instance of one ("hswep_unc_cbo3",
 * "skx_unc_imc_1"). */
int uncore_component_has_pmu(const struct uncore_component *c, const char *pmu, size_t len)
{
	unsigned npmu;
	const char *const *pmus = uncore_component_pmu_names(c, &npmu);
	for (unsigned i = 0; i < npmu; i++) {
		size_t n = strlen(pmus[i]);
		if (n > len || strncmp(pmu, pmus[i], n) != 0)
			continue;
		size_t k = n;
		if (k < len && pmu[k] == '_' && k + 1 < len)
			k++;
		while (k < len && pmu[k] >= '0' && pmu[k] <= '9')
			k++;
		if (k == len && (n == len || pmu[len - 1] != '_'))
			return 1;
	}
	return 0;
}

int uncore_component_names_pmu(const struct uncore_component *c, const char *name)
{
	const char *sep = strstr(name, "::");
	return sep && uncore_component_has_pmu(c, name, (size_t)(sep - name));
}

int uncore_component_spell(const struct uncore_component *c, const char *given, char *name,
			   size_t len)
{
	/* perf's and Intel's spellings in ours: the PMU is found as in ours. */
	int rc = uncore_event_spelling(given, name, len);
	if (rc < 0) /* refused (perf's /u): explained for our PMUs only */
		return c && rc != UNCORE_ENOSPACE &&
			       uncore_component_has_pmu(c, given, strcspn(given, "/"))
			   ? rc
			   : UNCORE_NAME_NOT_OURS;
	/* PAPI asks every component about names with no PMU or another
	 * component's PMU (PAPI_TOT_INS, cycles, perf::...).  Before the first
	 * use those need no discovery: with kernel PMUs only, every name of
	 * ours is PMU::EVENT with one of the PMU names start-up announced. */
	if (c && c->deferred && !uncore_component_names_pmu(c, name))
		return UNCORE_NAME_NOT_OURS;
	return 0;
}

int uncore_component_code(const struct uncore_component *c, const char *name, uint32_t *code)
{
	int rc = uncore_native_code_spelled(c->native, name, code); /* spelled: component.h */
	/* PAPI offers names without a PMU, or of PMUs we do not have, to every
	 * component: those are not ours, and saying so would flood every tool
	 * that looks a name up (papi_native_avail --check). */
	if (rc == UNCORE_ENOEVENT && !uncore_component_names_pmu(c, name))
		return UNCORE_NAME_NOT_OURS;
	return rc;
}
