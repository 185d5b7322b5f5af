/* Event sets (see eventset.h). */
#include "core/eventset.h"

#include "common/uncore_error.h"
#include "core/counter_fold.h"
#include "events/encode.h"
#include "events/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct uncore_set {
	struct uncore_backend *be;
	unsigned n;
	char **names;
	struct uncore_sched_event *events;
	struct uncore_plan plan;
	struct uncore_counter_fold *folds; /* per slot */
	uint64_t *raw;                     /* per slot, scratch */
	int running;
};

int uncore_set_create(struct uncore_backend *be, struct uncore_set **out)
{
	struct uncore_set *s;
	if (!be)
		return uncore_fail(UNCORE_EINVAL, "event set without a backend");
	s = calloc(1, sizeof(*s));
	if (!s)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
	s->be = be;
	*out = s;
	return 0;
}

static void free_contents(char **names, struct uncore_sched_event *events, unsigned n,
			  struct uncore_plan *plan, struct uncore_counter_fold *folds, uint64_t *raw)
{
	for (unsigned i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(events);
	uncore_plan_free(plan);
	free(folds);
	free(raw);
}

void uncore_set_destroy(struct uncore_set *s)
{
	if (!s)
		return;
	if (s->running)
		uncore_set_stop(s, NULL);
	free_contents(s->names, s->events, s->n, &s->plan, s->folds, s->raw);
	free(s);
}

/* Parse and encode one event: the backend's own events first (perf: kernel
 * PMUs by their sysfs names), then the machine's event tables. */
static int prepare_event(const struct uncore_backend *be, const char *name,
			 struct uncore_sched_event *out)
{
	if (be->events) {
		int r = be->events->ops->parse(be->events, name, out);
		if (r <= 0)
			return r;
	}
	int rc = uncore_event_parse(be->machine.plat, name, &out->ref);
	if (rc == 0)
		rc = uncore_event_encode(&out->ref, &out->enc);
	return rc;
}

int uncore_set_assign(struct uncore_set *s, const char *const *names, unsigned n)
{
	char **nn = NULL;
	struct uncore_sched_event *ne = NULL;
	struct uncore_plan np;
	struct uncore_counter_fold *nf = NULL;
	uint64_t *nr = NULL;
	int rc = 0;

	memset(&np, 0, sizeof(np));
	if (s->running)
		return uncore_fail(UNCORE_ESTATE, "cannot change the events of a running set; stop it first");
	if (n) {
		nn = calloc(n, sizeof(*nn));
		ne = calloc(n, sizeof(*ne));
		if (!nn || !ne) {
			rc = uncore_fail(UNCORE_ENOMEM, "out of memory for %u events", n);
			goto fail;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		nn[i] = strdup(names[i] ? names[i] : "");
		if (!nn[i]) {
			rc = uncore_fail(UNCORE_ENOMEM, "out of memory for event names");
			goto fail;
		}
		ne[i].name = nn[i];
		rc = prepare_event(s->be, nn[i], &ne[i]);
		if (rc < 0)
			goto fail;
	}
	rc = uncore_schedule(&s->be->machine, ne, n, &np);
	if (rc < 0)
		goto fail;
	nf = calloc(np.nslots ? np.nslots : 1, sizeof(*nf));
	nr = calloc(np.nslots ? np.nslots : 1, sizeof(*nr));
	if (!nf || !nr) {
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory for %u counters", np.nslots);
		goto fail;
	}
	for (unsigned k = 0; k < np.nslots; k++) {
		rc = uncore_fold_init(&nf[k], s->be->value_bits ? s->be->value_bits : np.slots[k].width);
		if (rc < 0)
			goto fail;
	}
	free_contents(s->names, s->events, s->n, &s->plan, s->folds, s->raw);
	s->names = nn;
	s->events = ne;
	s->n = n;
	s->plan = np;
	s->folds = nf;
	s->raw = nr;
	return 0;
fail:
	free_contents(nn, ne, n, &np, nf, nr);
	return rc;
}

int uncore_set_add(struct uncore_set *s, const char *name, unsigned *index)
{
	const char **all = calloc(s->n + 1, sizeof(*all));
	int rc;
	if (!all)
		return uncore_fail(UNCORE_ENOMEM, "out of memory adding %s", name);
	for (unsigned i = 0; i < s->n; i++)
		all[i] = s->names[i];
	all[s->n] = name;
	rc = uncore_set_assign(s, all, s->n + 1);
	free(all);
	if (rc == 0 && index)
		*index = s->n - 1;
	return rc;
}

unsigned uncore_set_count(const struct uncore_set *s)
{
	return s->n;
}

int uncore_set_running(const struct uncore_set *s)
{
	return s->running;
}

const struct uncore_plan *uncore_set_plan(const struct uncore_set *s)
{
	return s->n ? &s->plan : NULL;
}

int uncore_set_start(struct uncore_set *s)
{
	int rc;
	if (s->running)
		return uncore_fail(UNCORE_ESTATE, "the event set is already running");
	if (s->n == 0)
		return uncore_fail(UNCORE_EINVAL, "the event set is empty");
	rc = s->be->ops->program(s->be, &s->plan);
	if (rc < 0)
		return rc;
	rc = s->be->ops->start(s->be);
	if (rc == 0)
		rc = s->be->ops->read(s->be, s->raw);
	if (rc < 0) {
		char detail[512];
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
		s->be->ops->unprogram(s->be);
		return uncore_fail(rc, "%s", detail);
	}
	for (unsigned k = 0; k < s->plan.nslots; k++)
		uncore_fold_start(&s->folds[k], s->raw[k]);
	s->running = 1;
	return 0;
}

static void sum_events(const struct uncore_set *s, uint64_t *values)
{
	for (unsigned e = 0; e < s->n; e++) {
		uint64_t v = 0;
		for (unsigned k = 0; k < s->plan.count[e]; k++)
			v += s->folds[s->plan.slot_index[s->plan.first[e] + k]].total;
		values[e] = v;
	}
}

int uncore_set_read(struct uncore_set *s, uint64_t *values)
{
	if (s->running) {
		int rc = s->be->ops->read(s->be, s->raw);
		if (rc < 0)
			return rc;
		for (unsigned k = 0; k < s->plan.nslots; k++)
			uncore_fold_update(&s->folds[k], s->raw[k]);
	}
	sum_events(s, values);
	return 0;
}

int uncore_set_stop(struct uncore_set *s, uint64_t *values)
{
	int rc = 0;
	if (s->running) {
		rc = s->be->ops->stop(s->be);
		if (rc == 0)
			rc = s->be->ops->read(s->be, s->raw);
		if (rc == 0)
			for (unsigned k = 0; k < s->plan.nslots; k++)
				uncore_fold_stop(&s->folds[k], s->raw[k]);
		int rc2 = s->be->ops->unprogram(s->be);
		if (rc == 0)
			rc = rc2;
		s->running = 0;
	}
	if (values)
		sum_events(s, values);
	return rc;
}

int uncore_set_event_status(struct uncore_set *s, unsigned e, struct uncore_event_status *out)
{
	struct uncore_event_status st = {0, 0, 0};
	if (e >= s->n)
		return uncore_fail(UNCORE_EINVAL, "no event %u in a set of %u", e, s->n);
	/* The slot counted the smallest share of its time speaks for the event. */
	for (unsigned k = 0; s->be->slot_status && k < s->plan.count[e]; k++) {
		struct uncore_slot_status ss;
		if (s->be->slot_status(s->be, s->plan.slot_index[s->plan.first[e] + k], &ss) < 0) {
			uncore_error_clear();
			break; /* not programmed: nothing read yet */
		}
		int first = st.time_enabled == 0 && st.time_running == 0;
		if (first || (unsigned __int128)ss.time_running * st.time_enabled <
				     (unsigned __int128)st.time_running * ss.time_enabled) {
			st.time_enabled = ss.time_enabled;
			st.time_running = ss.time_running;
		}
	}
	st.scaled = st.time_running < st.time_enabled;
	*out = st;
	return 0;
}

int uncore_set_reset(struct uncore_set *s)
{
	if (s->running) {
		int rc = s->be->ops->read(s->be, s->raw);
		if (rc < 0)
			return rc;
		for (unsigned k = 0; k < s->plan.nslots; k++)
			uncore_fold_reset(&s->folds[k], s->raw[k]);
	} else {
		for (unsigned k = 0; k < s->plan.nslots; k++)
			uncore_fold_reset(&s->folds[k], s->folds[k].last);
	}
	return 0;
}
