/* Kernel PMUs no table knows, usable by what sysfs says about them: each
 * countable PMU becomes a box type at run time ("msr"; numbered PMUs such
 * as uncore_imc_0..7 one type "uncore_imc" with instances, summed like our
 * table boxes), and events are named
 *
 *   PMU::ALIAS[:FIELD=VALUE]...[:socket=N][:cpu=N][:box=N]   msr::tsc
 *   PMU::FIELD=VALUE[,FIELD=VALUE]...[:socket=N]...           uncore_imc_0::event=0x4,umask=0x3
 *
 * with ALIAS from events/, FIELD from format/ (or config, config1, config2).
 * A parsed event's config words are interned; the slot's control value is
 * their index (UNCORE_BOXF_KERNEL). */
#define _GNU_SOURCE
#include "backend/perf/perf_internal.h"
#include "backend/perf/perf_encode.h"

#include "common/uncore_error.h"
#include "events/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct uncore_ctl_layout kernel_ctl = {
    .name = "(kernel PMU: config words from sysfs formats)",
};

#define MAX_SOCKET_Q 4095
#define MAX_CPU_Q    1048575

/* "uncore_imc_12" -> prefix length 10 and index 12; -1 if not numbered. */
static int split_numbered(const char *name, size_t *prefix, unsigned *index)
{
	size_t n = strlen(name), d = n;
	while (d > 0 && isdigit((unsigned char)name[d - 1]))
		d--;
	if (d == n || d < 2 || name[d - 1] != '_' || (name[d] == '0' && d + 1 < n) || n - d > 3)
		return -1;
	*prefix = d - 1;
	*index = (unsigned)atoi(name + d);
	return 0;
}

static unsigned family_members(const struct uncore_perf_sysfs *s, const char *name, size_t plen)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->npmus; i++) {
		size_t p;
		unsigned idx;
		if (uncore_perf_pmu_countable(&s->pmus[i], NULL) &&
		    split_numbered(s->pmus[i].name, &p, &idx) == 0 && p == plen &&
		    strncmp(s->pmus[i].name, name, plen) == 0 && idx < PERF_MAX_INSTANCES)
			n++;
	}
	return n;
}

static struct perf_family *find_family(struct perf_kernel_events *k, const char *name)
{
	for (unsigned f = 0; f < k->nfam; f++)
		if (strcasecmp(k->fam[f].name, name) == 0)
			return &k->fam[f];
	return NULL;
}

static int add_pmu_name(struct perf_kernel_events *k, unsigned *cap, const char *name)
{
	if (k->npmu_names == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 32;
		char **p = realloc(k->pmu_names, ncap * sizeof(*p));
		if (!p)
			return UNCORE_ENOMEM;
		k->pmu_names = p;
		*cap = ncap;
	}
	k->pmu_names[k->npmu_names] = strdup(name);
	if (!k->pmu_names[k->npmu_names])
		return UNCORE_ENOMEM;
	k->npmu_names++;
	return 0;
}

static const struct uncore_event_source_ops kernel_source_ops;

