/* What an event set tells about itself (eventset.h): its entries, plan,
 * read interval, counting times and notices.  Split from eventset.c, which
 * starts, reads and stops it. */
#include "eventset/set_internal.h"

#include "common/uncore_error.h"
#include "metrics/compile.h"

#include <stdint.h>
#include <string.h>

int uncore_set_attached_cpu(const struct uncore_set *s)
{
	return s->attach_cpu;
}

unsigned uncore_set_count(const struct uncore_set *s)
{
	return s->c.n;
}

const struct uncore_entry *uncore_set_entry(const struct uncore_set *s, unsigned i)
{
	return i < s->c.n ? &s->c.entries[i] : NULL;
}

int uncore_set_running(const struct uncore_set *s)
{
	return s->running;
}

int uncore_set_max_read_interval(const struct uncore_set *s, uint64_t *ns)
{
	/* The shortest over every setting the set takes turns with. */
	*ns = UINT64_MAX;
	if (!s->c.n || !s->c.phases || !s->be->ops->max_read_interval)
		return 0;
	for (unsigned p = 0; p < s->c.nphases; p++) {
		uint64_t v;
		int rc = s->be->ops->max_read_interval(s->be, &s->c.phases[p].plan, &v);
		if (rc < 0)
			return rc;
		if (v < *ns)
			*ns = v;
	}
	return 0;
}

const struct uncore_plan *uncore_set_plan(const struct uncore_set *s)
{
	return s->c.n && s->c.phases ? &s->c.phases[s->phase].plan : NULL;
}

const char *uncore_set_plan_event_name(const struct uncore_set *s, unsigned e)
{
	if (!s->c.n || !s->c.phases || e >= s->c.phases[s->phase].nev)
		return NULL;
	return s->c.sev[s->c.phases[s->phase].ev[e]].name;
}

int uncore_set_entry_info(const struct uncore_set *s, unsigned i, struct uncore_set_entry_info *out)
{
	if (i >= s->c.n)
		return uncore_fail(UNCORE_EINVAL, "no entry %u in the event set", i);
	memset(out, 0, sizeof(*out));
	out->units = "";
	out->method = "";
	out->nsettings = s->c.nphases ? s->c.nphases : 1;
	out->running_sum = 1;
	if (s->c.metric[i] >= 0) {
		out->metric = 1;
		out->units = s->c.int_units[i];
		out->integer = s->c.int_scale[i] > 0;
		out->running_sum =
		    s->c.reading[i] == READ_RUNNING || s->c.reading[i] == READ_AMOUNT;
		out->method = uncore_mset_method_text(s->c.ms, (unsigned)s->c.metric[i]);
	}
	return 0;
}

/* Whether a has counted a smaller share of its enabled time than b. */
static int less_counted(const struct uncore_slot_status *a, const struct uncore_slot_status *b)
{
	return (unsigned __int128)a->time_running * b->time_enabled <
	       (unsigned __int128)b->time_running * a->time_enabled;
}

/* The backend's times of the least-counted slot of event `local` of the
 * current phase, as of the last read: 0, or 1 when the backend keeps none
 * (it always counts). */
int set_live_times(const struct uncore_set *s, unsigned local, struct uncore_slot_status *out)
{
	const struct uncore_plan *p = &s->c.phases[s->phase].plan;
	int found = 0;
	if (!s->be->ops->slot_status)
		return 1;
	for (unsigned k = 0; k < p->count[local]; k++) {
		struct uncore_slot_status ss;
		if (s->be->ops->slot_status(s->be, p->slot_index[p->first[local] + k], &ss) < 0) {
			uncore_error_clear();
			return 1;
		}
		if (!found || less_counted(&ss, out))
			*out = ss;
		found = 1;
	}
	return found ? 0 : 1;
}

int uncore_set_any_scaled(const struct uncore_set *s)
{
	if (!s->be->ops->slot_status || !s->c.phases)
		return 0;
	if (s->kern_scaled)
		return 1;
	/* The backend's read says whether it scaled anything (its times are
	 * per group): no per-slot query at every read. */
	return s->live && s->be->read_scaled;
}

const int *uncore_set_scaled_hint(const struct uncore_set *s)
{
	return &s->scaled_hint;
}

int uncore_set_event_status(struct uncore_set *s, unsigned i, struct uncore_event_status *out)
{
	const struct contents *c = &s->c;
	struct uncore_slot_status st = {0, 0};
	if (i >= c->n)
		return uncore_fail(UNCORE_EINVAL, "no entry %u in a set of %u", i, c->n);
	/* The event (of a metric: the term) counted the smallest share of its
	 * enabled time speaks for the entry. */
	if (!s->be->ops->slot_status) {
		memset(out, 0, sizeof(*out));
		return 0; /* the backend always counts */
	}
	for (unsigned k = 0; k < c->ent_n[i]; k++) {
		unsigned e = c->ent_ev[c->ent_first[i] + k];
		struct uncore_slot_status t = {c->kern_enabled[e], c->kern_running[e]}, ss;
		int local = s->live ? c->phases[s->phase].local[e] : -1;
		if (local >= 0 && set_live_times(s, (unsigned)local, &ss) == 0) {
			t.time_enabled += ss.time_enabled;
			t.time_running += ss.time_running;
		}
		if (t.time_enabled == 0)
			continue; /* not counted yet */
		if (st.time_enabled == 0 || less_counted(&t, &st))
			st = t;
	}
	out->time_enabled = st.time_enabled;
	out->time_running = st.time_running;
	out->scaled = st.time_running < st.time_enabled;
	return 0;
}

unsigned uncore_set_notices(const struct uncore_set *s, const char **last)
{
	if (last)
		*last = s->notice;
	return s->notices;
}

const unsigned *uncore_set_notice_hint(const struct uncore_set *s)
{
	return &s->notices;
}

int uncore_set_short(const struct uncore_set *s, const char **detail)
{
	if (detail)
		*detail = s->short_detail;
	return s->short_rc;
}
