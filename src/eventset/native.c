/* Native event codes and names (see native.h). */
#include "eventset/native.h"

#include "backend/backend.h"
#include "eventset/resolve.h"
#include "events/spelling.h"
#include "common/uncore_error.h"
#include "events/parse.h"
#include "metrics/metrics.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BOX_SHIFT   20
#define BOX_MASK    0x1fu /* up to UNCORE_NATIVE_KERNEL: 31 table box types */
#define EVENT_SHIFT 8
#define EVENT_MASK  0xfffu
#define SUB_MASK    0xffu

/* Qualifiers listed under every event, after its modifiers. */
enum { QUAL_SOCKET, QUAL_BOX, NQUALS };

struct uncore_native {
	const struct uncore_event_platform *plat;
	const struct uncore_metric_catalog *metrics; /* NULL: the platform has none */
	/* Named codes: each string resolved once, when first named.  Entries of
	 * enumerated codes are resolved once too, at first use (cache). */
	struct uncore_entry *named;
	unsigned nnamed, capnamed;
	struct uncore_native_cached {
		uint32_t code;
		struct uncore_entry e;
	} * cache;
	unsigned ncache, capcache;
	pthread_mutex_t lock; /* named and cache: codes are named and used from any thread */
	unsigned count;
	char **pmu_names;
	unsigned npmu_names;
	unsigned nprimary;               /* pmu_names[0..nprimary): box types and the metric PMU */
	struct uncore_event_source *src; /* events beyond the tables, or NULL */
	unsigned nkernel;                /* src's enumerable events */
	int kernel_listing;              /* list src's events only (uncore_native_list_kernel_only) */
};

static uint32_t make_code(unsigned box, unsigned ev, unsigned sub)
{
	return (uint32_t)((box + 1) << BOX_SHIFT | ev << EVENT_SHIFT | sub);
}

static int split_code(const struct uncore_native *n, uint32_t code, unsigned *box, unsigned *ev,
		      unsigned *sub)
{
	if (code & (UNCORE_NATIVE_NAMED | UNCORE_NATIVE_METRIC | UNCORE_NATIVE_KERNEL))
		return UNCORE_ENOEVENT;
	unsigned b = (code >> BOX_SHIFT) & BOX_MASK;
	if (b == 0 || b - 1 >= n->plat->nboxes)
		return UNCORE_ENOEVENT;
	*box = b - 1;
	*ev = (code >> EVENT_SHIFT) & EVENT_MASK;
	*sub = code & SUB_MASK;
	if (*ev >= uncore_box_nevents(n->plat->boxes[*box]))
		return UNCORE_ENOEVENT;
	return 0;
}

/* How many entries an event has under it. */
static unsigned subs_of(const struct uncore_box_type *bt, unsigned ev, unsigned *numasks,
			unsigned *nmods)
{
	struct uncore_event_info info;
	if (uncore_box_event_info(bt, ev, &info) < 0)
		return 0;
	*numasks = info.numasks;
	*nmods = info.nmods;
	return info.numasks + info.nmods + (bt->ninstances > 1 ? NQUALS : NQUALS - 1);
}

static int has_pmu_name(const struct uncore_native *n, const char *name)
{
	for (unsigned i = 0; i < n->npmu_names; i++)
		if (strcmp(n->pmu_names[i], name) == 0)
			return 1;
	return 0;
}

