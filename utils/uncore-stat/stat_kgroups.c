/* Metric groups over the kernel's aliases (see stat_kgroups.h). */
#include "stat_kgroups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend/perf/perf.h"
#include "bind/component.h"
#include "common/uncore_error.h"
#include "metrics/metrics.h"
#include "platform/cpu.h"
#include "stat_host.h"

/* Sapphire Rapids back to Skylake-SP (and Haswell-EP's own driver): one
 * CAS counter per channel, cas_count_read/write.  Granite Rapids and Sierra
 * Forest: two command schedulers per channel, cas_count_{read,write}_sch0
 * and _sch1 (Linux commit "perf/x86/intel/uncore: Add per-scheduler IMC
 * CAS count events", lore 20260210005225.20311-1-zide.chen@intel.com: the
 * older kernels' cas_count_read there counts scheduler 0 only). */
/* clang-format off */
#define RD0 {"uncore_imc", "cas_count_read_sch0"}
#define RD1 {"uncore_imc", "cas_count_read_sch1"}
#define WR0 {"uncore_imc", "cas_count_write_sch0"}
#define WR1 {"uncore_imc", "cas_count_write_sch1"}
#define RD  {"uncore_imc", "cas_count_read"}
#define WR  {"uncore_imc", "cas_count_write"}
static const struct stat_kmetric kmetrics[] = {
	{"kernel_metric::DRAM_READ_BW", "DRAM read bandwidth (the kernel's cas_count_read)",
	 2, {{2, {RD0, RD1}}, {1, {RD}}}},
	{"kernel_metric::DRAM_WRITE_BW", "DRAM write bandwidth (the kernel's cas_count_write)",
	 2, {{2, {WR0, WR1}}, {1, {WR}}}},
	{"kernel_metric::DRAM_BW", "DRAM bandwidth, reads and writes",
	 2, {{4, {RD0, RD1, WR0, WR1}}, {2, {RD, WR}}}},
};

static const char *mem_members[] = {
	"kernel_metric::DRAM_READ_BW",
	"kernel_metric::DRAM_WRITE_BW",
	"kernel_metric::DRAM_BW",
};

static struct uncore_metric_group kgroups[] = {
	{"MEM", "DRAM bandwidth from the kernel's IMC aliases (GB = 10^9 bytes)", 3, mem_members},
};

static struct uncore_metric_catalog kcatalog = {
	.platform = "this processor (no tables here: the kernel's aliases)",
	.file = "utils/uncore-stat/stat_kgroups.c",
	.manual = "Linux uncore driver",
	.summary_pmu = "kernel_metric",
	.ngroups = sizeof(kgroups) / sizeof(kgroups[0]),
	.groups = kgroups,
};

