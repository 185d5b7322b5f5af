/* The environment, read once (settings.h): one row per variable. */
#include "bind/settings.h"

#include "common/text.h"
#include "common/uncore_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	size_t offset;
} vars[] = {
    {"PAPI_INTEL_UNCORE_BACKEND", offsetof(struct uncore_settings, backend)},
    {"PAPI_INTEL_UNCORE_READ_FREEZE", offsetof(struct uncore_settings, read_freeze)},
    {"PAPI_INTEL_UNCORE_POLL", offsetof(struct uncore_settings, poll)},
    {"PAPI_INTEL_UNCORE_VERBOSE", offsetof(struct uncore_settings, verbose)},
    {"PAPI_INTEL_UNCORE_PCI", offsetof(struct uncore_settings, pci)},
    {"PAPI_INTEL_UNCORE_LOCK_DIR", offsetof(struct uncore_settings, lock_dir)},
    {"XDG_RUNTIME_DIR", offsetof(struct uncore_settings, runtime_dir)},
    {"TMPDIR", offsetof(struct uncore_settings, tmpdir)},
    {"PAPI_INTEL_UNCORE_SIM", offsetof(struct uncore_settings, sim)},
    {"PAPI_INTEL_UNCORE_SIM_SCENARIO", offsetof(struct uncore_settings, sim_scenario)},
    {"PAPI_INTEL_UNCORE_SIM_USER", offsetof(struct uncore_settings, sim_user)},
    {"PAPI_INTEL_UNCORE_SIM_LOG", offsetof(struct uncore_settings, sim_log)},
    {"PAPI_INTEL_UNCORE_SIM_KERNEL", offsetof(struct uncore_settings, sim_kernel)},
    {"PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE", offsetof(struct uncore_settings, sim_kernel_share)},
    {"PAPI_INTEL_UNCORE_SIM_KERNEL_STEP", offsetof(struct uncore_settings, sim_kernel_step)},
    {"PAPI_INTEL_UNCORE_TEST_ROOT", offsetof(struct uncore_settings, test_root)},
    {"PAPI_INTEL_UNCORE_GROUP", offsetof(struct uncore_settings, group)},
    {"PAPI_INTEL_UNCORE_SERVICE", offsetof(struct uncore_settings, service)},
    {"OMPI_COMM_WORLD_RANK", offsetof(struct uncore_settings, ompi_rank)},
    {"PMIX_NAMESPACE", offsetof(struct uncore_settings, pmix_namespace)},
    {"SLURM_JOB_ID", offsetof(struct uncore_settings, slurm_job)},
    {"SLURM_STEP_ID", offsetof(struct uncore_settings, slurm_step)},
    {"PMI_RANK", offsetof(struct uncore_settings, pmi_rank)},
};

#define NVARS (sizeof(vars) / sizeof(vars[0]))

int uncore_settings_read(struct uncore_settings *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < NVARS; i++) {
		const char *v = getenv(vars[i].name);
		char *dst = (char *)out + vars[i].offset;
		if (v && (size_t)snprintf(dst, UNCORE_SETTING_MAX, "%s", v) >= UNCORE_SETTING_MAX) {
			memset(out, 0, sizeof(*out));
			return uncore_fail(UNCORE_ENOSPACE,
					   "%s is longer than %u characters: use a shorter value",
					   vars[i].name, UNCORE_SETTING_MAX - 1);
		}
	}
	/* Switches: "off" must not mean on (issue 29). */
	const char *const sw[] = {"PAPI_INTEL_UNCORE_READ_FREEZE", "PAPI_INTEL_UNCORE_VERBOSE"};
	const char *const val[] = {out->read_freeze, out->verbose};
	for (unsigned i = 0; i < 2; i++)
		if (val[i][0] && uncore_settings_switch(val[i]) < 0) {
			char q[UNCORE_QUOTE_MAX * 4 + 8];
			uncore_quote(q, sizeof(q), val[i], UNCORE_QUOTE_MAX);
			memset(out, 0, sizeof(*out));
			return uncore_fail(UNCORE_EINVAL,
					   "%s=%s: give 1 or 0 (also on/off, yes/no, true/false)",
					   sw[i], q);
		}
	return 0;
}

int uncore_settings_switch(const char *value)
{
	static const char *const on[] = {"1", "on", "yes", "true"};
	static const char *const off[] = {"0", "off", "no", "false"};
	for (unsigned i = 0; i < 4; i++) {
		if (strcasecmp(value, on[i]) == 0)
			return 1;
		if (strcasecmp(value, off[i]) == 0)
			return 0;
	}
	return -1;
}

unsigned uncore_settings_count(void)
{
	return NVARS;
}

const char *uncore_settings_name(unsigned i)
{
	return i < NVARS ? vars[i].name : NULL;
}

int uncore_settings_default_on(const char *value)
{
	return !value[0] || uncore_settings_switch(value) != 0;
}

int uncore_settings_set_on(const char *value)
{
	return value[0] && uncore_settings_switch(value) == 1;
}

void uncore_settings_sim(const struct uncore_settings *s, struct uncore_sim_options *out)
{
	out->machine = s->sim;
	out->scenario = s->sim_scenario;
	out->user = s->sim_user;
	out->log = s->sim_log;
}