int uncore_native_create(const struct uncore_event_platform *plat, struct uncore_native **out)
{
	struct uncore_native *n;
	if (!plat)
		return uncore_fail(UNCORE_EINVAL, "no event platform");
	/* Only box types with events get enumerated codes (a backend's kernel
	 * PMU types come after the table's and have none). */
	for (unsigned b = 0; b < plat->nboxes; b++)
		if (uncore_box_nevents(plat->boxes[b]) && b + 1 > BOX_MASK)
			return uncore_fail(UNCORE_ERANGE,
					   "platform %s has too many box types with events",
					   plat->name);
	n = calloc(1, sizeof(*n));
	if (!n)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for native events");
	n->plat = plat;
	pthread_mutex_init(&n->lock, NULL);
	if (uncore_metric_catalog_get(plat, &n->metrics) < 0) {
		/* No metrics for this platform (or a broken metric file, which the
		 * unit tests rule out): events only. */
		n->metrics = NULL;
		uncore_error_clear();
	}
	unsigned names = 1;
	for (unsigned b = 0; b < plat->nboxes; b++) {
		n->count += uncore_box_nevents(plat->boxes[b]);
		names += 2 + (plat->boxes[b]->ninstances > 1 ? plat->boxes[b]->ninstances : 0);
	}
	n->pmu_names = calloc(names ? names : 1, sizeof(*n->pmu_names));
	if (!n->pmu_names) {
		uncore_native_destroy(n);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for native events");
	}
	/* Box-type names (and the metric PMU) before instance names: PAPI
	 * keeps only the first PAPI_PMU_MAX, and a type name routes the most
	 * events. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1 && n->metrics) {
			n->pmu_names[n->npmu_names] = strdup(n->metrics->summary_pmu);
			if (!n->pmu_names[n->npmu_names]) {
				uncore_native_destroy(n);
				return uncore_fail(UNCORE_ENOMEM,
						   "out of memory for native events");
			}
			n->npmu_names++;
			for (unsigned i = 0; i < n->metrics->ndefs; i++)
				n->count += !n->metrics->defs[i].unavailable;
		}
		if (pass == 1)
			n->nprimary = n->npmu_names;
		/* The kernel's family names of our boxes (uncore_imc routes
		 * uncore_imc_0): perf users' names of them (events/parse.h).  A
		 * backend's event source lists its own PMUs before these. */
		for (unsigned b = 0; pass == 1 && b < plat->nboxes; b++) {
			const struct uncore_box_type *bt = plat->boxes[b];
			if (!bt->perf_pmu || (bt->flags & UNCORE_BOXF_KERNEL) ||
			    has_pmu_name(n, bt->perf_pmu))
				continue;
			if (!(n->pmu_names[n->npmu_names] = strdup(bt->perf_pmu))) {
				uncore_native_destroy(n);
				return uncore_fail(UNCORE_ENOMEM, "out of memory for native events");
			}
			n->npmu_names++;
		}
		for (unsigned b = 0; b < plat->nboxes; b++) {
			const struct uncore_box_type *bt = plat->boxes[b];
			if (bt->flags & UNCORE_BOXF_KERNEL)
				continue; /* named by the event source (uncore_native_set_source) */
			int first = pass == 0 ? -1 : 0;
			int last = pass == 0 ? 0 : bt->ninstances > 1 ? (int)bt->ninstances : 0;
			for (int i = first; i < last; i++) {
				char name[64];
				if (i < 0)
					snprintf(name, sizeof(name), "%s", bt->name);
				else if (uncore_box_instance_name(bt, i, name, sizeof(name)) < 0)
					continue;
				n->pmu_names[n->npmu_names] = strdup(name);
				if (!n->pmu_names[n->npmu_names]) {
					uncore_native_destroy(n);
					return uncore_fail(UNCORE_ENOMEM,
							   "out of memory for native events");
				}
				n->npmu_names++;
			}
		}
	}
	*out = n;
	return 0;
}

int uncore_native_set_source(struct uncore_native *n, struct uncore_event_source *src)
{
	unsigned k = 0, primary = 0;
	const char *const *names = NULL;
	if (!src)
		return 0;
	names = src->ops->pmu_names(src, &k, &primary);
	char **p = realloc(n->pmu_names, (n->npmu_names + k + 1) * sizeof(*p));
	if (!p)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for native events");
	n->pmu_names = p;
	/* Order: table types and the metric PMU, the source's whole PMUs,
	 * table instances, the source's instances (see uncore_native_create). */
	unsigned added = 0; /* the source's whole PMUs placed so far */
	for (unsigned i = 0; i < k; i++) {
		if (has_pmu_name(n, names[i]))
			continue; /* a table box's kernel family, listed already */
		char *copy = strdup(names[i]);
		if (!copy)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for native events");
		unsigned at = i < primary ? n->nprimary + added++ : n->npmu_names;
		memmove(&n->pmu_names[at + 1], &n->pmu_names[at],
			(n->npmu_names - at) * sizeof(*n->pmu_names));
		n->pmu_names[at] = copy;
		n->npmu_names++;
	}
	n->nprimary += added;
	n->src = src;
	n->nkernel = src->ops->count(src);
	n->count += n->nkernel;
	return 0;
}

