/* uncore-stat: count Intel uncore events through PAPI while a command runs
 * (or for an interval), per socket and in total; on hardware or on the
 * uncore simulator (--sim).  --explain shows what would be programmed.
 * See README.md; the parts: stat_opts (options), stat_counters (PAPI),
 * stat_run (the loop), stat_output (formats), stat_lib/stat_explain (our
 * library, directly), stat_sim (simulator selection). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/version.h"
#include "metrics/metrics.h"
#include "stat_counters.h"
#include "stat_groups.h"
#include "stat_host.h"
#include "stat_kgroups.h"
#include "stat_lib.h"
#include "stat_opts.h"
#include "stat_output.h"
#include "stat_plot.h"
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
		/* A host without an uncore to count: say which processor and
		 * what it has, before any metric fails on a missing box. */
		if (!c->simulated && stat_host_no_uncore(err, sizeof(err)) == 1) {
			fprintf(stderr, "uncore-stat: -g %s: %s\n", o->groups[0], err);
			return STAT_EXIT_USAGE;
		}
		if (o->ngroups > STAT_MAX_GROUPS ||
		    stat_groups_find(cat, o, g, err, sizeof(err)) < 0) {
			fprintf(stderr, "uncore-stat: %s\n",
				o->ngroups > STAT_MAX_GROUPS ? "too many -g options" : err);
			return STAT_EXIT_USAGE;
		}
	}
	return stat_counters_add(c, o, g);
}

/* Whether the picture could not be written where --plot says: tried by
 * opening it for appending (an existing file is left as it is; one made
 * here is removed again). */
static int plot_path_unwritable(const char *path, char *err, size_t len)
{
	int existed = access(path, F_OK) == 0;
	FILE *f = fopen(path, "a");
	if (!f) {
		snprintf(err, len, "%s: cannot be written: %s", path, strerror(errno));
		return 1;
	}
	fclose(f);
	if (!existed)
		unlink(path);
	return 0;
}

/* --plot-from: a saved -I --csv run drawn, nothing counted. */
static int plot_from_csv(const struct stat_opts *o)
{
	char err[512];
	struct stat_plot *p = stat_plot_new();
	FILE *f = fopen(o->plot_from, "r");
	int rc = 0;
	if (!p || !f) {
		fprintf(stderr, "uncore-stat: cannot read %s: %s\n", o->plot_from,
			p ? strerror(errno) : "out of memory");
		rc = 1;
	} else if (stat_plot_read_csv(p, f, err, sizeof(err)) < 0 ||
		   stat_plot_write(p, o->plot, 0, err, sizeof(err)) < 0) {
		fprintf(stderr, "uncore-stat: %s: %s\n", o->plot_from, err);
		rc = 1;
	}
	if (f)
		fclose(f);
	stat_plot_free(p);
	return rc;
}

int main(int argc, char **argv)
{
	struct stat_opts o;
	struct stat_output out;
	static struct stat_counters c;
	char err[1024];
	int rc = stat_opts_parse(argc, argv, &o, err, sizeof(err));

	if (rc == 1) {
		if (o.version)
			printf("uncore-stat (papi-uncore) %s\n", PAPI_UNCORE_VERSION);
		else
			stat_usage(stdout);
		stat_opts_free(&o);
		return 0;
	}
	if (rc < 0) {
		fprintf(stderr, "uncore-stat: %s\n(uncore-stat --help for the options)\n", err);
		stat_opts_free(&o);
		return STAT_EXIT_USAGE;
	}
	if (o.plot && !o.explain && plot_path_unwritable(o.plot, err, sizeof(err))) {
		/* Found before the command runs, not after its status is spent. */
		fprintf(stderr, "uncore-stat: --plot %s\n", err);
		stat_opts_free(&o);
		return STAT_EXIT_USAGE;
	}
	if (o.plot_from) {
		rc = plot_from_csv(&o);
		stat_opts_free(&o);
		return rc;
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
	if (o.ngroups && stat_groups_want_list(&o) && !o.list_events) {
		/* The groups come from the tables, not from counting: listed even
		 * where the component is disabled (no permission, no PMU). */
		const struct uncore_metric_catalog *cat;
		if (stat_groups_catalog(o.sim, &cat, err, sizeof(err)) < 0) {
			fprintf(stderr, "uncore-stat: %s\n", err);
			rc = STAT_EXIT_USAGE;
		} else {
			stat_groups_list(cat, stdout);
			rc = 0;
		}
		stat_opts_free(&o);
		return rc;
	}
	rc = stat_counters_init(&c);
	if (rc == 0 && o.list_events) {
		rc = stat_counters_list_events(&c, o.list_masks, stdout);
		stat_counters_close(&c);
		stat_sim_close();
		stat_opts_free(&o);
		return rc;
	}
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
	if (rc == 0 && o.plot && !(out.plot = stat_plot_new())) {
		fprintf(stderr, "uncore-stat: out of memory for the plot\n");
		stat_output_close(&out);
		rc = 1;
	}
	if (rc == 0) {
		rc = stat_run(&c, &o, &out);
		stat_output_close(&out);
		if (out.plot && stat_plot_write(out.plot, o.plot, (double)o.interval_ms / 1000.0,
						err, sizeof(err)) < 0) {
			fprintf(stderr, "uncore-stat: %s\n", err);
			if (rc == 0)
				rc = 1;
		}
		stat_plot_free(out.plot);
	}
	stat_counters_close(&c);
	stat_kgroups_close();
	stat_sim_close();
	stat_opts_free(&o);
	return rc;
}
