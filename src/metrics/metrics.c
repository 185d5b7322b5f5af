/* Metric names, descriptions and groups (see metrics.h). */
#include "metrics/metrics.h"

#include "common/uncore_error.h"
#include "events/parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_QUALIFIER 4095

/* Integer forms: scale and units by the metric's units (metrics.h). */
static const struct {
	const char *units, *int_units;
	double scale;
} int_forms[] = {
    {"GB/s", "MB/s", 1e3},
    {"GT/s", "MT/s", 1e3},
    {"MHz", "kHz", 1e3},
    {"ns", "ps", 1e3},
    {"MB (10^6 bytes)", "bytes", 1e6},
    {"GB", "bytes", 1e9}, /* the amount form of GB/s */
    {"fraction", "parts per million", 1e6},
    {"fraction of cycles", "parts per million of cycles", 1e6},
    {"fraction of flit slots", "parts per million of flit slots", 1e6},
    {"ratio", "parts per million", 1e6},
};

void uncore_metric_int_units(const char *units, double *scale, char *units_out, size_t len)
{
	for (size_t i = 0; i < sizeof(int_forms) / sizeof(int_forms[0]); i++)
		if (strcmp(units, int_forms[i].units) == 0) {
			*scale = int_forms[i].scale;
			snprintf(units_out, len, "%s", int_forms[i].int_units);
			return;
		}
	*scale = 1;
	snprintf(units_out, len, "%s", units);
}

/* Units of the metrics that are amounts (metrics.h); test_catalog checks
 * that exactly the metrics in these units are sums of counts. */
static const char *const amount_units[] = {
    "bytes", "requests", "MB (10^6 bytes)", "lookups", "cycles", "ns (counting time)",
};

int uncore_metric_units_amount(const char *units)
{
	for (size_t i = 0; i < sizeof(amount_units) / sizeof(amount_units[0]); i++)
		if (strcmp(units, amount_units[i]) == 0)
			return 1;
	return 0;
}

int uncore_metric_amount_units(const char *units, char *units_out, size_t len)
{
	size_t n = strlen(units);
	if (n < 3 || strcmp(units + n - 2, "/s") != 0)
		return uncore_fail(UNCORE_ENOSUPP,
				   "only a rate (units .../s) has an amount form; this metric is "
				   "in %s",
				   units);
	snprintf(units_out, len, "%.*s", (int)(n - 2), units);
	return 0;
}

/* ":socketN", ":boxN": the key and its number without '='. */
static const char *split_glued(const char *q, const char *end, char *key, size_t klen)
{
	static const char *const keys[] = {"socket", "box"};
	for (size_t i = 0; i < 2; i++) {
		size_t kl = strlen(keys[i]);
		if ((size_t)(end - q) > kl && strncasecmp(q, keys[i], kl) == 0 && q[kl] >= '0' &&
		    q[kl] <= '9' && kl < klen) {
			snprintf(key, klen, "%s", keys[i]);
			return q + kl - 1; /* where '=' would be */
		}
	}
	return NULL;
}

static int parse_qualifiers(const char *name, const char *q, struct uncore_metric_ref *r)
{
	while (*q) {
		char key[16];
		const char *eq, *end;
		if (*q != ':')
			return uncore_fail(
			    UNCORE_ESYNTAX,
			    "%s: expected ':socket=N', ':box=N', ':amount', ':run' or ':int' after the "
			    "metric",
			    name);
		q++;
		end = strchr(q, ':');
		if (!end)
			end = q + strlen(q);
		if ((size_t)(end - q) == 3 && strncasecmp(q, "int", 3) == 0 && !r->integer) {
			r->integer = 1;
			q = end;
			continue;
		}
		if ((size_t)(end - q) == 6 && strncasecmp(q, "amount", 6) == 0 && !r->amount) {
			char units[48];
			if (uncore_metric_amount_units(r->def->units, units, sizeof(units)) < 0)
				return uncore_fail(UNCORE_ENOSUPP,
						   "%s: only a rate (units .../s) has an amount "
						   "form; this metric is in %s",
						   name, r->def->units);
			r->amount = 1;
			q = end;
			continue;
		}
		if ((size_t)(end - q) == 3 && strncasecmp(q, "run", 3) == 0 && !r->run) {
			r->run = 1;
			q = end;
			continue;
		}
		eq = strchr(q, '=');
		if (eq && eq < end && (size_t)(eq - q) < sizeof(key)) {
			memcpy(key, q, (size_t)(eq - q));
			key[eq - q] = '\0';
		} else if (!(eq = split_glued(q, end, key, sizeof(key)))) {
			return uncore_fail(UNCORE_ESYNTAX,
					   "%s: a metric takes only :socket=N, :box=N, :amount, :run and :int",
					   name);
		}
		char *stop;
		errno = 0;
		long v = strtol(eq + 1, &stop, 10);
		if (stop == eq + 1 || stop != end || errno || v < 0 || v > MAX_QUALIFIER)
			return uncore_fail(UNCORE_ERANGE, "%s: %s needs a number from 0 to %d",
					   name, key, MAX_QUALIFIER);
		if (strcasecmp(key, "socket") == 0 && r->socket == UNCORE_ALL)
			r->socket = (int)v;
		else if (strcasecmp(key, "box") == 0 && r->instance == UNCORE_ALL)
			r->instance = (int)v;
		else
			return uncore_fail(
			    UNCORE_ESYNTAX,
			    "%s: a metric takes only :socket=N, :box=N, :amount, :run and :int, once each",
			    name);
		q = end;
	}
	if (r->run && r->amount)
		return uncore_fail(UNCORE_ESYNTAX,
				   "%s: :run and :amount together: the amount form already covers the "
				   "time since start",
				   name);
	return 0;
}