const char *const *uncore_native_pmu_names(const struct uncore_native *n, unsigned *count)
{
	*count = n->npmu_names;
	return (const char *const *)n->pmu_names;
}

void uncore_native_destroy(struct uncore_native *n)
{
	if (!n)
		return;
	free(n->named);
	free(n->cache);
	pthread_mutex_destroy(&n->lock);
	for (unsigned i = 0; i < n->npmu_names; i++)
		free(n->pmu_names[i]);
	free(n->pmu_names);
	free(n);
}

void uncore_native_list_kernel_only(struct uncore_native *n)
{
	n->kernel_listing = 1;
}

unsigned uncore_native_count(const struct uncore_native *n)
{
	if (n->kernel_listing)
		return n->nkernel;
	return n->count;
}

/* Kernel events (the backend's event source). */

static int is_kernel_code(uint32_t code)
{
	return (code & (UNCORE_NATIVE_NAMED | UNCORE_NATIVE_METRIC | UNCORE_NATIVE_KERNEL)) ==
	       UNCORE_NATIVE_KERNEL;
}

static int first_kernel(const struct uncore_native *n, uint32_t *code)
{
	if (n->nkernel == 0)
		return UNCORE_ENOEVENT;
	*code = UNCORE_NATIVE_KERNEL;
	return 0;
}

/* Metrics. */

#define METRIC_INDEX(code) (((code) & ~UNCORE_NATIVE_METRIC) >> EVENT_SHIFT)
#define METRIC_SUB(code)   ((code)&SUB_MASK)

static uint32_t metric_code(unsigned index, unsigned sub)
{
	return UNCORE_NATIVE_METRIC | index << EVENT_SHIFT | sub;
}

/* The first countable metric at index `from` or after it, or after them
 * the first kernel event.  Metrics the platform cannot measure (their
 * "unavailable" line says why; naming one still gives that reason) are
 * not listed. */
static int metric_from(const struct uncore_native *n, unsigned from, uint32_t *code)
{
	for (unsigned i = from; n->metrics && i < n->metrics->ndefs; i++)
		if (!n->metrics->defs[i].unavailable) {
			*code = metric_code(i, 0);
			return 0;
		}
	return first_kernel(n, code);
}

static int first_metric(const struct uncore_native *n, uint32_t *code)
{
	return metric_from(n, 0, code);
}

/* Qualifiers listed under a metric: :socket=, and :box= when its box
 * type has several instances. */
static unsigned metric_subs(const struct uncore_native *n, const struct uncore_metric_def *d)
{
	const struct uncore_box_type *bt = d->box ? uncore_metric_box(n->metrics, d->box) : NULL;
	if (d->unavailable)
		return 0;
	return bt && bt->ninstances > 1 ? 3 : 2; /* :socket=, [:box=,] :int */
}

/* The integer form of metric d (of its amount form): units. */
static void metric_int_fill(const struct uncore_metric_def *d, int amount,
			    struct uncore_native_info *out)
{
	double scale;
	char units[sizeof(out->units)];
	snprintf(units, sizeof(units), "%s", d->units);
	if (amount)
		uncore_metric_amount_units(d->units, units, sizeof(units));
	uncore_metric_int_units(units, &scale, out->units, sizeof(out->units));
	out->fp64 = 0;
	out->int64 = 1;
}

static const struct uncore_metric_def *metric_at(const struct uncore_native *n, uint32_t code)
{
	if (!n->metrics || !(code & UNCORE_NATIVE_METRIC) || (code & UNCORE_NATIVE_NAMED))
		return NULL;
	unsigned i = METRIC_INDEX(code);
	return i < n->metrics->ndefs ? &n->metrics->defs[i] : NULL;
}

