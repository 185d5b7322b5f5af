/* Compiling a metric for a machine (see compile.h): resolve the names of its
 * formula tree (common terms, constants, other metrics, events), translate
 * each counted event with its control bits and filter settings into an
 * event of our tables, and plan how the terms are measured. */
#include "metrics/compile.h"

#include "common/uncore_error.h"
#include "events/encode.h"
#include "metrics/expr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_DEPTH   8  /* metrics referring to metrics */
#define MAX_WITHS   32 /* assignments in scope */
#define MAX_CLASSES 16

struct variant {
	char event[UNCORE_EVENT_MAX_LEN];
	char label[UNCORE_EVENT_MAX_LEN + 192];
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
};

struct term {
	unsigned box;   /* index in plat->boxes */
	int socket;     /* scope: the metric's :socket=, or UNCORE_ALL */
	int instance;   /* scope: the metric's :box= for its own box, or UNCORE_ALL */
	int per_socket; /* variants differ by socket (my_node) */
	int cls;        /* class among the terms of its box type */
	struct variant v[UNCORE_MACHINE_MAX_SOCKETS];
};

struct mmetric {
	const struct uncore_metric_catalog *cat;
	const struct uncore_metric_def *def;
	int socket, instance;
	struct mx_node *root;
	enum uncore_metric_method method;
	char method_text[1024];
};

struct uncore_mset {
	struct mx_arena *arena;
	const struct uncore_machine *m;
	const struct uncore_sched_event *raw;
	unsigned nraw;
	unsigned nmetrics;
	struct mmetric *metrics;
	unsigned nterms, capterms;
	struct term **terms;
	unsigned nev, capev;
	struct uncore_sched_event *ev;
	struct uncore_metric_evinfo *evinfo;
	unsigned nclasses[UNCORE_MAX_BOX_TYPES];
	int spread[UNCORE_MAX_BOX_TYPES];
};

struct with_ref {
	const struct mx_assign *a;
	unsigned *used;
};

struct rctx {
	struct uncore_mset *ms;
	struct mmetric *mm; /* the metric being resolved */
	const char *box;    /* default box kind for names without BOX: */
	const char *what;   /* for messages */
	struct with_ref withs[MAX_WITHS];
	unsigned nwith;
	int depth;
};

/* Filter settings a term needs, in the box's filter value layout. */
struct req {
	uint64_t mask[UNCORE_MAX_FILTERS];
	uint64_t value[UNCORE_MAX_FILTERS];
	uint64_t raw_ok[UNCORE_MAX_FILTERS];
};

static unsigned ctz64(uint64_t v)
{
	return v ? (unsigned)__builtin_ctzll(v) : 0;
}

static int box_index(const struct uncore_machine *m, const struct uncore_box_type *bt)
{
	return uncore_machine_box_index(m, bt);
}

/* Sockets a scope covers. */
static uint32_t socket_mask(const struct uncore_machine *m, int socket)
{
	if (socket != UNCORE_ALL)
		return 1u << socket;
	return m->nsockets >= 32 ? ~0u : (1u << m->nsockets) - 1;
}

/* ---- event names ------------------------------------------------------- */

/* Table names carry a box prefix the manual omits: UNC_C_LLC_LOOKUP is the
 * manual's LLC_LOOKUP.  The Nehalem guide uses the full names. */
static int find_event(const struct uncore_box_type *bt, const char *name)
{
	int ev = uncore_box_find_event(bt, name);
	if (ev >= 0)
		return ev;
	for (unsigned e = 0; e < bt->nevents; e++) {
		struct uncore_event_info info;
		if (uncore_box_event_info(bt, e, &info) < 0 || strncmp(info.name, "UNC_", 4) != 0)
			continue;
		const char *rest = strchr(info.name + 4, '_');
		if (rest && strcasecmp(rest + 1, name) == 0)
			return (int)e;
	}
	/* 1.7: a fixed data register's mnemonic (MC_Chy_PCI_PMON_CTR_FIXED)
	 * stands for the box's fixed counter. */
	if (strstr(name, "CTR_FIXED")) {
		for (unsigned e = 0; e < bt->nevents; e++) {
			struct uncore_event_info info;
			if (uncore_box_event_info(bt, e, &info) == 0 && info.fixed)
				return (int)e;
		}
	}
	return -1;
}

static void list_umasks(const struct uncore_box_type *bt, unsigned ev, char *buf, size_t len)
{
	struct uncore_event_info info;
	size_t used = 0;
	buf[0] = '\0';
	if (uncore_box_event_info(bt, ev, &info) < 0)
		return;
	for (unsigned u = 0; u < info.numasks && used < len; u++) {
		struct uncore_umask_info ui;
		if (uncore_box_umask_info(bt, ev, u, &ui) == 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", u ? ", " : "",
						 ui.name);
	}
}

/* ---- filter requirements ------------------------------------------------ */

static const struct uncore_metric_field *reg_field(const struct uncore_metric_reg *r,
						   const char *name)
{
	for (unsigned f = 0; f < r->nfields; f++)
		if (strcasecmp(r->fields[f].name, name) == 0)
			return &r->fields[f];
	return NULL;
}

static void field_names(const struct uncore_metric_reg *r, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned f = 0; f < r->nfields && used < len; f++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", f ? ", " : "",
					 r->fields[f].name);
}

/* Node-ID mask values of the Cn_MSR_PMON_BOX_FILTER1.nid field (HSX table
 * 2-19: one bit per node ID): my_node and other_nodes of socket s. */
static unsigned node_of(const struct uncore_machine *m, unsigned s)
{
	/* Backends that do not know node IDs leave them all 0: then assume the
	 * usual numbering, node ID = socket number. */
	int known = 0;
	for (unsigned t = 0; t < m->nsockets; t++)
		known |= m->node_id[t] != 0;
	return known ? m->node_id[s] : s;
}

static int symbol_value(const struct rctx *c, const char *sym, unsigned s, uint64_t *v)
{
	const struct uncore_machine *m = c->ms->m;
	if (strcmp(sym, "my_node") == 0) {
		*v = 1ull << node_of(m, s);
		return 0;
	}
	if (strcmp(sym, "other_nodes") == 0) {
		*v = 0;
		for (unsigned t = 0; t < m->nsockets; t++)
			if (t != s)
				*v |= 1ull << node_of(m, t);
		return 0;
	}
	return uncore_fail(UNCORE_ESYNTAX,
			   "%s: unknown value %s (values are numbers, my_node, other_nodes)",
			   c->what, sym);
}

/* The requirements of the assignments in scope for a term of box kind
 * `kind` on socket s; *symbolic tells whether they depend on the socket. */
