/* The measurement plan of compiled metrics: how the terms of each box type
 * share counters, spread over box instances or take turns (see
 * metrics/mset.h). */
#include "metrics/measure.h"

#include "common/uncore_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Schedule these terms with the set's raw events of this box type on one
 * box instance (counters, filters): 0, or the scheduler's error (its
 * detail names the events that cannot share the box, and why). */
static int schedule_one_box(const struct uncore_mset *ms, unsigned box, const unsigned *terms,
			    unsigned n, unsigned socket, unsigned instance)
{
	struct uncore_sched_event *ev = calloc(n + ms->nraw + 1, sizeof(*ev));
	struct uncore_plan plan;
	unsigned k = 0;
	int rc;
	if (!ev)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
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
	return rc;
}

/* Can these terms, with the set's raw events of this box type, share one
 * box instance? */
static int fits_one_box(const struct uncore_mset *ms, unsigned box, const unsigned *terms,
			unsigned n, unsigned socket, unsigned instance)
{
	return schedule_one_box(ms, box, terms, n, socket, instance) == 0;
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
		const struct uncore_instances *p = &m->present[t->box][s];
		int i = t->instance != UNCORE_ALL
			    ? (uncore_inst_has(p, (unsigned)t->instance) ? t->instance : -1)
			    : uncore_inst_first(p);
		if (i >= 0) {
			*s0 = s;
			*i0 = (unsigned)i;
			return 0;
		}
	}
	return -1;
}

/* Append to list[] the terms of box type `box` in tree n that are members
 * (mark[term] == 1), in the tree's order, marking each listed (2). */
static void metric_terms(const struct mx_node *n, const struct uncore_mset *ms, unsigned box,
			 unsigned char *mark, unsigned *list, unsigned *nlist)
{
	if (!n)
		return;
	if (n->kind == MX_TERM && n->term >= 0 && (unsigned)n->term < ms->nterms &&
	    mark[n->term] == 1 && ms->terms[n->term]->box == box) {
		mark[n->term] = 2;
		list[(*nlist)++] = (unsigned)n->term;
	}
	metric_terms(n->a, ms, box, mark, list, nlist);
	metric_terms(n->b, ms, box, mark, list, nlist);
}

/* The members in metric order: each metric's terms of the box together
 * (first[g] .. first[g + 1] of order[] is metric g's group), so that the
 * classes can keep a metric's terms together: its ratio's numerator and
 * denominator then count over the same time (a multiplexed ratio is exact
 * however its rates vary while all its terms share one setting).  Returns
 * the number of groups. */
static unsigned metric_groups(const struct uncore_mset *ms, unsigned box, const unsigned *members,
			      unsigned nmembers, unsigned *order, unsigned *first)
{
	unsigned char *mark = calloc(ms->nterms ? ms->nterms : 1, 1);
	unsigned n = 0, ng = 0;
	if (!mark) { /* no grouping: each term its own group */
		for (unsigned k = 0; k < nmembers; k++) {
			order[k] = members[k];
			first[k] = k;
		}
		first[nmembers] = nmembers;
		return nmembers;
	}
	for (unsigned k = 0; k < nmembers; k++)
		mark[members[k]] = 1;
	for (unsigned i = 0; i < ms->nmetrics; i++) {
		unsigned before = n;
		metric_terms(ms->metrics[i].root, ms, box, mark, order, &n);
		if (n > before)
			first[ng++] = before;
	}
	for (unsigned k = 0; k < nmembers; k++) /* in no tree: alone */
		if (mark[members[k]] == 1) {
			first[ng++] = n;
			order[n++] = members[k];
		}
	first[ng] = n;
	free(mark);
	return ng;
}

/* Would terms gt[0..gn), placed one by one (first fit), need a class more
 * than the `nclasses` there are?  A dry run on copies. */
static int needs_new_class(const struct uncore_mset *ms, unsigned box, unsigned (*cls)[128],
			   const unsigned *ncls, unsigned nclasses, const unsigned *gt, unsigned gn,
			   unsigned s0, unsigned i0)
{
	unsigned (*tmp)[128] = malloc(sizeof(unsigned[MAX_CLASSES][128]));
	unsigned n[MAX_CLASSES];
	int need = 0;
	if (!tmp)
		return 1;
	memcpy(tmp, cls, sizeof(unsigned[MAX_CLASSES][128]));
	memcpy(n, ncls, sizeof(n));
	for (unsigned q = 0; q < gn && !need; q++) {
		unsigned j;
		for (j = 0; j < nclasses; j++) {
			if (n[j] >= 128)
				continue;
			tmp[j][n[j]] = gt[q];
			if (fits_one_box(ms, box, tmp[j], n[j] + 1, s0, i0))
				break;
		}
		if (j == nclasses)
			need = 1;
		else
			n[j]++;
	}
	free(tmp);
	return need;
}

/* Form the classes of one box type's terms and emit their events. */
int mc_plan_box(struct uncore_mset *ms, unsigned box, unsigned *failed_term)
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
	unsigned order[128], first[129], ngroups, g = 0;
	ngroups = metric_groups(ms, box, members, nmembers, order, first);
	for (unsigned k = 0; k < nmembers; k++) {
		unsigned t = order[k], j;
		if (g < ngroups && k == first[g]) {
			/* A metric's terms: one class for all of them if an
			 * existing one takes them, or a new one when the terms one
			 * by one would need a new class anyway (never a setting
			 * more for keeping them together); else term by term,
			 * below. */
			unsigned gn = first[g + 1] - first[g];
			g++;
			unsigned last = gn > 1 && needs_new_class(ms, box, cls_terms, ncls, nclasses,
								  &order[k], gn, s0, i0)
					    ? nclasses
					    : nclasses - (nclasses > 0);
			for (j = 0; gn > 1 && j <= last && j < MAX_CLASSES; j++) {
				if (ncls[j] + gn > 128)
					continue;
				memcpy(&cls_terms[j][ncls[j]], &order[k], gn * sizeof(order[0]));
				if (!fits_one_box(ms, box, cls_terms[j], ncls[j] + gn, s0, i0))
					continue;
				for (unsigned q = 0; q < gn; q++)
					ms->terms[order[k + q]]->cls = (int)j;
				ncls[j] += gn;
				if (j == nclasses)
					nclasses++;
				break;
			}
			if (gn > 1 && j <= last && j < MAX_CLASSES) {
				k += gn - 1;
				continue;
			}
		}
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
					/* It fits alone: the set's raw events of the box
					 * are in its way; the scheduler says which, and
					 * why (a filter both need set differently). */
					rc = schedule_one_box(ms, box, &t, 1, s0, i0);
				}
				if (rc == 0) {
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
		if (uncore_inst_count(&m->present[box][s]) &&
		    uncore_inst_count(&m->present[box][s]) < nclasses)
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
				const struct uncore_instances *p = &m->present[box][s];
				unsigned n = uncore_inst_count(p), idx = 0, mine = 0;
				for (unsigned i = 0; i < UNCORE_MAX_INSTANCES; i++)
					if (uncore_inst_has(p, i) &&
					    idx++ % nclasses == (unsigned)tm->cls)
						mine++;
				idx = 0;
				for (unsigned i = 0; rc == 0 && i < UNCORE_MAX_INSTANCES; i++) {
					if (!uncore_inst_has(p, i))
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
void mc_describe_method(struct uncore_mset *ms, struct mmetric *mm)
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