static int metric_enum(const struct uncore_native *n, uint32_t *code, enum uncore_native_enum how)
{
	const struct uncore_metric_def *d = metric_at(n, *code);
	unsigned i = METRIC_INDEX(*code), sub = METRIC_SUB(*code);
	if (!d)
		return UNCORE_ENOEVENT;
	if (how == UNCORE_ENUM_UMASKS) {
		if (sub + 1 > metric_subs(n, d))
			return UNCORE_ENOEVENT;
		*code = metric_code(i, sub + 1);
		return 0;
	}
	return metric_from(n, i + 1, code);
}

static void metric_fill(const struct uncore_native *n, const struct uncore_metric_def *d,
			struct uncore_native_info *out)
{
	uncore_metric_describe(n->metrics, d, out->desc, sizeof(out->desc));
	snprintf(out->units, sizeof(out->units), "%s", d->units);
	out->fp64 = 1;
	out->running_sum = uncore_metric_units_amount(d->units);
}

static int metric_info(const struct uncore_native *n, uint32_t code, struct uncore_native_info *out)
{
	const struct uncore_metric_def *d = metric_at(n, code);
	unsigned sub = METRIC_SUB(code);
	char name[200];
	if (!d || sub > metric_subs(n, d))
		return uncore_fail(UNCORE_ENOEVENT, "no native event with code 0x%x", code);
	uncore_metric_name(d, name, sizeof(name));
	metric_fill(n, d, out);
	if (sub == 0) {
		out->kind = UNCORE_NATIVE_EVENT;
		snprintf(out->name, sizeof(out->name), "%s", name);
		return 0;
	}
	/* "... masks:qualifier text", as for events. */
	char desc[sizeof(out->desc)];
	snprintf(desc, sizeof(desc), "%s", out->desc);
	out->kind = UNCORE_NATIVE_QUALIFIER;
	if (sub == metric_subs(n, d)) {
		metric_int_fill(d, 0, out);
		snprintf(out->name, sizeof(out->name), "%s:int", name);
		snprintf(
		    out->desc, sizeof(out->desc),
		    "%.850s masks:its integer form, for tools that read values as integers: in %s "
		    "(rounded)",
		    desc, out->units);
	} else if (sub == 1) {
		snprintf(out->name, sizeof(out->name), "%s:socket=0", name);
		snprintf(out->desc, sizeof(out->desc),
			 "%.900s masks:socket N only (default: all sockets)", desc);
	} else {
		snprintf(out->name, sizeof(out->name), "%s:box=0", name);
		snprintf(
		    out->desc, sizeof(out->desc),
		    "%.900s masks:%s box N only, for the terms of its own box (default: all boxes)",
		    desc, d->box);
	}
	return 0;
}

/* The first table event at or after (box, ev) in listing order: every
 * box's manual events, then every box's supplement (events Intel's data
 * lists and the manual omits, listed apart, after all of the manual's),
 * then the metrics. */
static int next_table_event(const struct uncore_native *n, unsigned box, unsigned ev,
			    int supplement, uint32_t *code)
{
	for (; supplement < 2; supplement++, box = 0, ev = 0) {
		for (unsigned b = box; b < n->plat->nboxes; b++, ev = 0) {
			const struct uncore_box_type *bt = n->plat->boxes[b];
			unsigned first = supplement ? bt->nevents : 0;
			unsigned end = supplement ? uncore_box_nevents(bt) : bt->nevents;
			if (ev < first)
				ev = first;
			if (ev < end) {
				*code = make_code(b, ev, 0);
				return 0;
			}
		}
	}
	return first_metric(n, code);
}

