/* --explain: for every event, where it counts (box instances, counters) and
 * what each backend would program.  The direct backend's part comes from
 * running the real backend over a recording register access (stat_recorder):
 * program, start, one read, stop, unprogram - nothing reaches a device.  The
 * perf backend's part, when the component counts through it, is the
 * perf_event_attr it would open for each counter (README.md). */
#include "stat_lib.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "backend/direct/direct.h"
#include "backend/direct/engine.h"
#include "backend/perf/perf.h"
#include "common/uncore_error.h"
#include "bind/backend_choice.h"
#include "bind/component.h"
#include "eventset/eventset.h"
#include "stat_recorder.h"

struct explain_ctx {
	FILE *out;
	const struct uncore_machine *m;
	const struct uncore_plan *plan;
	const struct uncore_set *set;
	const struct uncore_component *comp;
	const struct stat_opts *o;
	const struct direct_platform *p; /* the direct engine's description */
	struct stat_recorder rec;        /* the direct backend's accesses */
	int direct_ok;                   /* rec holds a complete run */
	char direct_why[512];            /* why not */
};

/* An MCHBAR for the Skylake client's IMC counters (MMIO): the usual one of
 * client parts; their addresses are shown relative to it. */
#define EXPLAIN_MCHBAR UINT64_C(0xfed10000)

/* "cbo3.CTL2          msr 0xe32 socket 0": the register's name in the
 * direct engine's description (box kind, instance, role), then its address. */
static void reg_text(const char *name, const struct uncore_reg *r, char *buf, size_t len)
{
	char addr[64];
	if (r->space == UNCORE_SPACE_MMIO)
		snprintf(addr, sizeof(addr), "mmio MCHBAR+0x%" PRIx64, r->addr - EXPLAIN_MCHBAR);
	else
		uncore_reg_format(r, addr, sizeof(addr));
	snprintf(buf, len, "%-18s %s", name, addr);
}

/* A register of a slot's box and its name: 0, or an error with the detail. */
static int slot_reg(const struct explain_ctx *x, const struct direct_kind *k,
		    const struct uncore_slot *s, enum direct_reg_role role, unsigned idx,
		    struct uncore_reg *r, char *name, size_t len)
{
	static const char *const role_name[] = {[DIRECT_REG_CTL] = "CTL",
						[DIRECT_REG_CTR] = "CTR",
						[DIRECT_REG_FILTER] = "FILTER",
						[DIRECT_REG_FIXED_CTL] = "FIXED_CTL",
						[DIRECT_REG_FIXED_CTR] = "FIXED_CTR",
						[DIRECT_REG_BOX_CTL] = "BOX_CTL"};
	int numbered = role <= DIRECT_REG_FILTER;
	if (numbered)
		snprintf(name, len, "%s%u.%s%u", k->kind, s->instance, role_name[role], idx);
	else
		snprintf(name, len, "%s%u.%s", k->kind, s->instance, role_name[role]);
	return direct_kind_reg(k, x->m, s->socket, s->instance, role, idx, EXPLAIN_MCHBAR, r);
}

static int same_reg(const struct uncore_reg *a, const struct uncore_reg *b)
{
	return a->space == b->space && a->socket == b->socket && a->bdf == b->bdf &&
	       a->addr == b->addr;
}

/* The last value the backend wrote to `r` in phases [from, to]; 0 if none. */
static int last_write(const struct stat_recorder *rec, const struct uncore_reg *r,
		      enum stat_phase from, enum stat_phase to, uint64_t *value)
{
	int found = 0;
	for (size_t i = 0; i < rec->n; i++) {
		const struct stat_access *a = &rec->log[i];
		if (a->write && a->phase >= from && a->phase <= to && same_reg(&a->reg, r)) {
			*value = a->value;
			found = 1;
		}
	}
	return found;
}

/* The direct backend. */

static int read_freeze_env(void)
{
	const char *v = getenv("PAPI_INTEL_UNCORE_READ_FREEZE");
	return !(v && strcmp(v, "0") == 0);
}

