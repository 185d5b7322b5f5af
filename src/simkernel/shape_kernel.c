/* The shaped kernel (simkernel/shape_kernel.h): the sysfs tree of a shape and
 * a perf system-call layer whose counters count at the shape's rates on
 * CLOCK_MONOTONIC.  It keeps the kernel semantics the perf backend relies
 * on: uncore events are system-wide on a CPU (never per task), config bits
 * outside the PMU's format fields are refused, groups stay on one PMU and
 * CPU, enable/disable/reset (also per group), group reads with
 * time_enabled/time_running. */
#define _GNU_SOURCE
#include "simkernel/shape_kernel.h"

#include "backend/perf/perf_format.h"
#include "common/uncore_error.h"
#include "simkernel/shape_internal.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS 4096 /* a metric group over 2 x 128 CHAs opens over 1024 */
#define FD_BASE    2000 /* descriptors no real file uses in tests */
#define NS_PER_S   1000000000ull

struct spmu {
	char name[64];
	const struct shape_box *box;
	unsigned inst;
	uint32_t type;
	uint64_t valid[UNCORE_PERF_NCONFIG]; /* bits its format fields cover */
};

struct sevent {
	int used;
	unsigned pmu;
	unsigned socket;
	int cpu;
	int leader;
	uint64_t config[UNCORE_PERF_NCONFIG];
	uint64_t rate; /* counts per second */
	uint64_t read_format;
	int enabled;
	uint64_t since; /* when enabled last */
	uint64_t t_en;  /* enabled time before `since` */
	uint64_t base;  /* count at the last reset */
};

struct uncore_shape_kernel {
	struct uncore_perf_sys sys; /* first: the layer is the kernel */
	const struct uncore_shape *shape;
	uint64_t nread; /* read() calls answered (benchmarks, tests: one per PMU instance) */
	char root[512], pmu_root[600], cpu_root[600];
	int have_tree;
	unsigned npmus;
	struct spmu *pmus;
	/* Virtual time (uncore_shape_kernel_set_step): now_ns, the step a
	 * round adds, the round, and where the round is (enum round_state). */
	uint64_t step_ns, now_ns, round;
	int state;
	uint64_t read_round[MAX_EVENTS]; /* the round each leader was last read in */
	struct sevent ev[MAX_EVENTS];
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* The kernel's time: the wall clock, or its virtual time. */
static uint64_t k_now(const struct uncore_shape_kernel *k)
{
	return k->step_ns ? k->now_ns : mono_ns();
}

/* Where a round of virtual time is (uncore_shape_kernel_set_step): none
 * under way; begun by a look at the clock, no read yet; begun by reads that
 * no look has dated yet; looked at and read. */
enum round_state { ROUND_NONE, ROUND_LOOKED, ROUND_READ, ROUND_LOOKED_READ };

/* Any call but a read or a look at the clock ends a round. */
static void end_round(struct uncore_shape_kernel *k)
{
	k->state = ROUND_NONE;
}

/* Virtual time moves by one step when a round starts, and only then. */
static void start_round(struct uncore_shape_kernel *k, int state)
{
	k->now_ns += k->step_ns;
	k->round++;
	k->state = state;
}

/* A read of group `leader`: it starts a round when none is under way (the
 * first read after another call) or when the group was read in this one
 * already (a reader that reads again without looking at the clock). */
static void read_tick(struct uncore_shape_kernel *k, int leader)
{
	if (!k->step_ns)
		return;
	if (k->state == ROUND_NONE || k->read_round[leader] == k->round)
		start_round(k, ROUND_READ);
	else if (k->state == ROUND_LOOKED)
		k->state = ROUND_LOOKED_READ;
	k->read_round[leader] = k->round;
}

/* The tree. */

static int put(const char *root, const char *rel, const char *text)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return UNCORE_EIO;
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f)
		return UNCORE_EIO;
	int ok = fprintf(f, "%s\n", text) > 0;
	return fclose(f) == 0 && ok ? 0 : UNCORE_EIO;
}