static int build_req(struct rctx *c, const char *kind, unsigned s, const uint64_t *usable,
		     struct req *rq, int *symbolic)
{
	const struct uncore_metric_catalog *cat = c->mm->cat;
	int whole = 0;
	memset(rq, 0, sizeof(*rq));
	for (unsigned w = 0; w < c->nwith; w++) {
		const struct mx_assign *a = c->withs[w].a;
		const struct uncore_metric_reg *r = uncore_metric_reg_find(cat, a->reg);
		const struct uncore_metric_field *f = NULL;
		uint64_t fmask, value = a->value;
		char names[160];

		if (!r)
			return uncore_fail(
			    UNCORE_ENOEVENT,
			    "%s: unknown register %s in with: (see the register lines of %s)",
			    c->what, a->reg, cat->file);
		if (strcasecmp(r->box, kind) != 0)
			continue; /* a setting of another box's register */
		if (r->filter < 0) {
			/* The manual's name without a number: whichever register holds the field.
			 */
			const struct uncore_metric_reg *found = NULL;
			for (unsigned i = 0; i < r->nalias && a->field[0] && !found; i++) {
				const struct uncore_metric_reg *t =
				    uncore_metric_reg_find(cat, r->alias[i]);
				if (t && reg_field(t, a->field))
					found = t;
			}
			if (!found)
				return uncore_fail(UNCORE_ENOEVENT,
						   "%s: no register of %s has a field %s", c->what,
						   r->name, a->field[0] ? a->field : "[bit range]");
			r = found;
		}
		if (a->field[0]) {
			f = reg_field(r, a->field);
			if (!f) {
				field_names(r, names, sizeof(names));
				return uncore_fail(UNCORE_ENOEVENT,
						   "%s: register %s has no field %s (fields: %s)",
						   c->what, r->name, a->field, names);
			}
			fmask = f->mask;
		} else
			fmask = (a->hi == 63 ? ~0ull : ((1ull << (a->hi + 1)) - 1)) &
				~((1ull << a->lo) - 1);
		if (a->symbol[0]) {
			int rc = symbol_value(c, a->symbol, s, &value);
			if (rc < 0)
				return rc;
			*symbolic = 1;
		}
		uint64_t v = value << ctz64(fmask);
		if ((v & ~fmask) || (ctz64(fmask) && (value >> (64 - ctz64(fmask)))))
			return uncore_fail(UNCORE_ERANGE, "%s: value 0x%llx does not fit %s.%s",
					   c->what, (unsigned long long)value, r->name,
					   a->field[0] ? a->field : "[range]");
		unsigned n = (unsigned)r->filter;
		if (n >= UNCORE_MAX_FILTERS)
			return uncore_fail(UNCORE_EINVAL, "%s: register %s: bad filter index",
					   c->what, r->name);
		uint64_t m64 = fmask << r->shift, v64 = v << r->shift;
		if (!(m64 & usable[n]))
			continue; /* the event does not look at this field */
		if (((rq->value[n] ^ v64) & rq->mask[n] & m64) != 0)
			return uncore_fail(UNCORE_ECONFLICT, "%s: %s set twice to different values",
					   c->what, r->name);
		rq->mask[n] |= m64;
		rq->value[n] |= v64;
		if ((f && f->raw) || r->whole)
			rq->raw_ok[n] |= m64;
		whole |= r->whole;
		if (s == 0)
			(*c->withs[w].used)++;
	}
	if (whole) {
		/* Match/mask pairs: fields the formula does not name are 0. */
		for (unsigned i = 0; i < cat->nregs; i++) {
			const struct uncore_metric_reg *r = &cat->regs[i];
			if (!r->whole || strcasecmp(r->box, kind) != 0 || r->filter < 0)
				continue;
			uint64_t span = 0xffffffffull << r->shift;
			rq->mask[r->filter] |= span;
			rq->raw_ok[r->filter] |= span;
		}
	}
	return 0;
}

/* ---- translation of one event reference ------------------------------- */

static int encode_str(const struct uncore_event_platform *plat, const char *s,
		      struct uncore_event_ref *ref, struct uncore_encoding *enc)
{
	int rc = uncore_event_parse(plat, s, ref);
	if (rc == 0)
		rc = uncore_event_encode(ref, enc);
	return rc;
}

/* Whether every required bit the encoding programs has the required value. */
static int agrees(const struct uncore_encoding *e, const struct req *rq)
{
	for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
		if ((e->filter[n] ^ rq->value[n]) & rq->mask[n] & e->filter_mask[n])
			return 0;
	return 1;
}

/* Filter bits event `ev` can depend on: those its encoding, any one of its
 * unit masks or any of its modifiers program.  A setting of other bits (a
 * with: over a group that also holds COUNTER0_OCCUPANCY) does not concern
 * the event: the box's filter is shared, the event ignores it. */
static void usable_bits(const struct uncore_event_platform *plat, const struct uncore_box_type *bt,
			unsigned ev, const char *base, uint64_t *usable)
{
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	struct uncore_event_info info;
	char cand[UNCORE_EVENT_MAX_LEN];
	memset(usable, 0, UNCORE_MAX_FILTERS * sizeof(*usable));
	if (encode_str(plat, base, &ref, &enc) == 0)
		for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
			usable[n] |= enc.filter_mask[n];
	for (unsigned i = 0;; i++) {
		const struct uncore_mod_desc *md = uncore_box_event_mod(bt, ev, i);
		if (!md)
			break;
		if (md->reg != UNCORE_REG_CTL && md->reg - 1u < UNCORE_MAX_FILTERS)
			usable[md->reg - 1u] |= md->field;
	}
	if (uncore_box_event_info(bt, ev, &info) == 0) {
		for (unsigned u = 0; u < info.numasks; u++) {
			struct uncore_umask_info ui;
			if (uncore_box_umask_info(bt, ev, u, &ui) < 0)
				continue;
			/* A unit mask may need a modifier too (NID_* needs nf). */
			for (int i = -1;; i++) {
				const struct uncore_mod_desc *md =
				    i < 0 ? NULL : uncore_box_event_mod(bt, ev, (unsigned)i);
				int w;
				if (i >= 0 && !md)
					break;
				if (md &&
				    (md->reg == UNCORE_REG_CTL || md->kind != UNCORE_MOD_FIELD))
					continue;
				if (md)
					w = snprintf(cand, sizeof(cand), "%s:%s:%s=%llu", base,
						     ui.name, md->name,
						     (unsigned long long)(md->min ? md->min : 1));
				else
					w = snprintf(cand, sizeof(cand), "%s:%s", base, ui.name);
				if (w < (int)sizeof(cand) &&
				    encode_str(plat, cand, &ref, &enc) == 0) {
					for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
						usable[n] |= enc.filter_mask[n];
					break;
				}
			}
		}
	}
	uncore_error_clear();
}