/* Run the direct backend over the recorder, phase by phase. */
static void direct_record(struct explain_ctx *x)
{
	struct uncore_direct_config cfg;
	struct uncore_backend *be = NULL;
	int rc;

	stat_recorder_init(&x->rec, 1);
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = &x->rec.io;
	cfg.read_freeze = read_freeze_env();
	cfg.no_socket_lock = 1;
	cfg.origin = "explain";
	if (x->comp->kind == UNCORE_BACKEND_PERF) {
		/* The perf backend discovers PMUs, not PCI buses: register
		 * addresses would be made up. */
		snprintf(x->direct_why, sizeof(x->direct_why),
			 "the component counts through the perf backend; the direct backend's "
			 "registers: PAPI_INTEL_UNCORE_BACKEND=direct (or --sim without "
			 "PAPI_INTEL_UNCORE_SIM_KERNEL=perf)");
		return;
	}
	x->p = x->m->plat->platform ? x->m->plat->platform->direct : NULL;
	if (!x->p) {
		snprintf(x->direct_why, sizeof(x->direct_why),
			 "%s has no description for the direct engine", x->m->plat->name);
		return;
	}
	rc = direct_engine_create(x->p, &cfg, x->m, EXPLAIN_MCHBAR, &be);
	uint64_t *raw = calloc(x->plan->nslots ? x->plan->nslots : 1, sizeof(*raw));
	if (rc == 0 && !raw)
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory");
	x->rec.phase = STAT_PHASE_PROGRAM;
	if (rc == 0)
		rc = be->ops->program(be, x->plan);
	x->rec.phase = STAT_PHASE_START;
	if (rc == 0)
		rc = be->ops->start(be);
	x->rec.phase = STAT_PHASE_READ;
	if (rc == 0)
		rc = be->ops->read(be, raw);
	x->rec.phase = STAT_PHASE_STOP;
	if (rc == 0)
		rc = be->ops->stop(be);
	x->rec.phase = STAT_PHASE_UNPROGRAM;
	if (rc == 0)
		rc = be->ops->unprogram(be);
	if (rc < 0)
		snprintf(x->direct_why, sizeof(x->direct_why), "%s", uncore_error_detail());
	else if (x->rec.failed)
		snprintf(x->direct_why, sizeof(x->direct_why), "out of memory recording accesses");
	else
		x->direct_ok = 1;
	if (be)
		be->ops->destroy(be);
	free(raw);
}

static void direct_box(struct explain_ctx *x, const struct uncore_slot *s,
		       const struct direct_kind *k)
{
	struct uncore_reg r;
	char name[48], text[128];
	uint64_t v, v2;

	if (k->box_ctl && slot_reg(x, k, s, DIRECT_REG_BOX_CTL, 0, &r, name, sizeof(name)) == 0) {
		reg_text(name, &r, text, sizeof(text));
		int p = last_write(&x->rec, &r, STAT_PHASE_PROGRAM, STAT_PHASE_PROGRAM, &v);
		int st = last_write(&x->rec, &r, STAT_PHASE_START, STAT_PHASE_START, &v2);
		fprintf(x->out,
			"                 box    %s  program 0x%" PRIx64
			" (frozen), start 0x%" PRIx64 "\n",
			text, p ? v : 0, st ? v2 : 0);
	}
	for (unsigned f = 0; f < k->nfilters; f++) {
		if (slot_reg(x, k, s, DIRECT_REG_FILTER, f, &r, name, sizeof(name)) < 0)
			continue;
		if (!last_write(&x->rec, &r, STAT_PHASE_PROGRAM, STAT_PHASE_PROGRAM, &v))
			continue;
		reg_text(name, &r, text, sizeof(text));
		fprintf(x->out, "                 filter %s  = 0x%" PRIx64 "\n", text, v);
	}
	uncore_error_clear();
}

