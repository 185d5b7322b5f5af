/* Event sets on the simulator for tests (see sim_set.h). */
#define _GNU_SOURCE
#include "sim_set.h"

#include "backend/direct/direct.h"
#include "backend/perf/perf.h"
#include "common/uncore_error.h"
#include "simkernel/uncore_sim_perf.h"
#include "tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[512];

const char *sim_set_scenario_dir(void)
{
	/* This file is tests/support/sim_set.c under the source root. */
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s", __FILE__);
		char *p = strstr(dir, "tests/support/");
		if (p)
			snprintf(p, sizeof(dir) - (size_t)(p - dir), "src/sim/scenarios");
	}
	return dir;
}

/* The machine and its scenario. */
static int sim_machine(struct sim_set *e, const char *model, const char *scenario,
		       const char *scenario_text)
{
	char path[700];
	int rc;

	memset(e, 0, sizeof(*e));
	rc = uncore_sim_create(model, NULL, &e->sim);
	if (rc == 0 && scenario) {
		snprintf(path, sizeof(path), "%s/%s", sim_set_scenario_dir(), scenario);
		rc = uncore_sim_load_scenario(e->sim, path);
	}
	if (rc == 0 && scenario_text) {
		/* Text scenarios resolve includes from the current directory:
		 * name the library's files by their full path. */
		char text[8192];
		size_t used = 0;
		for (const char *l = scenario_text; *l && used < sizeof(text);) {
			const char *nl = strchr(l, '\n');
			int len = nl ? (int)(nl - l) : (int)strlen(l);
			if (strncmp(l, "include ", 8) == 0)
				used += (size_t)snprintf(text + used, sizeof(text) - used,
							 "include %s/%.*s\n",
							 sim_set_scenario_dir(), len - 8, l + 8);
			else
				used += (size_t)snprintf(text + used, sizeof(text) - used, "%.*s\n",
							 len, l);
			l += len + (nl ? 1 : 0);
		}
		rc = uncore_sim_load_scenario_text(e->sim, text, "test.scn");
	}
	if (rc == 0)
		rc = uncore_sim_topology(e->sim, &e->topo);
	return rc;
}

/* The set over e->be, timed with the simulator's clock. */
static int sim_set_on_backend(struct sim_set *e)
{
	int rc = uncore_set_create(e->be, &e->set);
	if (rc == 0) {
		struct uncore_clock clk = {
		    .now_ns = uncore_sim_clock, .ctx = e->sim, .tsc_hz = e->topo.clock_hz[HSWEP_CLK_TSC]};
		uncore_set_clock(e->set, &clk);
	}
	return rc;
}

int sim_set_open(struct sim_set *e, const char *model, const char *scenario,
		 const char *scenario_text)
{
	struct uncore_direct_config cfg;
	int rc = sim_machine(e, model, scenario, scenario_text);

	memset(&cfg, 0, sizeof(cfg));
	cfg.io = uncore_sim_regio(e->sim);
	cfg.read_freeze = 1;
	cfg.no_socket_lock = 1;
	cfg.origin = "SIMULATED";
	if (rc == 0)
		rc = uncore_direct_open_hswep(&cfg, &e->be);
	if (rc == 0)
		rc = sim_set_on_backend(e);
	if (rc < 0)
		fprintf(stderr, "  sim_set_open: %s: %s\n", uncore_strerror(rc),
			uncore_error_detail());
	return rc;
}

int sim_set_open_perf(struct sim_set *e, const char *model, const char *scenario,
		      const char *scenario_text)
{
	struct uncore_perf_config cfg;
	int rc = sim_machine(e, model, scenario, scenario_text);

	if (rc == 0) {
		/* tmpfs: the tree has hundreds of files */
		snprintf(e->root, sizeof(e->root), "/dev/shm/uncore-simset-XXXXXX");
		if (!mkdtemp(e->root)) {
			const char *root = test_mkdtemp("simset");
			snprintf(e->root, sizeof(e->root), "%s", root ? root : "");
		}
		rc = e->root[0] ? uncore_sim_perf_create(e->sim, e->root, &e->kernel)
				: uncore_fail(UNCORE_EIO, "no temporary directory");
	}
	memset(&cfg, 0, sizeof(cfg));
	if (rc == 0) {
		cfg.pmu_root = uncore_sim_perf_pmu_root(e->kernel);
		cfg.cpu_root = uncore_sim_perf_cpu_root(e->kernel);
		cfg.sys = uncore_sim_perf_sys(e->kernel);
		cfg.plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
		cfg.origin = "SIMULATED kernel";
		rc = uncore_perf_open(&cfg, &e->be);
		if (rc < 0) {
			uncore_sim_perf_destroy(e->kernel);
			e->kernel = NULL;
		}
	}
	if (rc == 0)
		rc = sim_set_on_backend(e);
	if (rc < 0)
		fprintf(stderr, "  sim_set_open_perf: %s: %s\n", uncore_strerror(rc),
			uncore_error_detail());
	return rc;
}

void sim_set_close(struct sim_set *e)
{
	uncore_set_destroy(e->set);
	if (e->be)
		e->be->ops->destroy(e->be); /* the perf backend: its kernel with it */
	if (e->sim)
		uncore_sim_destroy(e->sim);
	if (e->root[0])
		test_rmtree(e->root);
	memset(e, 0, sizeof(*e));
}

int sim_set_assign(struct sim_set *e, const char *const *names, unsigned n)
{
	int rc = uncore_set_assign(e->set, names, n);
	if (rc < 0)
		fprintf(stderr, "  assign: %s: %s\n", uncore_strerror(rc), uncore_error_detail());
	return rc;
}

double sim_set_value(const struct sim_set *e, const uint64_t *values, unsigned i)
{
	struct uncore_set_entry_info info;
	if (uncore_set_entry_info(e->set, i, &info) < 0)
		return -1;
	return uncore_set_value_double(&info, values[i]);
}
