/* PAPI side of uncore-stat (see stat_counters.h). */
#define _GNU_SOURCE
#include "stat_counters.h"

#include "bind/notices.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* papi.h declares some functions without prototypes (PAPI_hl_stop()). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include "papi.h"
#pragma GCC diagnostic pop
#include "metrics/metrics.h"
#include "eventset/eventset.h"
#include "stat_groups.h"
#include "stat_lib.h"
#include "stat_holders.h"

static const char COMPONENT[] = "intel_uncore";
static const char VERBOSE_ENV[] = "PAPI_INTEL_UNCORE_VERBOSE";

static int papi_fail(const char *what, int rc)
{
	fprintf(stderr, "uncore-stat: %s: %s\n", what, PAPI_strerror(rc));
	return 1;
}

/* The socket an event string names: ":socket=N" (its value), ":cpu=N" (a
 * socket we do not know here: -2), or none (-1).  Qualifiers are matched
 * without regard to case, as the parser does (events/parse.h). */
static int named_socket(const char *name)
{
	const char *q = strcasestr(name, ":socket=");
	if (q)
		return atoi(q + strlen(":socket="));
	return strcasestr(name, ":cpu=") ? -2 : -1;
}

/* Print why `names[0..n)` cannot be counted together, in the library's words
 * (the same parser and scheduler the component runs). */
static void explain_refusal(const char *const *names, unsigned n, const char *shown, int rc)
{
	char detail[1024];
	if (stat_lib_event_detail(names, n, detail, sizeof(detail)) == 0 && detail[0])
		/* The library's details usually start with the event's name. */
		fprintf(stderr, "uncore-stat: %s%s%s\n", strstr(detail, shown) ? "" : shown,
			strstr(detail, shown) ? "" : ": ", detail);
	else
		fprintf(stderr, "uncore-stat: %s: %s\n", shown, PAPI_strerror(rc));
}

/* How many sockets the component's machine has: the first N for which
 * "EVENT:socket=N" is refused, asked in a scratch event set. */
static unsigned probe_sockets(const char *event)
{
	int es = PAPI_NULL;
	unsigned n = 0;
	char name[PAPI_HUGE_STR_LEN];

	/* The refusal that ends the probe is expected: keep the component quiet. */
	const char *verbose = getenv(VERBOSE_ENV);
	char saved[16] = "";
	if (verbose)
		snprintf(saved, sizeof(saved), "%s", verbose);
	unsetenv(VERBOSE_ENV);
	if (PAPI_create_eventset(&es) != PAPI_OK)
		n = STAT_MAX_SOCKETS + 1;
	for (; n < STAT_MAX_SOCKETS; n++) {
		snprintf(name, sizeof(name), "%s:socket=%u", event, n);
		if (PAPI_add_named_event(es, name) != PAPI_OK)
			break;
		PAPI_remove_named_event(es, name);
	}
	if (es != PAPI_NULL)
		PAPI_destroy_eventset(&es);
	if (verbose)
		setenv(VERBOSE_ENV, saved, 1);
	return n > STAT_MAX_SOCKETS ? 0 : n;
}

/* Add PAPI event `name` (once: PAPI refuses an event twice in a set, and
 * "E" expanded to "E:socket=1" may meet a "E:socket=1" of the user's) and
 * store its index. */
static int add_papi(struct stat_counters *c, const char *name, const char *shown, unsigned *index)
{
	for (unsigned i = 0; i < c->npapi; i++) {
		if (strcmp(c->papi_names[i], name) == 0) {
			*index = i;
			return 0;
		}
	}
	if (c->npapi >= STAT_MAX_PAPI) {
		fprintf(stderr, "uncore-stat: more than %d counts after per-socket expansion\n",
			STAT_MAX_PAPI);
		return STAT_EXIT_USAGE;
	}
	char *copy = strdup(name);
	if (!copy) {
		fprintf(stderr, "uncore-stat: out of memory\n");
		return 1;
	}
	int rc = PAPI_add_named_event(c->eventset, copy);
	if (rc != PAPI_OK) {
		const char **all = calloc(c->npapi + 1, sizeof(*all));
		for (unsigned i = 0; all && i < c->npapi; i++)
			all[i] = c->papi_names[i];
		if (all) {
			all[c->npapi] = copy;
			explain_refusal(all, c->npapi + 1, shown, rc);
		}
		free(all);
		free(copy);
		/* Bad names, conflicts and absent sockets are the user's to fix.
		 * PAPI answers PAPI_ECMP for a name without a PMU that no
		 * component takes (UNC_M_CAS_COUNT:RDX). */
		return rc == PAPI_ENOEVNT || rc == PAPI_EINVAL || rc == PAPI_ECNFLCT ||
			       rc == PAPI_ECOMBO || rc == PAPI_ECMP || rc == PAPI_EATTR
			   ? STAT_EXIT_USAGE
			   : 1;
	}
	*index = c->npapi;
	c->papi_names[c->npapi++] = copy;
	return 0;
}