int uncore_native_enum(const struct uncore_native *n, uint32_t *code, enum uncore_native_enum how)
{
	unsigned box = 0, ev = 0, sub = 0;

	if (how == UNCORE_ENUM_FIRST)
		return n->kernel_listing ? first_kernel(n, code) : next_table_event(n, 0, 0, 0, code);
	if (is_kernel_code(*code)) {
		unsigned i = *code & ~UNCORE_NATIVE_KERNEL;
		if (how != UNCORE_ENUM_EVENTS || i + 1 >= n->nkernel)
			return UNCORE_ENOEVENT; /* kernel events have no umasks */
		*code = UNCORE_NATIVE_KERNEL | (i + 1);
		return 0;
	}
	if (*code & UNCORE_NATIVE_METRIC)
		return metric_enum(n, code, how);
	if (split_code(n, *code, &box, &ev, &sub) < 0)
		return UNCORE_ENOEVENT;
	if (how == UNCORE_ENUM_UMASKS) {
		unsigned nu, nm;
		unsigned total = subs_of(n->plat->boxes[box], ev, &nu, &nm);
		if (sub + 1 > total)
			return UNCORE_ENOEVENT;
		*code = make_code(box, ev, sub + 1);
		return 0;
	}
	return next_table_event(n, box, ev + 1, ev >= n->plat->boxes[box]->nevents, code);
}

/* "event description masks:entry description": PAPI's tools show the part
 * after "masks:" on the entry's line (libpfm4's convention), so the event's
 * part is shortened to keep the entry's part whole in a PAPI_HUGE_STR_LEN
 * field. */
static void sub_desc(struct uncore_native_info *out, const char *event_desc, const char *entry)
{
	static const char tag[] = " masks:";
	size_t cap = sizeof(out->desc) - 1, tl = sizeof(tag) - 1;
	size_t el = strlen(entry), dl = event_desc ? strlen(event_desc) : 0;
	if (el > cap - tl)
		el = cap - tl;
	if (dl > cap - tl - el)
		dl = cap - tl - el;
	memcpy(out->desc, event_desc ? event_desc : "", dl);
	memcpy(out->desc + dl, tag, tl);
	memcpy(out->desc + dl + tl, entry, el);
	out->desc[dl + tl + el] = '\0';
}

static int enumerated_info(const struct uncore_native *n, unsigned box, unsigned ev, unsigned sub,
			   struct uncore_native_info *out)
{
	const struct uncore_box_type *bt = n->plat->boxes[box];
	struct uncore_event_info ei;
	unsigned nu = 0, nm = 0;
	unsigned total = subs_of(bt, ev, &nu, &nm);
	int rc = uncore_box_event_info(bt, ev, &ei);
	char entry[sizeof(out->desc)];

	if (rc < 0 || sub > total)
		return UNCORE_ENOEVENT;
	if (sub == 0) {
		out->kind = UNCORE_NATIVE_EVENT;
		snprintf(out->name, sizeof(out->name), "%s::%s", bt->name, ei.name);
		if (bt->ninstances > 1)
			snprintf(out->desc, sizeof(out->desc),
				 "%s (summed over every %s box of every socket; %s<N>:: or :box=N "
				 "for one box, "
				 ":socket=N for one socket)",
				 ei.desc ? ei.desc : "", bt->kind, bt->name);
		else
			snprintf(out->desc, sizeof(out->desc),
				 "%s (summed over sockets; :socket=N for one)",
				 ei.desc ? ei.desc : "");
		return 0;
	}
	if (sub <= nu) {
		struct uncore_umask_info ui;
		rc = uncore_box_umask_info(bt, ev, sub - 1, &ui);
		if (rc < 0)
			return rc;
		out->kind = UNCORE_NATIVE_UMASK;
		snprintf(out->name, sizeof(out->name), "%s::%s:%s", bt->name, ei.name, ui.name);
		snprintf(entry, sizeof(entry), "%s%s", ui.desc ? ui.desc : "",
			 ui.is_default ? " (default)" : "");
		sub_desc(out, ei.desc, entry);
		return 0;
	}
	if (sub <= nu + nm) {
		const struct uncore_mod_desc *md = uncore_box_event_mod(bt, ev, sub - 1 - nu);
		if (!md)
			return UNCORE_ENOEVENT;
		out->kind = UNCORE_NATIVE_MODIFIER;
		snprintf(out->name, sizeof(out->name), "%s::%s:%s=%llu", bt->name, ei.name,
			 md->name, (unsigned long long)md->min);
		snprintf(entry, sizeof(entry), "%s (%llu to %llu)", md->desc ? md->desc : "",
			 (unsigned long long)md->min, (unsigned long long)md->max);
		sub_desc(out, ei.desc, entry);
		return 0;
	}
	out->kind = UNCORE_NATIVE_QUALIFIER;
	if (sub - nu - nm - 1 == QUAL_SOCKET) {
		snprintf(out->name, sizeof(out->name), "%s::%s:socket=0", bt->name, ei.name);
		sub_desc(out, ei.desc, "count on socket N only (default: all sockets, summed)");
	} else {
		snprintf(out->name, sizeof(out->name), "%s::%s:box=0", bt->name, ei.name);
		snprintf(entry, sizeof(entry),
			 "count on %s box N only (0 to %u; default: all boxes, summed)", bt->kind,
			 bt->ninstances - 1);
		sub_desc(out, ei.desc, entry);
	}
	return 0;
}

