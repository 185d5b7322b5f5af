/* uncored's Prometheus exposition (prometheus.h): one event set per series
 * on the component's shared counters, read at every scrape. */
#include "service/prometheus.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "metrics/catalog.h"
#include "metrics/metrics.h"
#include "presets/presets.h"

#define PROM_MAX_SERIES  128
#define PROM_MAX_SKIPPED 8

struct series {
	char name[96];     /* the Prometheus metric name */
	char help[240];
	int counter;       /* 1: a preset (counter), 0: a group member (gauge) */
	int socket;        /* -1: the node */
	const char *postfix; /* presets: PAPI's postfix formula over N0.., or NULL */
	unsigned nev;
	struct uncore_backend *view;
	struct uncore_set *set;
	struct uncore_set_entry_info info;
};

struct uncored_prom {
	const struct uncore_clock *clock;
	char labels[256]; /* host, platform, simulated: `host="h",platform="p",...` */
	unsigned n, nskipped;
	struct series s[PROM_MAX_SERIES];
	char skipped[PROM_MAX_SKIPPED][200];
};

/* A label value as the exposition format wants it: \, " and newline escaped. */
static void escape(char *dst, size_t len, const char *src)
{
	size_t o = 0;
	for (; *src && o + 3 < len; src++) {
		if (*src == '\\' || *src == '"' || *src == '\n') {
			dst[o++] = '\\';
			dst[o++] = *src == '\n' ? 'n' : *src;
		} else
			dst[o++] = *src;
	}
	dst[o] = '\0';
}

/* `prefix` and `src` as a metric name: lower case, [a-z0-9_] only. */
static void metric_name(char *dst, size_t len, const char *prefix, const char *src)
{
	int n = snprintf(dst, len, "%s", prefix);
	for (size_t o = n > 0 ? (size_t)n : 0; *src && o + 1 < len; src++, o++) {
		char c = *src;
		dst[o] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a')
			 : ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) ? c
										 : '_';
		dst[o + 1] = '\0';
	}
}

static void skip(struct uncored_prom *p, const char *what)
{
	if (p->nskipped < PROM_MAX_SKIPPED)
		snprintf(p->skipped[p->nskipped], sizeof(p->skipped[0]), "%s: %s", what,
			 uncore_error_detail()[0] ? uncore_error_detail() : "not countable");
	p->nskipped++;
	uncore_error_clear();
}

/* A series counting `events` (n of them), started. */
static void add_series(struct uncored_prom *p, struct uncore_share *share, struct series *t,
		       const char *const *events, unsigned n)
{
	unsigned idx;
	if (p->n == PROM_MAX_SERIES) {
		uncore_fail(UNCORE_ENOSPACE, "more than %u series", PROM_MAX_SERIES);
		skip(p, t->name);
		return;
	}
	int rc = uncore_share_view(share, &t->view);
	if (rc == 0)
		rc = uncore_set_create_clocked(t->view, p->clock, &t->set);
	for (unsigned i = 0; rc == 0 && i < n; i++)
		rc = uncore_set_add(t->set, events[i], &idx);
	if (rc == 0)
		rc = uncore_set_start(t->set);
	if (rc == 0)
		rc = uncore_set_entry_info(t->set, 0, &t->info);
	if (rc < 0) {
		skip(p, events[0]);
		if (t->set)
			uncore_set_destroy(t->set);
		if (t->view)
			t->view->ops->destroy(t->view);
		return;
	}
	t->nev = n;
	p->s[p->n++] = *t;
}

static void add_presets(struct uncored_prom *p, struct uncore_share *share,
			const struct uncore_backend *be)
{
	unsigned n;
	const struct uncore_preset_def *d =
	    uncore_presets(be->machine.plat ? be->machine.plat->platform : NULL, &n);
	for (unsigned i = 0; i < n; i++) {
		if (!uncore_preset_countable(&d[i], &be->machine))
			continue;
		for (int s = -1; s < (int)be->machine.nsockets; s++) {
			char symbol[UNCORE_PRESET_NAME_MAX], ev[UNCORE_PRESET_MAX_EVENTS][UNCORE_PRESET_NAME_MAX];
			const char *names[UNCORE_PRESET_MAX_EVENTS];
			unsigned nev;
			if (uncore_preset_instance(&d[i], s, symbol, sizeof(symbol), ev, &nev) < 0) {
				skip(p, d[i].symbol);
				continue;
			}
			struct series t = {.counter = 1, .socket = s, .postfix = d[i].postfix};
			metric_name(t.name, sizeof(t.name), "", d[i].symbol);
			strncat(t.name, "_total", sizeof(t.name) - strlen(t.name) - 1);
			snprintf(t.help, sizeof(t.help), "%s (PAPI preset %s)", d[i].long_descr,
				 d[i].symbol);
			for (unsigned k = 0; k < nev; k++)
				names[k] = ev[k];
			add_series(p, share, &t, names, nev);
		}
	}
}

static void add_groups(struct uncored_prom *p, struct uncore_share *share,
		       const struct uncore_backend *be)
{
	static const char *const groups[] = {"MEM", "LLC", "UPI", "QPI", "IO"};
	const struct uncore_metric_catalog *cat;
	if (!be->machine.plat || uncore_metric_catalog_get(be->machine.plat, &cat) < 0) {
		uncore_error_clear();
		return;
	}
	for (unsigned g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		const struct uncore_metric_group *grp = uncore_metric_group_find(cat, groups[g]);
		for (unsigned m = 0; grp && m < grp->nmembers; m++) {
			const char *member = grp->members[m], *colon = strstr(member, "::");
			char prefix[32];
			snprintf(prefix, sizeof(prefix), "intel_uncore_%s_", groups[g]);
			for (char *c = prefix; *c; c++)
				*c = (*c >= 'A' && *c <= 'Z') ? (char)(*c - 'A' + 'a') : *c;
			for (int s = -1; s < (int)be->machine.nsockets; s++) {
				char name[UNCORE_PRESET_NAME_MAX];
				const char *names[1] = {name};
				struct series t = {.counter = 0, .socket = s};
				metric_name(t.name, sizeof(t.name), prefix, colon ? colon + 2 : member);
				snprintf(t.help, sizeof(t.help), "%s, group %s (%s), over the interval since the previous scrape",
					 member, groups[g], grp->title);
				if (s < 0)
					snprintf(name, sizeof(name), "%s", member);
				else
					snprintf(name, sizeof(name), "%s:socket=%d", member, s);
				add_series(p, share, &t, names, 1);
			}
		}
	}
}