int stat_counters_init(struct stat_counters *c)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->eventset = PAPI_NULL;
	c->time_papi = -1;
	rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT)
		return papi_fail("PAPI_library_init", rc < 0 ? rc : PAPI_EINVAL);
	c->cidx = PAPI_get_component_index(COMPONENT);
	const PAPI_component_info_t *ci = c->cidx >= 0 ? PAPI_get_component_info(c->cidx) : NULL;
	if (!ci) {
		fprintf(stderr,
			"uncore-stat: PAPI has no %s component (is this the papi-uncore "
			"build of PAPI? stage/lib/libpapi.so)\n",
			COMPONENT);
		return 1;
	}
	if (ci->disabled) {
		fprintf(stderr, "uncore-stat: %s is disabled: %s\n", COMPONENT,
			ci->disabled_reason);
		return 1;
	}
	snprintf(c->origin, sizeof(c->origin), "%s", ci->description);
	c->simulated = strstr(ci->description, "SIMULATED") != NULL;
	if ((rc = PAPI_create_eventset(&c->eventset)) != PAPI_OK)
		return papi_fail("PAPI_create_eventset", rc);
	return 0;
}

/* EVENT's unit masks and qualifiers as they follow it: "RD", "socket=". */
static int list_masks(const char *event, FILE *f)
{
	int code;
	PAPI_event_info_t info;
	if (PAPI_event_name_to_code(event, &code) != PAPI_OK)
		return 0;
	do {
		if (PAPI_get_event_info(code, &info) != PAPI_OK)
			continue;
		const char *name = strstr(info.symbol, ":::");
		name = name ? name + 3 : info.symbol;
		const char *pmu = strstr(name, "::");
		const char *mask = strrchr(pmu ? pmu + 2 : name, ':');
		if (!mask)
			continue;
		fprintf(f, "%.*s\n", (int)strcspn(mask + 1, "=") + (strchr(mask, '=') != NULL),
			mask + 1);
	} while (PAPI_enum_cmp_event(&code, PAPI_NTV_ENUM_UMASKS, PAPI_get_event_component(code)) ==
		 PAPI_OK);
	return 0;
}

int stat_counters_list_events(const struct stat_counters *c, const char *masks_of, FILE *f)
{
	int code = PAPI_NATIVE_MASK;
	PAPI_event_info_t info;
	if (masks_of)
		return list_masks(masks_of, f);
	if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, c->cidx) != PAPI_OK)
		return 0;
	do {
		if (PAPI_get_event_info(code, &info) != PAPI_OK)
			continue;
		const char *name = strstr(info.symbol, ":::");
		fprintf(f, "%s\n", name ? name + 3 : info.symbol);
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, c->cidx) == PAPI_OK);
	return 0;
}

/* The members of the groups, once each (a metric may be in several groups),
 * and each group's rows. */
static int collect_metrics(struct stat_counters *c, const struct stat_opts *o,
			   const struct uncore_metric_group *const *g)
{
	for (unsigned i = 0; i < o->ngroups && i < STAT_MAX_GROUPS; i++) {
		struct stat_group_view *v = &c->group[c->ngroups++];
		v->name = g[i]->name;
		v->title = g[i]->title;
		for (unsigned m = 0; m < g[i]->nmembers; m++) {
			unsigned k = 0;
			while (k < c->nmetrics &&
			       strcasecmp(c->metric[k].name, g[i]->members[m]) != 0)
				k++;
			if (k == c->nmetrics) {
				if (c->nmetrics >= STAT_MAX_METRICS) {
					fprintf(stderr, "uncore-stat: more than %d metrics\n",
						STAT_MAX_METRICS);
					return STAT_EXIT_USAGE;
				}
				c->metric[c->nmetrics++].name = g[i]->members[m];
			}
			if (v->n < STAT_MAX_METRICS)
				v->row[v->n++] = k;
		}
	}
	return 0;
}