int perf_kernel_events_init(struct perf_backend *b)
{
	struct perf_kernel_events *k = &b->kev;
	const struct uncore_perf_sysfs *s = b->sysfs;
	unsigned namecap = 0;

	memset(k, 0, sizeof(*k));
	pthread_mutex_init(&k->lock, NULL);
	k->base.ops = &kernel_source_ops;
	k->b = b;
	k->fam = calloc(s->npmus ? s->npmus : 1, sizeof(*k->fam));
	if (!k->fam)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for kernel PMUs");
	for (unsigned i = 0; i < s->npmus; i++) {
		const struct uncore_perf_pmu *pmu = &s->pmus[i];
		char name[64];
		size_t plen;
		unsigned idx = 0;
		int numbered = split_numbered(pmu->name, &plen, &idx) == 0 &&
			       idx < PERF_MAX_INSTANCES && family_members(s, pmu->name, plen) >= 2;

		if (!uncore_perf_pmu_countable(pmu, NULL))
			continue;
		if (!numbered && split_numbered(pmu->name, &plen, &idx) == 0 &&
		    idx >= PERF_MAX_INSTANCES) {
			/* PMUs sort in numeric order: the family's first
			 * PERF_MAX_INSTANCES came first. */
			snprintf(name, sizeof(name), "%.*s", (int)plen, pmu->name);
			struct perf_family *owner = find_family(k, name);
			if (owner) {
				owner->beyond++;
				continue; /* not one box type each: they would crowd out others */
			}
		}
		if (numbered)
			snprintf(name, sizeof(name), "%.*s", (int)plen, pmu->name);
		else
			snprintf(name, sizeof(name), "%s", pmu->name);
		struct perf_family *f = find_family(k, name);
		if (!f) {
			if (b->plat.nboxes >= UNCORE_MAX_BOX_TYPES)
				continue; /* no room: the PMU stays unlisted */
			f = &k->fam[k->nfam++];
			snprintf(f->name, sizeof(f->name), "%s", name);
			f->ref = pmu;
			f->box.name = f->name;
			f->box.kind = "kernel";
			f->box.desc = f->desc;
			f->box.manual = "Linux perf PMU described by sysfs";
			f->box.ninstances = 1;
			f->box.perf_pmu = f->name;
			f->box.ngeneric = PERF_KERNEL_COUNTERS;
			f->box.counter_width = 64;
			f->box.ctl = &kernel_ctl;
			f->box.flags = UNCORE_BOXF_KERNEL;
			b->boxes[b->plat.nboxes++] = &f->box;
		}
		unsigned box = b->plat.nboxes - 1;
		for (unsigned j = 0; j < b->plat.nboxes; j++)
			if (b->boxes[j] == &f->box)
				box = j;
		if (numbered && idx + 1 > f->box.ninstances)
			f->box.ninstances = idx + 1;
		perf_bind(b, box, numbered ? idx : 0)->pmu = pmu;
	}
	for (unsigned f = 0; f < k->nfam; f++) {
		struct perf_family *fam = &k->fam[f];
		/* The reference PMU is the first instance. */
		unsigned box = 0;
		for (unsigned j = 0; j < b->plat.nboxes; j++)
			if (b->boxes[j] == &fam->box)
				box = j;
		for (unsigned i = 0; i < fam->box.ninstances; i++)
			if (perf_bind(b, box, i)->pmu) {
				fam->ref = perf_bind(b, box, i)->pmu;
				break;
			}
		if (add_pmu_name(k, &namecap, fam->name) < 0)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for kernel PMU names");
		if (fam->beyond) {
			snprintf(fam->desc, sizeof(fam->desc),
				 "kernel PMUs %s_0..%u of %u (sysfs formats and aliases; no event "
				 "table); the others are not counted (%d per family)",
				 fam->name, fam->box.ninstances - 1,
				 fam->box.ninstances + fam->beyond, PERF_MAX_INSTANCES);
		} else if (fam->box.ninstances > 1) {
			snprintf(fam->desc, sizeof(fam->desc),
				 "kernel PMUs %s_0..%u (sysfs formats and aliases; no event table)",
				 fam->name, fam->box.ninstances - 1);
		} else {
			snprintf(fam->desc, sizeof(fam->desc),
				 "kernel PMU %s (sysfs formats and aliases; no event table)",
				 fam->name);
		}
		fam->first_alias = k->nentries;
		k->nentries += fam->ref->naliases;
	}
	/* Names PAPI routes by: whole PMUs and families first, as PAPI keeps
	 * only so many (PAPI_PMU_MAX), then the instances. */
	k->nprimary = k->npmu_names;
	for (unsigned f = 0; f < k->nfam; f++) {
		struct perf_family *fam = &k->fam[f];
		for (unsigned j = 0; fam->box.ninstances > 1 && j < b->plat.nboxes; j++) {
			if (b->boxes[j] != &fam->box)
				continue;
			for (unsigned i = 0; i < fam->box.ninstances; i++)
				if (perf_bind(b, j, i)->pmu &&
				    add_pmu_name(k, &namecap, perf_bind(b, j, i)->pmu->name) < 0)
					return uncore_fail(UNCORE_ENOMEM,
							   "out of memory for kernel PMU names");
		}
	}
	b->base.events = &k->base;
	return 0;
}

void perf_kernel_events_fini(struct perf_backend *b)
{
	struct perf_kernel_events *k = &b->kev;
	for (unsigned i = 0; i < k->npmu_names; i++)
		free(k->pmu_names[i]);
	free(k->pmu_names);
	free(k->fam);
	for (unsigned i = 0; i < PERF_ATTR_BLOCKS && k->attr_block[i]; i++)
		free(k->attr_block[i]);
	if (k->base.ops)
		pthread_mutex_destroy(&k->lock);
	memset(k, 0, sizeof(*k));
}