static void direct_slot(struct explain_ctx *x, const struct uncore_slot *s, int first_of_box)
{
	const struct uncore_box_type *bt = x->m->plat->boxes[s->box];
	const struct direct_kind *k =
	    (bt->flags & UNCORE_BOXF_KERNEL) ? NULL : direct_kind_find(x->p, bt->kind);
	int fixed = s->counter == UNCORE_SLOT_FIXED;
	struct uncore_reg ctl, ctr;
	char name[48], text[128];
	uint64_t v = 0;

	if (x->comp->kind == UNCORE_BACKEND_PERF)
		return; /* said once, in the header */
	if (!x->direct_ok || !k) {
		fprintf(x->out, "        direct   -- %s\n",
			x->direct_ok ? "no register layout" : x->direct_why);
		return;
	}
	/* As the engine binds it: a fixed slot on a kind of generic counters
	 * is its extra fixed counter. */
	int extra = fixed && !k->fixed;
	unsigned idx = fixed ? s->fixed_index : s->counter;
	char ctl_name[48], ctr_text[128];
	if (slot_reg(x, k, s, extra ? DIRECT_REG_FIXED_CTR : DIRECT_REG_CTR, idx, &ctr, name,
		     sizeof(name)) < 0 ||
	    (!k->freerun && slot_reg(x, k, s, extra ? DIRECT_REG_FIXED_CTL : DIRECT_REG_CTL, idx,
				     &ctl, ctl_name, sizeof(ctl_name)) < 0)) {
		fprintf(x->out, "        direct   -- %s\n", uncore_error_detail());
		uncore_error_clear();
		return;
	}
	reg_text(name, &ctr, ctr_text, sizeof(ctr_text));
	if (k->freerun) {
		fprintf(x->out,
			"        direct   ctr    %s  %u bits, free-running (never written)\n",
			ctr_text, s->width);
		return;
	}
	reg_text(ctl_name, &ctl, text, sizeof(text));
	last_write(&x->rec, &ctl, STAT_PHASE_PROGRAM, STAT_PHASE_START, &v);
	if (k->combined) {
		fprintf(x->out,
			"        direct   ctl    %s  = 0x%" PRIx64 " (63:32 control, 31:0 count)\n",
			text, v);
	} else {
		fprintf(x->out, "        direct   ctl    %s  = 0x%" PRIx64 "\n", text, v);
		if (ctr.space == UNCORE_SPACE_PCI)
			fprintf(x->out, "                 ctr    %s  (+4: high dword), %u bits\n",
				ctr_text, s->width);
		else
			fprintf(x->out, "                 ctr    %s  %u bits\n", ctr_text,
				s->width);
	}
	if (first_of_box)
		direct_box(x, s, k);
}

/* What one read costs on the direct backend: the accesses of the READ phase. */
static void direct_read_summary(struct explain_ctx *x)
{
	unsigned msr_reads = 0, pci_reads = 0, mmio_reads = 0, writes = 0, batched = 0,
		 last_batch = 0, batches = 0;

	if (!x->direct_ok)
		return;
	for (size_t i = 0; i < x->rec.n; i++) {
		const struct stat_access *a = &x->rec.log[i];
		if (a->phase != STAT_PHASE_READ)
			continue;
		if (a->write)
			writes++;
		else if (a->reg.space == UNCORE_SPACE_PCI)
			pci_reads++;
		else if (a->reg.space == UNCORE_SPACE_MMIO)
			mmio_reads++;
		else
			msr_reads++;
		if (a->batch) {
			batched++;
			if (a->batch != last_batch)
				batches++;
			last_batch = a->batch;
		}
	}
	fprintf(
	    x->out,
	    "\ndirect backend, one read (PAPI_read): %u MSR reads, %u PCI dword reads, %u MSR\n"
	    "  writes (global freeze and unfreeze: %s; PAPI_INTEL_UNCORE_READ_FREEZE=0 turns it\n"
	    "  off); %u of these MSR accesses in %u batch%s (one msr-safe batch ioctl each)\n",
	    msr_reads, pci_reads, writes, writes ? "on" : "off", batched, batches,
	    batches == 1 ? "" : "es");
	if (mmio_reads)
		fprintf(x->out, "  and %u MMIO reads (free-running counters)\n", mmio_reads);
}

/* The perf backend. */

/* The perf_event_attr the perf backend opens for a slot (type from the
 * PMU's sysfs, config words packed through its format files), when the
 * component counts through it; otherwise the kernel PMU of the box
 * instance, as the config words depend on that kernel's format files. */
static void perf_slot(struct explain_ctx *x, const struct uncore_slot *s, unsigned si)
{
	struct uncore_perf_slot_attr a;
	char pmu[64];
	if (x->comp->kind == UNCORE_BACKEND_PERF) {
		if (uncore_perf_slot_attr(x->comp->be, x->plan, si, &a) < 0) {
			fprintf(x->out, "        perf     -- %s\n", uncore_error_detail());
			uncore_error_clear();
			return;
		}
		fprintf(x->out,
			"        perf     pmu    %s (type %u) on CPU %d  config=0x%" PRIx64
			" config1=0x%" PRIx64 " config2=0x%" PRIx64 "\n",
			a.pmu, a.type, a.cpu, a.config[0], a.config[1], a.config[2]);
		return;
	}
	if (uncore_box_perf_name(x->m->plat->boxes[s->box], s->instance, pmu, sizeof(pmu)) < 0)
		snprintf(pmu, sizeof(pmu), "?");
	uncore_error_clear();
	fprintf(x->out,
		"        perf     pmu    %s  (config words: from that kernel's format files; "
		"shown when counting through the perf backend)\n",
		pmu);
}