int uncore_native_info(const struct uncore_native *n, uint32_t code, struct uncore_native_info *out)
{
	unsigned box, ev, sub;

	memset(out, 0, sizeof(*out));
	if (code & UNCORE_NATIVE_NAMED) {
		unsigned idx = code & ~UNCORE_NATIVE_NAMED;
		if (idx >= n->nnamed)
			return uncore_fail(UNCORE_ENOEVENT, "no native event with code 0x%x", code);
		out->kind = UNCORE_NATIVE_STRING;
		pthread_mutex_lock((pthread_mutex_t *)&n->lock);
		const struct uncore_entry e = n->named[idx];
		pthread_mutex_unlock((pthread_mutex_t *)&n->lock);
		snprintf(out->name, sizeof(out->name), "%.*s", (int)sizeof(out->name) - 1, e.name);
		/* Describe a named string by its event's or metric's description. */
		struct uncore_event_info ei;
		if (e.kind == UNCORE_ENTRY_EVENT && !e.from_source &&
		    uncore_box_event_info(e.ev.ref.box, e.ev.ref.event, &ei) == 0)
			snprintf(out->desc, sizeof(out->desc), "%s", ei.desc ? ei.desc : "");
		else if (e.kind != UNCORE_ENTRY_METRIC)
			uncore_error_clear(); /* no description is no error */
		else {
			metric_fill(n, e.metric.def, out);
			if (e.metric.amount) {
				uncore_metric_amount_units(e.metric.def->units, out->units,
							   sizeof(out->units));
				out->running_sum = 1;
			}
			if (e.metric.run && !out->running_sum)
				out->since_start = 1;
			if (e.metric.integer)
				metric_int_fill(e.metric.def, e.metric.amount, out);
			uncore_error_clear();
		}
		return 0;
	}
	if (code & UNCORE_NATIVE_METRIC)
		return metric_info(n, code, out);
	if (is_kernel_code(code)) {
		unsigned i = code & ~UNCORE_NATIVE_KERNEL;
		if (i >= n->nkernel || n->src->ops->entry(n->src, i, out->name, sizeof(out->name),
							  out->desc, sizeof(out->desc)) < 0)
			return uncore_fail(UNCORE_ENOEVENT, "no native event with code 0x%x", code);
		out->kind = UNCORE_NATIVE_EVENT;
		return 0;
	}
	if (split_code(n, code, &box, &ev, &sub) < 0 || enumerated_info(n, box, ev, sub, out) < 0)
		return uncore_fail(UNCORE_ENOEVENT, "no native event with code 0x%x", code);
	return 0;
}

int uncore_native_event_string(const struct uncore_native *n, uint32_t code, char *buf, size_t len)
{
	struct uncore_native_info info;
	int rc = uncore_native_info(n, code, &info);
	if (rc < 0)
		return rc;
	if ((size_t)snprintf(buf, len, "%s", info.name) >= len)
		return uncore_fail(UNCORE_ENOSPACE, "event name longer than %zu bytes", len);
	return 0;
}

/* "PMU::EVENT" exactly as listed (a box type and one of its events): its
 * enumerated code even when the event cannot be counted without a unit
 * mask or modifier (UNC_P_FREQ_BAND0_CYCLES needs ff=), so that tools can
 * describe it (papi_native_avail -e); adding it to an event set still fails
 * with the reason.  0, or -1 when `name` is not such a name. */
