/* Which backend the component uses: the PAPI_INTEL_UNCORE_BACKEND override
 * (auto|perf|direct|sim|service) and the platform found by CPUID, turned into either
 * a usable choice or a disabled reason that tells the user what to do. */
#ifndef UNCORE_BIND_BACKEND_CHOICE_H
#define UNCORE_BIND_BACKEND_CHOICE_H

#include <stddef.h>

#include "platform/cpu.h"

enum uncore_backend_kind {
	UNCORE_BACKEND_AUTO = 0,
	UNCORE_BACKEND_PERF,
	UNCORE_BACKEND_DIRECT,
	UNCORE_BACKEND_SIM,
	UNCORE_BACKEND_SERVICE, /* uncored, the node service (backend/service/service.h) */
};

/* Parse the override ("auto", "perf", "direct", "sim", "service"; NULL or
 * "" = auto). */
int uncore_backend_parse(const char *text, enum uncore_backend_kind *out);

const char *uncore_backend_name(enum uncore_backend_kind kind);

/* What the probe found out about the machine; filled by the caller (the
 * component from the real system, tests from a table). */
struct uncore_probe_input {
	const char *backend_env;    /* value of PAPI_INTEL_UNCORE_BACKEND, or NULL */
	struct uncore_cpu_id cpu;   /* CPUID of this machine */
	int have_perf_uncore;       /* kernel exposes an uncore PMU of this platform */
	int have_kernel_pmus;       /* kernel exposes PMUs countable by their sysfs aliases (msr...) */
	int have_direct_access;     /* the register devices of this platform open */
	int have_simulator;         /* this build contains the simulator */
	int have_service;           /* uncored's socket exists (auto prefers it) */
	const char *service_path;   /* where it was looked for, for messages */
	const char *direct_missing; /* what direct access lacks, e.g. "/dev/cpu/0/msr" */
};

struct uncore_probe_result {
	enum uncore_backend_kind backend;           /* meaningful when usable */
	const struct uncore_platform *platform; /* NULL for the simulator's default */
	int usable;
	/* perf backend with the kernel's sysfs-described PMUs only: the CPU
	 * has no tables (unsupported processor), or perf was asked for and no
	 * uncore PMU of the platform exists. */
	int kernel_only;
	char reason[512]; /* why not usable, and how to fix it */
};

/* Decide.  Always returns 0 and fills `out`; `out->usable` says the verdict. */
int uncore_probe_decide(const struct uncore_probe_input *in, struct uncore_probe_result *out);

#endif