/* A metric over the kernel's aliases: each term T as T:socket=S (the terms
 * and their bytes per count resolved by stat_counters_add). */
static int add_kernel_metric(struct stat_counters *c, struct stat_metric *m)
{
	int rc;
	for (unsigned t = 0; t < m->kr.nterms; t++)
		for (unsigned s = 0; s < c->nsockets; s++) {
			char name[PAPI_HUGE_STR_LEN];
			snprintf(name, sizeof(name), "%s:socket=%u", m->kr.event[t], s);
			if ((rc = add_papi(c, name, m->name, &m->tpapi[t][s])) != 0)
				return rc;
		}
	snprintf(m->units, sizeof(m->units), "GB/s");
	m->fp64 = 1;
	return 0;
}

/* Add metric m as M and M:socket=S; its units and value type from PAPI. */
static int add_metric(struct stat_counters *c, struct stat_metric *m)
{
	PAPI_event_info_t info;
	int code, rc;

	if (m->km)
		return add_kernel_metric(c, m);

	if ((rc = add_papi(c, m->name, m->name, &m->total)) != 0)
		return rc;
	c->is_metric[m->total] = 1;
	for (unsigned s = 0; s < c->nsockets; s++) {
		char name[PAPI_HUGE_STR_LEN];
		snprintf(name, sizeof(name), "%s:socket=%u", m->name, s);
		if ((rc = add_papi(c, name, m->name, &m->papi[s])) != 0)
			return rc;
		c->is_metric[m->papi[s]] = 1;
	}
	memset(&info, 0, sizeof(info));
	if (PAPI_event_name_to_code(m->name, &code) == PAPI_OK &&
	    PAPI_get_event_info(code, &info) == PAPI_OK) {
		snprintf(m->units, sizeof(m->units), "%s", info.units);
		m->fp64 = info.data_type == PAPI_DATATYPE_FP64;
		m->running = info.value_type == PAPI_VALUETYPE_RUNNING_SUM;
	}
	if (m->running || !m->fp64)
		return 0;
	/* The whole run's value: its :run form (the same terms: no counter
	 * more). */
	char name[PAPI_HUGE_STR_LEN];
	snprintf(name, sizeof(name), "%s:run", m->name);
	if ((rc = add_papi(c, name, m->name, &m->run_total)) != 0)
		return rc;
	c->is_metric[m->run_total] = 1;
	for (unsigned s = 0; s < c->nsockets; s++) {
		snprintf(name, sizeof(name), "%s:socket=%u:run", m->name, s);
		if ((rc = add_papi(c, name, m->name, &m->run_papi[s])) != 0)
			return rc;
		c->is_metric[m->run_papi[s]] = 1;
	}
	m->has_run = 1;
	return 0;
}

/* Whether `name` is a derived metric (its value a double): PAPI says so in
 * its event info. */
static int is_metric_name(const char *name)
{
	PAPI_event_info_t info;
	int code;
	memset(&info, 0, sizeof(info));
	return PAPI_event_name_to_code(name, &code) == PAPI_OK &&
	       PAPI_get_event_info(code, &info) == PAPI_OK && info.data_type == PAPI_DATATYPE_FP64;
}

/* The platform's COUNTING_TIME (src/metrics/README.md, "What a read
 * returns"), the time base of every interval, when it has one: not shown. */
static void add_counting_time(struct stat_counters *c)
{
	const struct uncore_metric_catalog *cat;
	char name[PAPI_HUGE_STR_LEN], err[256];
	c->time_papi = -1;
	if (c->npapi >= STAT_MAX_PAPI ||
	    stat_groups_catalog(c->simulated, &cat, err, sizeof(err)) != 0 || !cat->summary_pmu)
		return;
	snprintf(name, sizeof(name), "%s::COUNTING_TIME", cat->summary_pmu);
	char *copy = strdup(name);
	if (!copy || PAPI_add_named_event(c->eventset, copy) != PAPI_OK) {
		free(copy);
		return;
	}
	c->time_papi = (int)c->npapi;
	c->is_metric[c->npapi] = 1;
	c->papi_names[c->npapi++] = copy;
}

#pragma weak intel_uncore_notices
int stat_counters_notices(const struct stat_counters *c, char *buf, size_t len)
{
	int n = intel_uncore_notices ? intel_uncore_notices(c->eventset, buf, len) : 0;
	return n > 0 ? n : 0;
}