static int listed_event_code(const struct uncore_native *n, const char *name, uint32_t *code)
{
	const char *sep = strstr(name, "::");
	char pmu[64];
	if (!sep || strchr(sep + 2, ':') || (size_t)(sep - name) >= sizeof(pmu))
		return -1;
	memcpy(pmu, name, (size_t)(sep - name));
	pmu[sep - name] = '\0';
	for (unsigned b = 0; b < n->plat->nboxes; b++) {
		if (strcasecmp(n->plat->boxes[b]->name, pmu) != 0)
			continue;
		int ev = uncore_box_find_event(n->plat->boxes[b], sep + 2);
		if (ev < 0 || (unsigned)ev > EVENT_MASK)
			return -1;
		*code = make_code(b, (unsigned)ev, 0);
		return 0;
	}
	return -1;
}

/* A name the event source claims: its enumerated code, if it is one. */
static int kernel_code(struct uncore_native *n, const char *name, uint32_t *code)
{
	char ename[256], desc[8];
	for (unsigned i = 0; i < n->nkernel; i++)
		if (n->src->ops->entry(n->src, i, ename, sizeof(ename), desc, sizeof(desc)) == 0 &&
		    strcasecmp(ename, name) == 0) {
			*code = UNCORE_NATIVE_KERNEL | i;
			return 0;
		}
	uncore_error_clear();
	return 1;
}

static int named_code(struct uncore_native *n, const struct uncore_entry *e, uint32_t *code);
static void cache_put(struct uncore_native *n, uint32_t code, const struct uncore_entry *e);

/* An enumerated code for `name`, already resolved into e: kept for
 * uncore_native_entry when the name is the one the code lists (so that
 * the entry is what resolving the listed name gives), so that a listed
 * name is resolved once.  Another spelling is resolved again there. */
static int listed_code(struct uncore_native *n, const char *name, const struct uncore_entry *e,
		       uint32_t code, uint32_t *out)
{
	struct uncore_native_info info;
	if (uncore_native_info(n, code, &info) == 0 && strcmp(info.name, name) == 0)
		cache_put(n, code, e);
	uncore_error_clear();
	*out = code;
	return 0;
}

int uncore_native_code(struct uncore_native *n, const char *given, uint32_t *code)
{
	/* One spelling (perf's PMU/fields/, Intel's EVENT.UMASK become ours),
	 * so that every lookup sees the name as listed. */
	char name[UNCORE_EVENT_MAX_LEN + 1];
	int rc = uncore_event_spelling(given, name, sizeof(name));
	if (rc == UNCORE_ENOSPACE)
		return uncore_fail(UNCORE_ESYNTAX, "event string longer than %d characters",
				   UNCORE_EVENT_MAX_LEN);
	return rc < 0 ? rc : uncore_native_code_spelled(n, name, code);
}

int uncore_native_code_spelled(struct uncore_native *n, const char *name, uint32_t *code)
{
	struct uncore_entry e;
	int rc = uncore_resolve_spelled(n->plat, n->src, name, &e);
	if (rc < 0) {
		/* A listed PMU::EVENT that cannot be counted as it stands. */
		if (rc != UNCORE_ENOEVENT && listed_event_code(n, name, code) == 0)
			return 0;
		return rc;
	}
	/* The backend's own events (perf: kernel PMUs by their sysfs names). */
	if (e.from_source)
		return kernel_code(n, name, code) == 0 ? 0 : named_code(n, &e, code);
	if (e.kind == UNCORE_ENTRY_METRIC) {
		/* Not the run form: it reads since start, the listed code over the
		 * interval since the last read (the same code was both). */
		if (e.metric.socket == UNCORE_ALL && e.metric.instance == UNCORE_ALL &&
		    !e.metric.amount && !e.metric.run) {
			/* The metric, or its listed integer form (its last sub). */
			return listed_code(
			    n, name, &e,
			    metric_code((unsigned)(e.metric.def - n->metrics->defs),
					e.metric.integer ? metric_subs(n, e.metric.def) : 0),
			    code);
		}
		return named_code(n, &e, code);
	}
	/* The plain event of a box type, or with exactly one umask: enumerated. */
	const struct uncore_event_ref *ref = &e.ev.ref;
	int box = -1;
	for (unsigned b = 0; b < n->plat->nboxes; b++)
		if (n->plat->boxes[b] == ref->box)
			box = (int)b;
	if (box >= 0 && ref->instance == UNCORE_ALL && ref->socket == UNCORE_ALL &&
	    ref->cpu == UNCORE_ALL && ref->nmods == 0 && ref->numasks <= 1 &&
	    ref->event <= EVENT_MASK) {
		unsigned sub = ref->numasks ? ref->umasks[0] + 1u : 0;
		if (sub <= SUB_MASK)
			return listed_code(n, name, &e, make_code((unsigned)box, ref->event, sub),
					   code);
	}
	return named_code(n, &e, code);
}

