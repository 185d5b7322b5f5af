/* Backend selection and the component's disabled reason.  Kept apart from
 * the PAPI front-end so that every branch is unit-tested. */
#include "bind/backend_choice.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const backend_names[] = {
	[UNCORE_BACKEND_AUTO] = "auto",
	[UNCORE_BACKEND_PERF] = "perf",
	[UNCORE_BACKEND_DIRECT] = "direct",
	[UNCORE_BACKEND_SIM] = "sim",
	[UNCORE_BACKEND_SERVICE] = "service",
};

int uncore_backend_parse(const char *text, enum uncore_backend_kind *out)
{
	if (!text || !*text) {
		*out = UNCORE_BACKEND_AUTO;
		return 0;
	}
	for (size_t i = 0; i < sizeof(backend_names) / sizeof(backend_names[0]); i++) {
		if (strcasecmp(text, backend_names[i]) == 0) {
			*out = (enum uncore_backend_kind)i;
			return 0;
		}
	}
	return uncore_fail(UNCORE_EINVAL,
			   "PAPI_INTEL_UNCORE_BACKEND=%s is not one of auto, perf, direct, sim, service",
			   text);
}

const char *uncore_backend_name(enum uncore_backend_kind kind)
{
	if ((size_t)kind < sizeof(backend_names) / sizeof(backend_names[0]))
		return backend_names[kind];
	return "?";
}

#define REASON(...) snprintf(out->reason, sizeof(out->reason), __VA_ARGS__)

int uncore_probe_decide(const struct uncore_probe_input *in, struct uncore_probe_result *out)
{
	enum uncore_backend_kind want;

	memset(out, 0, sizeof(*out));
	if (uncore_backend_parse(in->backend_env, &want) < 0) {
		REASON("PAPI_INTEL_UNCORE_BACKEND=%.40s is invalid: use auto, perf, direct, sim or "
		       "service",
		       in->backend_env);
		return 0;
	}
	if (want == UNCORE_BACKEND_SIM) {
		if (!in->have_simulator) {
			REASON("PAPI_INTEL_UNCORE_BACKEND=sim, but this build has no simulator");
			return 0;
		}
		out->backend = UNCORE_BACKEND_SIM;
		out->usable = 1;
		return 0;
	}

	/* The node service: asked for, or under auto whenever it runs (it
	 * owns the uncore for every user; a process's own backend would
	 * compete with it). */
	if (want == UNCORE_BACKEND_SERVICE || (want == UNCORE_BACKEND_AUTO && in->have_service)) {
		if (!in->have_service) {
			REASON("PAPI_INTEL_UNCORE_BACKEND=service, but no uncored listens at %.120s: "
			       "start it, or set PAPI_INTEL_UNCORE_SERVICE to its socket",
			       in->service_path ? in->service_path : "its socket");
			return 0;
		}
		out->backend = UNCORE_BACKEND_SERVICE;
		out->usable = 1;
		return 0;
	}
	out->platform = uncore_platform_for_cpu(&in->cpu);
	/* A processor without tables still has the kernel's own PMUs (msr,
	 * power, cstate...), named by their sysfs aliases. */
	if (!out->platform && (want == UNCORE_BACKEND_AUTO || want == UNCORE_BACKEND_PERF) &&
	    in->have_kernel_pmus) {
		out->backend = UNCORE_BACKEND_PERF;
		out->kernel_only = 1;
		out->usable = 1;
		return 0;
	}
	if (!out->platform) {
		char why[200];
		uncore_cpu_no_tables(&in->cpu, why, sizeof(why));
		REASON("No supported uncore: %s%.200s%s", why, uncore_platform_near_miss(&in->cpu),
		       in->have_simulator ? "; set PAPI_INTEL_UNCORE_BACKEND=sim for the simulator"
					  : "");
		return 0;
	}
	if ((want == UNCORE_BACKEND_AUTO || want == UNCORE_BACKEND_PERF) && in->have_perf_uncore) {
		out->backend = UNCORE_BACKEND_PERF;
		out->usable = 1;
		return 0;
	}
	/* A generation the direct backend does not program (counted through
	 * the kernel only) never gets it. */
	if ((want == UNCORE_BACKEND_AUTO || want == UNCORE_BACKEND_DIRECT) && in->have_direct_access &&
	    out->platform->direct_open) {
		out->backend = UNCORE_BACKEND_DIRECT;
		out->usable = 1;
		return 0;
	}
	/* A generation counted through the kernel only, whose kernel publishes
	 * no uncore PMU (a virtual machine: hypervisors do not pass the host's
	 * uncore through): the kernel's other PMUs, and the origin says what
	 * is missing (bind/component.c).  Never the direct backend's advice. */
	if (!out->platform->direct_open && want != UNCORE_BACKEND_DIRECT && in->have_kernel_pmus) {
		out->backend = UNCORE_BACKEND_PERF;
		out->kernel_only = 1;
		out->usable = 1;
		return 0;
	}
	if (!out->platform->direct_open) {
		if (want == UNCORE_BACKEND_DIRECT)
			REASON("%s: the direct backend does not program this generation (it is "
			       "counted through the kernel's uncore PMUs): use "
			       "PAPI_INTEL_UNCORE_BACKEND=perf",
			       out->platform->title);
		else if (in->cpu.hypervisor)
			REASON("%s in a virtual machine: the hypervisor exposes no uncore PMU to "
			       "it; count on the host",
			       out->platform->title);
		else
			REASON("%s: the kernel exposes no uncore PMU (no "
			       "/sys/bus/event_source/devices/uncore_*): load the intel_uncore driver",
			       out->platform->title);
		return 0;
	}
	/* Asked for perf explicitly: the kernel's PMUs even without an
	 * uncore driver.  Under auto the disabled reason (how to get the
	 * uncore counters) is worth more than a component whose uncore
	 * events all fail. */
	if (want == UNCORE_BACKEND_PERF && in->have_kernel_pmus) {
		out->backend = UNCORE_BACKEND_PERF;
		out->kernel_only = 1;
		out->usable = 1;
		return 0;
	}
	if (want == UNCORE_BACKEND_PERF)
		REASON("%s: the kernel exposes no uncore PMU (no /sys/bus/event_source/devices/uncore_*);"
		       " load the uncore driver or use PAPI_INTEL_UNCORE_BACKEND=direct",
		       out->platform->name);
	else if (want == UNCORE_BACKEND_DIRECT)
		REASON("%s: cannot open %s: run 'modprobe msr' and give this user read/write access"
		       " (root, or msr-safe with an allowlist from utils)",
		       out->platform->name, in->direct_missing ? in->direct_missing : "the MSR device");
	else
		REASON("%s: no kernel uncore PMU and no access to %s: load the uncore perf driver,"
		       " or 'modprobe msr' and run as root",
		       out->platform->name, in->direct_missing ? in->direct_missing : "/dev/cpu/*/msr");
	return 0;
}
