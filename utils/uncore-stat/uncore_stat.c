/* uncore-stat: count Intel uncore events through PAPI while a command runs
 * (or for an interval), per socket and in total; on hardware or on the
 * uncore simulator (--sim).  --explain shows what would be programmed.
 * See README.md; the parts: stat_opts (options), stat_counters (PAPI),
 * stat_run (the loop), stat_output (formats), stat_lib/stat_explain (our
 * library, directly), stat_sim (simulator selection). */
#include <stdio.h>
#include <string.h>

#include "metrics/metrics.h"
#include "stat_counters.h"
#include "stat_groups.h"
#include "stat_lib.h"
#include "stat_opts.h"
#include "stat_output.h"
#include "stat_run.h"
#include "stat_sim.h"

/* The -g groups on the counted platform, then every event into one set;
 * -g list prints the groups instead (status 0, nothing counted). */
static int open_groups(struct stat_counters *c, const struct stat_opts *o)
{
	const struct uncore_metric_catalog *cat = NULL;
	const struct uncore_metric_group *g[STAT_MAX_GROUPS];
	char err[1024];

	if (o->ngroups) {
		if (stat_groups_catalog(c->simulated, &cat, err, sizeof(err)) < 0) {
			fprintf(stderr, "uncore-stat: %s\n", err);
			return STAT_EXIT_USAGE;
		}
		if (stat_groups_want_list(o)) {
			stat_groups_list(cat, stdout);
			return 0;
		}
		if (o->ngroups > STAT_MAX_GROUPS ||
		    stat_groups_find(cat, o, g, err, sizeof(err)) < 0) {
			fprintf(stderr, "uncore-stat: %s\n", o->ngroups > STAT_MAX_GROUPS
								 ? "too many -g options"
								 : err);
			return STAT_EXIT_USAGE;
		}
	}
	return stat_counters_add(c, o, g);
}

int main(int argc, char **argv)
{
	struct stat_opts o;
	struct stat_output out;
	static struct stat_counters c;
	char err[1024];
	int rc = stat_opts_parse(argc, argv, &o, err, sizeof(err));

	if (rc == 1) {
		stat_usage(stdout);
		stat_opts_free(&o);
		return 0;
	}
	if (rc < 0) {
		fprintf(stderr, "uncore-stat: %s\n(uncore-stat --help for the options)\n", err);
		stat_opts_free(&o);
		return STAT_EXIT_USAGE;
	}
	if (o.sim && stat_sim_setup(&o, err, sizeof(err)) < 0) {
		fprintf(stderr, "uncore-stat: %s\n", err);
		stat_opts_free(&o);
		return STAT_EXIT_USAGE;
	}
	if (!o.explain)
		stat_run_prepare();
	if (o.explain) {
		if (stat_output_open(&out, STAT_TEXT, o.output ? o.output : "-") < 0) {
			stat_opts_free(&o);
			return 1;
		}
		rc = o.nevents ? stat_explain(&o, out.f) : 0;
		if (rc == 0 && o.ngroups)
			rc = stat_groups_explain(&o, out.f);
		stat_output_close(&out);
		stat_opts_free(&o);
		return rc;
	}
	rc = stat_counters_init(&c);
	if (rc == 0)
		rc = open_groups(&c, &o);
	if (rc == 0 && o.ngroups && stat_groups_want_list(&o)) {
		stat_counters_close(&c);
		stat_sim_close();
		stat_opts_free(&o);
		return 0;
	}
	if (rc == 0 && stat_output_open(&out, o.format, o.output) < 0)
		rc = 1;
	if (rc == 0) {
		rc = stat_run(&c, &o, &out);
		stat_output_close(&out);
	}
	stat_counters_close(&c);
	stat_sim_close();
	stat_opts_free(&o);
	return rc;
}