/* Find PMU::NAME in catalog c; *q is set to the qualifiers. */
static const struct uncore_metric_def *find(const struct uncore_metric_catalog *c, const char *name,
					    const char **q)
{
	const char *sep = strstr(name, "::");
	if (!sep)
		return NULL;
	size_t pl = (size_t)(sep - name);
	const char *mname = sep + 2;
	size_t ml = strcspn(mname, ":");
	for (unsigned i = 0; i < c->ndefs; i++) {
		const struct uncore_metric_def *d = &c->defs[i];
		if (strlen(d->pmu) == pl && strncasecmp(d->pmu, name, pl) == 0 &&
		    strlen(d->name) == ml && strncasecmp(d->name, mname, ml) == 0) {
			*q = mname + ml;
			return d;
		}
	}
	return NULL;
}

int uncore_metric_parse(const struct uncore_event_platform *plat, const char *name,
			struct uncore_metric_ref *out)
{
	const struct uncore_metric_catalog *cat = NULL;
	const struct uncore_metric_def *d = NULL;
	const char *q = "";

	if (plat && uncore_metric_catalog_get(plat, &cat) == 0)
		d = find(cat, name, &q);
	if (!d) {
		/* A metric of another platform gets a clear answer. */
		for (unsigned p = 0; uncore_event_platform_at(p); p++) {
			const struct uncore_event_platform *other = uncore_event_platform_at(p);
			const struct uncore_metric_catalog *oc;
			if (other == plat || uncore_metric_catalog_get(other, &oc) < 0)
				continue;
			const struct uncore_metric_def *od = find(oc, name, &q);
			if (od)
				return uncore_fail(
				    UNCORE_ENOSUPP,
				    "%s is a metric of %s%s%s; this machine is %s, whose metrics "
				    "papi_native_avail lists",
				    name, oc->platform, od->box ? " (it needs its " : "",
				    od->box ? "boxes)" : "", plat ? plat->name : "not supported");
		}
		uncore_error_clear();
		return UNCORE_ENOEVENT;
	}
	struct uncore_metric_ref r = {
	    .cat = cat, .def = d, .socket = UNCORE_ALL, .instance = UNCORE_ALL};
	int rc = parse_qualifiers(name, q, &r);
	if (rc < 0)
		return rc;
	if (d->unavailable)
		return uncore_fail(UNCORE_ENOSUPP, "%s::%s cannot be measured on %s: %s", d->pmu,
				   d->name, cat->platform, d->unavailable);
	*out = r;
	return 0;
}

int uncore_metric_name(const struct uncore_metric_def *d, char *buf, size_t len)
{
	if ((size_t)snprintf(buf, len, "%s::%s", d->pmu, d->name) >= len)
		return uncore_fail(UNCORE_ENOSPACE, "metric name longer than %zu bytes", len);
	return 0;
}

int uncore_metric_describe(const struct uncore_metric_catalog *cat,
			   const struct uncore_metric_def *d, char *buf, size_t len)
{
	size_t u = 0;
#define ADD(...)                                                                                   \
	do {                                                                                       \
		if (u < len)                                                                       \
			u += (size_t)snprintf(buf + u, len - u, __VA_ARGS__);                      \
	} while (0)
	(void)cat;
	if (len)
		buf[0] = '\0';
	if (d->unavailable) {
		ADD("%s. NOT AVAILABLE: %s", d->title, d->unavailable);
		return 0;
	}
	ADD("%s [%s, double]. %s: %s", d->title, d->units, d->section, d->formula);
	if (strcmp(d->expr, d->formula) != 0)
		ADD("; measured as: %s", d->expr);
	ADD(".");
	if (d->decision[0])
		ADD(" Decision: %s", d->decision);
	if (d->combine)
		ADD(" Uncore part only: %s", d->combine);
	if (d->box)
		ADD(" Terms summed over every %s box of every socket (:socket=N one socket, :box=N "
		    "one box).",
		    d->box);
	else
		ADD(" Whole node (:socket=N one socket).");
#undef ADD
	return 0;
}

unsigned uncore_metric_group_count(const struct uncore_metric_catalog *cat)
{
	return cat->ngroups;
}

const struct uncore_metric_group *uncore_metric_group_at(const struct uncore_metric_catalog *cat,
							 unsigned i)
{
	return i < cat->ngroups ? &cat->groups[i] : NULL;
}

const struct uncore_metric_group *uncore_metric_group_find(const struct uncore_metric_catalog *cat,
							   const char *name)
{
	char list[512];
	size_t used = 0;
	list[0] = '\0';
	for (unsigned i = 0; i < cat->ngroups; i++) {
		if (strcasecmp(cat->groups[i].name, name) == 0)
			return &cat->groups[i];
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 i ? ", " : "", cat->groups[i].name);
	}
	uncore_fail(UNCORE_ENOEVENT, "no metric group %s on %s; groups: %s", name, cat->platform,
		    list);
	return NULL;
}