/* Units the kernel gives .unit files of byte counts. */
static const struct {
	const char *unit;
	double bytes;
} byte_units[] = {
	{"B", 1.0}, {"Bytes", 1.0}, {"bytes", 1.0},
	{"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
};
/* clang-format on */

const struct uncore_metric_catalog *stat_kgroups_catalog(int simulated)
{
	/* On the host: named after the processor seen (stat_host.h). */
	static char platform[256];
	if (simulated)
		kcatalog.platform = "the simulated kernel (no uncore tables: the kernel's aliases)";
	else {
		char who[200];
		stat_host_processor(who, sizeof(who));
		snprintf(platform, sizeof(platform), "%s (no uncore tables: the kernel's aliases)",
			 who);
		kcatalog.platform = platform;
	}
	return &kcatalog;
}

const struct stat_kmetric *stat_kmetric_find(const char *name)
{
	for (size_t i = 0; i < sizeof(kmetrics) / sizeof(kmetrics[0]); i++)
		if (strcasecmp(kmetrics[i].name, name) == 0)
			return &kmetrics[i];
	return NULL;
}

static struct uncore_component *comp;

/* Processors of the kernel's gnr_uncores (two schedulers per channel):
 * Granite Rapids X/D, Sierra Forest, Grand Ridge. */
static int two_schedulers(void)
{
	static const unsigned models[] = {0xad, 0xae, 0xaf, 0xb6};
	struct uncore_cpu_id cpu;
	if (uncore_cpu_identify(&cpu) < 0 || cpu.family != 6) {
		uncore_error_clear();
		return 0;
	}
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (cpu.model == models[i])
			return 1;
	return 0;
}

/* The bytes of one count of alias `a` (event name `ev`), from its .scale
 * and .unit. */
static int alias_bytes(const struct stat_kmetric *m, const char *ev,
		       const struct uncore_perf_alias *a, double *bytes, char *err, size_t len)
{
	double scale = 1.0;
	if (a->scale[0]) {
		char *end;
		scale = strtod(a->scale, &end);
		if (end == a->scale || *end || !(scale > 0) || !isfinite(scale)) {
			snprintf(err, len, "%s: the kernel's %s.scale is '%s', not a number",
				 m->name, ev, a->scale);
			return -1;
		}
	}
	for (size_t i = 0; i < sizeof(byte_units) / sizeof(byte_units[0]); i++)
		if (strcmp(a->unit, byte_units[i].unit) == 0) {
			*bytes = scale * byte_units[i].bytes;
			return 0;
		}
	snprintf(err, len,
		 "%s: the kernel's %s.unit is '%s', not a byte unit (B, KiB, MiB, GiB, KB, MB, "
		 "GB): its counts cannot be made a bandwidth",
		 m->name, ev, a->unit);
	return -1;
}

int stat_kmetric_resolve(const struct stat_kmetric *m, struct stat_kresolved *out, char *err,
			 size_t len)
{
	char missing[160] = "";
	int rc = 0;

	uncore_error_clear();
	if (!comp)
		rc = uncore_component_open(NULL, &comp);
	if (rc < 0) {
		snprintf(err, len, "%s: %s", m->name,
			 uncore_error_detail()[0] ? uncore_error_detail() : uncore_strerror(rc));
		uncore_error_clear();
		return -1;
	}
	for (unsigned v = 0; v < m->nvariants; v++) {
		const struct stat_kvariant *var = &m->v[v];
		struct uncore_perf_alias a[STAT_KMAX_TERMS];
		unsigned t;
		for (t = 0; t < var->nterms; t++) {
			snprintf(out->event[t], sizeof(out->event[t]), "%s::%s",
				 var->terms[t].family, var->terms[t].alias);
			if (uncore_perf_kernel_alias(comp->be, var->terms[t].family,
						     var->terms[t].alias, &a[t]) < 0)
				break;
		}
		if (t < var->nterms) {
			/* Named after the last variant: the one most kernels have. */
			snprintf(missing, sizeof(missing), "%s", out->event[t]);
			uncore_error_clear();
			continue;
		}
		if (strcmp(var->terms[0].alias, "cas_count_read") == 0 ||
		    strcmp(var->terms[0].alias, "cas_count_write") == 0) {
			if (!strstr(comp->origin, "SIMULATED") && two_schedulers()) {
				snprintf(
				    err, len,
				    "%s: this processor has two command schedulers per memory "
				    "channel and this kernel's %s counts the first one only; a "
				    "kernel with the commit \"perf/x86/intel/uncore: Add "
				    "per-scheduler IMC CAS count events\" (cas_count_read_sch0 "
				    "and _sch1) gives the whole traffic",
				    m->name, out->event[0]);
				return -1;
			}
		}
		out->nterms = var->nterms;
		for (t = 0; t < var->nterms; t++)
			if (alias_bytes(m, out->event[t], &a[t], &out->bytes[t], err, len) < 0)
				return -1;
		return 0;
	}
	/* Why it is missing, for this processor (stat_host.h): never a driver
	 * to load on another vendor's processor or in a virtual machine. */
	char host[1024];
	if (stat_host_no_uncore(host, sizeof(host)) == 1)
		snprintf(err, len, "%s needs the kernel event %s: %s", m->name, missing, host);
	else {
		stat_host_processor(host, sizeof(host));
		snprintf(err, len,
			 "%s needs the kernel event %s: this kernel publishes no such PMU or "
			 "alias on %s",
			 m->name, missing, host);
	}
	return -1;
}

void stat_kgroups_close(void)
{
	if (comp)
		uncore_component_close(comp);
	comp = NULL;
}