/* Bits of filter n the box defines (anything else is reserved). */
static uint64_t defined_bits(const struct uncore_box_type *bt, unsigned n)
{
	uint64_t all = 0;
	if (n < bt->nfilters)
		for (const uint64_t *f = bt->filters[n].fields; f && *f; f++)
			all |= *f;
	return all;
}

/* Greedily add unit masks to `s` (each candidate with `suffix` appended)
 * that program required filter bits, clearing them from `uncovered`. */
static void add_umasks(const struct uncore_event_platform *plat, const struct uncore_box_type *bt,
		       unsigned ev, char *s, size_t len, const char *suffix, const struct req *rq,
		       uint64_t *uncovered)
{
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	struct uncore_event_info info;
	char cand[UNCORE_EVENT_MAX_LEN], best[UNCORE_EVENT_MAX_LEN];

	if (uncore_box_event_info(bt, ev, &info) < 0)
		return;
	for (;;) {
		unsigned best_gain = 0;
		int any = 0;
		for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
			any |= uncovered[n] != 0;
		if (!any)
			return;
		for (int u = -1; u < (int)info.numasks; u++) {
			struct uncore_umask_info ui;
			int w;
			if (u < 0)
				w = snprintf(cand, sizeof(cand), "%s%s", s, suffix);
			else if (uncore_box_umask_info(bt, ev, (unsigned)u, &ui) == 0)
				w = snprintf(cand, sizeof(cand), "%s:%s%s", s, ui.name, suffix);
			else
				continue;
			if (w >= (int)sizeof(cand) || encode_str(plat, cand, &ref, &enc) < 0 ||
			    !agrees(&enc, rq))
				continue;
			unsigned gain = 0;
			for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
				gain += (unsigned)__builtin_popcountll(enc.filter_mask[n] &
								       uncovered[n]);
			if (gain > best_gain) {
				best_gain = gain;
				if (u < 0)
					snprintf(best, sizeof(best), "%s", s);
				else
					snprintf(best, sizeof(best), "%s:%s", s, ui.name);
			}
		}
		if (!best_gain)
			return;
		if (snprintf(cand, sizeof(cand), "%s%s", best, suffix) >= (int)sizeof(cand) ||
		    encode_str(plat, cand, &ref, &enc) < 0)
			return;
		snprintf(s, len, "%s", best);
		for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
			uncovered[n] &= ~enc.filter_mask[n];
	}
}

/* Express `rq` on event `base` (PMU::EVENT[:UMASK][:mods]) with the event's
 * modifiers and unit masks (together: a NID_ subevent needs both its
 * opcode unit mask and nf), then, for fields the manual lets us, directly;
 * fill v. */
static int express(struct rctx *c, const struct uncore_box_type *bt, unsigned ev, const char *base,
		   const struct req *rq, struct variant *v)
{
	const struct uncore_event_platform *plat = c->ms->m->plat;
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	uint64_t uncovered[UNCORE_MAX_FILTERS], modbits[UNCORE_MAX_FILTERS];
	char s[UNCORE_EVENT_MAX_LEN], cand[UNCORE_EVENT_MAX_LEN], mods[256] = "";
	size_t ml = 0;
	int rc;

	snprintf(s, sizeof(s), "%s", base);
	memcpy(uncovered, rq->mask, sizeof(uncovered));
	memset(modbits, 0, sizeof(modbits));
	/* The modifiers that write a filter field the formula sets (nf, cf, tf, nc, ...). */
	for (unsigned i = 0;; i++) {
		const struct uncore_mod_desc *md = uncore_box_event_mod(bt, ev, i);
		if (!md)
			break;
		if (md->kind != UNCORE_MOD_FIELD || md->reg == UNCORE_REG_CTL || !md->field)
			continue;
		unsigned n = md->reg - 1u;
		if (n >= UNCORE_MAX_FILTERS || (md->field & rq->mask[n]) != md->field)
			continue;
		uint64_t val = (rq->value[n] & md->field) >> ctz64(md->field);
		if (val < md->min || val > md->max || ml >= sizeof(mods))
			continue;
		ml += (size_t)snprintf(mods + ml, sizeof(mods) - ml, ":%s=%llu", md->name,
				       (unsigned long long)val);
		modbits[n] |= md->field;
	}
	/* With every such modifier at once; when no unit mask choice accepts
	 * them all, unit masks first and the modifiers one by one after. */
	add_umasks(plat, bt, ev, s, sizeof(s), mods, rq, uncovered);
	if (ml < sizeof(mods) &&
	    snprintf(cand, sizeof(cand), "%s%s", s, mods) < (int)sizeof(cand) &&
	    encode_str(plat, cand, &ref, &enc) == 0 && agrees(&enc, rq)) {
		snprintf(s, sizeof(s), "%s", cand);
		for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
			uncovered[n] &= ~(enc.filter_mask[n] | modbits[n]);
	} else {
		snprintf(s, sizeof(s), "%s", base);
		memcpy(uncovered, rq->mask, sizeof(uncovered));
		add_umasks(plat, bt, ev, s, sizeof(s), "", rq, uncovered);
		for (unsigned i = 0;; i++) {
			const struct uncore_mod_desc *md = uncore_box_event_mod(bt, ev, i);
			if (!md)
				break;
			if (md->kind != UNCORE_MOD_FIELD || md->reg == UNCORE_REG_CTL || !md->field)
				continue;
			unsigned n = md->reg - 1u;
			if (n >= UNCORE_MAX_FILTERS || (md->field & uncovered[n]) != md->field)
				continue;
			uint64_t val = (rq->value[n] & md->field) >> ctz64(md->field);
			if (snprintf(cand, sizeof(cand), "%s:%s=%llu", s, md->name,
				     (unsigned long long)val) >= (int)sizeof(cand))
				continue;
			if (encode_str(plat, cand, &ref, &enc) == 0 && agrees(&enc, rq)) {
				snprintf(s, sizeof(s), "%s", cand);
				uncovered[n] &= ~md->field;
			}
		}
	}
	uncore_error_clear();
	rc = encode_str(plat, s, &ref, &enc);
	if (rc < 0)
		return uncore_fail(rc, "%s: %s: %s", c->what, s, uncore_error_detail());
	/* 3. What is left is programmed directly, where the manual allows it. */
	char raw[160] = "";
	size_t rl = 0;
	for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++) {
		if (!uncovered[n])
			continue;
		if (uncovered[n] & ~rq->raw_ok[n])
			return uncore_fail(
			    UNCORE_ENOEVENT,
			    "%s: %s: no modifier or unit mask sets bits 0x%llx of %s to 0x%llx "
			    "(does the subevent enable that filter?)",
			    c->what, s, (unsigned long long)(uncovered[n] & ~rq->raw_ok[n]),
			    bt->filters[n].name, (unsigned long long)(rq->value[n] & uncovered[n]));
		if (rq->value[n] & uncovered[n] & ~defined_bits(bt, n))
			return uncore_fail(UNCORE_EINVAL,
					   "%s: %s: value 0x%llx sets reserved bits of %s", c->what,
					   s, (unsigned long long)(rq->value[n] & uncovered[n]),
					   bt->filters[n].name);
		enc.filter[n] = (enc.filter[n] & ~uncovered[n]) | (rq->value[n] & uncovered[n]);
		enc.filter_mask[n] |= uncovered[n];
		rl += (size_t)snprintf(raw + rl, sizeof(raw) - rl, "%s%s=0x%llx", rl ? "," : "{",
				       bt->filters[n].name,
				       (unsigned long long)(enc.filter[n] & enc.filter_mask[n]));
	}
	if (rl && rl < sizeof(raw))
		snprintf(raw + rl, sizeof(raw) - rl, "}");
	for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
		if ((enc.filter[n] & rq->mask[n]) != rq->value[n] ||
		    (rq->mask[n] & ~enc.filter_mask[n]))
			return uncore_fail(UNCORE_EINVAL,
					   "%s: %s cannot program %s as the formula asks", c->what,
					   s, bt->filters[n].name);
	snprintf(v->event, sizeof(v->event), "%s", s);
	snprintf(v->label, sizeof(v->label), "%s%s", s, raw);
	v->ref = ref;
	v->enc = enc;
	return 0;
}