/* A per-process code for any other valid string, holding its entry. */
static int named_code(struct uncore_native *n, const struct uncore_entry *e, uint32_t *code)
{
	int rc = 0;
	pthread_mutex_lock(&n->lock);
	for (unsigned i = 0; i < n->nnamed; i++) {
		if (strcasecmp(n->named[i].name, e->name) == 0) {
			*code = UNCORE_NATIVE_NAMED | i;
			goto out;
		}
	}
	if (n->nnamed >= UNCORE_NATIVE_NAMED - 1) {
		rc = uncore_fail(UNCORE_ENOSPACE, "too many distinct event strings");
		goto out;
	}
	if (n->nnamed == n->capnamed) {
		unsigned cap = n->capnamed ? n->capnamed * 2 : 16;
		struct uncore_entry *nn = realloc(n->named, cap * sizeof(*nn));
		if (!nn) {
			rc = uncore_fail(UNCORE_ENOMEM, "out of memory for event names");
			goto out;
		}
		n->named = nn;
		n->capnamed = cap;
	}
	n->named[n->nnamed] = *e;
	*code = UNCORE_NATIVE_NAMED | n->nnamed++;
out:
	pthread_mutex_unlock(&n->lock);
	return rc;
}

int uncore_native_entry(struct uncore_native *n, uint32_t code, struct uncore_entry *out)
{
	struct uncore_native_info info;
	struct uncore_entry e;
	int rc;

	pthread_mutex_lock(&n->lock);
	if (code & UNCORE_NATIVE_NAMED) {
		unsigned idx = code & ~UNCORE_NATIVE_NAMED;
		rc = idx < n->nnamed
			 ? 0
			 : uncore_fail(UNCORE_ENOEVENT, "no native event with code 0x%x", code);
		if (rc == 0)
			*out = n->named[idx];
		pthread_mutex_unlock(&n->lock);
		return rc;
	}
	for (unsigned i = 0; i < n->ncache; i++) {
		if (n->cache[i].code == code) {
			*out = n->cache[i].e;
			pthread_mutex_unlock(&n->lock);
			return 0;
		}
	}
	pthread_mutex_unlock(&n->lock);
	/* First use of an enumerated code: resolve the entry it lists, once. */
	rc = uncore_native_info(n, code, &info);
	if (rc == 0)
		rc = uncore_resolve(n->plat, n->src, info.name, &e);
	if (rc < 0)
		return rc;
	cache_put(n, code, &e);
	*out = e;
	return 0;
}

/* Keep code's entry (once): without room it is resolved again next time. */
static void cache_put(struct uncore_native *n, uint32_t code, const struct uncore_entry *e)
{
	pthread_mutex_lock(&n->lock);
	for (unsigned i = 0; i < n->ncache; i++)
		if (n->cache[i].code == code) {
			pthread_mutex_unlock(&n->lock);
			return;
		}
	if (n->ncache == n->capcache) {
		unsigned cap = n->capcache ? n->capcache * 2 : 16;
		struct uncore_native_cached *c = realloc(n->cache, cap * sizeof(*c));
		if (c) {
			n->cache = c;
			n->capcache = cap;
		}
	}
	if (n->ncache < n->capcache)
		n->cache[n->ncache++] = (struct uncore_native_cached){.code = code, .e = *e};
	pthread_mutex_unlock(&n->lock);
}
