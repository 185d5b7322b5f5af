/* Metric groups of uncore-stat (see stat_groups.h). */
#include "stat_groups.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/uncore_error.h"
#include "bind/component.h"
#include "eventset/eventset.h"
#include "events/registry.h"
#include "metrics/metrics.h"
#include "platform/cpu.h"
#include "sim/uncore_sim.h"
#include "simkernel/shape_kernel.h"
#include "stat_kgroups.h"
#include "stat_lib.h"

int stat_groups_catalog(int simulated, const struct uncore_metric_catalog **cat, char *err,
			size_t len)
{
	const char *pname = "(none)";
	const struct uncore_event_platform *plat = NULL;

	const struct uncore_shape *shape =
	    simulated ? uncore_shape_find(getenv("PAPI_INTEL_UNCORE_SIM_KERNEL")) : NULL;
	if (shape) {
		/* A simulated kernel shaped as a Xeon: its generation's metric
		 * groups, else the groups over the kernel's aliases. */
		const struct uncore_platform *gen = uncore_platform_by_name(uncore_shape_gen(shape));
		if (!gen || uncore_metric_catalog_get(gen->events, cat) < 0) {
			uncore_error_clear();
			*cat = stat_kgroups_catalog(1);
		}
		return 0;
	}
	if (simulated) {
		/* The simulated model's platform (stat_sim_setup set the model). */
		const char *p = uncore_sim_platform_of(getenv("PAPI_INTEL_UNCORE_SIM"));
		/* An instance that cannot be opened: the default model's groups. */
		pname = p ? p : uncore_sim_platform_of(NULL);
		pname = pname ? pname : "(none)";
		const struct uncore_platform *gen = uncore_platform_by_name(pname);
		plat = gen ? gen->events : NULL;
	} else {
		struct uncore_cpu_id cpu;
		const struct uncore_platform *d = NULL;
		if (uncore_cpu_identify(&cpu) == 0)
			d = uncore_platform_for_cpu(&cpu);
		uncore_error_clear();
		if (!d || uncore_metric_catalog_get(d->events, cat) < 0) {
			/* No tables or no metrics for this CPU: the groups over the
			 * kernel's aliases. */
			uncore_error_clear();
			*cat = stat_kgroups_catalog(0);
			return 0;
		}
		pname = d->name;
		plat = d->events;
	}
	int rc = plat ? uncore_metric_catalog_get(plat, cat) : UNCORE_ENOEVENT;
	uncore_error_clear();
	if (rc < 0) {
		snprintf(err, len,
			 "metric groups: platform %s has no derived metrics (available groups: "
			 "none); count its events with -e",
			 pname);
		return -1;
	}
	return 0;
}

void stat_groups_names(const struct uncore_metric_catalog *cat, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < uncore_metric_group_count(cat) && o + 1 < len; i++) {
		int n = snprintf(buf + o, len - o, "%s%s", i ? ", " : "",
				 uncore_metric_group_at(cat, i)->name);
		if (n < 0)
			break;
		o += (size_t)n;
	}
}

void stat_groups_list(const struct uncore_metric_catalog *cat, FILE *f)
{
	fprintf(f, "metric groups of %s (uncore-stat -g GROUP; any case):\n", cat->platform);
	for (unsigned i = 0; i < uncore_metric_group_count(cat); i++) {
		const struct uncore_metric_group *g = uncore_metric_group_at(cat, i);
		fprintf(f, "%-8s %s\n", g->name, g->title);
		for (unsigned m = 0; m < g->nmembers; m++)
			fprintf(f, "           %s\n", g->members[m]);
	}
}

int stat_groups_want_list(const struct stat_opts *o)
{
	for (unsigned i = 0; i < o->ngroups; i++)
		if (strcasecmp(o->groups[i], "list") == 0)
			return 1;
	return 0;
}

int stat_groups_find(const struct uncore_metric_catalog *cat, const struct stat_opts *o,
		     const struct uncore_metric_group **out, char *err, size_t len)
{
	for (unsigned i = 0; i < o->ngroups; i++) {
		out[i] = uncore_metric_group_find(cat, o->groups[i]);
		uncore_error_clear();
		if (!out[i]) {
			char names[512];
			stat_groups_names(cat, names, sizeof(names));
			snprintf(err, len,
				 "-g %s: no such metric group on %s; available groups: %s "
				 "(-g list shows their metrics)",
				 o->groups[i], cat->platform, names);
			return -1;
		}
	}
	return 0;
}

/* --explain -g on a processor without our tables: each kernel-alias
 * metric's terms as the kernel names them here and the bytes of a count. */