static int same_term(const struct uncore_machine *m, const struct term *a, const struct term *b)
{
	if (a->box != b->box || a->socket != b->socket || a->instance != b->instance)
		return 0;
	for (unsigned s = 0; s < m->nsockets; s++)
		if (strcmp(a->v[s].label, b->v[s].label) != 0)
			return 0;
	return 1;
}

static int add_term(struct rctx *c, const struct term *t, int *index)
{
	struct uncore_mset *ms = c->ms;
	for (unsigned i = 0; i < ms->nterms; i++) {
		if (same_term(ms->m, ms->terms[i], t)) {
			*index = (int)i;
			return 0;
		}
	}
	if (ms->nterms == ms->capterms) {
		unsigned cap = ms->capterms ? ms->capterms * 2 : 8;
		struct term **nt = realloc(ms->terms, cap * sizeof(*nt));
		if (!nt)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
		ms->terms = nt;
		ms->capterms = cap;
	}
	struct term *copy = mx_alloc(ms->arena, sizeof(*copy));
	if (!copy)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
	*copy = *t;
	ms->terms[ms->nterms] = copy;
	*index = (int)ms->nterms++;
	return 0;
}

/* An event reference: EVENT[.SUB]{ctrls} of box kind `kind`. */
static int resolve_event(struct rctx *c, struct mx_node *n, const char *kind)
{
	struct uncore_mset *ms = c->ms;
	const struct uncore_metric_catalog *cat = c->mm->cat;
	const struct uncore_box_type *bt = uncore_metric_box(cat, kind);
	char base[UNCORE_EVENT_MAX_LEN], list[512];
	struct uncore_event_info info;
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	uint64_t usable[UNCORE_MAX_FILTERS];
	int ev, rc;

	if (!bt)
		return uncore_fail(UNCORE_ENOEVENT, "%s: no box of kind %s on %s", c->what, kind,
				   cat->platform);
	ev = find_event(bt, n->name);
	if (ev < 0)
		return uncore_fail(UNCORE_ENOEVENT, "%s: %s is not an event of the %s boxes (%s)",
				   c->what, n->name, kind, bt->manual);
	uncore_box_event_info(bt, (unsigned)ev, &info);
	size_t used = (size_t)snprintf(base, sizeof(base), "%s::%s", bt->name, info.name);
	if (n->sub[0]) {
		if (uncore_box_find_umask(bt, (unsigned)ev, n->sub) < 0) {
			list_umasks(bt, (unsigned)ev, list, sizeof(list));
			return uncore_fail(UNCORE_ENOUMASK,
					   "%s: %s has no subevent %s (it has: %s)", c->what,
					   info.name, n->sub, list[0] ? list : "none");
		}
		used += (size_t)snprintf(base + used, sizeof(base) - used, ":%s", n->sub);
	} else if (info.numasks && encode_str(ms->m->plat, base, &ref, &enc) == UNCORE_ENOUMASK) {
		/* An event named without a subevent counts all of them (ACT_COUNT
		 * in PCT_REQUESTS_PAGE_EMPTY): name every unit mask when the table
		 * has no default. */
		for (unsigned u = 0; u < info.numasks; u++) {
			struct uncore_umask_info ui;
			if (uncore_box_umask_info(bt, (unsigned)ev, u, &ui) == 0)
				used += (size_t)snprintf(base + used, sizeof(base) - used, ":%s",
							 ui.name);
		}
	}
	for (unsigned k = 0; k < n->nctrls; k++) {
		const char *mod = uncore_metric_control_mod(cat, n->ctrls[k].name);
		if (!mod)
			return uncore_fail(
			    UNCORE_ENOMOD,
			    "%s: unknown control bit %s (see the control lines of %s)", c->what,
			    n->ctrls[k].name, cat->file);
		used += (size_t)snprintf(base + used, sizeof(base) - used, ":%s=%llu", mod,
					 (unsigned long long)n->ctrls[k].value);
	}
	if (used >= sizeof(base))
		return uncore_fail(UNCORE_ENOSPACE, "%s: event string too long", c->what);
	usable_bits(ms->m->plat, bt, (unsigned)ev, base, usable);

	struct term *t = calloc(1, sizeof(*t));
	if (!t)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
	t->box = (unsigned)box_index(ms->m, bt);
	t->socket = c->mm->socket;
	t->instance = c->mm->def->box && strcasecmp(c->mm->def->box, kind) == 0 ? c->mm->instance
										: UNCORE_ALL;
	rc = 0;
	for (unsigned s = 0; rc == 0 && s < ms->m->nsockets; s++) {
		struct req rq;
		int symbolic = 0;
		rc = build_req(c, kind, s, usable, &rq, &symbolic);
		if (rc < 0)
			break;
		if (s > 0 && !symbolic) {
			t->v[s] = t->v[0];
			continue;
		}
		if (symbolic)
			t->per_socket = 1;
		rc = express(c, bt, (unsigned)ev, base, &rq, &t->v[s]);
	}
	int index = -1;
	if (rc == 0)
		rc = add_term(c, t, &index);
	free(t);
	if (rc < 0)
		return rc;
	n->kind = MX_TERM;
	n->term = index;
	return 0;
}

