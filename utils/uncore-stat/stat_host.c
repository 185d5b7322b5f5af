/* What this host offers (see stat_host.h). */
#include "stat_host.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "backend/perf/perf_sysfs.h"
#include "bind/component.h"
#include "common/uncore_error.h"
#include "platform/cpu.h"

void stat_host_processor(char *buf, size_t len)
{
	struct uncore_cpu_id cpu;
	if (uncore_cpu_identify(&cpu) < 0) {
		uncore_error_clear();
		snprintf(buf, len, "this processor (CPUID cannot be read)");
		return;
	}
	uncore_cpu_describe(&cpu, buf, len);
}

/* The kernel's PMUs the component offers, as "msr, power, software"
 * (its table PMUs are names of ours, listed whether or not the kernel has
 * them), and whether the kernel publishes an uncore PMU (uncore_*). */
static int pmu_list(const struct uncore_component *c, char *buf, size_t len)
{
	unsigned n = 0;
	const char *const *names = uncore_component_pmu_names(c, &n);
	size_t o = 0;
	int uncore = 0;
	buf[0] = '\0';
	DIR *d = opendir(UNCORE_PERF_PMU_ROOT);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		uncore |= strncmp(e->d_name, "uncore_", 7) == 0;
		unsigned i = 0;
		while (i < n && strcmp(names[i], e->d_name) != 0)
			i++;
		if (i == n || o + 1 >= len)
			continue;
		int w = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", e->d_name);
		if (w > 0)
			o += (size_t)w;
	}
	if (d)
		closedir(d);
	return uncore;
}

int stat_host_no_uncore(char *buf, size_t len)
{
	struct uncore_component *c = NULL;
	char who[300], pmus[512];

	uncore_error_clear();
	if (uncore_component_probe(NULL, NULL, &c) < 0) {
		/* Disabled: its reason names the processor (bind/backend_choice.c). */
		snprintf(buf, len, "%s", uncore_error_detail());
		uncore_error_clear();
		return -1;
	}
	uncore_cpu_describe(&c->cpu, who, sizeof(who));
	if (c->choice.platform) { /* a generation we have tables for: say which */
		size_t w = strlen(who);
		snprintf(who + w, sizeof(who) - w, " [%s]", c->choice.platform->title);
	}
	int intel = strcmp(c->cpu.vendor, "GenuineIntel") == 0;
	int uncore = pmu_list(c, pmus, sizeof(pmus));
	int none = c->choice.kernel_only && (!intel || !uncore);
	if (!none)
		snprintf(buf, len, "%s", who);
	else if (!intel)
		snprintf(buf, len,
			 "%s: not an Intel processor; intel_uncore has no uncore tables, metric "
			 "groups or presets for it. Available here: the kernel's PMUs %s (their "
			 "events: papi_native_avail; count them with -e PMU::EVENT)",
			 who, pmus[0] ? pmus : "(none)");
	else if (c->cpu.hypervisor)
		snprintf(buf, len,
			 "%s: the hypervisor exposes no uncore PMU to this virtual machine (no "
			 "uncore_* in /sys/bus/event_source/devices), so no uncore event, metric "
			 "group or preset can count here, whatever driver is loaded: count on the "
			 "host. Available here: the kernel's PMUs %s (-e PMU::EVENT)",
			 who, pmus[0] ? pmus : "(none)");
	else
		snprintf(buf, len,
			 "%s: the kernel publishes no uncore PMU (no uncore_* in "
			 "/sys/bus/event_source/devices): load its uncore driver (as root: modprobe "
			 "intel_uncore). Available here: the kernel's PMUs %s (-e PMU::EVENT)",
			 who, pmus[0] ? pmus : "(none)");
	uncore_component_close(c);
	return none;
}
