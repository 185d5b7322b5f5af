/* Translating one event reference of a metric formula (with its control
 * bits and the filter settings in scope) into an event of our tables, and
 * recording it as a term of the metric (see metrics/mset.h). */
#include "metrics/translate.h"

#include "common/uncore_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Table names carry a box prefix the manual omits: UNC_C_LLC_LOOKUP is the
 * manual's LLC_LOOKUP.  The Nehalem guide uses the full names. */
static int find_event(const struct uncore_box_type *bt, const char *name)
{
	int ev = uncore_box_find_event(bt, name);
	if (ev >= 0)
		return ev;
	for (unsigned e = 0; e < uncore_box_nevents(bt); e++) {
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
		for (unsigned e = 0; e < uncore_box_nevents(bt); e++) {
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

/* Filter requirements. */

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

/* Translation of one event reference. */

/* A term's event as it is built: the event itself (never a string to parse
 * again) and its spelling for labels and messages. */
struct tev {
	struct uncore_event_ref ref;
	char str[UNCORE_EVENT_MAX_LEN];
};

static int tev_init(struct tev *t, const struct uncore_box_type *bt, unsigned ev)
{
	struct uncore_event_info info;
	int rc = uncore_event_ref_init(&t->ref, bt, ev);
	if (rc == 0)
		rc = uncore_box_event_info(bt, ev, &info);
	if (rc == 0 && (size_t)snprintf(t->str, sizeof(t->str), "%s::%s", bt->name, info.name) >=
			   sizeof(t->str))
		rc = uncore_fail(UNCORE_ENOSPACE, "event string too long");
	return rc;
}

static int tev_umask(struct tev *t, unsigned u)
{
	struct uncore_umask_info ui;
	struct tev n = *t;
	size_t used = strlen(n.str);
	int rc = uncore_box_umask_info(t->ref.box, t->ref.event, u, &ui);
	if (rc == 0)
		rc = uncore_event_ref_add_umask(&n.ref, u);
	if (rc == 0 && (size_t)snprintf(n.str + used, sizeof(n.str) - used, ":%s", ui.name) >=
			   sizeof(n.str) - used)
		rc = uncore_fail(UNCORE_ENOSPACE, "event string too long");
	if (rc == 0)
		*t = n;
	return rc;
}

static int tev_mod(struct tev *t, const struct uncore_mod_desc *md, uint64_t value)
{
	struct tev n = *t;
	size_t used = strlen(n.str);
	int rc = uncore_event_ref_add_mod(&n.ref, md, value);
	if (rc == 0 && (size_t)snprintf(n.str + used, sizeof(n.str) - used, ":%s=%llu", md->name,
					(unsigned long long)value) >= sizeof(n.str) - used)
		rc = uncore_fail(UNCORE_ENOSPACE, "event string too long");
	if (rc == 0)
		*t = n;
	return rc;
}

/* Modifiers to apply together (those writing filter fields a formula sets). */
struct modlist {
	unsigned n;
	const struct uncore_mod_desc *md[UNCORE_EVENT_MAX_MODS];
	uint64_t value[UNCORE_EVENT_MAX_MODS];
};

static int tev_mods(struct tev *t, const struct modlist *ml)
{
	struct tev n = *t;
	int rc = 0;
	for (unsigned i = 0; rc == 0 && i < ml->n; i++)
		rc = tev_mod(&n, ml->md[i], ml->value[i]);
	if (rc == 0)
		*t = n;
	return rc;
}

static int tev_encode(const struct tev *t, struct uncore_encoding *enc)
{
	return uncore_event_encode(&t->ref, enc);
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
static void usable_bits(const struct uncore_box_type *bt, unsigned ev, const struct tev *base,
			uint64_t *usable)
{
	struct uncore_encoding enc;
	struct uncore_event_info info;
	memset(usable, 0, UNCORE_MAX_FILTERS * sizeof(*usable));
	if (tev_encode(base, &enc) == 0)
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
			/* A unit mask may need a modifier too (NID_* needs nf). */
			for (int i = -1;; i++) {
				const struct uncore_mod_desc *md =
				    i < 0 ? NULL : uncore_box_event_mod(bt, ev, (unsigned)i);
				if (i >= 0 && !md)
					break;
				if (md &&
				    (md->reg == UNCORE_REG_CTL || md->kind != UNCORE_MOD_FIELD))
					continue;
				struct tev cand = *base;
				if (tev_umask(&cand, u) == 0 &&
				    (!md || tev_mod(&cand, md, md->min ? md->min : 1) == 0) &&
				    tev_encode(&cand, &enc) == 0) {
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

/* Greedily add unit masks to `t` (each candidate with the modifiers `ml`
 * applied too) that program required filter bits, clearing them from
 * `uncovered`. */
static void add_umasks(const struct uncore_box_type *bt, unsigned ev, struct tev *t,
		       const struct modlist *ml, const struct req *rq, uint64_t *uncovered)
{
	struct uncore_encoding enc;
	struct uncore_event_info info;

	if (uncore_box_event_info(bt, ev, &info) < 0)
		return;
	for (;;) {
		unsigned best_gain = 0;
		struct tev best;
		int any = 0;
		for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
			any |= uncovered[n] != 0;
		if (!any)
			return;
		for (int u = -1; u < (int)info.numasks; u++) {
			struct tev cand = *t;
			if (u >= 0 && tev_umask(&cand, (unsigned)u) < 0)
				continue;
			struct tev with = cand;
			if (tev_mods(&with, ml) < 0 || tev_encode(&with, &enc) < 0 ||
			    !agrees(&enc, rq))
				continue;
			unsigned gain = 0;
			for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
				gain += (unsigned)__builtin_popcountll(enc.filter_mask[n] &
								       uncovered[n]);
			if (gain > best_gain) {
				best_gain = gain;
				best = cand;
			}
		}
		if (!best_gain)
			return;
		struct tev with = best;
		if (tev_mods(&with, ml) < 0 || tev_encode(&with, &enc) < 0)
			return;
		*t = best;
		for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
			uncovered[n] &= ~enc.filter_mask[n];
	}
}

/* Express `rq` on event `base` (PMU::EVENT[:UMASK][:mods]) with the event's
 * modifiers and unit masks (together: a NID_ subevent needs both its
 * opcode unit mask and nf), then, for fields the manual lets us, directly;
 * fill v. */
static int express(struct rctx *c, const struct uncore_box_type *bt, unsigned ev,
		   const struct tev *base, const struct req *rq, struct variant *v)
{
	struct uncore_encoding enc;
	uint64_t uncovered[UNCORE_MAX_FILTERS], modbits[UNCORE_MAX_FILTERS];
	struct modlist ml = {0}, none = {0};
	struct tev t = *base;
	int rc;

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
		if (val < md->min || val > md->max || ml.n >= UNCORE_EVENT_MAX_MODS)
			continue;
		ml.md[ml.n] = md;
		ml.value[ml.n++] = val;
		modbits[n] |= md->field;
	}
	/* With every such modifier at once; when no unit mask choice accepts
	 * them all, unit masks first and the modifiers one by one after. */
	add_umasks(bt, ev, &t, &ml, rq, uncovered);
	struct tev with = t;
	if (tev_mods(&with, &ml) == 0 && tev_encode(&with, &enc) == 0 && agrees(&enc, rq)) {
		t = with;
		for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
			uncovered[n] &= ~(enc.filter_mask[n] | modbits[n]);
	} else {
		t = *base;
		memcpy(uncovered, rq->mask, sizeof(uncovered));
		add_umasks(bt, ev, &t, &none, rq, uncovered);
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
			struct tev cand = t;
			if (tev_mod(&cand, md, val) == 0 && tev_encode(&cand, &enc) == 0 &&
			    agrees(&enc, rq)) {
				t = cand;
				uncovered[n] &= ~md->field;
			}
		}
	}
	uncore_error_clear();
	rc = tev_encode(&t, &enc);
	if (rc < 0)
		return uncore_fail(rc, "%s: %s: %s", c->what, t.str, uncore_error_detail());
	const char *s = t.str;
	struct uncore_event_ref ref = t.ref;
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
int mc_resolve_event(struct rctx *c, struct mx_node *n, const char *kind)
{
	struct uncore_mset *ms = c->ms;
	const struct uncore_metric_catalog *cat = c->mm->cat;
	const struct uncore_box_type *bt = uncore_metric_box(cat, kind);
	char list[512];
	struct uncore_event_info info;
	struct uncore_encoding enc;
	struct tev base;
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
	rc = tev_init(&base, bt, (unsigned)ev);
	if (rc < 0)
		return uncore_fail(rc, "%s: %s", c->what, uncore_error_detail());
	if (n->sub[0]) {
		int um = uncore_box_find_umask(bt, (unsigned)ev, n->sub);
		if (um < 0) {
			list_umasks(bt, (unsigned)ev, list, sizeof(list));
			return uncore_fail(UNCORE_ENOUMASK,
					   "%s: %s has no subevent %s (it has: %s)", c->what,
					   info.name, n->sub, list[0] ? list : "none");
		}
		rc = tev_umask(&base, (unsigned)um);
		if (rc < 0)
			return uncore_fail(rc, "%s: %s", c->what, uncore_error_detail());
	} else if (info.numasks && tev_encode(&base, &enc) == UNCORE_ENOUMASK) {
		/* An event named without a subevent counts all of them (ACT_COUNT
		 * in PCT_REQUESTS_PAGE_EMPTY): name every unit mask when the table
		 * has no default. */
		for (unsigned u = 0; u < info.numasks; u++)
			if ((rc = tev_umask(&base, u)) < 0)
				return uncore_fail(rc, "%s: %s", c->what, uncore_error_detail());
	}
	for (unsigned k = 0; k < n->nctrls; k++) {
		const char *mod = uncore_metric_control_mod(cat, n->ctrls[k].name);
		if (!mod)
			return uncore_fail(
			    UNCORE_ENOMOD,
			    "%s: unknown control bit %s (see the control lines of %s)", c->what,
			    n->ctrls[k].name, cat->file);
		const struct uncore_mod_desc *md = NULL;
		for (unsigned m = 0; !md; m++) {
			const struct uncore_mod_desc *d =
			    uncore_box_event_mod(bt, base.ref.event, m);
			if (!d)
				break;
			if (strcasecmp(d->name, mod) == 0)
				md = d;
		}
		rc = md ? tev_mod(&base, md, n->ctrls[k].value)
			: uncore_fail(UNCORE_ENOMOD, "%s does not accept modifier %s", base.str,
				      mod);
		if (rc < 0)
			return uncore_fail(rc, "%s: %s: %s", c->what, base.str,
					   uncore_error_detail());
	}
	usable_bits(bt, (unsigned)ev, &base, usable);

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
		rc = express(c, bt, (unsigned)ev, &base, &rq, &t->v[s]);
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