/* ---- name resolution ---------------------------------------------------- */

static int resolve(struct rctx *c, struct mx_node *n);

/* Replace node n by the parsed formula `text`, resolved with box `box`. */
static int inline_formula(struct rctx *c, struct mx_node *n, const char *text, const char *box,
			  const char *name)
{
	struct mx_node *sub;
	char what[200];
	int rc;
	if (c->depth >= MAX_DEPTH)
		return uncore_fail(UNCORE_EINVAL,
				   "%s: formulas refer to each other too deeply (at %s)", c->what,
				   name);
	snprintf(what, sizeof(what), "%s (in %s)", c->what, name);
	rc = mx_parse(c->ms->arena, text, what, &sub);
	if (rc < 0)
		return rc;
	const char *save_box = c->box;
	c->box = box;
	c->depth++;
	rc = resolve(c, sub);
	c->depth--;
	c->box = save_box;
	if (rc < 0)
		return rc;
	n->kind = MX_WITH; /* a group around the inlined tree */
	n->nassigns = 0;
	n->a = sub;
	return 0;
}

static unsigned popcount32(uint32_t v)
{
	return (unsigned)__builtin_popcount(v);
}

/* Instances of box kind `kind` the current metric counts (its sockets;
 * its :box= qualifier for its own box). */
static unsigned counted_instances(const struct rctx *c, const char *kind)
{
	const struct uncore_machine *m = c->ms->m;
	const struct mmetric *mm = c->mm;
	const struct uncore_box_type *bt = uncore_metric_box(mm->cat, kind);
	int b = bt ? box_index(m, bt) : -1;
	uint32_t sockets = socket_mask(m, mm->socket);
	unsigned n = 0;
	if (b < 0)
		return 0;
	for (unsigned s = 0; s < m->nsockets; s++) {
		if (!(sockets & (1u << s)))
			continue;
		uint32_t p = m->present[b][s];
		if (mm->instance != UNCORE_ALL && mm->def->box &&
		    strcasecmp(mm->def->box, kind) == 0)
			p &= 1u << mm->instance;
		n += popcount32(p);
	}
	return n;
}

static void set_num(struct mx_node *n, double v)
{
	n->kind = MX_NUM;
	n->num = v;
}

static void set_common(struct mx_node *n, int id)
{
	n->kind = MX_COMMON;
	n->common = id;
}

/* The common terms of HSX 1.7.1 that depend on the measurement, and ours
 * (src/metrics/README.md). */
static int resolve_common(struct rctx *c, struct mx_node *n, int *done)
{
	const struct uncore_machine *m = c->ms->m;
	const struct uncore_metric_catalog *cat = c->mm->cat;
	const char *name = n->name;
	*done = 1;
	if (strcmp(name, "TSC_SPEED") == 0) {
		set_common(n, UNCORE_METRIC_TSC_MHZ);
		return 0;
	}
	if (strcmp(name, "TSC") == 0 || strcmp(name, "TOTAL_INTERVAL") == 0) {
		/* TSC ticks in the interval: elapsed ns * TSC MHz / 1000. */
		struct mx_node *mul = mx_alloc(c->ms->arena, sizeof(*mul));
		struct mx_node *ns = mx_alloc(c->ms->arena, sizeof(*ns));
		struct mx_node *mhz = mx_alloc(c->ms->arena, sizeof(*mhz));
		struct mx_node *k = mx_alloc(c->ms->arena, sizeof(*k));
		if (!mul || !ns || !mhz || !k)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
		set_common(ns, UNCORE_METRIC_ELAPSED_NS);
		set_common(mhz, UNCORE_METRIC_TSC_MHZ);
		set_num(k, 1000);
		mul->kind = MX_MUL;
		mul->a = ns;
		mul->b = mhz;
		n->kind = MX_DIV;
		n->a = mul;
		n->b = k;
		return 0;
	}
	if (strcmp(name, "SOCKETS") == 0) {
		set_num(n, popcount32(socket_mask(m, c->mm->socket)));
		return 0;
	}
	if (strcmp(name, "INSTANCES") == 0) {
		if (!c->box)
			return uncore_fail(UNCORE_EINVAL, "%s: INSTANCES needs a box", c->what);
		set_num(n, counted_instances(c, c->box));
		return 0;
	}
	if (strcmp(name, "SAMPLE_INTERVAL") == 0) {
		/* The box's own clock over the interval, summed over the same
		 * instances as the other terms: X / SAMPLE_INTERVAL is then the
		 * average per box and per cycle (src/metrics/README.md). */
		const char *clk = c->box ? uncore_metric_clock_event(cat, c->box) : NULL;
		if (!clk)
			return uncore_fail(UNCORE_EINVAL,
					   "%s: SAMPLE_INTERVAL: no clock line for box %s in %s",
					   c->what, c->box ? c->box : "(none)", cat->file);
		/* EVENT[.SUBEVENT] */
		const char *dot = strchr(clk, '.');
		snprintf(n->name, sizeof(n->name), "%.*s",
			 dot ? (int)(dot - clk) : (int)strlen(clk), clk);
		snprintf(n->sub, sizeof(n->sub), "%s", dot ? dot + 1 : "");
		n->nctrls = 0;
		/* The clock takes no filter settings. */
		unsigned save = c->nwith;
		c->nwith = 0;
		int rc = resolve_event(c, n, c->box);
		c->nwith = save;
		return rc;
	}
	const char *cbox = uncore_metric_count_box(cat, name);
	if (cbox) {
		unsigned sockets = popcount32(socket_mask(m, c->mm->socket));
		set_num(n, sockets ? (double)counted_instances(c, cbox) / sockets : 0);
		return 0;
	}
	*done = 0;
	return 0;
}

