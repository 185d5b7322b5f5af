/* The simulated kernel's perf_event system calls (see uncore_sim_perf.h).
 * Like the Linux uncore driver it keeps, per box instance and socket, the
 * set of enabled events; whenever that set changes it folds the counters
 * into the events' 64-bit counts and reprograms the box (here: a direct
 * backend over the simulator's registers, one per box, so the programming
 * is the one real hardware gets).  Events that do not fit the box's
 * counters stay enabled but do not run (time_running stops), as a kernel
 * that has not rotated them in yet. */
#define _GNU_SOURCE /* nftw */
#include "simkernel/uncore_sim_perf.h"

#include "backend/direct/direct.h"
#include "backend/perf/perf_format.h"
#include "backend/perf/perf_sysfs.h"
#include "common/uncore_error.h"
#include "platform/hswep/hswep_kernel.h"
#include "platform/platform.h"
#include "simkernel/sim_perf_internal.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#define FD_BASE    1000
#define MAX_EVENTS 1024
#define NS_PER_S   1000000000ull

enum pmu_what { PMU_BOX, PMU_MSR, PMU_SOFTWARE };

/* One box instance on one socket, as the driver programs it. */
struct hwbox {
	struct uncore_backend *be; /* direct backend, created on first use */
	struct uncore_plan plan;
	struct uncore_slot slots[HSWEP_MAX_COUNTERS + 1];
	struct uncore_boxprog prog;
	unsigned first, count, slot_index[HSWEP_MAX_COUNTERS + 1];
	int programmed;
};

struct kpmu {
	const struct uncore_perf_pmu *desc; /* parsed from the tree */
	enum pmu_what what;
	int box;       /* hswep platform box index (PMU_BOX) */
	unsigned inst; /* instance */
	const struct sk_kind *kind;
	unsigned share_num, share_den;
	uint64_t last_cfg[3];
	int last_cpu;
	struct hwbox hw[UNCORE_MACHINE_MAX_SOCKETS];
};

struct kevent {
	int used;
	struct kpmu *pmu;
	int cpu, socket;
	int leader; /* index of the leader (itself for a leader) */
	uint64_t read_format;
	uint64_t cfg[3];
	uint64_t ctl, filter[2];
	int band;         /* PCU FREQ_BANDn_CYCLES: the band it asked for (-1: none) */
	uint8_t band_val; /* the value the driver keeps for it (hswep_kernel_pcu_band) */
	int fixed;
	int enabled;
	/* Counting. */
	int scheduled;                 /* holds a counter of its box */
	unsigned slot;                 /* in its hwbox plan */
	uint64_t hw;                   /* folded hardware count (before the share) */
	uint64_t base;                 /* value at the last reset */
	uint64_t prev;                 /* last raw reading while scheduled */
	uint64_t t_enabled, t_running; /* ns accumulated */
	uint64_t since;                /* when the current enabled stretch began */
	int running_now;               /* enabled and scheduled since `since` */
};

struct uncore_sim_perf {
	struct uncore_perf_sys sys; /* first: the layer's pointer is the kernel's */
	struct uncore_sim *sim;
	struct uncore_backend *discover; /* direct backend used for the machine */
	struct uncore_machine machine;
	char root[512], pmu_root[600], cpu_root[600];
	struct uncore_perf_sysfs *sysfs;
	struct kpmu *pmus;
	unsigned npmus;
	struct kevent ev[MAX_EVENTS];
	uint64_t tsc_hz;
	int privileged;
	struct {
		unsigned nth, err;
	} fail[UNCORE_SIM_PERF_OPS];
	struct uncore_sim_perf_stats st;
	struct uncore_regio *own_io; /* the machine, when the kernel owns it */
	int own_root;                /* remove the tree at destroy */
};

static uint64_t now_ns(struct uncore_sim_perf *k)
{
	uint64_t ns = 0;
	uncore_sim_now(k->sim, &ns);
	return ns;
}

static int injected(struct uncore_sim_perf *k, enum uncore_sim_perf_op op)
{
	if (k->fail[op].nth == 0)
		return 0;
	if (--k->fail[op].nth)
		return 0;
	return -(int)k->fail[op].err;
}

static struct kevent *event_of(struct uncore_sim_perf *k, int fd)
{
	int i = fd - FD_BASE;
	if (i < 0 || i >= MAX_EVENTS || !k->ev[i].used)
		return NULL;
	return &k->ev[i];
}