static struct perf_attr *attr_at(struct perf_kernel_events *k, unsigned id)
{
	return &k->attr_block[id / PERF_ATTR_BLOCK][id % PERF_ATTR_BLOCK];
}

const struct perf_attr *perf_kernel_attr(const struct perf_backend *b, uint64_t id)
{
	struct perf_kernel_events *k = (struct perf_kernel_events *)&b->kev;
	pthread_mutex_lock(&k->lock);
	const struct perf_attr *a = id < k->nattrs ? attr_at(k, (unsigned)id) : NULL;
	pthread_mutex_unlock(&k->lock);
	return a;
}

static int intern_locked(struct perf_kernel_events *k, const uint64_t cfg[UNCORE_PERF_NCONFIG],
			 uint64_t *id)
{
	for (unsigned i = 0; i < k->nattrs; i++)
		if (memcmp(attr_at(k, i)->cfg, cfg, sizeof(attr_at(k, i)->cfg)) == 0) {
			*id = i;
			return 0;
		}
	unsigned blk = k->nattrs / PERF_ATTR_BLOCK;
	if (blk >= PERF_ATTR_BLOCKS)
		return uncore_fail(UNCORE_ENOSPACE,
				   "more than %d distinct kernel events named in one process",
				   PERF_ATTR_BLOCK * PERF_ATTR_BLOCKS);
	if (!k->attr_block[blk] &&
	    !(k->attr_block[blk] = calloc(PERF_ATTR_BLOCK, sizeof(struct perf_attr))))
		return uncore_fail(UNCORE_ENOMEM, "out of memory for kernel events");
	memcpy(attr_at(k, k->nattrs)->cfg, cfg, sizeof(attr_at(k, 0)->cfg));
	*id = k->nattrs++;
	return 0;
}

static int intern(struct perf_kernel_events *k, const uint64_t cfg[UNCORE_PERF_NCONFIG],
		  uint64_t *id)
{
	pthread_mutex_lock(&k->lock);
	int rc = intern_locked(k, cfg, id);
	pthread_mutex_unlock(&k->lock);
	return rc;
}

/* The family and instance a PMU name stands for: 0, or 1 when none. */
static int resolve(struct perf_kernel_events *k, const char *pmu, struct perf_family **fam,
		   unsigned *box, int *instance)
{
	struct perf_backend *b = k->b;
	for (unsigned f = 0; f < k->nfam; f++) {
		struct perf_family *fm = &k->fam[f];
		size_t n = strlen(fm->name);
		int inst;
		if (strcasecmp(fm->name, pmu) == 0)
			inst = UNCORE_ALL;
		else if (fm->box.ninstances > 1 && strncasecmp(fm->name, pmu, n) == 0 &&
			 pmu[n] == '_' && isdigit((unsigned char)pmu[n + 1])) {
			char *end;
			unsigned long v = strtoul(pmu + n + 1, &end, 10);
			if (*end || v >= fm->box.ninstances)
				continue;
			inst = (int)v;
		} else {
			continue;
		}
		for (unsigned j = 0; j < b->plat.nboxes; j++)
			if (b->boxes[j] == &fm->box)
				*box = j;
		if (inst != UNCORE_ALL && !perf_bind(b, *box, (unsigned)inst)->pmu)
			continue;
		*fam = fm;
		*instance = inst;
		return 0;
	}
	return 1;
}

static int parse_num(const char *s, uint64_t *v)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static void alias_list(const struct uncore_perf_pmu *pmu, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < pmu->naliases && used < len; i++) {
		int n =
		    snprintf(buf + used, len - used, "%s%s", i ? ", " : "", pmu->aliases[i].name);
		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)n;
	}
	if (!pmu->naliases)
		snprintf(buf, len, "none");
}