double stat_counters_seconds(const struct stat_counters *c, const long long *now,
			     const long long *before, double fallback)
{
	if (c->time_papi < 0)
		return fallback;
	double t, t0 = 0;
	memcpy(&t, &now[c->time_papi], sizeof(t));
	if (before)
		memcpy(&t0, &before[c->time_papi], sizeof(t0));
	return (t - t0) / 1e9;
}

/* Metrics named with -e are shown like a group's members (doubles, units,
 * per socket and node total), in a table of their own.  0, or
 * STAT_EXIT_USAGE for a metric with a qualifier: the tool makes the
 * per-socket columns itself. */
static int collect_event_metrics(struct stat_counters *c, const struct stat_opts *o,
				 unsigned char *taken)
{
	struct stat_group_view *v = NULL;
	for (unsigned i = 0; i < o->nevents; i++) {
		if (!is_metric_name(o->events[i]) && !stat_kmetric_find(o->events[i]))
			continue;
		if (strchr(strstr(o->events[i], "::") ? strstr(o->events[i], "::") + 2
						      : o->events[i],
			   ':')) {
			fprintf(
			    stderr,
			    "uncore-stat: %s: give a metric without qualifiers; uncore-stat shows "
			    "it per socket and for the node itself\n",
			    o->events[i]);
			return STAT_EXIT_USAGE;
		}
		if (!v) {
			if (c->ngroups >= STAT_MAX_GROUPS)
				return STAT_EXIT_USAGE;
			v = &c->group[c->ngroups++];
			v->name = "-e";
			v->title = "metrics named with -e";
		}
		unsigned k = 0;
		while (k < c->nmetrics && strcasecmp(c->metric[k].name, o->events[i]) != 0)
			k++;
		if (k == c->nmetrics) {
			if (c->nmetrics >= STAT_MAX_METRICS)
				return STAT_EXIT_USAGE;
			c->metric[c->nmetrics++].name = o->events[i];
		}
		if (v->n < STAT_MAX_METRICS)
			v->row[v->n++] = k;
		taken[i] = 1;
	}
	return 0;
}

int stat_counters_add(struct stat_counters *c, const struct stat_opts *o,
		      const struct uncore_metric_group *const *g)
{
	unsigned char taken[STAT_MAX_EVENTS] = {0};
	int rc;

	if (o->ngroups && (rc = collect_metrics(c, o, g)) != 0)
		return rc;
	if ((rc = collect_event_metrics(c, o, taken)) != 0)
		return rc;
	/* Sockets: asked of the component with the first event that names none. */
	for (unsigned i = 0; i < o->nevents && c->nsockets == 0; i++)
		if (!taken[i] && named_socket(o->events[i]) == -1)
			c->nsockets = probe_sockets(o->events[i]);
	/* Kernel-alias metrics: their terms on this machine. */
	for (unsigned k = 0; k < c->nmetrics; k++) {
		struct stat_metric *m = &c->metric[k];
		char err[1536];
		m->km = stat_kmetric_find(m->name);
		if (m->km && stat_kmetric_resolve(m->km, &m->kr, err, sizeof(err)) < 0) {
			fprintf(stderr, "uncore-stat: %s\n", err);
			return STAT_EXIT_USAGE;
		}
	}
	if (c->nsockets == 0 && c->nmetrics)
		/* A kernel-alias metric is no PAPI event: probe with its first term. */
		c->nsockets =
		    probe_sockets(c->metric[0].km ? c->metric[0].kr.event[0] : c->metric[0].name);
	for (unsigned i = 0; i < o->nevents; i++) {
		int s = named_socket(o->events[i]);
		if (s >= 0 && s < STAT_MAX_SOCKETS && (unsigned)s + 1 > c->nsockets)
			c->nsockets = (unsigned)s + 1;
	}
	if (c->nsockets == 0)
		c->nsockets = 1;

	for (unsigned i = 0; i < o->nevents; i++) {
		if (taken[i])
			continue; /* a metric: shown with the groups */
		struct stat_event *e = &c->ev[c->nevents++];
		e->name = o->events[i];
		e->socket = named_socket(e->name);
		e->expanded = e->socket == -1 && !o->no_expand;
		if (!e->expanded) {
			e->n = 1;
			if ((rc = add_papi(c, e->name, e->name, &e->papi[0])) != 0)
				return rc;
			continue;
		}
		e->n = c->nsockets;
		for (unsigned s = 0; s < c->nsockets; s++) {
			char name[PAPI_HUGE_STR_LEN];
			snprintf(name, sizeof(name), "%s:socket=%u", e->name, s);
			if ((rc = add_papi(c, name, e->name, &e->papi[s])) != 0)
				return rc;
		}
	}
	for (unsigned k = 0; k < c->nmetrics; k++)
		if ((rc = add_metric(c, &c->metric[k])) != 0)
			return rc;
	add_counting_time(c);
	return 0;
}