int uncored_prom_create(struct uncore_share *share, const struct uncore_backend *be,
			const struct uncore_clock *clock, const char *host, int simulated,
			struct uncored_prom **out)
{
	struct uncored_prom *p = calloc(1, sizeof(*p));
	if (!p)
		return uncore_fail(UNCORE_ENOMEM, "prometheus: out of memory");
	char h[96], plat[48];
	escape(h, sizeof(h), host);
	escape(plat, sizeof(plat), be->machine.plat ? be->machine.plat->name : "none");
	snprintf(p->labels, sizeof(p->labels), "host=\"%s\",platform=\"%s\"%s", h, plat,
		 simulated ? ",simulated=\"true\"" : "");
	p->clock = clock;
	add_presets(p, share, be);
	add_groups(p, share, be);
	*out = p;
	return 0;
}

void uncored_prom_destroy(struct uncored_prom *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->n; i++) {
		if (uncore_set_stop(p->s[i].set, NULL) < 0)
			uncore_error_clear();
		uncore_set_destroy(p->s[i].set);
		p->s[i].view->ops->destroy(p->s[i].view);
	}
	free(p);
}

/* PAPI's postfix notation ("N0|64|*|"): N<i> pushes value i, a number
 * itself, + - * / the result of the two on top.  NaN when malformed. */
static double postfix(const char *f, const double *v, unsigned n)
{
	double st[8];
	unsigned sp = 0;
	char tok[32];
	for (const char *c = f; *c;) {
		size_t l = strcspn(c, "|");
		if (l == 0 || l >= sizeof(tok))
			return NAN;
		memcpy(tok, c, l);
		tok[l] = '\0';
		c += l + (c[l] == '|');
		if (tok[0] == 'N') {
			unsigned i = (unsigned)atoi(tok + 1);
			if (i >= n || sp == 8)
				return NAN;
			st[sp++] = v[i];
		} else if (l == 1 && strchr("+-*/", tok[0])) {
			if (sp < 2)
				return NAN;
			double b = st[--sp], a = st[--sp];
			st[sp++] = tok[0] == '+' ? a + b : tok[0] == '-' ? a - b : tok[0] == '*' ? a * b : a / b;
		} else {
			char *end;
			double x = strtod(tok, &end);
			if (*end || sp == 8)
				return NAN;
			st[sp++] = x;
		}
	}
	return sp == 1 ? st[0] : NAN;
}

struct out {
	char *buf;
	size_t len, used;
	int full;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->used)
		o->full = 1;
	else
		o->used += (size_t)n;
}

static void value(struct out *o, double v)
{
	if (isnan(v))
		put(o, "NaN\n");
	else if (isinf(v))
		put(o, "%sInf\n", v < 0 ? "-" : "+");
	else
		put(o, "%.17g\n", v);
}

long uncored_prom_render(struct uncored_prom *p, char *buf, size_t len)
{
	struct out o = {buf, len, 0, 0};
	uint64_t ns = 0;
	if (uncore_clock_now(p->clock, &ns) < 0)
		uncore_error_clear();
	put(&o, "# HELP intel_uncore_clock_seconds The clock the counts are timed by (on the simulator its virtual time)\n"
		"# TYPE intel_uncore_clock_seconds gauge\nintel_uncore_clock_seconds{%s} ", p->labels);
	value(&o, (double)ns / 1e9);
	for (unsigned i = 0; i < p->nskipped && i < PROM_MAX_SKIPPED; i++) {
		put(&o, "# uncored: not exported: ");
		for (const char *c = p->skipped[i]; *c; c++)
			put(&o, "%c", *c == '\n' ? ' ' : *c);
		put(&o, "\n");
	}
	for (unsigned i = 0; i < p->n; i++) {
		struct series *t = &p->s[i];
		uint64_t raw[UNCORE_PRESET_MAX_EVENTS];
		double v[UNCORE_PRESET_MAX_EVENTS], x;
		int rc = uncore_set_read(t->set, raw);
		for (unsigned k = 0; k < t->nev; k++)
			v[k] = uncore_set_value_double(&t->info, raw[k]);
		if (rc < 0) {
			uncore_error_clear();
			x = NAN;
		} else
			x = t->postfix ? postfix(t->postfix, v, t->nev) : t->nev == 1 ? v[0] : v[0] + v[1];
		if (i == 0 || strcmp(t->name, p->s[i - 1].name) != 0)
			put(&o, "# HELP %s %s%s%s\n# TYPE %s %s\n", t->name, t->help,
			    t->info.units && t->info.units[0] ? ", in " : "",
			    t->info.units ? t->info.units : "", t->name, t->counter ? "counter" : "gauge");
		if (t->socket < 0)
			put(&o, "%s{%s,scope=\"node\"} ", t->name, p->labels);
		else
			put(&o, "%s{%s,scope=\"socket\",socket=\"%d\"} ", t->name, p->labels, t->socket);
		value(&o, x);
	}
	return o.full ? -1 : (long)o.used;
}