static int qualifier(const char *name, const char *val, struct uncore_sched_event *out,
		     const struct perf_family *fam)
{
	uint64_t v;
	int *slot;
	uint64_t max;
	if (strcasecmp(name, "socket") == 0) {
		slot = &out->ref.socket;
		max = MAX_SOCKET_Q;
	} else if (strcasecmp(name, "cpu") == 0) {
		slot = &out->ref.cpu;
		max = MAX_CPU_Q;
	} else {
		slot = &out->ref.instance;
		max = fam->box.ninstances - 1;
	}
	if (!val || parse_num(val, &v) < 0)
		return uncore_fail(UNCORE_ESYNTAX, "%s needs a number: %s=N", name, name);
	if (v > max)
		return uncore_fail(UNCORE_ERANGE, "%s=%s is out of range [0-%llu]", name, val,
				   (unsigned long long)max);
	if (*slot != UNCORE_ALL && *slot != (int)v)
		return uncore_fail(UNCORE_ECOMBO, "%s=%s contradicts the %s given before (%d)",
				   name, val, slot == &out->ref.instance ? "instance" : name,
				   *slot);
	*slot = (int)v;
	if (out->ref.socket != UNCORE_ALL && out->ref.cpu != UNCORE_ALL)
		return uncore_fail(
		    UNCORE_ECOMBO,
		    "give either :socket= or :cpu= (which selects its socket), not both");
	return 0;
}

/* The client uncore_cbox PMUs share one fixed UCLK counter, which the
 * kernel gives to the first of them only: its fixed event (config 0xff,
 * UNCORE_FIXED_EVENT) on uncore_cbox_1.. is EINVAL at open
 * (arch/x86/events/intel/uncore.c, uncore_pmu_event_init: single_fixed;
 * uncore_snb.c: .single_fixed = 1 on every client cbox type;
 * platform/skl/HARDWARE-DECISIONS.md S2).  Counted once, on the first. */
static int single_fixed(const struct perf_family *fam, const uint64_t cfg[UNCORE_PERF_NCONFIG])
{
	return cfg[0] == 0xff && cfg[1] == 0 && cfg[2] == 0 && strcmp(fam->name, "uncore_cbox") == 0;
}

static int alias_single_fixed(const struct perf_family *fam, const struct uncore_perf_alias *a)
{
	uint64_t cfg[UNCORE_PERF_NCONFIG] = {0, 0, 0};
	int rc = uncore_perf_pmu_add_terms(fam->ref, a->terms, cfg);
	uncore_error_clear();
	return rc == 0 && single_fixed(fam, cfg);
}

static int kernel_parse(struct uncore_event_source *src, const char *name,
			struct uncore_sched_event *out)
{
	struct perf_kernel_events *k = (struct perf_kernel_events *)src;
	char buf[UNCORE_EVENT_MAX_LEN + 1];
	struct perf_family *fam = NULL;
	unsigned box = 0;
	int instance = UNCORE_ALL;

	if (!name || strlen(name) > UNCORE_EVENT_MAX_LEN)
		return 1;
	snprintf(buf, sizeof(buf), "%s", name);
	char *sep = strstr(buf, "::");
	if (!sep)
		return 1;
	*sep = '\0';
	if (resolve(k, buf, &fam, &box, &instance))
		return 1;

	uncore_error_clear();
	const struct uncore_perf_pmu *pmu =
	    instance == UNCORE_ALL ? fam->ref : perf_bind(k->b, box, (unsigned)instance)->pmu;
	char *ev = sep + 2;
	char *quals = strchr(ev, ':');
	if (quals)
		*quals++ = '\0';
	if (*ev == '\0')
		return uncore_fail(UNCORE_ESYNTAX, "%s: empty event name after '::'", name);