int stat_counters_open(struct stat_counters *c, const struct stat_opts *o)
{
	int rc = stat_counters_init(c);
	return rc ? rc : stat_counters_add(c, o, NULL);
}

static double metric_value(const struct stat_metric *m, long long v)
{
	double d;
	if (!m->fp64)
		return (double)v;
	memcpy(&d, &v, sizeof(d));
	return d;
}

/* A kernel-alias metric: bytes of its terms per second of the span, in
 * GB/s (10^9 bytes/s); NaN for an empty span. */
static void kernel_metric_row(const struct stat_counters *c, const struct stat_metric *m,
			      const long long *now, const long long *before, double seconds,
			      struct stat_metric_row *r)
{
	double all = 0;
	for (unsigned s = 0; s < STAT_MAX_SOCKETS; s++) {
		double bytes = 0;
		for (unsigned t = 0; s < c->nsockets && t < m->kr.nterms; t++) {
			unsigned p = m->tpapi[t][s];
			uint64_t n = (uint64_t)now[p] - (before ? (uint64_t)before[p] : 0);
			bytes += (double)n * m->kr.bytes[t];
		}
		r->value[s] = s < c->nsockets && seconds > 0 ? bytes / seconds / 1e9 : NAN;
		all += bytes;
	}
	r->total = seconds > 0 ? all / seconds / 1e9 : NAN;
}

/* A library metric's value over the span: a running sum's difference. */
static double span_value(const struct stat_metric *m, const long long *now, const long long *before,
			 unsigned p)
{
	double v = metric_value(m, now[p]);
	if (m->running && before)
		v -= metric_value(m, before[p]);
	return v;
}

void stat_counters_metric_rows(const struct stat_counters *c, const long long *now,
			       const long long *before, double seconds,
			       struct stat_metric_row *rows)
{
	for (unsigned k = 0; k < c->nmetrics; k++) {
		const struct stat_metric *m = &c->metric[k];
		struct stat_metric_row *r = &rows[k];
		r->name = m->name;
		r->units = m->units;
		if (m->km) {
			kernel_metric_row(c, m, now, before, seconds, r);
			continue;
		}
		for (unsigned s = 0; s < STAT_MAX_SOCKETS; s++)
			r->value[s] = s < c->nsockets ? span_value(m, now, before, m->papi[s]) : NAN;
		r->total = span_value(m, now, before, m->total);
	}
}

int stat_counters_run_rows(const struct stat_counters *c, const long long *now,
			   struct stat_metric_row *rows)
{
	int all = 1;
	for (unsigned k = 0; k < c->nmetrics; k++) {
		const struct stat_metric *m = &c->metric[k];
		if (m->km || m->running)
			continue;
		if (!m->has_run) {
			all = 0;
			continue;
		}
		for (unsigned s = 0; s < STAT_MAX_SOCKETS; s++)
			rows[k].value[s] = s < c->nsockets ? metric_value(m, now[m->run_papi[s]]) : NAN;
		rows[k].total = metric_value(m, now[m->run_total]);
	}
	return all;
}

unsigned stat_counters_settings(const struct stat_counters *c)
{
	struct uncore_component *comp;
	struct uncore_set *set;
	struct uncore_set_entry_info info;
	unsigned k = 1;
	if (c->npapi && stat_lib_open((const char *const *)c->papi_names, c->npapi, &comp, &set) == 0 &&
	    uncore_set_entry_info(set, 0, &info) == 0)
		k = info.nsettings;
	stat_lib_close(comp, set);
	return k;
}

/* One process counts per socket (README "MPI jobs and threads"): when
 * another holds one of ours, its counts here read 0; say who, since a
 * measuring tool must not show those zeros silently.  The component puts
 * the holders in its description at every start. */