static int resolve_ref(struct rctx *c, struct mx_node *n)
{
	const struct uncore_metric_catalog *cat = c->mm->cat;
	int plain = !n->sub[0] && !n->nctrls;
	int rc, done;

	if (plain && !n->box[0]) {
		rc = resolve_common(c, n, &done);
		if (rc < 0 || done)
			return rc;
		const struct uncore_metric_const *k = uncore_metric_const_find(cat, n->name);
		if (k)
			return inline_formula(c, n, k->expr, c->box, k->name);
	}
	const struct uncore_box_type *bt = n->box[0] ? uncore_metric_box(cat, n->box) : NULL;
	if (n->box[0] && !bt)
		return uncore_fail(UNCORE_ENOEVENT, "%s: %s:%s: no box of kind %s on %s", c->what,
				   n->box, n->name, n->box, cat->platform);
	const char *kind = bt ? bt->kind : c->box;
	if (plain) {
		const struct uncore_metric_def *d = uncore_metric_def_find(cat, kind, n->name);
		if (d && d != c->mm->def) {
			if (d->unavailable)
				return uncore_fail(UNCORE_ENOSUPP,
						   "%s uses %s, which is unavailable: %s", c->what,
						   d->name, d->unavailable);
			return inline_formula(c, n, d->expr, d->box, d->name);
		}
	}
	if (!kind)
		return uncore_fail(UNCORE_ENOEVENT,
				   "%s: %s: name it BOX:%s (a summary has no box of its own)",
				   c->what, n->name, n->name);
	return resolve_event(c, n, kind);
}

static int resolve(struct rctx *c, struct mx_node *n)
{
	int rc;
	if (!n)
		return 0;
	switch (n->kind) {
	case MX_REF:
		return resolve_ref(c, n);
	case MX_WITH: {
		if (c->nwith + n->nassigns > MAX_WITHS)
			return uncore_fail(UNCORE_EINVAL, "%s: too many filter settings", c->what);
		unsigned *used = calloc(n->nassigns ? n->nassigns : 1, sizeof(*used));
		if (!used)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
		unsigned base = c->nwith;
		for (unsigned i = 0; i < n->nassigns; i++) {
			c->withs[c->nwith].a = &n->assigns[i];
			c->withs[c->nwith].used = &used[i];
			c->nwith++;
		}
		rc = resolve(c, n->a);
		c->nwith = base;
		for (unsigned i = 0; rc == 0 && i < n->nassigns; i++)
			if (!used[i])
				rc = uncore_fail(
				    UNCORE_EINVAL, "%s: with:%s%s%s concerns no event of its scope",
				    c->what, n->assigns[i].reg, n->assigns[i].field[0] ? "." : "",
				    n->assigns[i].field);
		free(used);
		return rc;
	}
	default:
		rc = resolve(c, n->a);
		if (rc == 0)
			rc = resolve(c, n->b);
		return rc;
	}
}

/* ---- measurement plan --------------------------------------------------- */

/* Can these terms, with the set's raw events of this box type, share one
 * box instance (counters, filters)? */
static int fits_one_box(const struct uncore_mset *ms, unsigned box, const unsigned *terms,
			unsigned n, unsigned socket, unsigned instance)
{
	struct uncore_sched_event *ev = calloc(n + ms->nraw + 1, sizeof(*ev));
	struct uncore_plan plan;
	unsigned k = 0;
	int rc;
	if (!ev)
		return 0;
	for (unsigned i = 0; i < ms->nraw; i++) {
		if (uncore_machine_box_index(ms->m, ms->raw[i].ref.box) != (int)box)
			continue;
		ev[k] = ms->raw[i];
		ev[k].ref.socket = (int)socket;
		ev[k].ref.instance = (int)instance;
		ev[k].ref.cpu = UNCORE_ALL;
		k++;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct variant *v = &ms->terms[terms[i]]->v[socket];
		ev[k].name = v->label;
		ev[k].ref = v->ref;
		ev[k].ref.socket = (int)socket;
		ev[k].ref.instance = (int)instance;
		ev[k].ref.cpu = UNCORE_ALL;
		ev[k].enc = v->enc;
		k++;
	}
	rc = uncore_schedule(ms->m, ev, k, &plan);
	if (rc == 0)
		uncore_plan_free(&plan);
	free(ev);
	return rc == 0;
}

static int add_event(struct uncore_mset *ms, unsigned term, const struct variant *v, int socket,
		     int instance, double weight, unsigned period, unsigned phase)
{
	if (ms->nev == ms->capev) {
		unsigned cap = ms->capev ? ms->capev * 2 : 32;
		struct uncore_sched_event *ne = realloc(ms->ev, cap * sizeof(*ne));
		if (!ne)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
		ms->ev = ne;
		struct uncore_metric_evinfo *ni = realloc(ms->evinfo, cap * sizeof(*ni));
		if (!ni)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
		ms->evinfo = ni;
		ms->capev = cap;
	}
	struct uncore_sched_event *e = &ms->ev[ms->nev];
	struct uncore_metric_evinfo *info = &ms->evinfo[ms->nev];
	memset(e, 0, sizeof(*e));
	e->name = v->label;
	e->ref = v->ref;
	e->ref.socket = socket;
	e->ref.instance = instance;
	e->ref.cpu = UNCORE_ALL;
	e->enc = v->enc;
	info->term = term;
	info->weight = weight;
	info->period = (uint8_t)period;
	info->phase = (uint8_t)phase;
	ms->nev++;
	return 0;
}

/* The first counted (socket, instance) of a term, or -1. */
static int first_target(const struct uncore_machine *m, const struct term *t, unsigned *s0,
			unsigned *i0)
{
	uint32_t sockets = socket_mask(m, t->socket);
	for (unsigned s = 0; s < m->nsockets; s++) {
		if (!(sockets & (1u << s)))
			continue;
		uint32_t p = m->present[t->box][s];
		if (t->instance != UNCORE_ALL)
			p &= 1u << t->instance;
		if (p) {
			*s0 = s;
			*i0 = ctz64(p);
			return 0;
		}
	}
	return -1;
}