static int write_tree(struct uncore_shape_kernel *k)
{
	const struct uncore_shape *s = k->shape;
	char rel[512], text[512];
	unsigned ncpus = s->sockets * s->cpus_per_socket;
	size_t used = 0;
	int rc;

	snprintf(text, sizeof(text), "0-%u", ncpus - 1);
	rc = put(k->root, "devices/system/cpu/online", text);
	for (unsigned c = 0; rc == 0 && c < ncpus; c++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%u/topology/physical_package_id",
			 c);
		snprintf(text, sizeof(text), "%u", c / s->cpus_per_socket);
		rc = put(k->root, rel, text);
	}
	/* The driver's cpumask: one CPU per socket (the first online one). */
	char mask[256];
	for (unsigned so = 0; so < s->sockets; so++)
		used += (size_t)snprintf(mask + used, sizeof(mask) - used, "%s%u", so ? "," : "",
					 so * s->cpus_per_socket);
	for (unsigned i = 0; rc == 0 && i < k->npmus; i++) {
		const struct spmu *p = &k->pmus[i];
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/type", p->name);
		snprintf(text, sizeof(text), "%u", p->type);
		rc = put(k->root, rel, text);
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/cpumask", p->name);
		if (rc == 0)
			rc = put(k->root, rel, mask);
		for (unsigned f = 0; rc == 0 && f < p->box->nformats; f++) {
			snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/format/%s", p->name,
				 p->box->formats[f].name);
			rc = put(k->root, rel, p->box->formats[f].format);
		}
		for (unsigned a = 0; rc == 0 && a < p->box->naliases; a++) {
			const struct shape_alias *al = &p->box->aliases[a];
			snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/events/%s", p->name,
				 al->name);
			rc = put(k->root, rel, al->terms);
			if (rc == 0 && al->scale) {
				snprintf(rel, sizeof(rel),
					 "bus/event_source/devices/%s/events/%s.scale", p->name,
					 al->name);
				rc = put(k->root, rel, al->scale);
			}
			if (rc == 0 && al->unit) {
				snprintf(rel, sizeof(rel),
					 "bus/event_source/devices/%s/events/%s.unit", p->name,
					 al->name);
				rc = put(k->root, rel, al->unit);
			}
		}
	}
	return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void uncore_shape_kernel_remove_tree(struct uncore_shape_kernel *k)
{
	if (k && k->have_tree) {
		nftw(k->root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
		k->have_tree = 0;
	}
}

/* The system calls. */

static struct sevent *event_of(struct uncore_shape_kernel *k, int fd)
{
	int i = fd - FD_BASE;
	return i >= 0 && i < MAX_EVENTS && k->ev[i].used ? &k->ev[i] : NULL;
}

static uint64_t enabled_ns(const struct sevent *e, uint64_t now)
{
	return e->t_en + (e->enabled ? now - e->since : 0);
}

static uint64_t count_of(const struct sevent *e, uint64_t now)
{
	unsigned __int128 c = (unsigned __int128)e->rate * enabled_ns(e, now) / NS_PER_S;
	return (uint64_t)c - e->base;
}

static int k_open(struct uncore_perf_sys *s, struct perf_event_attr *attr, pid_t pid, int cpu,
		  int group_fd, unsigned long flags)
{
	struct uncore_shape_kernel *k = (struct uncore_shape_kernel *)s;
	const struct uncore_shape *sh = k->shape;
	(void)flags;
	end_round(k);
	if (!attr || attr->size < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	unsigned p;
	for (p = 0; p < k->npmus && k->pmus[p].type != attr->type; p++)
		;
	if (p == k->npmus)
		return -ENOENT;
	if (pid != -1 || cpu < 0)
		return -EINVAL; /* uncore events are per socket, never per task */
	if ((unsigned)cpu >= sh->sockets * sh->cpus_per_socket)
		return -ENODEV;
	if (attr->sample_period || attr->exclude_user || attr->exclude_kernel || attr->exclude_hv)
		return -EINVAL;
	const uint64_t cfg[UNCORE_PERF_NCONFIG] = {attr->config, attr->config1, attr->config2};
	for (unsigned w = 0; w < UNCORE_PERF_NCONFIG; w++)
		if (cfg[w] & ~k->pmus[p].valid[w])
			return -EINVAL; /* the driver's event_mask check */
	unsigned slot;
	for (slot = 0; slot < MAX_EVENTS && k->ev[slot].used; slot++)
		;
	if (slot == MAX_EVENTS)
		return -EMFILE;
	struct sevent *e = &k->ev[slot];
	memset(e, 0, sizeof(*e));
	e->pmu = p;
	e->socket = (unsigned)cpu / sh->cpus_per_socket;
	e->cpu = (int)(e->socket * sh->cpus_per_socket); /* moved to the PMU's CPU */
	e->leader = (int)slot;
	memcpy(e->config, cfg, sizeof(cfg));
	e->rate =
	    uncore_shape_rate(sh, k->pmus[p].box->family, k->pmus[p].inst, e->socket, attr->config,
			      attr->config1);
	e->read_format = attr->read_format;
	if (group_fd >= 0) {
		struct sevent *l = event_of(k, group_fd);
		if (!l || l->leader != group_fd - FD_BASE || l->pmu != p || l->cpu != e->cpu)
			return -EINVAL;
		e->leader = group_fd - FD_BASE;
	}
	e->enabled = !attr->disabled;
	e->since = k_now(k);
	k->read_round[slot] = 0;
	e->used = 1;
	return FD_BASE + (int)slot;
}

static ssize_t k_read(struct uncore_perf_sys *s, int fd, void *buf, size_t len)
{
	struct uncore_shape_kernel *k = (struct uncore_shape_kernel *)s;
	struct sevent *e = event_of(k, fd);
	uint64_t out[3 + 2 * 64];
	k->nread++;
	size_t n = 0;
	if (!e)
		return -EBADF;
	read_tick(k, e->leader);
	uint64_t now = k_now(k);
	const uint64_t rf = e->read_format;
	int self = fd - FD_BASE;
	if (rf & PERF_FORMAT_GROUP) {
		const struct sevent *l = &k->ev[e->leader];
		unsigned nr = 0;
		for (unsigned i = 0; i < MAX_EVENTS; i++)
			nr += k->ev[i].used && k->ev[i].leader == e->leader;
		out[n++] = nr;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out[n++] = enabled_ns(l, now);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out[n++] = enabled_ns(l, now);
		for (unsigned i = 0; i < MAX_EVENTS; i++) {
			if (!k->ev[i].used || k->ev[i].leader != e->leader)
				continue;
			if (n + 2 > sizeof(out) / sizeof(out[0]))
				return -ENOSPC;
			out[n++] = count_of(&k->ev[i], now);
			if (rf & PERF_FORMAT_ID)
				out[n++] = (uint64_t)(FD_BASE + (int)i);
		}
	} else {
		out[n++] = count_of(e, now);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out[n++] = enabled_ns(e, now);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out[n++] = enabled_ns(e, now);
		if (rf & PERF_FORMAT_ID)
			out[n++] = (uint64_t)(FD_BASE + self);
	}
	if (len < n * sizeof(uint64_t))
		return -ENOSPC;
	memcpy(buf, out, n * sizeof(uint64_t));
	return (ssize_t)(n * sizeof(uint64_t));
}

static int k_ioctl(struct uncore_perf_sys *s, int fd, unsigned long req, unsigned long arg)
{
	struct uncore_shape_kernel *k = (struct uncore_shape_kernel *)s;
	struct sevent *e = event_of(k, fd);
	if (!e)
		return -EBADF;
	if (req != PERF_EVENT_IOC_ENABLE && req != PERF_EVENT_IOC_DISABLE &&
	    req != PERF_EVENT_IOC_RESET)
		return -ENOTTY;
	int group = (arg & PERF_IOC_FLAG_GROUP) != 0;
	end_round(k);
	uint64_t now = k_now(k);
	for (unsigned i = 0; i < MAX_EVENTS; i++) {
		struct sevent *m = &k->ev[i];
		if (!m->used || (group ? m->leader != e->leader : m != e))
			continue;
		if (req == PERF_EVENT_IOC_RESET) {
			m->base += count_of(m, now); /* only the count: the times stay */
		} else if (req == PERF_EVENT_IOC_ENABLE && !m->enabled) {
			m->enabled = 1;
			m->since = now;
		} else if (req == PERF_EVENT_IOC_DISABLE && m->enabled) {
			m->t_en += now - m->since;
			m->enabled = 0;
		}
	}
	return 0;
}

static int k_close(struct uncore_perf_sys *s, int fd)
{
	struct uncore_shape_kernel *k = (struct uncore_shape_kernel *)s;
	struct sevent *e = event_of(k, fd);
	if (!e)
		return -EBADF;
	end_round(k);
	int self = fd - FD_BASE;
	for (unsigned i = 0; i < MAX_EVENTS; i++) /* orphans lead themselves */
		if (k->ev[i].used && k->ev[i].leader == self && (int)i != self)
			k->ev[i].leader = (int)i;
	e->used = 0;
	return 0;
}

static void k_destroy(struct uncore_perf_sys *s)
{
	uncore_shape_kernel_destroy((struct uncore_shape_kernel *)s);
}

/* Lifetime. */

static int make_pmus(struct uncore_shape_kernel *k)
{
	const struct uncore_shape *s = k->shape;
	unsigned n = 0;
	for (unsigned b = 0; b < s->nboxes; b++)
		n += s->boxes[b].n;
	k->pmus = calloc(n ? n : 1, sizeof(*k->pmus));
	if (!k->pmus)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the shaped kernel");
	for (unsigned b = 0; b < s->nboxes; b++) {
		const struct shape_box *box = &s->boxes[b];
		for (unsigned i = 0; i < box->n; i++) {
			struct spmu *p = &k->pmus[k->npmus];
			/* uncore.c uncore_pmu_register: a type of one box is
			 * "uncore_<name>", the others "uncore_<name>_<index>". */
			if (box->n == 1)
				snprintf(p->name, sizeof(p->name), "%s", box->family);
			else
				snprintf(p->name, sizeof(p->name), "%s_%u", box->family, i);
			p->box = box;
			p->inst = i;
			p->type = SHAPE_FIRST_TYPE + k->npmus;
			for (unsigned f = 0; f < box->nformats; f++) {
				struct uncore_perf_field fld;
				int rc = uncore_perf_field_parse(box->formats[f].name,
								 box->formats[f].format, &fld);
				if (rc < 0)
					return rc; /* a table error: test_shape_kernel catches it */
				p->valid[fld.config] |= uncore_perf_field_mask(&fld);
			}
			k->npmus++;
		}
	}
	return 0;
}

int uncore_shape_kernel_create(const struct uncore_shape *s, const char *tmp,
			       struct uncore_shape_kernel **out)
{
	struct uncore_shape_kernel *k = calloc(1, sizeof(*k));
	if (!k)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the shaped kernel");
	k->shape = s;
	k->sys.open = k_open;
	k->sys.read = k_read;
	k->sys.ioctl = k_ioctl;
	k->sys.close = k_close;
	k->sys.destroy = k_destroy;
	int rc = make_pmus(k);
	if (rc < 0) {
		uncore_shape_kernel_destroy(k);
		return rc;
	}
	snprintf(k->root, sizeof(k->root), "/dev/shm/uncore-shape-%s-XXXXXX", s->name);
	if (!mkdtemp(k->root)) {
		snprintf(k->root, sizeof(k->root), "%s/uncore-shape-%s-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp", s->name);
		if (!mkdtemp(k->root)) {
			rc = uncore_fail(UNCORE_EIO,
					 "cannot create a directory for the %s kernel's sysfs tree "
					 "(%s): %s",
					 s->name, k->root, strerror(errno));
			uncore_shape_kernel_destroy(k);
			return rc;
		}
	}
	k->have_tree = 1;
	snprintf(k->pmu_root, sizeof(k->pmu_root), "%s/bus/event_source/devices", k->root);
	snprintf(k->cpu_root, sizeof(k->cpu_root), "%s/devices/system/cpu", k->root);
	rc = write_tree(k);
	if (rc < 0) {
		rc = uncore_fail(UNCORE_EIO, "cannot write the %s kernel's sysfs tree under %s",
				 s->name, k->root);
		uncore_shape_kernel_destroy(k);
		return rc;
	}
	*out = k;
	return 0;
}

const char *uncore_shape_kernel_pmu_root(const struct uncore_shape_kernel *k)
{
	return k->pmu_root;
}

const char *uncore_shape_kernel_cpu_root(const struct uncore_shape_kernel *k)
{
	return k->cpu_root;
}

void uncore_shape_kernel_set_step(struct uncore_shape_kernel *k, uint64_t step_ns)
{
	k->step_ns = step_ns;
	k->now_ns = 0;
	k->state = ROUND_NONE;
}

/* A reader on virtual time brackets its reads with the clock, as it does on
 * hardware (eventset.c read_timed: the clock, the counters, the clock; a
 * stop: the clock, then the final reads), so the look before the reads
 * starts their round and the counts they return are of the instant it
 * gives; the look after them gives the same instant and ends the round.
 * Reads no look preceded (a shared hub's reading at a set's start, which
 * the set's first read then takes over: share.c, `fresh`) are dated by the
 * next look, and the one after it ends their round.  Were time to move
 * inside the read instead, a look just before it would be a whole step
 * early: a rate twice the scenario's over a start and a stop. */
int uncore_shape_kernel_now(void *ctx, uint64_t *ns)
{
	struct uncore_shape_kernel *k = ctx;
	if (k->step_ns) {
		if (k->state == ROUND_NONE)
			start_round(k, ROUND_LOOKED);
		else if (k->state == ROUND_READ)
			k->state = ROUND_LOOKED_READ;
		else if (k->state == ROUND_LOOKED_READ)
			k->state = ROUND_NONE;
	}
	*ns = k_now(k);
	return 0;
}

uint64_t uncore_shape_kernel_reads(const struct uncore_shape_kernel *k)
{
	return k->nread;
}

struct uncore_perf_sys *uncore_shape_kernel_sys(struct uncore_shape_kernel *k)
{
	return &k->sys;
}

void uncore_shape_kernel_destroy(struct uncore_shape_kernel *k)
{
	if (!k)
		return;
	uncore_shape_kernel_remove_tree(k);
	free(k->pmus);
	free(k);
}
