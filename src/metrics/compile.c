/* Compiling a metric for a machine (see compile.h): resolve the names of its
 * formula tree (common terms, constants, other metrics, events), translate
 * each counted event with its control bits and filter settings into an
 * event of our tables, and plan how the terms are measured. */
#include "metrics/mset.h"
#include "metrics/measure.h"
#include "metrics/translate.h"

#include "common/uncore_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
		if (mm->instance != UNCORE_ALL && mm->def->box &&
		    strcasecmp(mm->def->box, kind) == 0)
			n += (unsigned)uncore_inst_has(&m->present[b][s], (unsigned)mm->instance);
		else
			n += uncore_inst_count(&m->present[b][s]);
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
		int rc = mc_resolve_event(c, n, c->box);
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
	return mc_resolve_event(c, n, kind);
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
		rc = mc_plan_box(ms, b, &ft);
		if (rc < 0) {
			char detail[512];
			*failed = metric_of_term(ms, ft);
			snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
			rc = uncore_fail(rc, "%s::%s: %s", ms->metrics[*failed].def->pmu,
					 ms->metrics[*failed].def->name, detail);
		}
	}
	for (unsigned k = 0; rc == 0 && k < n; k++)
		mc_describe_method(ms, &ms->metrics[k]);
	/* The read path's programs (a tree too big for one stays with mx_eval). */
	for (unsigned k = 0; rc == 0 && k < n; k++) {
		struct mmetric *mm = &ms->metrics[k];
		mm->prog = mx_alloc(ms->arena, sizeof(*mm->prog));
		if (mm->prog && mx_compile(mm->root, mm->prog) < 0)
			mm->prog = NULL;
	}
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

double uncore_mset_eval(const struct uncore_mset *ms, unsigned k, const double *terms,
			const double *commons)
{
	if (k >= ms->nmetrics)
		return NAN;
	const struct mmetric *mm = &ms->metrics[k];
	return mm->prog ? mx_run(mm->prog, terms, commons) : mx_eval(mm->root, terms, commons);
}

int uncore_mset_fold(const struct uncore_mset *ms, unsigned k, unsigned known,
		     const double *known_values, struct mx_linear *out)
{
	if (k >= ms->nmetrics) {
		out->n = 0;
		return -1;
	}
	return mx_fold_linear(ms->metrics[k].root, known, known_values, out);
}

const struct mx_prog *uncore_mset_prog(const struct uncore_mset *ms, unsigned k)
{
	return k < ms->nmetrics ? ms->metrics[k].prog : NULL;
}

int uncore_mset_is_amount(const struct uncore_mset *ms, unsigned k)
{
	enum mx_linearity l =
	    k < ms->nmetrics ? mx_linearity(ms->metrics[k].root, 1u << UNCORE_METRIC_ELAPSED_NS)
			     : MX_LIN_OTHER;
	return l == MX_LIN_COUNTS || l == MX_LIN_TIME;
}

const char *uncore_mset_method_text(const struct uncore_mset *ms, unsigned k)
{
	return k < ms->nmetrics ? ms->metrics[k].method_text : "";
}