	struct uncore_sched_event e;
	memset(&e, 0, sizeof(e));
	e.ref.box = &fam->box;
	e.ref.instance = instance;
	e.ref.socket = e.ref.cpu = UNCORE_ALL;
	uint64_t cfg[UNCORE_PERF_NCONFIG] = {0, 0, 0};
	int rc;
	if (strchr(ev, '=')) {
		rc = uncore_perf_pmu_add_terms(pmu, ev, cfg);
	} else {
		const struct uncore_perf_alias *a = uncore_perf_pmu_alias(pmu, ev);
		if (!a) {
			char list[400], fields[200];
			alias_list(pmu, list, sizeof(list));
			uncore_perf_pmu_field_list(pmu, fields, sizeof(fields));
			return uncore_fail(
			    UNCORE_ENOEVENT,
			    "%s has no event '%s'; its events: %s; or give the fields "
			    "(%s::%s), e.g. %s::event=0x4",
			    pmu->name, ev, list, fam->name, fields, fam->name);
		}
		rc = uncore_perf_pmu_add_terms(pmu, a->terms, cfg);
	}
	for (char *save = NULL, *q = quals ? strtok_r(quals, ":", &save) : NULL; rc == 0 && q;
	     q = strtok_r(NULL, ":", &save)) {
		char *val = strchr(q, '=');
		char glued[8];
		size_t g = val ? 0 : uncore_glued_qualifier(q);
		if (val)
			*val++ = '\0';
		if (g) { /* ":socket1": the qualifier without '=' */
			memcpy(glued, q, g);
			glued[g] = '\0';
			rc = qualifier(glued, q + g, &e, fam);
		} else if (!strcasecmp(q, "socket") || !strcasecmp(q, "cpu") ||
			   (!strcasecmp(q, "box") && fam->box.ninstances > 1))
			rc = qualifier(q, val, &e, fam);
		else {
			char term[160];
			snprintf(term, sizeof(term), "%s%s%s", q, val ? "=" : "", val ? val : "");
			rc = uncore_perf_pmu_add_terms(pmu, term, cfg);
		}
	}
	if (rc == 0 && instance != UNCORE_ALL && e.ref.instance != instance)
		rc = uncore_fail(UNCORE_ECOMBO, "%s: box=%d contradicts the PMU %s", name,
				 e.ref.instance, pmu->name);
	if (rc == 0 && single_fixed(fam, cfg)) {
		if (e.ref.instance == UNCORE_ALL)
			e.ref.instance = 0;
		else if (e.ref.instance != 0)
			rc = uncore_fail(UNCORE_ECOMBO,
					 "%s: the kernel gives the %s PMUs' one fixed counter "
					 "(event 0xff) to %s_0 only (single_fixed): count %s_0::%s",
					 name, fam->name, fam->name, fam->name, ev);
	}
	if (rc == 0 && e.ref.instance == UNCORE_ALL && fam->beyond)
		rc = uncore_fail(UNCORE_ECOMBO,
				 "%s: this kernel has %u %s PMUs and this version counts the "
				 "first %d of a family, so a sum over %s would miss %s_%d and "
				 "above; count %s_0..%d by their own names (%s_0::%s)",
				 name, fam->box.ninstances + fam->beyond, fam->name,
				 PERF_MAX_INSTANCES, fam->name, fam->name, PERF_MAX_INSTANCES,
				 fam->name, PERF_MAX_INSTANCES - 1, fam->name, ev);
	if (rc == 0)
		rc = intern(k, cfg, &e.enc.ctl);
	if (rc < 0)
		return rc;
	e.enc.counters = (UINT64_C(1) << PERF_KERNEL_COUNTERS) - 1;
	*out = e;
	return 0;
}

static unsigned kernel_count(const struct uncore_event_source *src)
{
	return ((const struct perf_kernel_events *)src)->nentries;
}

static int kernel_entry(const struct uncore_event_source *src, unsigned i, char *name, size_t nlen,
			char *desc, size_t dlen)
{
	const struct perf_kernel_events *k = (const struct perf_kernel_events *)src;
	for (unsigned f = 0; f < k->nfam; f++) {
		const struct perf_family *fam = &k->fam[f];
		if (i < fam->first_alias || i >= fam->first_alias + fam->ref->naliases)
			continue;
		const struct uncore_perf_alias *a = &fam->ref->aliases[i - fam->first_alias];
		char unit[96] = "";
		if (a->scale[0] || a->unit[0])
			snprintf(unit, sizeof(unit), "; counts in units of %s %s",
				 a->scale[0] ? a->scale : "1", a->unit[0] ? a->unit : "");
		snprintf(name, nlen, "%s::%s", fam->name, a->name);
		if (fam->beyond)
			snprintf(desc, dlen,
				 "Kernel event %s (%s)%s; this kernel has %u %s PMUs and the "
				 "first %d are counted, each by its own name (%s_<N>::%s)",
				 a->name, a->terms, unit, fam->box.ninstances + fam->beyond,
				 fam->name, PERF_MAX_INSTANCES, fam->name, a->name);
		else if (fam->box.ninstances > 1 && alias_single_fixed(fam, a))
			snprintf(desc, dlen,
				 "Kernel event %s (%s)%s; the one fixed counter of every %s_<N>, "
				 "counted on %s_0 (the kernel's single_fixed), summed over sockets "
				 "(:socket=N for one)",
				 a->name, a->terms, unit, fam->name, fam->name);
		else if (fam->box.ninstances > 1)
			snprintf(
			    desc, dlen,
			    "Kernel event %s (%s)%s; summed over every %s_<N> PMU of each socket "
			    "and over sockets (%s_<N>:: for one, :socket=N for one socket)",
			    a->name, a->terms, unit, fam->name, fam->name);
		else
			snprintf(desc, dlen,
				 "Kernel event %s (%s)%s; summed over sockets (:socket=N for one)",
				 a->name, a->terms, unit);
		return 0;
	}
	return uncore_fail(UNCORE_ENOEVENT, "no kernel event number %u", i);
}

