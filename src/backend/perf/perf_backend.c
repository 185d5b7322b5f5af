/* The perf_event backend (see perf.h): discovery of the kernel's PMUs and
 * the CPUs that serve each socket, then programming a plan as one event
 * group per PMU instance and CPU, read with PERF_FORMAT_GROUP and the
 * enabled/running times.  The read path is a loop over prepared groups:
 * one read() each, no allocation, no string handling. */
#define _GNU_SOURCE
#include "backend/perf/perf_internal.h"

#include "backend/perf/perf_encode.h"
#include "common/uncore_error.h"
#include "topology/cpu_topology.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define READ_FORMAT                                                                                \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define HEADER_WORDS 3 /* nr, time_enabled, time_running */
_Static_assert(HEADER_WORDS == UNCORE_RAW_HEADROOM, "read_headroom's header is the read format's");

/* System calls, counted. */

static int sys_open(struct perf_backend *b, struct perf_event_attr *attr, int cpu, int group_fd)
{
	b->nopen++;
	return b->sys->open(b->sys, attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static int sys_ioctl(struct perf_backend *b, int fd, unsigned long req)
{
	b->nioctl++;
	return b->sys->ioctl(b->sys, fd, req, PERF_IOC_FLAG_GROUP);
}

static void sys_close(struct perf_backend *b, int fd)
{
	b->nclose++;
	b->sys->close(b->sys, fd);
}

/* Errors. */

static void config_text(const uint64_t cfg[UNCORE_PERF_NCONFIG], char *buf, size_t len)
{
	snprintf(buf, len, "config=0x%llx", (unsigned long long)cfg[0]);
	size_t used = strlen(buf);
	for (unsigned i = 1; i < UNCORE_PERF_NCONFIG; i++)
		if (cfg[i] && used < len)
			used += (size_t)snprintf(buf + used, len - used, ",config%u=0x%llx", i,
						 (unsigned long long)cfg[i]);
}

int perf_open_error(const struct perf_backend *b, int err, const struct uncore_perf_pmu *pmu,
		    int cpu, const uint64_t cfg[UNCORE_PERF_NCONFIG], unsigned group_size)
{
	char what[300], conf[120];
	config_text(cfg, conf, sizeof(conf));
	snprintf(what, sizeof(what), "perf_event_open(%s, %s, CPU %d)", pmu->name, conf, cpu);
	switch (err) {
	case EACCES:
	case EPERM:
		return uncore_perf_denied(what, pmu->name, b->paranoid_path);
	case ENOENT:
		return uncore_fail(
		    UNCORE_ENODEV,
		    "%s: the kernel does not know PMU type %u any more (its driver was "
		    "unloaded after discovery) or does not support this kind of event "
		    "on it; check %s/%s",
		    what, pmu->type, b->sysfs->root, pmu->name);
	case ENODEV:
		return uncore_fail(
		    UNCORE_ENODEV,
		    "%s: CPU %d is offline or %s has no unit serving it; bring the CPU "
		    "online or count another socket (:socket=N)",
		    what, cpu, pmu->name);
	case EINVAL:
		return uncore_fail(
		    UNCORE_EINVAL,
		    "%s: the kernel refused the event: a value %s does not accept, or a "
		    "group of %u events that does not fit its counters. Check the event "
		    "(papi_native_avail shows %s's fields), or put fewer events of this "
		    "PMU in one event set",
		    what, pmu->name, group_size, pmu->name);
	case EMFILE:
	case ENFILE:
		return uncore_fail(
		    UNCORE_ELIMIT,
		    "%s: out of file descriptors (every counted event needs one; %llu "
		    "opened so far): raise the limit ('ulimit -n', RLIMIT_NOFILE) or "
		    "count fewer events",
		    what, (unsigned long long)b->nopen);
	case EBUSY:
		return uncore_fail(
		    UNCORE_EBUSY,
		    "%s: the PMU is busy: another user holds it exclusively (a tool "
		    "programming these counters directly, or an exclusive perf event); "
		    "stop it and retry",
		    what);
	case EOPNOTSUPP:
		return uncore_fail(UNCORE_ENOSUPP, "%s: %s does not support this kind of event",
				   what, pmu->name);
	case E2BIG:
		return uncore_fail(UNCORE_ENOSUPP,
				   "%s: this kernel is older than the perf_event_attr this program "
				   "was built with",
				   what);
	default:
		return uncore_fail(uncore_error_from_errno(err), "%s: %s", what, strerror(err));
	}
}

/* Discovery. */

/* Sockets (in package-id order), the topology's CPU of each, and every
 * online CPU's socket. */
static int read_cpus(const char *root, struct uncore_machine *m)
{
	struct uncore_cpu_topology topo;
	int rc = uncore_topology_read(root, NULL, 0, &topo);
	if (rc < 0)
		return rc;
	if (topo.nsockets == 0 || topo.nsockets > UNCORE_MACHINE_MAX_SOCKETS)
		return uncore_fail(UNCORE_ENOSUPP, "%u sockets: supported are 1 to %d",
				   topo.nsockets, UNCORE_MACHINE_MAX_SOCKETS);
	m->nsockets = topo.nsockets;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		m->socket_cpu[s] = s < topo.nsockets ? topo.socket[s].cpu : -1;
	m->ncpus = topo.ncpu_ids < UNCORE_MAX_CPUS ? topo.ncpu_ids : UNCORE_MAX_CPUS;
	for (unsigned c = 0; c < m->ncpus; c++) {
		m->cpu_socket[c] = -1;
		for (unsigned s = 0; s < topo.nsockets; s++)
			if (topo.cpu_package[c] >= 0 &&
			    (unsigned)topo.cpu_package[c] == topo.socket[s].package_id)
				m->cpu_socket[c] = (int16_t)s;
	}
	return 0;
}

struct mask_scan {
	const struct uncore_machine *m;
	struct perf_binding *bind;
};

static int note_mask_cpu(unsigned cpu, void *arg)
{
	struct mask_scan *ms = arg;
	if (cpu < ms->m->ncpus && ms->m->cpu_socket[cpu] >= 0) {
		int s = ms->m->cpu_socket[cpu];
		if (ms->bind->cpu[s] < 0)
			ms->bind->cpu[s] = (int)cpu;
	}
	return 0;
}

/* The CPU per socket of a bound PMU: the first of its cpumask on that
 * socket (the kernel redirects an uncore event to that CPU anyway); a PMU
 * without a cpumask counts on any CPU, so the topology's. */
static int bind_cpus(const struct uncore_machine *m, struct perf_binding *bd)
{
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		bd->cpu[s] = -1;
	if (!bd->pmu)
		return 0;
	if (!bd->pmu->has_cpumask || !bd->pmu->cpumask[0]) {
		for (unsigned s = 0; s < m->nsockets; s++)
			bd->cpu[s] = m->socket_cpu[s];
		return 0;
	}
	struct mask_scan ms = {.m = m, .bind = bd};
	int rc = uncore_cpulist_parse(bd->pmu->cpumask, note_mask_cpu, &ms);
	if (rc < 0)
		uncore_error_clear(); /* an unreadable mask: the PMU serves no socket */
	return 0;
}

static void release_program(struct perf_backend *b);

static void free_backend(struct perf_backend *b)
{
	release_program(b);
	free(b->status);
	perf_kernel_events_fini(b);
	uncore_perf_sysfs_free(b->sysfs);
	free(b->boxes);
	free(b->bind);
	if (b->sys && b->sys->destroy)
		b->sys->destroy(b->sys);
	free(b);
}

static const struct uncore_backend_ops perf_ops;
static int perf_stats(struct uncore_backend *base, struct uncore_backend_stats *out);
static int perf_slot_status(struct uncore_backend *base, unsigned slot,
			    struct uncore_slot_status *out);

int uncore_perf_open(const struct uncore_perf_config *cfg, struct uncore_backend **out)
{
	struct perf_backend *b = calloc(1, sizeof(*b));
	struct uncore_machine *m;
	int rc;

	if (!b) {
		uncore_perf_sysfs_free(cfg->sysfs);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the perf backend");
	}
	b->sys = cfg->sys ? cfg->sys : uncore_perf_sys_real();
	b->sys_real = b->sys == uncore_perf_sys_real();
	snprintf(b->paranoid_path, sizeof(b->paranoid_path), "%s",
		 cfg->paranoid_path ? cfg->paranoid_path : UNCORE_PERF_PARANOID_PATH);
	b->base.ops = &perf_ops;
	b->base.value_bits = 64;
	m = &b->base.machine;

	if (cfg->sysfs) {
		b->sysfs = cfg->sysfs; /* read by the caller's probes: the directory once */
		rc = 0;
	} else {
		rc = uncore_perf_sysfs_read(cfg->pmu_root, &b->sysfs);
	}
	if (rc == 0 && !cfg->listing)
		rc = read_cpus(cfg->cpu_root ? cfg->cpu_root : UNCORE_SYSFS_CPU_ROOT, m);
	if (rc < 0)
		goto fail;
	/* Box types: the table's, then at most one family per kernel PMU.
	 * Sized to that, not to UNCORE_MAX_BOX_TYPES: the bindings of 64 box
	 * types are 80 KB that start-up would clear for nothing. */
	unsigned nbox = (cfg->plat ? cfg->plat->nboxes : 0) + b->sysfs->npmus;
	if (nbox > UNCORE_MAX_BOX_TYPES)
		nbox = UNCORE_MAX_BOX_TYPES;
	b->boxes = calloc(UNCORE_MAX_BOX_TYPES, sizeof(*b->boxes));
	b->bind = calloc((nbox ? nbox : 1) * PERF_MAX_INSTANCES, sizeof(*b->bind));
	if (!b->boxes || !b->bind) {
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory for the perf backend");
		goto fail;
	}
	b->plat.name = cfg->plat ? cfg->plat->name : "kernel";
	b->plat.platform = cfg->plat ? cfg->plat->platform : NULL;
	b->plat.boxes = b->boxes;
	for (unsigned i = 0; cfg->plat && i < cfg->plat->nboxes && i < UNCORE_MAX_BOX_TYPES; i++) {
		const struct uncore_box_type *bt = cfg->plat->boxes[i];
		b->boxes[b->plat.nboxes++] = bt;
		for (unsigned k = 0; k < bt->ninstances && k < PERF_MAX_INSTANCES && bt->perf_pmu;
		     k++) {
			char name[64];
			if (uncore_box_perf_name(bt, (int)k, name, sizeof(name)) == 0)
				perf_bind(b, i, k)->pmu = uncore_perf_sysfs_find(b->sysfs, name);
			uncore_error_clear();
		}
	}
	b->ntable = b->plat.nboxes;
	rc = perf_kernel_events_init(b);
	if (rc < 0)
		goto fail;
	m->plat = &b->plat;
	for (unsigned box = 0; box < b->plat.nboxes; box++)
		for (unsigned i = 0; i < PERF_MAX_INSTANCES; i++) {
			struct perf_binding *bd = perf_bind(b, box, i);
			bind_cpus(m, bd);
			for (unsigned s = 0; s < m->nsockets; s++)
				if (bd->pmu && bd->cpu[s] >= 0)
					uncore_inst_add(&m->present[box][s], i);
		}
	snprintf(m->origin, sizeof(m->origin), "%s", cfg->origin ? cfg->origin : "hardware");
	if (b->plat.nboxes == 0) {
		rc = uncore_fail(UNCORE_ENODEV,
				 "%s has no PMU that can be counted by its sysfs formats",
				 b->sysfs->root);
		goto fail;
	}
	if (!cfg->no_probe && !cfg->listing) {
		rc = uncore_perf_permission(b->sys, b->paranoid_path);
		if (rc < 0)
			goto fail;
	}
	*out = &b->base;
	return 0;
fail : {
	struct uncore_saved_error err;
	uncore_error_save(&err, rc);
	b->sys = NULL; /* the caller's layer is ours to destroy only on success */
	free_backend(b);
	return uncore_error_restore(&err);
}
}

/* Programming. */

static void release_program(struct perf_backend *b)
{
	/* Keep the last times for uncore_set_event_status after a stop. */
	for (unsigned k = 0; b->plan && b->slot_group && k < b->nstatus; k++) {
		unsigned g = b->slot_group[k];
		if (g < b->ngroups && b->groups[g].buf) {
			b->status[k].time_enabled = b->groups[g].buf[1];
			b->status[k].time_running = b->groups[g].buf[2];
		}
	}
	for (unsigned g = 0; g < b->ngroups; g++) {
		struct perf_group *gr = &b->groups[g];
		/* Members first: closing a leader would orphan them. */
		for (unsigned k = gr->n; k-- > 0;)
			if (gr->fds[k] >= 0)
				sys_close(b, gr->fds[k]);
		free(gr->fds);
		free(gr->slots);
		free(gr->buf);
	}
	free(b->groups);
	free(b->slot_group);
	b->groups = NULL;
	b->slot_group = NULL;
	b->ngroups = 0;
	b->in_place = 0;
	b->plan = NULL;
	b->running = 0;
}

/* The config words of slot `s`. */
static int slot_config(struct perf_backend *b, const struct uncore_plan *plan,
		       const struct uncore_slot *s, const struct uncore_perf_pmu *pmu,
		       uint64_t cfg[UNCORE_PERF_NCONFIG])
{
	const struct uncore_box_type *bt = b->plat.boxes[s->box];
	if (bt->flags & UNCORE_BOXF_KERNEL) {
		const struct perf_attr *a = perf_kernel_attr(b, s->ctl);
		if (!a)
			return uncore_fail(UNCORE_EINVAL, "kernel event id %llu unknown",
					   (unsigned long long)s->ctl);
		memcpy(cfg, a->cfg, sizeof(a->cfg));
		return 0;
	}
	const struct uncore_boxprog *bp = &plan->boxes[s->boxprog];
	if (bt->kernel_match_rules && (s->filter_mask[0] | s->filter_mask[1])) {
		int rc = bt->kernel_match_rules(bt, s->instance, s->ctl);
		if (rc < 0)
			return rc;
	}
	struct uncore_perf_table_event ev = {
	    .ctl = s->ctl,
	    .filter = bp->filter,
	    .filter_mask = s->filter_mask,
	    .nfilters = bp->nfilters,
	    .fixed = s->counter == UNCORE_SLOT_FIXED,
	    .code = s->code,
	};
	return uncore_perf_encode_table(bt, pmu, &ev, cfg);
}

static int find_group(struct perf_backend *b, const struct uncore_perf_pmu *pmu, int cpu,
		      unsigned nslots)
{
	for (unsigned g = 0; g < b->ngroups; g++)
		if (b->groups[g].pmu == pmu && b->groups[g].cpu == cpu)
			return (int)g;
	struct perf_group *gr = &b->groups[b->ngroups];
	memset(gr, 0, sizeof(*gr));
	gr->pmu = pmu;
	gr->cpu = cpu;
	gr->leader = -1;
	gr->fds = malloc(nslots * sizeof(*gr->fds));
	gr->slots = malloc(nslots * sizeof(*gr->slots));
	if (!gr->fds || !gr->slots)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for event groups");
	return (int)b->ngroups++;
}

/* What perf_read needs of a complete group: its buffer, the size read()
 * returns, and whether its values go to consecutive slots (the plan puts
 * the events of one PMU side by side when they were added so). */
static int prepare_read(struct perf_group *gr)
{
	gr->bytes = (HEADER_WORDS + gr->n) * sizeof(uint64_t);
	gr->buf = calloc(HEADER_WORDS + gr->n, sizeof(uint64_t));
	if (!gr->buf)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for read buffers");
	gr->first_slot = gr->slots[0];
	gr->contiguous = 1;
	for (unsigned k = 1; k < gr->n; k++)
		if (gr->slots[k] != gr->first_slot + k)
			gr->contiguous = 0;
	return 0;
}

static int perf_program(struct uncore_backend *base, const struct uncore_plan *plan)
{
	struct perf_backend *b = (struct perf_backend *)base;
	unsigned n = plan->nslots ? plan->nslots : 1;
	int rc = 0;

	if (b->plan)
		return uncore_fail(UNCORE_EBUSY,
				   "this backend is already counting an event set; stop it first");
	free(b->status); /* the last set's, kept for its status until now */
	b->nstatus = 0;
	b->groups = calloc(n, sizeof(*b->groups));
	b->slot_group = calloc(n, sizeof(*b->slot_group));
	b->status = calloc(n, sizeof(*b->status));
	if (!b->groups || !b->slot_group || !b->status) {
		release_program(b);
		return uncore_fail(UNCORE_ENOMEM, "out of memory programming %u counters",
				   plan->nslots);
	}
	b->plan = plan;
	b->nstatus = plan->nslots;
	for (unsigned k = 0; k < plan->nslots && rc == 0; k++) {
		const struct uncore_slot *s = &plan->slots[k];
		struct perf_binding *bd = perf_bind(b, s->box, s->instance);
		int cpu = bd->pmu ? bd->cpu[s->socket] : -1;
		uint64_t cfg[UNCORE_PERF_NCONFIG];
		if (cpu < 0) {
			char name[64];
			uncore_box_instance_name(b->plat.boxes[s->box], s->instance, name,
						 sizeof(name));
			rc = uncore_fail(UNCORE_ENODEV, "%s on socket %u has no kernel PMU", name,
					 s->socket);
			break;
		}
		rc = slot_config(b, plan, s, bd->pmu, cfg);
		if (rc < 0)
			break;
		int g = find_group(b, bd->pmu, cpu, n);
		if (g < 0) {
			rc = g;
			break;
		}
		struct perf_group *gr = &b->groups[g];
		struct perf_event_attr attr;
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = bd->pmu->type;
		attr.config = cfg[0];
		attr.config1 = cfg[1];
		attr.config2 = cfg[2];
		attr.read_format = READ_FORMAT;
		attr.disabled = gr->n == 0; /* the leader holds the group until start */
		int fd = sys_open(b, &attr, cpu, gr->n ? gr->leader : -1);
		if (fd < 0) {
			rc = perf_open_error(b, -fd, bd->pmu, cpu, cfg, gr->n + 1);
			break;
		}
		if (gr->n == 0)
			gr->leader = fd;
		b->slot_group[k] = (unsigned)g;
		gr->slots[gr->n] = k;
		gr->fds[gr->n++] = fd;
	}
	for (unsigned g = 0; g < b->ngroups && rc == 0; g++)
		rc = prepare_read(&b->groups[g]);
	/* One group whose values are the plan's slots in order: read_headroom
	 * reads it in place. */
	b->in_place = rc == 0 && b->ngroups == 1 && b->groups[0].contiguous &&
		      b->groups[0].first_slot == 0 && b->groups[0].n == plan->nslots;
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		release_program(b);
		return uncore_error_restore(&err);
	}
	return 0;
}

static int group_ioctl(struct perf_backend *b, unsigned long req, const char *what)
{
	for (unsigned g = 0; g < b->ngroups; g++) {
		int rc = sys_ioctl(b, b->groups[g].leader, req);
		if (rc < 0)
			return uncore_fail(uncore_error_from_errno(-rc),
					   "%s the %s group on CPU %d: %s", what,
					   b->groups[g].pmu->name, b->groups[g].cpu, strerror(-rc));
	}
	return 0;
}

static int perf_start(struct uncore_backend *base)
{
	struct perf_backend *b = (struct perf_backend *)base;
	if (!b->plan)
		return uncore_fail(UNCORE_ESTATE, "start before program");
	int rc = group_ioctl(b, PERF_EVENT_IOC_RESET, "resetting");
	if (rc == 0)
		rc = group_ioctl(b, PERF_EVENT_IOC_ENABLE, "enabling");
	if (rc == 0)
		b->running = 1;
	return rc;
}

static int perf_stop(struct uncore_backend *base)
{
	struct perf_backend *b = (struct perf_backend *)base;
	if (!b->plan || !b->running)
		return 0;
	int rc = group_ioctl(b, PERF_EVENT_IOC_DISABLE, "disabling");
	if (rc == 0)
		b->running = 0;
	return rc;
}

/* A count scaled to the whole enabled time when the kernel multiplexed
 * the group (time_running < time_enabled): count * enabled / running, as
 * perf(1) does.  Never counted at all: 0 (the status says so). */
uint64_t uncore_perf_scale(uint64_t count, uint64_t enabled, uint64_t running)
{
	if (running == 0)
		return 0;
	if (running >= enabled)
		return count;
	return (uint64_t)((unsigned __int128)count * enabled / running);
}

/* A group's read() failed or returned another layout than programmed. */
static __attribute__((noinline, cold)) int read_failed(struct perf_backend *b,
						       const struct perf_group *gr, ssize_t got)
{
	b->nread += (uint64_t)(gr - b->groups) + 1;
	if (got < 0)
		return uncore_fail(
		    uncore_error_from_errno((int)-got), "read() of the %s group on CPU %d: %s%s",
		    gr->pmu->name, gr->cpu, strerror((int)-got),
		    got == -ENODEV ? " (the CPU went offline or the PMU was removed)" : "");
	return uncore_fail(UNCORE_EIO,
			   "read() of the %s group on CPU %d returned %zd bytes for %llu "
			   "events, expected %zu bytes for %u",
			   gr->pmu->name, gr->cpu, got, (unsigned long long)gr->buf[0], gr->bytes,
			   gr->n);
}

/* The values of a group the kernel multiplexed, each scaled to the
 * group's enabled time. */
static __attribute__((noinline)) void store_scaled(const struct perf_group *gr, uint64_t *raw)
{
	uint64_t enabled = gr->buf[1], running = gr->buf[2];
	for (unsigned k = 0; k < gr->n; k++)
		raw[gr->slots[k]] = uncore_perf_scale(gr->buf[HEADER_WORDS + k], enabled, running);
}

/* The read path: per group one read(), one test of its times, its values
 * stored once where program() said; nothing else.  A failed read leaves
 * no value valid (value_bits 64, marks_unread 0). */
static int perf_read(struct uncore_backend *base, uint64_t *raw)
{
	struct perf_backend *b = (struct perf_backend *)base;
	const struct perf_group *gr = b->groups, *end = gr + b->ngroups;
	int scaled = 0;

	if (!b->plan)
		return uncore_fail(UNCORE_ESTATE, "read before program");
	for (; gr < end; gr++) {
		ssize_t got = b->sys_real ? uncore_perf_read_real(gr->leader, gr->buf, gr->bytes)
					  : b->sys->read(b->sys, gr->leader, gr->buf, gr->bytes);
		if ((size_t)got != gr->bytes || gr->buf[0] != gr->n)
			return read_failed(b, gr, got);
		const uint64_t *val = gr->buf + HEADER_WORDS;
		if (gr->buf[2] < gr->buf[1]) { /* running < enabled: multiplexed */
			scaled = 1;
			store_scaled(gr, raw);
		} else if (gr->contiguous) {
			uint64_t *dst = raw + gr->first_slot;
			if (gr->n <= 2) { /* most uncore groups: two stores beat a call */
				dst[0] = val[0];
				dst[gr->n - 1] = val[gr->n - 1];
			} else {
				memcpy(dst, val, gr->n * sizeof(*val));
			}
		} else {
			for (unsigned k = 0; k < gr->n; k++)
				raw[gr->slots[k]] = val[k];
		}
	}
	b->nread += b->ngroups;
	base->read_scaled = scaled;
	return 0;
}

/* read_headroom (backend.h): with one event group whose values are the
 * plan's slots in order (a set's events of one PMU instance, the usual
 * case), its read() goes straight into raw, the kernel's three header
 * words into the headroom in front of it: no copy, nothing else but the
 * test of its length and times.  Anything else: perf_read. */
static int perf_read_headroom(struct uncore_backend *base, uint64_t *raw)
{
	struct perf_backend *b = (struct perf_backend *)base;
	if (!b->in_place)
		return perf_read(base, raw);
	struct perf_group *gr = b->groups;
	uint64_t *head = raw - HEADER_WORDS;
	ssize_t got = b->sys_real ? uncore_perf_read_real(gr->leader, head, gr->bytes)
				  : b->sys->read(b->sys, gr->leader, head, gr->bytes);
	if ((size_t)got != gr->bytes || head[0] != gr->n) {
		gr->buf[0] = got > 0 ? head[0] : 0; /* read_failed's detail */
		return read_failed(b, gr, got);
	}
	/* The times stay the group's for perf_slot_status. */
	gr->buf[1] = head[1];
	gr->buf[2] = head[2];
	b->nread++;
	base->read_scaled = head[2] < head[1]; /* running < enabled: multiplexed */
	if (__builtin_expect(base->read_scaled, 0))
		for (unsigned k = 0; k < gr->n; k++)
			raw[k] = uncore_perf_scale(raw[k], head[1], head[2]);
	return 0;
}

static int perf_unprogram(struct uncore_backend *base)
{
	struct perf_backend *b = (struct perf_backend *)base;
	if (!b->plan)
		return 0;
	int rc = perf_stop(base);
	release_program(b);
	return rc;
}

static void perf_destroy(struct uncore_backend *base)
{
	if (base)
		free_backend((struct perf_backend *)base);
}

static int perf_stats(struct uncore_backend *base, struct uncore_backend_stats *out)
{
	struct perf_backend *b = (struct perf_backend *)base;
	out->reads = b->nread;
	out->writes = b->nioctl;
	out->syscalls = b->nopen + b->nread + b->nioctl + b->nclose;
	return 0;
}

static int perf_slot_status(struct uncore_backend *base, unsigned slot,
			    struct uncore_slot_status *out)
{
	struct perf_backend *b = (struct perf_backend *)base;
	if (slot >= b->nstatus)
		return uncore_fail(UNCORE_EINVAL, "no slot %u programmed", slot);
	if (b->plan) { /* the times of the slot's group at the last read */
		const struct perf_group *gr = &b->groups[b->slot_group[slot]];
		out->time_enabled = gr->buf ? gr->buf[1] : 0;
		out->time_running = gr->buf ? gr->buf[2] : 0;
		return 0;
	}
	*out = b->status[slot];
	return 0;
}

int uncore_perf_kernel_alias(const struct uncore_backend *base, const char *family,
			     const char *alias, struct uncore_perf_alias *out)
{
	if (!base || base->ops != &perf_ops)
		return uncore_fail(UNCORE_EINVAL, "not a perf backend");
	const struct perf_backend *b = (const struct perf_backend *)base;
	for (unsigned f = 0; f < b->kev.nfam; f++) {
		const struct perf_family *fam = &b->kev.fam[f];
		if (strcasecmp(fam->name, family) != 0)
			continue;
		const struct uncore_perf_alias *a = uncore_perf_pmu_alias(fam->ref, alias);
		if (!a)
			return uncore_fail(UNCORE_ENOEVENT, "the kernel PMU %s has no event %s",
					   family, alias);
		*out = *a;
		return 0;
	}
	return uncore_fail(UNCORE_ENOEVENT, "the kernel has no PMU %s", family);
}

int uncore_perf_binding(const struct uncore_backend *base, unsigned box, unsigned instance,
			unsigned socket, const char **pmu, int *cpu)
{
	if (!base || base->ops != &perf_ops)
		return uncore_fail(UNCORE_EINVAL, "not a perf backend");
	struct perf_backend *b = (struct perf_backend *)base;
	if (box >= b->plat.nboxes || instance >= PERF_MAX_INSTANCES ||
	    socket >= UNCORE_MACHINE_MAX_SOCKETS)
		return uncore_fail(UNCORE_ENODEV, "no box %u instance %u socket %u", box, instance,
				   socket);
	const struct perf_binding *bd = perf_bind(b, box, instance);
	if (!bd->pmu || bd->cpu[socket] < 0)
		return uncore_fail(UNCORE_ENODEV,
				   "box %u instance %u has no kernel PMU on socket %u", box,
				   instance, socket);
	*pmu = bd->pmu->name;
	*cpu = bd->cpu[socket];
	return 0;
}

int uncore_perf_slot_attr(const struct uncore_backend *base, const struct uncore_plan *plan,
			  unsigned slot, struct uncore_perf_slot_attr *out)
{
	if (!base || base->ops != &perf_ops)
		return uncore_fail(UNCORE_EINVAL, "not a perf backend");
	struct perf_backend *b = (struct perf_backend *)base;
	if (slot >= plan->nslots)
		return uncore_fail(UNCORE_EINVAL, "no slot %u in a plan of %u", slot, plan->nslots);
	const struct uncore_slot *s = &plan->slots[slot];
	const char *pmu;
	int cpu;
	int rc = uncore_perf_binding(base, s->box, s->instance, s->socket, &pmu, &cpu);
	if (rc < 0)
		return rc;
	const struct perf_binding *bd = perf_bind(b, s->box, s->instance);
	uint64_t cfg[UNCORE_PERF_NCONFIG];
	rc = slot_config(b, plan, s, bd->pmu, cfg);
	if (rc < 0)
		return rc;
	out->pmu = pmu;
	out->type = bd->pmu->type;
	out->cpu = cpu;
	memcpy(out->config, cfg, sizeof(cfg));
	return 0;
}

int uncore_perf_calls(const struct uncore_backend *base, struct uncore_perf_calls *out)
{
	if (!base || base->ops != &perf_ops)
		return uncore_fail(UNCORE_EINVAL, "not a perf backend");
	const struct perf_backend *b = (const struct perf_backend *)base;
	out->open = b->nopen;
	out->read = b->nread;
	out->ioctl = b->nioctl;
	out->close = b->nclose;
	return 0;
}

static const struct uncore_backend_ops perf_ops = {
    .name = "perf",
    .program = perf_program,
    .start = perf_start,
    .stop = perf_stop,
    .read = perf_read,
    .unprogram = perf_unprogram,
    .destroy = perf_destroy,
    .stats = perf_stats,
    .slot_status = perf_slot_status,
    .read_headroom = perf_read_headroom,
};

/* Probes for the backend choice. */

int uncore_perf_sysfs_has_platform_pmu(const struct uncore_perf_sysfs *s,
				       const struct uncore_event_platform *plat)
{
	if (!plat || !s)
		return 0;
	for (unsigned b = 0; b < plat->nboxes; b++)
		for (unsigned i = 0; i < plat->boxes[b]->ninstances; i++) {
			char name[64];
			if (uncore_box_perf_name(plat->boxes[b], (int)i, name, sizeof(name)) < 0) {
				uncore_error_clear();
				break;
			}
			if (uncore_perf_sysfs_find(s, name))
				return 1;
		}
	return 0;
}

int uncore_perf_sysfs_has_kernel_pmus(const struct uncore_perf_sysfs *s)
{
	for (unsigned i = 0; s && i < s->npmus; i++)
		if (uncore_perf_pmu_countable(&s->pmus[i], NULL) &&
		    (s->pmus[i].naliases || s->pmus[i].nfields))
			return 1;
	return 0;
}

/* The same from a directory, read for the question alone. */
static int probe_root(const char *pmu_root, const struct uncore_event_platform *plat)
{
	struct uncore_perf_sysfs *s;
	if (uncore_perf_sysfs_read(pmu_root, &s) < 0) {
		uncore_error_clear();
		return 0;
	}
	int found = plat ? uncore_perf_sysfs_has_platform_pmu(s, plat)
			 : uncore_perf_sysfs_has_kernel_pmus(s);
	uncore_perf_sysfs_free(s);
	return found;
}

int uncore_perf_has_platform_pmu(const char *pmu_root, const struct uncore_event_platform *plat)
{
	return plat ? probe_root(pmu_root, plat) : 0;
}

int uncore_perf_has_kernel_pmus(const char *pmu_root)
{
	return probe_root(pmu_root, NULL);
}
