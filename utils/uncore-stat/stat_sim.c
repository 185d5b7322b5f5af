/* Simulator selection and scenario lookup for uncore-stat (see stat_sim.h). */
#include "stat_sim.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/uncore_error.h"
#include "sim/uncore_sim.h"

static int is_file(const char *p)
{
	return access(p, R_OK) == 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The directory of this executable, or "" when unknown. */
static void exe_dir(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(buf, len, "%s", "");
		return;
	}
	exe[n] = '\0';
	snprintf(buf, len, "%s", dirname(exe));
}

int stat_find_scenario(const char *arg, char *path, size_t len, char *err, size_t errlen)
{
	char dirs[3][PATH_MAX + 64], bin[PATH_MAX];
	unsigned ndirs = 0;
	size_t used = 0;

	if (strchr(arg, '/') || (ends_with(arg, ".scn") && is_file(arg))) {
		if (!is_file(arg)) {
			snprintf(err, errlen, "scenario %s: no such readable file", arg);
			return -1;
		}
		snprintf(path, len, "%s", arg);
		return 0;
	}
	const char *env = getenv("UNCORE_STAT_SCENARIO_DIR");
	if (env && *env)
		snprintf(dirs[ndirs++], sizeof(dirs[0]), "%s", env);
	exe_dir(bin, sizeof(bin));
	if (bin[0]) {
		snprintf(dirs[ndirs++], sizeof(dirs[0]), "%s/../share/papi-uncore/scenarios", bin);
		snprintf(dirs[ndirs++], sizeof(dirs[0]), "%s/../../src/sim/scenarios", bin);
	}
	for (unsigned i = 0; i < ndirs; i++) {
		snprintf(path, len, "%s/%s%s", dirs[i], arg, ends_with(arg, ".scn") ? "" : ".scn");
		if (is_file(path))
			return 0;
	}
	used = (size_t)snprintf(err, errlen, "scenario '%s' not found in", arg);
	for (unsigned i = 0; i < ndirs && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s %s", i ? "," : "", dirs[i]);
	if (used < errlen)
		snprintf(err + used, errlen - used,
			 "; give a path, or set UNCORE_STAT_SCENARIO_DIR");
	return -1;
}

int stat_sim_setup(const struct stat_opts *o, char *err, size_t len)
{
	char path[PATH_MAX];
	int instance = o->sim_model && strchr(o->sim_model, '/');

	setenv("PAPI_INTEL_UNCORE_BACKEND", "sim", 1);
	if (o->sim_model)
		setenv("PAPI_INTEL_UNCORE_SIM", o->sim_model, 1);
	if (o->sim_scenario) {
		if (stat_find_scenario(o->sim_scenario, path, sizeof(path), err, len) < 0)
			return -1;
		setenv("PAPI_INTEL_UNCORE_SIM_SCENARIO", path, 1);
		return 0;
	}
	if (getenv("PAPI_INTEL_UNCORE_SIM_SCENARIO") || instance)
		return 0;
	if (stat_find_scenario(STAT_DEFAULT_SCENARIO, path, sizeof(path), err, len) < 0)
		return -1;
	setenv("PAPI_INTEL_UNCORE_SIM_SCENARIO", path, 1);
	return 0;
}

static struct uncore_sim *shared;
static int shared_tried;

int stat_sim_time(double *seconds)
{
	const char *path = getenv("PAPI_INTEL_UNCORE_SIM");
	uint64_t ns;

	if (!shared_tried) {
		shared_tried = 1;
		if (path && strchr(path, '/') && uncore_sim_open(path, &shared) < 0) {
			shared = NULL;
			uncore_error_clear();
		}
	}
	if (!shared || uncore_sim_now(shared, &ns) < 0)
		return -1;
	*seconds = (double)ns * 1e-9;
	return 0;
}

void stat_sim_close(void)
{
	if (shared)
		uncore_sim_close(shared);
	shared = NULL;
	shared_tried = 0;
}