static const char *const *kernel_pmu_names(const struct uncore_event_source *src, unsigned *n,
					   unsigned *nprimary)
{
	const struct perf_kernel_events *k = (const struct perf_kernel_events *)src;
	*n = k->npmu_names;
	*nprimary = k->nprimary;
	return (const char *const *)k->pmu_names;
}

/* The event source's table_event (backend.h): the kernel's encoding and
 * counter constraints for a table event, at add. */
static int kernel_table_event(struct uncore_event_source *src, struct uncore_sched_event *ev)
{
	struct perf_backend *b = ((struct perf_kernel_events *)src)->b;
	const struct uncore_box_type *bt = ev->ref.box;
	unsigned box = 0;
	while (box < b->ntable && b->plat.boxes[box] != bt)
		box++;
	if (box == b->ntable || (bt->flags & UNCORE_BOXF_KERNEL))
		return 0;
	const struct uncore_perf_pmu *pmu = NULL;
	for (unsigned i = 0; i < PERF_MAX_INSTANCES && !pmu; i++)
		pmu = perf_bind(b, box, i)->pmu;
	if (!pmu)
		return 0; /* no kernel PMU: start says so, per instance */
	/* The encoding alone, as the kernel would program it: a filter it
	 * would drop is refused now, with its rule, not at start. */
	uint64_t cfg[UNCORE_PERF_NCONFIG];
	struct uncore_perf_table_event tev = {
	    .ctl = ev->enc.ctl,
	    .filter = ev->enc.filter,
	    .filter_mask = ev->enc.filter_mask,
	    .nfilters = ev->enc.nfilters,
	    .fixed = ev->enc.fixed,
	    .code = ev->enc.code,
	};
	int rc = uncore_perf_encode_table(bt, pmu, &tev, cfg);
	if (rc < 0 || ev->enc.fixed)
		return rc;
	if (bt->kernel_match_rules && (ev->enc.filter_mask[0] | ev->enc.filter_mask[1])) {
		int inst = ev->ref.instance;
		for (unsigned i = 0; i < PERF_MAX_INSTANCES; i++)
			if ((inst == UNCORE_ALL || inst == (int)i) && perf_bind(b, box, i)->pmu &&
			    (rc = bt->kernel_match_rules(bt, i, ev->enc.ctl)) < 0)
				return rc;
	}
	/* The kernel's counter constraints (the box type's kernel_counters):
	 * a group it cannot place is EINVAL at open, so our plan places each
	 * event only where the kernel would accept it. */
	if (!bt->kernel_counters)
		return 0;
	uint64_t manual = ev->enc.counters;
	uint64_t kernel = bt->kernel_counters(bt, ev->enc.ctl);
	if (!(manual & kernel))
		return uncore_fail(UNCORE_ECONFLICT,
				   "%s: the manual allows counters 0x%llx and the kernel's %s driver "
				   "0x%llx (its counter constraints): no counter satisfies both; use "
				   "the direct backend (PAPI_INTEL_UNCORE_BACKEND=direct)",
				   bt->name, (unsigned long long)manual, pmu->name,
				   (unsigned long long)kernel);
	ev->enc.counters = manual & kernel;
	return 0;
}

static const struct uncore_event_source_ops kernel_source_ops = {
    .table_event = kernel_table_event,
    .parse = kernel_parse,
    .count = kernel_count,
    .entry = kernel_entry,
    .pmu_names = kernel_pmu_names,
};