static int explain_kernel_groups(const struct stat_opts *o, FILE *out)
{
	const struct uncore_metric_catalog *cat = stat_kgroups_catalog(o->sim);
	const struct uncore_metric_group *groups[16];
	char err[1024];
	if (o->ngroups > 16 || stat_groups_find(cat, o, groups, err, sizeof(err)) < 0) {
		fprintf(stderr, "uncore-stat: %s\n", o->ngroups > 16 ? "too many -g options" : err);
		return STAT_EXIT_USAGE;
	}
	fprintf(out, "\nmetric groups over the kernel's aliases (computed by uncore-stat, per "
		     "socket and node total)\n");
	for (unsigned i = 0; i < o->ngroups; i++) {
		fprintf(out, "  %s: %s\n", groups[i]->name, groups[i]->title);
		for (unsigned m = 0; m < groups[i]->nmembers; m++) {
			const struct stat_kmetric *km = stat_kmetric_find(groups[i]->members[m]);
			struct stat_kresolved kr;
			if (!km)
				continue;
			if (stat_kmetric_resolve(km, &kr, err, sizeof(err)) < 0) {
				fprintf(stderr, "uncore-stat: %s\n", err);
				return STAT_EXIT_USAGE;
			}
			fprintf(out, "\n%s  [GB/s]\n  %s\n  = (", km->name, km->title);
			for (unsigned t = 0; t < kr.nterms; t++)
				fprintf(out, "%s%s:socket=S x %g bytes", t ? " + " : "",
					kr.event[t], kr.bytes[t]);
			fprintf(out, ") / seconds / 10^9 (bytes of a count: the alias's .scale in "
				     "its .unit)\n");
		}
	}
	return 0;
}

int stat_groups_explain(const struct stat_opts *o, FILE *out)
{
	struct uncore_component *comp = NULL;
	struct uncore_set *set = NULL;
	const struct uncore_metric_catalog *cat;
	const struct uncore_metric_group *groups[16];
	const char *names[256];
	unsigned n = 0;
	char err[1024];
	int rc;

	uncore_error_clear();
	rc = uncore_component_open(NULL, &comp);
	if (rc < 0) {
		fprintf(stderr, "uncore-stat: %s\n",
			uncore_error_detail()[0] ? uncore_error_detail() : uncore_strerror(rc));
		return 1;
	}
	rc = comp->be->machine.plat->platform ? uncore_metric_catalog_get(comp->be->machine.plat, &cat)
					       : UNCORE_ENOEVENT;
	uncore_error_clear();
	if (rc < 0) { /* no tables, or tables without metrics: the kernel's groups */
		uncore_component_close(comp);
		return explain_kernel_groups(o, out);
	}
	if (stat_groups_find(cat, o, groups, err, sizeof(err)) < 0) {
		fprintf(stderr, "uncore-stat: %s\n", err);
		uncore_component_close(comp);
		return STAT_EXIT_USAGE;
	}
	uncore_component_close(comp);
	/* The members of every group, once each: they share one event set. */
	for (unsigned i = 0; i < o->ngroups; i++)
		for (unsigned m = 0; m < groups[i]->nmembers; m++) {
			unsigned k = 0;
			while (k < n && strcasecmp(names[k], groups[i]->members[m]) != 0)
				k++;
			if (k == n && n < sizeof(names) / sizeof(names[0]))
				names[n++] = groups[i]->members[m];
		}
	rc = stat_lib_open(names, n, &comp, &set);
	if (rc < 0) {
		fprintf(stderr, "uncore-stat: %s\n",
			uncore_error_detail()[0] ? uncore_error_detail() : uncore_strerror(rc));
		int event_error = comp && set;
		stat_lib_close(comp, set);
		return event_error ? STAT_EXIT_USAGE : 1;
	}
	fprintf(out, "\nmetric groups (one event set: each metric per socket and node total)\n");
	for (unsigned i = 0; i < o->ngroups; i++) {
		fprintf(out, "  %s: %s\n", groups[i]->name, groups[i]->title);
		for (unsigned m = 0; m < groups[i]->nmembers; m++)
			fprintf(out, "    %s\n", groups[i]->members[m]);
	}
	unsigned nsettings = 1;
	for (unsigned k = 0; k < n; k++) {
		struct uncore_set_entry_info info;
		const struct uncore_entry *e = uncore_set_entry(set, k);
		char desc[4096];
		if (uncore_set_entry_info(set, k, &info) < 0)
			continue;
		nsettings = info.nsettings;
		fprintf(out, "\n%s  [%s]\n  method: %s\n", names[k], info.units, info.method);
		if (e && e->kind == UNCORE_ENTRY_METRIC &&
		    uncore_metric_describe(e->metric.cat, e->metric.def, desc, sizeof(desc)) == 0)
			fprintf(out, "  %s\n", desc);
		uncore_error_clear();
	}
	if (nsettings > 1)
		fprintf(out,
			"\nthe set has %u multiplexed settings: uncore-stat reads it every 100 ms "
			"(every min(MS, 100) ms with -I), so that each setting is active in every "
			"span; a run shorter than %u reads leaves multiplexed metrics NaN\n",
			nsettings, nsettings);
	else
		fprintf(out, "\nthe set has no multiplexed terms: every metric is exact\n");
	stat_lib_close(comp, set);
	return 0;
}