/* What one read costs on the perf backend: one read() per group, a group
 * being the events of one PMU instance on one CPU. */
static void perf_read_summary(struct explain_ctx *x)
{
	const char *pmu[256];
	int cpu[256];
	unsigned ngroups = 0;
	if (x->comp->kind != UNCORE_BACKEND_PERF)
		return;
	for (unsigned k = 0; k < x->plan->nslots; k++) {
		struct uncore_perf_slot_attr a;
		unsigned g = 0;
		if (uncore_perf_slot_attr(x->comp->be, x->plan, k, &a) < 0) {
			uncore_error_clear();
			continue;
		}
		while (g < ngroups && !(pmu[g] == a.pmu && cpu[g] == a.cpu))
			g++;
		if (g == ngroups && ngroups < 256) {
			pmu[ngroups] = a.pmu;
			cpu[ngroups++] = a.cpu;
		}
	}
	fprintf(x->out,
		"\nperf backend, one read (PAPI_read): %u read() system call%s, one per PMU "
		"instance and CPU\n  (each a PERF_FORMAT_GROUP read of its events with their "
		"enabled and running times)\n",
		ngroups, ngroups == 1 ? "" : "s");
}

/* Per event. */

static void explain_event(struct explain_ctx *x, unsigned e)
{
	const struct uncore_plan *p = x->plan;
	uint32_t sockets = 0;
	unsigned nslots = p->count[e];

	for (unsigned k = 0; k < nslots; k++)
		sockets |= 1u << p->slots[p->slot_index[p->first[e] + k]].socket;
	const char *name = uncore_set_plan_event_name(x->set, e);
	fprintf(x->out, "\n%s\n  %u counter%s on socket%s", name ? name : "?", nslots,
		nslots == 1 ? "" : "s", (sockets & (sockets - 1)) ? "s" : "");
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		if (sockets & (1u << s))
			fprintf(x->out, " %u", s);
	fprintf(x->out, "; the event's value is their sum\n");
	for (unsigned k = 0; k < nslots; k++) {
		unsigned si = p->slot_index[p->first[e] + k];
		const struct uncore_slot *s = &p->slots[si];
		char inst[64], ctr[16];
		/* Filters and the box control are shown under the box's first slot. */
		int first_of_box = 1;
		for (unsigned j = 0; j < k; j++)
			if (p->slots[p->slot_index[p->first[e] + j]].boxprog == s->boxprog)
				first_of_box = 0;
		if (uncore_box_instance_name(x->m->plat->boxes[s->box], s->instance, inst,
					     sizeof(inst)) < 0)
			snprintf(inst, sizeof(inst), "?");
		if (s->counter == UNCORE_SLOT_FIXED)
			snprintf(ctr, sizeof(ctr), "fixed");
		else
			snprintf(ctr, sizeof(ctr), "%u", s->counter);
		fprintf(x->out, "    socket %u  %-18s counter %s\n", s->socket, inst, ctr);
		direct_slot(x, s, first_of_box);
		perf_slot(x, s, si);
	}
}

int stat_explain(const struct stat_opts *o, FILE *out)
{
	struct uncore_component *comp;
	struct uncore_set *set;
	struct explain_ctx x;
	int rc = stat_lib_open(o->events, o->nevents, &comp, &set);

	if (rc < 0) {
		fprintf(stderr, "uncore-stat: %s\n",
			uncore_error_detail()[0] ? uncore_error_detail() : uncore_strerror(rc));
		int event_error = comp && set; /* the component opened: the events are at fault */
		stat_lib_close(comp, set);
		return event_error ? STAT_EXIT_USAGE : 1;
	}
	memset(&x, 0, sizeof(x));
	x.out = out;
	x.m = &comp->be->machine;
	x.plan = uncore_set_plan(set);
	x.set = set;
	x.comp = comp;
	x.o = o;
	fprintf(out, "%s\n", comp->origin);
	fprintf(out,
		"component backend: %s; register values below are those the backends would "
		"program (nothing is programmed)\n",
		uncore_backend_name(comp->kind));
	direct_record(&x);
	if (comp->kind == UNCORE_BACKEND_PERF)
		fprintf(out, "direct backend: %s\n", x.direct_why);
	for (unsigned e = 0; x.plan && e < x.plan->nevents; e++)
		explain_event(&x, e);
	direct_read_summary(&x);
	perf_read_summary(&x);
	stat_recorder_free(&x.rec);
	stat_lib_close(comp, set);
	return 0;
}
