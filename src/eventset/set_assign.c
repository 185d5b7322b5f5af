/* An event set's contents (eventset.h): made, its events resolved and
 * assigned or added (set_build.c builds what they need), attached to a CPU,
 * its clock and the metrics' TSC rate bound to it, destroyed.  Counting
 * them is eventset.c's. */
#include "eventset/set_internal.h"

#include "common/uncore_error.h"
#include "eventset/resolve.h"
#include "metrics/compile.h"

#include <stdlib.h>
#include <string.h>

static void set_tsc_mhz(struct uncore_set *s);

int uncore_set_create(struct uncore_backend *be, struct uncore_set **out)
{
	return uncore_set_create_clocked(be, NULL, out);
}

int uncore_set_create_clocked(struct uncore_backend *be, const struct uncore_clock *clock,
			      struct uncore_set **out)
{
	struct uncore_set *s;
	if (!be)
		return uncore_fail(UNCORE_EINVAL, "event set without a backend");
	s = calloc(1, sizeof(*s));
	if (!s)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
	s->be = be;
	s->read_other = set_read_other;
	s->attach_cpu = -1;
	if (clock) { /* the caller's (a component's, read once): no CPUID per set */
		s->clock = *clock;
		set_tsc_mhz(s);
	} else
		uncore_clock_host(&s->clock);
	*out = s;
	return 0;
}

/* TSC_SPEED of the metrics, once per clock and contents, not per read;
 * unknown: 1000 MHz, with TSC ticks to match (src/metrics/README.md). */
static void set_tsc_mhz(struct uncore_set *s)
{
	struct contents *c = &s->c;
	c->tsc_mhz = s->clock.tsc_hz ? (double)s->clock.tsc_hz / 1e6 : 1000.0;
	c->commons[UNCORE_METRIC_TSC_MHZ] = c->commons_int[UNCORE_METRIC_TSC_MHZ] = c->tsc_mhz;
	/* Each metric entry's program bound to what its reading evaluates it
	 * on (eval_metrics), the TSC's MHz folded in. */
	for (unsigned i = 0; c->fprog && i < c->n; i++) {
		const struct mx_prog *p = c->metric[i] >= 0
					      ? uncore_mset_prog(c->ms, (unsigned)c->metric[i])
					      : NULL;
		int interval = c->reading[i] == READ_INTERVAL;
		c->fprog[i].n = 0;
		if (p)
			mx_bind(p, interval ? c->terms_int : c->terms,
				interval ? c->commons_int : c->commons, 1u << UNCORE_METRIC_TSC_MHZ,
				c->commons, &c->fprog[i]);
	}
	uncore_set_build_folds(c);
}

void uncore_set_clock(struct uncore_set *s, const struct uncore_clock *clock)
{
	s->clock = *clock;
	set_tsc_mhz(s);
}

const struct uncore_clock *uncore_set_get_clock(const struct uncore_set *s)
{
	return &s->clock;
}

void uncore_set_destroy(struct uncore_set *s)
{
	if (!s)
		return;
	if (s->running)
		uncore_set_stop(s, NULL);
	uncore_set_free_contents(&s->c);
	free(s->values);
	free(s);
}

int uncore_set_assign_entries(struct uncore_set *s, const struct uncore_entry *entries, unsigned n)
{
	struct contents c;
	uint64_t *values;
	int rc;

	if (s->running)
		return uncore_fail(UNCORE_ESTATE,
				   "cannot change the events of a running set; stop it first");
	memset(&c, 0, sizeof(c));
	rc = uncore_set_build_contents(s->be, entries, n, s->attach_cpu, &c);
	values = calloc(n ? n : 1, sizeof(*values));
	if (rc == 0 && !values)
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory for an event set");
	if (rc < 0) {
		uncore_set_free_contents(&c);
		free(values);
		return rc;
	}
	uncore_set_free_contents(&s->c);
	free(s->values);
	s->c = c;
	set_tsc_mhz(s);
	s->values = values;
	s->phase = 0;
	s->live = 0;
	s->summed = 0;
	s->kern_scaled = 0;
	s->start_ns = s->phase_ns = s->stop_ns = 0;
	return 0;
}

int uncore_set_resolve(const struct uncore_set *s, const char *name, struct uncore_entry *out)
{
	return uncore_resolve(s->be->machine.plat, s->be->events, name, out);
}

int uncore_set_assign(struct uncore_set *s, const char *const *names, unsigned n)
{
	struct uncore_entry *e = calloc(n ? n : 1, sizeof(*e));
	int rc = 0;
	if (!e)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for %u events", n);
	for (unsigned i = 0; rc == 0 && i < n; i++)
		rc = uncore_set_resolve(s, names[i] ? names[i] : "", &e[i]);
	if (rc == 0)
		rc = uncore_set_assign_entries(s, e, n);
	free(e);
	return rc;
}

int uncore_set_add_entry(struct uncore_set *s, const struct uncore_entry *entry, unsigned *index)
{
	struct uncore_entry *all = calloc(s->c.n + 1, sizeof(*all));
	int rc;
	if (!all)
		return uncore_fail(UNCORE_ENOMEM, "out of memory adding %s", entry->name);
	if (s->c.n)
		memcpy(all, s->c.entries, s->c.n * sizeof(*all));
	all[s->c.n] = *entry;
	rc = uncore_set_assign_entries(s, all, s->c.n + 1);
	free(all);
	if (rc == 0 && index)
		*index = s->c.n - 1;
	return rc;
}

int uncore_set_add(struct uncore_set *s, const char *name, unsigned *index)
{
	struct uncore_entry e;
	int rc = uncore_set_resolve(s, name, &e);
	return rc < 0 ? rc : uncore_set_add_entry(s, &e, index);
}

int uncore_set_attach_cpu(struct uncore_set *s, int cpu)
{
	unsigned socket;
	int rc, was = s->attach_cpu;

	if (s->running)
		return uncore_fail(UNCORE_ESTATE,
				   "cannot attach a running set to a CPU; stop it first");
	if (cpu >= 0 && (rc = uncore_machine_socket_of_cpu(&s->be->machine, cpu, &socket)) < 0)
		return rc;
	if (cpu < 0)
		cpu = -1;
	if (s->c.n == 0) {
		s->attach_cpu = cpu;
		return 0;
	}
	/* Entries already added are checked again, restricted: all or nothing. */
	unsigned n = s->c.n;
	struct uncore_entry *all = malloc(n * sizeof(*all));
	if (!all)
		return uncore_fail(UNCORE_ENOMEM, "out of memory attaching an event set");
	memcpy(all, s->c.entries, n * sizeof(*all));
	s->attach_cpu = cpu;
	rc = uncore_set_assign_entries(s, all, n);
	if (rc < 0)
		s->attach_cpu = was;
	free(all);
	return rc;
}