/* Form the classes of one box type's terms and emit their events. */
static int plan_box(struct uncore_mset *ms, unsigned box, unsigned *failed_term)
{
	const struct uncore_machine *m = ms->m;
	const struct uncore_box_type *bt = m->plat->boxes[box];
	unsigned members[128], nmembers = 0;
	unsigned cls_terms[MAX_CLASSES][128], ncls[MAX_CLASSES];
	unsigned nclasses = 0;
	unsigned s0 = 0, i0 = 0;
	int scoped = 0;

	for (unsigned t = 0; t < ms->nterms && nmembers < 128; t++) {
		const struct term *tm = ms->terms[t];
		if (tm->box != box)
			continue;
		if (first_target(m, tm, &s0, &i0) < 0) {
			*failed_term = t;
			return uncore_fail(
			    UNCORE_ENODEV, "it needs %s boxes%s, and this machine has none%s",
			    bt->name, tm->instance != UNCORE_ALL ? " (that instance)" : "",
			    tm->socket != UNCORE_ALL ? " on that socket" : "");
		}
		scoped |= tm->instance != UNCORE_ALL;
		members[nmembers++] = t;
	}
	if (!nmembers)
		return 0;
	first_target(m, ms->terms[members[0]], &s0, &i0);
	memset(ncls, 0, sizeof(ncls));
	for (unsigned k = 0; k < nmembers; k++) {
		unsigned t = members[k], j;
		for (j = 0; j < nclasses; j++) {
			cls_terms[j][ncls[j]] = t;
			if (fits_one_box(ms, box, cls_terms[j], ncls[j] + 1, s0, i0))
				break;
		}
		if (j == nclasses) {
			cls_terms[j][0] = t;
			if (nclasses == MAX_CLASSES ||
			    !fits_one_box(ms, box, cls_terms[j], 1, s0, i0)) {
				/* The scheduler's reason for the term alone (with the raw events).
				 */
				struct uncore_plan plan;
				struct uncore_sched_event e;
				const struct variant *v = &ms->terms[t]->v[s0];
				memset(&e, 0, sizeof(e));
				e.name = v->label;
				e.ref = v->ref;
				e.ref.socket = (int)s0;
				e.ref.instance = (int)i0;
				e.ref.cpu = UNCORE_ALL;
				e.enc = v->enc;
				int rc = uncore_schedule(m, &e, 1, &plan);
				if (rc == 0) {
					uncore_plan_free(&plan);
					rc = uncore_fail(
					    UNCORE_ECONFLICT,
					    "%s does not fit on a %s box next to the set's other "
					    "events of that box",
					    v->label, bt->name);
				}
				*failed_term = t;
				return rc;
			}
			nclasses++;
		}
		ncls[j]++;
		ms->terms[t]->cls = (int)j;
	}
	uncore_error_clear();

	/* Spread over instances when the box kind's instances share traffic
	 * evenly and every counted socket has enough of them. */
	const struct uncore_metric_catalog *cat = ms->metrics[0].cat;
	int spread = nclasses > 1 && !scoped && uncore_metric_spread_reason(cat, bt->kind);
	for (unsigned s = 0; spread && s < m->nsockets; s++)
		if (popcount32(m->present[box][s]) && popcount32(m->present[box][s]) < nclasses)
			spread = 0;
	int mux = nclasses > 1 && !spread;
	ms->nclasses[box] = nclasses;
	ms->spread[box] = spread;

	for (unsigned k = 0; k < nmembers; k++) {
		unsigned t = members[k];
		struct term *tm = ms->terms[t];
		uint32_t sockets = socket_mask(m, tm->socket);
		int rc = 0;
		if (spread) {
			for (unsigned s = 0; rc == 0 && s < m->nsockets; s++) {
				if (!(sockets & (1u << s)))
					continue;
				uint32_t p = m->present[box][s];
				unsigned n = popcount32(p), idx = 0, mine = 0;
				for (unsigned i = 0; i < 32; i++)
					if ((p & (1u << i)) &&
					    idx++ % nclasses == (unsigned)tm->cls)
						mine++;
				idx = 0;
				for (unsigned i = 0; rc == 0 && i < 32; i++) {
					if (!(p & (1u << i)))
						continue;
					if (idx++ % nclasses == (unsigned)tm->cls)
						rc = add_event(ms, t, &tm->v[s], (int)s, (int)i,
							       (double)n / mine, 1, 0);
				}
			}
		} else if (tm->per_socket) {
			for (unsigned s = 0; rc == 0 && s < m->nsockets; s++)
				if (sockets & (1u << s))
					rc = add_event(ms, t, &tm->v[s], (int)s, tm->instance, 1.0,
						       mux ? nclasses : 1,
						       mux ? (unsigned)tm->cls : 0);
		} else {
			rc = add_event(ms, t, &tm->v[s0], tm->socket, tm->instance, 1.0,
				       mux ? nclasses : 1, mux ? (unsigned)tm->cls : 0);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int term_in_tree(const struct mx_node *n, unsigned box, const struct uncore_mset *ms)
{
	if (!n)
		return 0;
	if (n->kind == MX_TERM && ms->terms[n->term]->box == box)
		return 1;
	return term_in_tree(n->a, box, ms) || term_in_tree(n->b, box, ms);
}

/* Classes of the box types a metric uses, in words. */
static void describe_method(struct uncore_mset *ms, struct mmetric *mm)
{
	const struct uncore_machine *m = ms->m;
	size_t u = 0;
	mm->method = UNCORE_METRIC_EXACT;
	mm->method_text[0] = '\0';
	for (unsigned b = 0; b < m->plat->nboxes && b < UNCORE_MAX_BOX_TYPES; b++) {
		const struct uncore_box_type *bt = m->plat->boxes[b];
		unsigned k = ms->nclasses[b];
		if (k < 2 || !term_in_tree(mm->root, b, ms) || u >= sizeof(mm->method_text))
			continue;
		if (ms->spread[b]) {
			if (mm->method == UNCORE_METRIC_EXACT)
				mm->method = UNCORE_METRIC_SPREAD;
			u += (size_t)snprintf(mm->method_text + u, sizeof(mm->method_text) - u,
					      "%sspread: the %s terms of this event set need %u "
					      "settings of one box, so each "
					      "setting counts on every %u-th %s box of a socket "
					      "and is scaled by boxes "
					      "present / boxes counting; exact when every box sees "
					      "the same traffic (%s); "
					      "otherwise a term's error is at most boxes present x "
					      "(largest - smallest per-box "
					      "count).",
					      u ? " " : "", bt->kind, k, k, bt->kind,
					      uncore_metric_spread_reason(mm->cat, bt->kind));
		} else {
			mm->method = UNCORE_METRIC_MUX;
			u += (size_t)snprintf(
			    mm->method_text + u, sizeof(mm->method_text) - u,
			    "%stime-multiplexed: the %s terms of this event set need %u settings "
			    "of one box, "
			    "which take turns, switched at every read of the event set (PAPI_read, "
			    "uncore-stat -I); each term is scaled by elapsed time / time its "
			    "setting was "
			    "active; exact for constant rates; otherwise a term's error is at most "
			    "(highest - "
			    "lowest rate between reads) x time its setting was inactive; NaN until "
			    "every "
			    "setting has been active.",
			    u ? " " : "", bt->kind, k);
		}
	}
	if (mm->method == UNCORE_METRIC_EXACT)
		snprintf(mm->method_text, sizeof(mm->method_text),
			 "exact: every term counted on every box, for the whole interval.");
}

/* The metric owning term t (first one using it), for error messages. */
static unsigned metric_of_term(const struct uncore_mset *ms, unsigned t)
{
	for (unsigned k = 0; k < ms->nmetrics; k++) {
		const struct mx_node *stack[256];
		unsigned sp = 0;
		stack[sp++] = ms->metrics[k].root;
		while (sp) {
			const struct mx_node *n = stack[--sp];
			if (!n)
				continue;
			if (n->kind == MX_TERM && (unsigned)n->term == t)
				return k;
			if (sp + 2 <= 256) {
				stack[sp++] = n->a;
				stack[sp++] = n->b;
			}
		}
	}
	return 0;
}

/* ---- public --------------------------------------------------------------- */

static int compile_one(struct uncore_mset *ms, struct mmetric *mm)
{
	const struct uncore_metric_def *def = mm->def;
	const struct uncore_machine *m = ms->m;
	char what[160];
	struct rctx c;
	int rc;

	snprintf(what, sizeof(what), "%s::%s", def->pmu, def->name);
	if (def->unavailable)
		return uncore_fail(UNCORE_ENOSUPP, "%s cannot be measured on %s: %s", what,
				   mm->cat->platform, def->unavailable);
	if (!uncore_metric_catalog_serves(mm->cat, m->plat))
		return uncore_fail(UNCORE_ENOSUPP, "%s is a metric of %s; this machine is %s", what,
				   mm->cat->platform, m->plat ? m->plat->name : "unknown");
	if (mm->socket != UNCORE_ALL && (mm->socket < 0 || (unsigned)mm->socket >= m->nsockets))
		return uncore_fail(
		    UNCORE_ENODEV, "%s: socket=%d, but this machine has %u socket%s (0-%u)", what,
		    mm->socket, m->nsockets, m->nsockets == 1 ? "" : "s", m->nsockets - 1);
	if (mm->instance != UNCORE_ALL) {
		const struct uncore_box_type *bt =
		    def->box ? uncore_metric_box(mm->cat, def->box) : NULL;
		if (!bt || mm->instance < 0 || (unsigned)mm->instance >= bt->ninstances)
			return uncore_fail(UNCORE_EINVAL, "%s: box=%d: %s", what, mm->instance,
					   bt ? "no such instance"
					      : "a summary has no box of its own");
	}
	rc = mx_parse(ms->arena, def->expr, what, &mm->root);
	if (rc < 0)
		return rc;
	memset(&c, 0, sizeof(c));
	c.ms = ms;
	c.mm = mm;
	c.box = def->box;
	c.what = what;
	return resolve(&c, mm->root);
}

int uncore_mset_compile(const struct uncore_machine *m, const struct uncore_metric_ref *refs,
			unsigned n, const struct uncore_sched_event *raw, unsigned nraw,
			struct uncore_mset **out, unsigned *failed)
{
	struct uncore_mset *ms = calloc(1, sizeof(*ms));
	int rc;
	*failed = 0;
	if (!ms)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
	ms->m = m;
	ms->raw = raw;
	ms->nraw = nraw;
	ms->nmetrics = n;
	ms->metrics = calloc(n ? n : 1, sizeof(*ms->metrics));
	rc = ms->metrics ? mx_arena_create(&ms->arena)
			 : uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
	for (unsigned k = 0; rc == 0 && k < n; k++) {
		struct mmetric *mm = &ms->metrics[k];
		mm->cat = refs[k].cat;
		mm->def = refs[k].def;
		mm->socket = refs[k].socket;
		mm->instance = refs[k].instance;
		rc = compile_one(ms, mm);
		if (rc < 0)
			*failed = k;
	}
	for (unsigned b = 0; rc == 0 && b < m->plat->nboxes && b < UNCORE_MAX_BOX_TYPES; b++) {
		unsigned ft = 0;
		rc = plan_box(ms, b, &ft);
		if (rc < 0) {
			char detail[512];
			*failed = metric_of_term(ms, ft);
			snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
			rc = uncore_fail(rc, "%s::%s: %s", ms->metrics[*failed].def->pmu,
					 ms->metrics[*failed].def->name, detail);
		}
	}
	for (unsigned k = 0; rc == 0 && k < n; k++)
		describe_method(ms, &ms->metrics[k]);
	ms->raw = NULL; /* the caller's; used only while forming classes */
	ms->nraw = 0;
	if (rc < 0) {
		uncore_mset_free(ms);
		return rc;
	}
	*out = ms;
	return 0;
}

void uncore_mset_free(struct uncore_mset *ms)
{
	if (!ms)
		return;
	mx_arena_destroy(ms->arena);
	free(ms->metrics);
	free(ms->terms);
	free(ms->ev);
	free(ms->evinfo);
	free(ms);
}

unsigned uncore_mset_nevents(const struct uncore_mset *ms)
{
	return ms->nev;
}

const struct uncore_sched_event *uncore_mset_events(const struct uncore_mset *ms)
{
	return ms->ev;
}

const struct uncore_metric_evinfo *uncore_mset_evinfo(const struct uncore_mset *ms)
{
	return ms->evinfo;
}

unsigned uncore_mset_nterms(const struct uncore_mset *ms)
{
	return ms->nterms;
}

static int tree_uses(const struct mx_node *n, unsigned term)
{
	if (!n)
		return 0;
	if (n->kind == MX_TERM && (unsigned)n->term == term)
		return 1;
	return tree_uses(n->a, term) || tree_uses(n->b, term);
}

int uncore_mset_uses_term(const struct uncore_mset *ms, unsigned k, unsigned term)
{
	return ms && k < ms->nmetrics && tree_uses(ms->metrics[k].root, term);
}

const char *uncore_mset_term_label(const struct uncore_mset *ms, unsigned term)
{
	if (term >= ms->nterms)
		return "";
	const struct term *t = ms->terms[term];
	unsigned s = t->socket != UNCORE_ALL ? (unsigned)t->socket : 0;
	return t->v[s].label;
}

double uncore_mset_eval(const struct uncore_mset *ms, unsigned k, const double *terms,
			const double *commons)
{
	return k < ms->nmetrics ? mx_eval(ms->metrics[k].root, terms, commons) : NAN;
}

enum uncore_metric_method uncore_mset_method(const struct uncore_mset *ms, unsigned k)
{
	return k < ms->nmetrics ? ms->metrics[k].method : UNCORE_METRIC_EXACT;
}

const char *uncore_mset_method_text(const struct uncore_mset *ms, unsigned k)
{
	return k < ms->nmetrics ? ms->metrics[k].method_text : "";
}