static void warn_holders(const struct stat_counters *c)
{
	const PAPI_component_info_t *ci = c->cidx >= 0 ? PAPI_get_component_info(c->cidx) : NULL;
	const char *d = ci ? strstr(ci->description, "backend: ") : NULL;
	if (!d || !strstr(d, " 0 here"))
		return;
	d += strlen("backend: ");
	/* "socket 0 ..., reads 0 here; sockets 1, 2 ..., read 0 here; ..." */
	const char *end = strstr(d, " 0 here");
	while (strstr(end + 1, " 0 here"))
		end = strstr(end + 1, " 0 here");
	fprintf(stderr, "uncore-stat: warning: %.*s\n", (int)(end - d) + 7, d);
	if (!strstr(ci->description, "perf backend"))
		stat_holders_note(stderr);
}

int stat_counters_start(struct stat_counters *c)
{
	/* A refusal at start (uncored's policy, a busy box) is explained by
	 * the component through PAPI's error channel: on for the start alone,
	 * unless PAPI_INTEL_UNCORE_VERBOSE prints it already. */
	const char *verbose = getenv(VERBOSE_ENV);
	int quiet = !verbose || !*verbose || strcmp(verbose, "0") == 0;
	if (quiet)
		PAPI_set_debug(PAPI_VERB_ECONT);
	int rc = PAPI_start(c->eventset);
	if (quiet)
		PAPI_set_debug(PAPI_QUIET);
	if (rc == PAPI_OK)
		warn_holders(c);
	return rc == PAPI_OK ? 0 : papi_fail("PAPI_start", rc);
}

/* A read or a stop: `out` written only when it worked; else `why` says what
 * failed in the component's words when it left a notice of the failure
 * (they name the register: bind/notices.h), else in PAPI's.  A read that
 * failed the same way as one before returns PAPI_OK with the failing
 * counters' last values: its notice says it failed. */
static int counts(struct stat_counters *c, int stop, long long *out, char *why, size_t len)
{
	long long v[STAT_MAX_PAPI];
	char said[300] = "";
	int before = stat_counters_notices(c, NULL, 0);
	int rc = stop ? PAPI_stop(c->eventset, v) : PAPI_read(c->eventset, v);
	int failed = stat_counters_notices(c, said, sizeof(said)) > before &&
		     (!strncmp(said, INTEL_UNCORE_NOTICE_READ_FAILED,
			       strlen(INTEL_UNCORE_NOTICE_READ_FAILED)) ||
		      !strncmp(said, INTEL_UNCORE_NOTICE_STOP_FAILED,
			       strlen(INTEL_UNCORE_NOTICE_STOP_FAILED)));
	if (rc == PAPI_OK && !failed) {
		memcpy(out, v, sizeof(v[0]) * c->npapi);
		return 0;
	}
	snprintf(why, len, "%s: %s", stop ? "PAPI_stop" : "PAPI_read",
		 failed ? said : PAPI_strerror(rc));
	return 1;
}

int stat_counters_read(struct stat_counters *c, long long *out, char *why, size_t len)
{
	return counts(c, 0, out, why, len);
}

int stat_counters_stop(struct stat_counters *c, long long *out, char *why, size_t len)
{
	return counts(c, 1, out, why, len);
}

void stat_counters_close(struct stat_counters *c)
{
	if (c->eventset != PAPI_NULL) {
		long long dummy[STAT_MAX_PAPI];
		int state = 0;
		if (PAPI_state(c->eventset, &state) == PAPI_OK && (state & PAPI_RUNNING))
			PAPI_stop(c->eventset, dummy);
		PAPI_cleanup_eventset(c->eventset);
		PAPI_destroy_eventset(&c->eventset);
	}
	for (unsigned i = 0; i < c->npapi; i++)
		free(c->papi_names[i]);
	c->npapi = 0;
	if (PAPI_is_initialized())
		PAPI_shutdown();
}

void stat_counters_rows(const struct stat_counters *c, const long long *now,
			const long long *before, struct stat_row *rows)
{
	for (unsigned i = 0; i < c->nevents; i++) {
		const struct stat_event *e = &c->ev[i];
		struct stat_row *r = &rows[i];
		memset(r, 0, sizeof(*r));
		r->name = e->name;
		for (unsigned k = 0; k < e->n; k++) {
			unsigned p = e->papi[k];
			/* Counts are 64-bit totals; the difference is taken modulo 2^64. */
			uint64_t v = (uint64_t)now[p] - (before ? (uint64_t)before[p] : 0);
			r->total += v;
			if (e->expanded) {
				r->sockets |= 1u << k;
				r->count[k] = v;
			} else if (e->socket >= 0 && e->socket < STAT_MAX_SOCKETS) {
				r->sockets |= 1u << e->socket;
				r->count[e->socket] = v;
			}
		}
	}
}