static uint64_t width_mask(unsigned w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

/* Box programming. */

/* Fold the box's counters into its scheduled events. */
static int hw_sync(struct uncore_sim_perf *k, struct kpmu *p, unsigned socket)
{
	struct hwbox *h = &p->hw[socket];
	uint64_t raw[HSWEP_MAX_COUNTERS + 1];
	if (!h->programmed)
		return 0;
	int rc = h->be->ops->read(h->be, raw);
	if (rc < 0)
		return rc;
	for (unsigned i = 0; i < MAX_EVENTS; i++) {
		struct kevent *e = &k->ev[i];
		if (!e->used || e->pmu != p || e->socket != (int)socket || !e->scheduled)
			continue;
		uint64_t r = raw[e->slot];
		e->hw += (r - e->prev) & width_mask(h->slots[e->slot].width);
		e->prev = r;
	}
	return 0;
}

static int effective(const struct uncore_sim_perf *k, const struct kevent *e)
{
	return e->enabled && k->ev[e->leader].enabled;
}

/* Close the current time stretch of every event of the box. */
static void settle_times(struct uncore_sim_perf *k, struct kpmu *p, int socket, uint64_t now)
{
	for (unsigned i = 0; i < MAX_EVENTS; i++) {
		struct kevent *e = &k->ev[i];
		if (!e->used || e->pmu != p || (socket >= 0 && e->socket != socket))
			continue;
		if (effective(k, e)) {
			e->t_enabled += now - e->since;
			if (e->running_now)
				e->t_running += now - e->since;
		}
		e->since = now;
	}
}

/* Give the box's enabled events counters (fixed first come, generic in
 * order), merge their filters, and program it. */
/* The Haswell-EP register layout of a box type of the simulated kernel's
 * machine (a Haswell-EP), or NULL for a PMU made from sysfs. */
static const struct hswep_box_desc *box_layout(const struct uncore_box_type *bt)
{
	return bt->flags & UNCORE_BOXF_KERNEL ? NULL : hswep_box(bt->layout);
}

static int hw_rebuild(struct uncore_sim_perf *k, struct kpmu *p, unsigned socket)
{
	struct hwbox *h = &p->hw[socket];
	const struct uncore_box_type *bt = k->machine.plat->boxes[p->box];
	int rc = hw_sync(k, p, socket);
	if (rc < 0)
		return rc;
	if (h->programmed) {
		h->be->ops->unprogram(h->be);
		h->programmed = 0;
	}
	memset(&h->prog, 0, sizeof(h->prog));
	h->prog.socket = (uint16_t)socket;
	h->prog.box = (uint8_t)p->box;
	h->prog.instance = (uint8_t)p->inst;
	h->prog.nfilters = (uint8_t)bt->nfilters;
	/* The driver's scheduling: the most constrained events first (stable),
	 * each on the lowest free counter its constraint allows. */
	const struct hswep_box_desc *d = box_layout(bt);
	unsigned order[MAX_EVENTS];
	unsigned weight[MAX_EVENTS];
	unsigned n = 0;
	for (unsigned i = 0; i < MAX_EVENTS; i++) {
		struct kevent *e = &k->ev[i];
		if (!e->used || e->pmu != p || e->socket != (int)socket)
			continue;
		e->scheduled = 0;
		if (!effective(k, e))
			continue;
		unsigned allowed =
		    e->fixed || !d ? 0 : hswep_kernel_counter_mask(d->kind, e->ctl, bt->ngeneric);
		unsigned w = e->fixed ? 0 : (unsigned)__builtin_popcount(allowed);
		unsigned at = n++;
		while (at > 0 && weight[at - 1] > w) {
			order[at] = order[at - 1];
			weight[at] = weight[at - 1];
			at--;
		}
		order[at] = i;
		weight[at] = w;
	}
	unsigned nslots = 0, counters_used = 0;
	int fixed_used = 0;
	int band_used[4] = {0, 0, 0, 0};
	uint8_t band_val[4] = {0, 0, 0, 0};
	for (unsigned o = 0; o < n; o++) {
		struct kevent *e = &k->ev[order[o]];
		int counter = -1;
		if (!e->fixed) {
			unsigned free = hswep_kernel_counter_mask(d ? d->kind : HSWEP_BOX_KINDS,
								  e->ctl, bt->ngeneric) &
					~counters_used;
			if (!free)
				continue; /* uncore_assign_events: no counter for it now */
			counter = __builtin_ctz(free);
		} else if (fixed_used) {
			continue;
		}
		int fits = 1;
		for (unsigned f = 0; f < 2 && fits; f++)
			if (e->filter[f] && h->prog.filter[f] && e->filter[f] != h->prog.filter[f])
				fits = 0; /* the box's one filter register is taken */
		/* snbep_pcu_get_constraint: its band if free or holding the same
		 * value, else the next free one, the event moved there. */
		int band = -1;
		for (unsigned t = 0; fits && e->band >= 0 && t < 4 && band < 0; t++) {
			unsigned b = ((unsigned)e->band + t) % 4;
			if (!band_used[b] || band_val[b] == e->band_val)
				band = (int)b;
		}
		if (!fits || (e->band >= 0 && band < 0))
			continue;
		struct uncore_slot *s = &h->slots[nslots];
		memset(s, 0, sizeof(*s));
		s->socket = (uint16_t)socket;
		s->box = (uint8_t)p->box;
		s->instance = (uint8_t)p->inst;
		s->ctl = e->ctl;
		if (e->fixed) {
			s->counter = UNCORE_SLOT_FIXED;
			s->width = (uint8_t)bt->fixed_width;
			fixed_used = 1;
		} else {
			s->counter = (uint8_t)counter;
			s->width = (uint8_t)bt->counter_width;
			counters_used |= 1u << counter;
		}
		for (unsigned f = 0; f < 2; f++)
			if (e->filter[f]) {
				h->prog.filter[f] = e->filter[f];
				h->prog.filter_mask[f] = ~0ull;
			}
		if (band >= 0) {
			band_used[band]++;
			band_val[band] = e->band_val;
			s->ctl = (s->ctl & ~0xffull) | (0x0bu + (unsigned)band);
			h->prog.filter[0] |= (uint64_t)e->band_val << (8 * band);
			h->prog.filter_mask[0] = ~0ull;
		}
		e->scheduled = 1;
		e->slot = nslots;
		e->prev = 0;
		h->slot_index[nslots] = nslots;
		nslots++;
	}
	if (nslots == 0)
		return 0;
	if (!h->be) {
		struct uncore_direct_config cfg;
		memset(&cfg, 0, sizeof(cfg));
		cfg.io = uncore_sim_regio(k->sim);
		cfg.no_socket_lock = 1;
		cfg.origin = "SIMULATED kernel";
		rc = uncore_direct_create_hswep(&cfg, &k->machine, &h->be);
		if (rc < 0)
			return rc;
	}
	h->plan.nslots = nslots;
	h->plan.nboxes = 1;
	h->plan.nevents = 1;
	h->plan.slots = h->slots;
	h->plan.boxes = &h->prog;
	h->first = 0;
	h->count = nslots;
	h->plan.first = &h->first;
	h->plan.count = &h->count;
	h->plan.slot_index = h->slot_index;
	rc = h->be->ops->program(h->be, &h->plan);
	if (rc == 0)
		rc = h->be->ops->start(h->be);
	if (rc < 0)
		return rc;
	h->programmed = 1;
	/* start zeroed the counters: prev stays 0 */
	return 0;
}

/* After enable/disable/close on PMU p: new time stretches, reprogram. */
static int reschedule(struct uncore_sim_perf *k, struct kpmu *p, int socket)
{
	int rc = 0;
	if (p->what == PMU_BOX)
		for (unsigned s = 0; s < k->machine.nsockets && rc == 0; s++)
			if (socket < 0 || socket == (int)s)
				rc = hw_rebuild(k, p, s);
	for (unsigned i = 0; i < MAX_EVENTS; i++) {
		struct kevent *e = &k->ev[i];
		if (!e->used || e->pmu != p || (socket >= 0 && e->socket != socket))
			continue;
		e->running_now = effective(k, e) && (p->what != PMU_BOX || e->scheduled);
	}
	return rc;
}

/* Attribute decoding. */

static int decode(struct kpmu *p, struct kevent *e)
{
	const struct uncore_perf_pmu *d = p->desc;
	uint64_t covered[3] = {0, 0, 0}, claimed[3] = {0, 0, 0};
	for (unsigned f = 0; f < d->nfields; f++) {
		const struct sk_field *row = NULL;
		for (unsigned r = 0; p->kind && r < p->kind->nfields; r++)
			if (strcmp(p->kind->fields[r].name, d->fields[f].name) == 0)
				row = &p->kind->fields[r];
		covered[d->fields[f].config] |= uncore_perf_field_mask(&d->fields[f]);
		if (!row || row->reg != SK_DOC)
			claimed[d->fields[f].config] |= uncore_perf_field_mask(&d->fields[f]);
	}
	for (unsigned c = 0; c < 3; c++)
		if (e->cfg[c] & ~(p->kind ? claimed[c] : covered[c]))
			return -EINVAL; /* bits no (decoded) format field describes */
	if (p->what == PMU_MSR)
		return e->cfg[0] == 0 ? 0 : -EINVAL; /* tsc only */
	if (p->what == PMU_SOFTWARE)
		return 0;
	uint64_t regs[3] = {0, 0, 0};
	for (unsigned f = 0; f < d->nfields; f++) {
		uint64_t v = uncore_perf_field_get(&d->fields[f], e->cfg);
		if (!v)
			continue;
		const struct sk_field *row = NULL;
		for (unsigned r = 0; r < p->kind->nfields; r++)
			if (strcmp(p->kind->fields[r].name, d->fields[f].name) == 0)
				row = &p->kind->fields[r];
		if (row && row->reg == SK_DOC)
			continue;
		if (!row || !row->hwmask || v > uncore_bits_gather(row->hwmask, ~0ull))
			return -EINVAL;
		regs[row->reg] |= uncore_bits_scatter(row->hwmask, v);
	}
	/* uncore.c: event 0xff is the box's fixed counter. */
	e->fixed = p->kind->has_fixed && (regs[SK_CTL] & 0xff) == 0xff;
	e->ctl = e->fixed ? regs[SK_CTL] & ~0xffffull : regs[SK_CTL];
	e->filter[0] = regs[SK_F0];
	e->filter[1] = regs[SK_F1];
	return 0;
}

/* What the Haswell-EP driver's hw_config keeps of config1 (platform/hswep/
 * hswep_kernel.h): the CBo filter fields it lists for the event's (event,
 * umask), the PCU band of a FREQ_BANDn event masked with 0xff << n (its
 * bug), nothing for any other PCU event.  The rest is dropped silently,
 * and the event counts anyway. */
static void driver_rules(struct uncore_sim_perf *k, struct kpmu *p, struct kevent *e)
{
	e->band = -1;
	if (p->what != PMU_BOX)
		return;
	const struct hswep_box_desc *d = box_layout(k->machine.plat->boxes[p->box]);
	if (!d)
		return;
	if (d->kind == HSWEP_BOX_CBO) {
		uint64_t m0, m1;
		hswep_kernel_cbo_filter_masks(hswep_kernel_cbo_fields(e->ctl), &m0, &m1);
		e->filter[0] &= m0;
		e->filter[1] &= m1;
	} else if (d->kind == HSWEP_BOX_PCU) {
		unsigned band;
		uint8_t v;
		if (hswep_kernel_pcu_band(e->ctl, e->filter[0], &band, &v)) {
			e->band = (int)band;
			e->band_val = v;
		}
		e->filter[0] = 0;
	} else if (d->kind == HSWEP_BOX_QPI && !hswep_kernel_qpi_matches(e->ctl, p->inst)) {
		e->filter[0] = 0;
		e->filter[1] = 0;
	}
}

/* The system calls. */

static int cpu_online(const struct uncore_sim_perf *k, int cpu)
{
	return cpu >= 0 && (unsigned)cpu < k->machine.ncpus && k->machine.cpu_socket[cpu] >= 0;
}

/* uncore_validate_group: the group with `e` added can be given counters
 * under the driver's constraints (most constrained first, lowest free). */
static int group_fits(struct uncore_sim_perf *k, const struct kevent *leader,
		      const struct kevent *e)
{
	const struct uncore_box_type *bt = k->machine.plat->boxes[e->pmu->box];
	const struct hswep_box_desc *d = box_layout(bt);
	enum hswep_box_kind kind = d ? (enum hswep_box_kind)d->kind : HSWEP_BOX_KINDS;
	unsigned masks[HSWEP_MAX_COUNTERS + 2], n = 0, fixed = e->fixed ? 1 : 0;
	if (!e->fixed)
		masks[n++] = hswep_kernel_counter_mask(kind, e->ctl, bt->ngeneric);
	for (unsigned i = 0; i < MAX_EVENTS; i++) {
		const struct kevent *o = &k->ev[i];
		if (!o->used || &k->ev[o->leader] != leader)
			continue;
		if (o->fixed)
			fixed++;
		else if (n < HSWEP_MAX_COUNTERS + 1)
			masks[n++] = hswep_kernel_counter_mask(kind, o->ctl, bt->ngeneric);
		else
			return 0;
	}
	if (n > bt->ngeneric || fixed > (bt->nfixed ? 1u : 0u))
		return 0;
	unsigned used = 0;
	for (unsigned w = 0; w <= HSWEP_MAX_COUNTERS; w++)
		for (unsigned i = 0; i < n; i++) {
			if ((unsigned)__builtin_popcount(masks[i]) != w)
				continue;
			unsigned free = masks[i] & ~used;
			if (!free)
				return 0;
			used |= free & -free;
		}
	return 1;
}

static int k_may_count_cpu(struct uncore_perf_sys *s, const char *paranoid_path)
{
	(void)paranoid_path;
	return ((struct uncore_sim_perf *)s)->privileged;
}

static int k_open(struct uncore_perf_sys *s, struct perf_event_attr *attr, pid_t pid, int cpu,
		  int group_fd, unsigned long flags)
{
	struct uncore_sim_perf *k = (struct uncore_sim_perf *)s;
	(void)flags;
	k->st.open++;
	int err = injected(k, UNCORE_SIM_PERF_OPEN);
	if (err)
		return err;
	if (!attr || attr->size < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	struct kpmu *p = NULL;
	for (unsigned i = 0; i < k->npmus; i++)
		if (k->pmus[i].desc->type == attr->type)
			p = &k->pmus[i];
	if (!p)
		return -ENOENT;
	if (pid == -1 && !k->privileged)
		return -EACCES; /* perf_event_paranoid > 0 and no CAP_PERFMON */
	if (p->what == PMU_BOX && (pid != -1 || cpu < 0))
		return -EINVAL; /* uncore events are per socket, never per task */
	if (cpu >= 0 && !cpu_online(k, cpu))
		return -ENODEV;
	if (attr->sample_period || attr->exclude_user || attr->exclude_kernel || attr->exclude_hv)
		return p->what == PMU_BOX ? -EINVAL : 0;
	unsigned slot;
	for (slot = 0; slot < MAX_EVENTS && k->ev[slot].used; slot++)
		;
	if (slot == MAX_EVENTS)
		return -EMFILE;
	struct kevent *e = &k->ev[slot];
	memset(e, 0, sizeof(*e));
	e->pmu = p;
	e->cpu = cpu;
	e->socket = cpu >= 0 ? k->machine.cpu_socket[cpu] : 0;
	if (p->what == PMU_BOX) {
		/* The driver moves the event to the box's CPU of that socket. */
		e->cpu = k->machine.socket_cpu[e->socket];
		if (!uncore_inst_has(&k->machine.present[p->box][e->socket], p->inst))
			return -ENODEV;
	}
	e->read_format = attr->read_format;
	e->cfg[0] = attr->config;
	e->cfg[1] = attr->config1;
	e->cfg[2] = attr->config2;
	int rc = decode(p, e);
	if (rc < 0)
		return rc;
	driver_rules(k, p, e);
	e->leader = (int)slot;
	if (group_fd >= 0) {
		struct kevent *l = event_of(k, group_fd);
		if (!l || l->leader != group_fd - FD_BASE || l->pmu != p || l->cpu != e->cpu)
			return -EINVAL;
		if (p->what == PMU_BOX && !group_fits(k, l, e))
			return -EINVAL; /* uncore_validate_group: more events than counters */
		e->leader = group_fd - FD_BASE;
	}
	e->enabled = !attr->disabled;
	e->since = now_ns(k);
	e->used = 1;
	memcpy(p->last_cfg, e->cfg, sizeof(p->last_cfg));
	p->last_cpu = cpu;
	k->st.open_fds++;
	if (effective(k, e)) {
		settle_times(k, p, e->socket, e->since);
		rc = reschedule(k, p, e->socket);
		if (rc < 0) {
			e->used = 0;
			k->st.open_fds--;
			return -EIO;
		}
	}
	return FD_BASE + (int)slot;
}

/* What event e has counted since it was opened. */
static uint64_t derived(struct uncore_sim_perf *k, const struct kevent *e, uint64_t now)
{
	const struct kpmu *p = e->pmu;
	uint64_t running = e->t_running + (e->running_now ? now - e->since : 0);
	switch (p->what) {
	case PMU_MSR:
		/* tsc ticks while counting: running time at the TSC frequency */
		return (uint64_t)((unsigned __int128)running * k->tsc_hz / NS_PER_S);
	case PMU_SOFTWARE:
		return e->cfg[0] <= 1 ? running : 0; /* cpu-clock, task-clock: ns */
	case PMU_BOX:
	default:
		return (uint64_t)((unsigned __int128)e->hw * p->share_num / p->share_den);
	}
}

/* The value of event e now (64-bit, as the kernel reports it). */
static uint64_t value_of(struct uncore_sim_perf *k, const struct kevent *e, uint64_t now)
{
	return derived(k, e, now) - e->base;
}

static void times_of(const struct kevent *e, uint64_t now, uint64_t *en, uint64_t *run,
		     const struct kpmu *p, const struct uncore_sim_perf *k)
{
	uint64_t enabled = e->t_enabled + (effective(k, e) ? now - e->since : 0);
	uint64_t running = e->t_running + (e->running_now ? now - e->since : 0);
	*en = enabled;
	*run = (uint64_t)((unsigned __int128)running * p->share_num / p->share_den);
}

static ssize_t k_read(struct uncore_perf_sys *s, int fd, void *buf, size_t len)
{
	struct uncore_sim_perf *k = (struct uncore_sim_perf *)s;
	k->st.read++;
	int err = injected(k, UNCORE_SIM_PERF_READ);
	if (err)
		return err;
	struct kevent *e = event_of(k, fd);
	if (!e)
		return -EBADF;
	uint64_t now = now_ns(k), out[3 + 2 * MAX_EVENTS / 8];
	size_t n = 0;
	const uint64_t rf = e->read_format;
	struct kevent *l = (rf & PERF_FORMAT_GROUP) ? &k->ev[e->leader] : e;
	/* The counters of the event's own box only (its group's: one CPU, one
	 * socket), as the driver reads an event's counter: reading every
	 * socket's box of the PMU doubled the cost of a read, and a read that
	 * costs more is preempted more often (issue 27). */
	if (e->pmu->what == PMU_BOX &&
	    (hw_sync(k, e->pmu, (unsigned)l->socket) < 0 ||
	     (e->socket != l->socket && hw_sync(k, e->pmu, (unsigned)e->socket) < 0)))
		return -EIO;
	uint64_t en, run;
	times_of(l, now, &en, &run, l->pmu, k);
	if (rf & PERF_FORMAT_GROUP) {
		unsigned nr = 0;
		for (unsigned i = 0; i < MAX_EVENTS; i++)
			nr += k->ev[i].used && &k->ev[k->ev[i].leader] == l;
		out[n++] = nr;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out[n++] = en;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out[n++] = run;
		for (unsigned i = 0; i < MAX_EVENTS; i++) {
			struct kevent *m = &k->ev[i];
			if (!m->used || &k->ev[m->leader] != l)
				continue;
			if (n + 2 > sizeof(out) / sizeof(out[0]))
				return -ENOSPC;
			out[n++] = value_of(k, m, now);
			if (rf & PERF_FORMAT_ID)
				out[n++] = (uint64_t)(FD_BASE + (int)i);
		}
	} else {
		out[n++] = value_of(k, e, now);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out[n++] = en;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out[n++] = run;
		if (rf & PERF_FORMAT_ID)
			out[n++] = (uint64_t)fd;
	}
	if (len < n * sizeof(uint64_t))
		return -ENOSPC;
	memcpy(buf, out, n * sizeof(uint64_t));
	return (ssize_t)(n * sizeof(uint64_t));
}

static int k_ioctl(struct uncore_perf_sys *s, int fd, unsigned long req, unsigned long arg)
{
	struct uncore_sim_perf *k = (struct uncore_sim_perf *)s;
	k->st.ioctl++;
	int err = injected(k, UNCORE_SIM_PERF_IOCTL);
	if (err)
		return err;
	struct kevent *e = event_of(k, fd);
	if (!e)
		return -EBADF;
	struct kpmu *p = e->pmu;
	int group = (arg & PERF_IOC_FLAG_GROUP) != 0;
	struct kevent *l = &k->ev[e->leader];
	uint64_t now = now_ns(k);
	if (req != PERF_EVENT_IOC_ENABLE && req != PERF_EVENT_IOC_DISABLE &&
	    req != PERF_EVENT_IOC_RESET)
		return -ENOTTY;
	if (p->what == PMU_BOX)
		for (unsigned sk = 0; sk < k->machine.nsockets; sk++)
			if (hw_sync(k, p, sk) < 0)
				return -EIO;
	settle_times(k, p, e->socket, now);
	for (unsigned i = 0; i < MAX_EVENTS; i++) {
		struct kevent *m = &k->ev[i];
		if (!m->used || (group ? &k->ev[m->leader] != l : m != e))
			continue;
		if (req == PERF_EVENT_IOC_RESET) {
			/* Only the count: perf_event_reset leaves the times. */
			m->base = derived(k, m, now);
		} else {
			m->enabled = req == PERF_EVENT_IOC_ENABLE;
		}
	}
	if (req == PERF_EVENT_IOC_RESET)
		return 0;
	return reschedule(k, p, e->socket) < 0 ? -EIO : 0;
}

static int k_close(struct uncore_perf_sys *s, int fd)
{
	struct uncore_sim_perf *k = (struct uncore_sim_perf *)s;
	k->st.close++;
	int err = injected(k, UNCORE_SIM_PERF_CLOSE);
	struct kevent *e = event_of(k, fd);
	if (!e)
		return -EBADF;
	struct kpmu *p = e->pmu;
	int socket = e->socket;
	if (p->what == PMU_BOX)
		hw_sync(k, p, (unsigned)socket);
	settle_times(k, p, socket, now_ns(k));
	int self = fd - FD_BASE;
	for (unsigned i = 0; i < MAX_EVENTS; i++) /* orphans become their own leaders */
		if (k->ev[i].used && k->ev[i].leader == self && (int)i != self)
			k->ev[i].leader = (int)i;
	e->used = 0;
	k->st.open_fds--;
	reschedule(k, p, socket);
	return err; /* the descriptor is gone even when close reports an error */
}

static void k_destroy(struct uncore_perf_sys *s)
{
	uncore_sim_perf_destroy((struct uncore_sim_perf *)s);
}

/* Lifetime. */

/* The PMUs and the boxes programmed for them (a reload re-maps them). */
static void free_pmus(struct uncore_sim_perf *k)
{
	for (unsigned i = 0; k->pmus && i < k->npmus; i++)
		for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
			if (k->pmus[i].hw[s].be)
				k->pmus[i].hw[s].be->ops->destroy(k->pmus[i].hw[s].be);
	free(k->pmus);
	k->pmus = NULL;
	k->npmus = 0;
}

static int map_pmus(struct uncore_sim_perf *k)
{
	free_pmus(k);
	k->pmus = calloc(k->sysfs->npmus ? k->sysfs->npmus : 1, sizeof(*k->pmus));
	k->npmus = 0;
	if (!k->pmus)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the simulated kernel");
	for (unsigned i = 0; i < k->sysfs->npmus; i++) {
		const struct uncore_perf_pmu *d = &k->sysfs->pmus[i];
		struct kpmu *p = &k->pmus[k->npmus];
		memset(p, 0, sizeof(*p));
		p->desc = d;
		p->share_num = p->share_den = 1;
		if (d->type == SK_TYPE_MSR) {
			p->what = PMU_MSR;
		} else if (d->type == SK_TYPE_SOFTWARE) {
			p->what = PMU_SOFTWARE;
		} else if (d->type >= SK_TYPE_FIRST_BOX) {
			p->what = PMU_BOX;
			p->box = -1;
			const struct uncore_event_platform *plat = k->machine.plat;
			for (unsigned b = 0; b < plat->nboxes && p->box < 0; b++)
				for (unsigned n = 0; n < plat->boxes[b]->ninstances; n++) {
					char name[64];
					if (uncore_box_perf_name(plat->boxes[b], (int)n, name,
								 sizeof(name)) == 0 &&
					    strcmp(name, d->name) == 0) {
						p->box = (int)b;
						p->inst = n;
						p->kind = sim_perf_kind(plat->boxes[b]->kind);
						break;
					}
				}
			uncore_error_clear();
			if (p->box < 0 || !p->kind)
				continue;
		} else {
			continue; /* tracepoint: nothing to count */
		}
		k->npmus++;
	}
	return 0;
}

int uncore_sim_perf_reload(struct uncore_sim_perf *k)
{
	struct uncore_perf_sysfs *s;
	for (unsigned i = 0; i < MAX_EVENTS; i++)
		if (k->ev[i].used)
			return uncore_fail(UNCORE_ESTATE, "reload with events open");
	int rc = uncore_perf_sysfs_read(k->pmu_root, &s);
	if (rc < 0)
		return rc;
	uncore_perf_sysfs_free(k->sysfs);
	k->sysfs = s;
	return map_pmus(k);
}

/* The generation of the simulated machine `t` (its model's), when its
 * platform object says this kernel models it (uncore_platform_sim_perf:
 * Haswell-EP and the cousins on its description), else NULL with the
 * error.  Its own discovery finds the machine: a cousin's device IDs. */
static const struct uncore_platform *modelled(const struct uncore_sim_topology *t)
{
	const struct uncore_sim_model_info *mi = uncore_sim_model_by_name(t->model);
	const struct uncore_platform *p = uncore_platform_by_name(mi ? mi->platform : NULL);
	if (p && p->direct_open && uncore_platform_sim_perf(p))
		return p;
	uncore_fail(UNCORE_ENOSUPP, "the simulated kernel does not model %s (model %s)",
		    p ? p->title : "this generation", t->model);
	return NULL;
}

int uncore_sim_perf_create(struct uncore_sim *sim, const char *root, struct uncore_sim_perf **out)
{
	const struct uncore_platform *p = NULL;
	struct uncore_sim_perf *k = calloc(1, sizeof(*k));
	struct uncore_direct_config cfg;
	struct uncore_sim_topology topo;
	int rc;

	if (!k)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the simulated kernel");
	k->sys.open = k_open;
	k->sys.read = k_read;
	k->sys.ioctl = k_ioctl;
	k->sys.close = k_close;
	k->sys.destroy = k_destroy;
	k->sys.may_count_cpu = k_may_count_cpu;
	k->sim = sim;
	k->privileged = 1;
	snprintf(k->root, sizeof(k->root), "%s", root);
	snprintf(k->pmu_root, sizeof(k->pmu_root), "%s/bus/event_source/devices", root);
	snprintf(k->cpu_root, sizeof(k->cpu_root), "%s/devices/system/cpu", root);
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = uncore_sim_regio(sim);
	cfg.no_socket_lock = 1;
	cfg.origin = "SIMULATED kernel";
	rc = uncore_sim_topology(sim, &topo);
	if (rc == 0 && !(p = modelled(&topo)))
		rc = UNCORE_ENOSUPP;
	if (rc == 0)
		rc = p->direct_open(p, &cfg, &k->discover);
	if (rc == 0) {
		k->machine = k->discover->machine;
		k->tsc_hz = topo.clock_hz[HSWEP_CLK_TSC];
		rc = sim_perf_write_tree(root, &k->machine);
	}
	if (rc == 0)
		rc = uncore_sim_perf_reload(k);
	if (rc < 0) {
		uncore_sim_perf_destroy(k);
		return rc;
	}
	*out = k;
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int uncore_sim_perf_open(const struct uncore_sim_options *o, const char *tmp, const char *share,
			 struct uncore_sim_perf **out)
{
	struct uncore_regio *io;
	char root[512];
	int rc = uncore_sim_regio_open(o, &io);
	if (rc < 0)
		return rc;
	/* A shared machine stands for a node: this process's kernel counts on
	 * a follower of it (counters of its own, the node's time), as the
	 * kernel gives every process's events counters of their own
	 * (uncore_sim_follow).  The follower owns the shared machine now. */
	struct uncore_sim *shared = uncore_sim_from_regio(io), *f;
	if (uncore_sim_is_shared(shared)) {
		if ((rc = uncore_sim_follow(shared, &f)) < 0)
			return rc;
		io = uncore_sim_regio(f);
	}
	snprintf(root, sizeof(root), "/dev/shm/uncore-simkernel-XXXXXX");
	if (!mkdtemp(root)) {
		snprintf(root, sizeof(root), "%s/uncore-simkernel-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(root)) {
			uncore_regio_destroy(io);
			return uncore_fail(UNCORE_EIO,
					   "cannot create a directory for the simulated "
					   "kernel's sysfs tree (%s): %s",
					   root, strerror(errno));
		}
	}
	rc = uncore_sim_perf_create(uncore_sim_from_regio(io), root, out);
	if (rc < 0) {
		nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
		uncore_regio_destroy(io);
		return rc;
	}
	(*out)->own_io = io;
	(*out)->own_root = 1;
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", share ? share : "");
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		unsigned num, den;
		if (!eq || sscanf(eq + 1, "%u/%u", &num, &den) != 2) {
			rc = uncore_fail(UNCORE_ESYNTAX, "%s: \"%s\" is not pmu=num/den",
					 UNCORE_SIM_ENV_KERNEL_SHARE, t);
		} else {
			*eq = '\0';
			rc = uncore_sim_perf_set_share(*out, t, num, den);
		}
		if (rc < 0) {
			uncore_sim_perf_destroy(*out);
			return rc;
		}
	}
	return 0;
}

void uncore_sim_perf_remove_tree(struct uncore_sim_perf *k)
{
	if (k->own_root)
		nftw(k->root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	k->own_root = 0;
}

struct uncore_sim *uncore_sim_perf_machine(struct uncore_sim_perf *k)
{
	return k->sim;
}

void uncore_sim_perf_destroy(struct uncore_sim_perf *k)
{
	if (!k)
		return;
	free_pmus(k);
	if (k->discover)
		k->discover->ops->destroy(k->discover);
	uncore_perf_sysfs_free(k->sysfs);
	if (k->own_root)
		nftw(k->root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (k->own_io)
		uncore_regio_destroy(k->own_io);
	free(k);
}

struct uncore_perf_sys *uncore_sim_perf_sys(struct uncore_sim_perf *k)
{
	return &k->sys;
}

const char *uncore_sim_perf_pmu_root(const struct uncore_sim_perf *k)
{
	return k->pmu_root;
}

const char *uncore_sim_perf_cpu_root(const struct uncore_sim_perf *k)
{
	return k->cpu_root;
}

void uncore_sim_perf_stats(const struct uncore_sim_perf *k, struct uncore_sim_perf_stats *out)
{
	*out = k->st;
}

int uncore_sim_perf_fail(struct uncore_sim_perf *k, enum uncore_sim_perf_op op, unsigned nth,
			 int err)
{
	if ((unsigned)op >= UNCORE_SIM_PERF_OPS || nth == 0 || err <= 0)
		return uncore_fail(UNCORE_EINVAL, "bad fault: op %d, nth %u, errno %d", op, nth,
				   err);
	k->fail[op].nth = nth;
	k->fail[op].err = (unsigned)err;
	return 0;
}

void uncore_sim_perf_set_privileged(struct uncore_sim_perf *k, int privileged)
{
	k->privileged = privileged;
}

int uncore_sim_perf_set_share(struct uncore_sim_perf *k, const char *pmu, unsigned num,
			      unsigned den)
{
	if (den == 0 || num == 0 || num > den)
		return uncore_fail(UNCORE_EINVAL, "share %u/%u: need 0 < num <= den", num, den);
	for (unsigned i = 0; i < k->npmus; i++)
		if (strcmp(k->pmus[i].desc->name, pmu) == 0) {
			k->pmus[i].share_num = num;
			k->pmus[i].share_den = den;
			return 0;
		}
	return uncore_fail(UNCORE_ENODEV, "no simulated PMU %s", pmu);
}

int uncore_sim_perf_last_config(const struct uncore_sim_perf *k, const char *pmu, uint64_t cfg[3])
{
	for (unsigned i = 0; i < k->npmus; i++)
		if (strcmp(k->pmus[i].desc->name, pmu) == 0) {
			memcpy(cfg, k->pmus[i].last_cfg, sizeof(k->pmus[i].last_cfg));
			return 0;
		}
	return uncore_fail(UNCORE_ENODEV, "no simulated PMU %s", pmu);
}

int uncore_sim_perf_last_cpu(const struct uncore_sim_perf *k, const char *pmu, int *cpu)
{
	for (unsigned i = 0; i < k->npmus; i++)
		if (strcmp(k->pmus[i].desc->name, pmu) == 0) {
			*cpu = k->pmus[i].last_cpu;
			return 0;
		}
	return uncore_fail(UNCORE_ENODEV, "no simulated PMU %s", pmu);
}
