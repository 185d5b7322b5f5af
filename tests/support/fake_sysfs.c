/* Fake sysfs trees for the perf backend's tests (see fake_sysfs.h). */
#include "fake_sysfs.h"

#include "tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fake_sysfs_mkdtemp(const char *tag)
{
	static char dirs[8][256];
	static unsigned next;
	char *dir = dirs[next++ % 8];
	snprintf(dir, sizeof(dirs[0]), "/dev/shm/uncore-%s-XXXXXX", tag);
	if (mkdtemp(dir))
		return dir;
	return test_mkdtemp(tag);
}

const char *fake_sysfs_pmu_root(const char *root)
{
	static char buf[512];
	snprintf(buf, sizeof(buf), "%s/bus/event_source/devices", root);
	return buf;
}

const char *fake_sysfs_cpu_root(const char *root)
{
	static char buf[512];
	snprintf(buf, sizeof(buf), "%s/devices/system/cpu", root);
	return buf;
}

struct fmt {
	const char *name, *text;
};

struct alias {
	const char *name, *terms, *scale, *unit;
};

static int pmu(const char *root, const char *name, unsigned type, const char *cpumask,
	       const struct fmt *f, const struct alias *a)
{
	char rel[300], text[32];
	int rc = 0;
	snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/type", name);
	snprintf(text, sizeof(text), "%u\n", type);
	rc |= test_put(root, rel, text);
	if (cpumask) {
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/cpumask", name);
		snprintf(text, sizeof(text), "%s\n", cpumask);
		rc |= test_put(root, rel, text);
	}
	for (; f && f->name; f++) {
		char t[80];
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/format/%s", name, f->name);
		snprintf(t, sizeof(t), "%s\n", f->text);
		rc |= test_put(root, rel, t);
	}
	for (; a && a->name; a++) {
		char t[200];
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/events/%s", name, a->name);
		snprintf(t, sizeof(t), "%s\n", a->terms);
		rc |= test_put(root, rel, t);
		if (a->scale) {
			snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/events/%s.scale",
				 name, a->name);
			rc |= test_put(root, rel, a->scale);
		}
		if (a->unit) {
			snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/events/%s.unit",
				 name, a->name);
			rc |= test_put(root, rel, a->unit);
		}
	}
	return rc ? -1 : 0;
}

static int cpus(const char *root, unsigned ncpus, unsigned per_socket)
{
	char rel[200], text[32];
	int rc = 0;
	snprintf(text, sizeof(text), "0-%u\n", ncpus - 1);
	rc |= test_put(root, "devices/system/cpu/online", text);
	for (unsigned c = 0; c < ncpus; c++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%u/topology/physical_package_id",
			 c);
		snprintf(text, sizeof(text), "%u\n", c / per_socket);
		rc |= test_put(root, rel, text);
	}
	return rc ? -1 : 0;
}

/* uncore_snb.c: snb_uncore_formats_attr (SKL cbox and arb: cmask5),
 * snb_uncore_imc_formats_attr; arch/x86/events/msr.c. */
static const struct fmt skl_fmt[] = {
    {"event", "config:0-7"}, {"umask", "config:8-15"},  {"edge", "config:18"},
    {"inv", "config:23"},    {"cmask", "config:24-28"}, {NULL, NULL},
};
static const struct fmt event_only[] = {{"event", "config:0-7"}, {NULL, NULL}};
static const struct fmt msr_fmt[] = {{"event", "config:0-63"}, {NULL, NULL}};
static const struct alias skl_cbox_events[] = {{"clockticks", "event=0xff,umask=0x00", NULL, NULL},
					       {NULL, NULL, NULL, NULL}};
static const struct alias skl_imc_events[] = {
    {"data_reads", "event=0x01", "6.103515625e-5", "MiB"},
    {"data_writes", "event=0x02", "6.103515625e-5", "MiB"},
    {"gt_requests", "event=0x03", "6.103515625e-5", "MiB"},
    {"ia_requests", "event=0x04", "6.103515625e-5", "MiB"},
    {"io_requests", "event=0x05", "6.103515625e-5", "MiB"},
    {NULL, NULL, NULL, NULL},
};
static const struct alias msr_events[] = {{"tsc", "event=0x00", NULL, NULL},
					  {"aperf", "event=0x01", NULL, NULL},
					  {"mperf", "event=0x02", NULL, NULL},
					  {NULL, NULL, NULL, NULL}};
static const struct alias power_events[] = {
    {"energy-pkg", "event=0x02", "2.3283064365386962890625e-10", "Joules"},
    {NULL, NULL, NULL, NULL}};
static const struct alias cstate_core_events[] = {{"c3-residency", "event=0x01", NULL, NULL},
						  {"c6-residency", "event=0x02", NULL, NULL},
						  {NULL, NULL, NULL, NULL}};

int fake_sysfs_skl(const char *root)
{
	int rc = cpus(root, 8, 8);
	for (unsigned i = 0; i < 4; i++) {
		char name[32];
		snprintf(name, sizeof(name), "uncore_cbox_%u", i);
		rc |= pmu(root, name, 12 + i, "0", skl_fmt, skl_cbox_events);
	}
	rc |= pmu(root, "uncore_arb", 16, "0", skl_fmt, NULL);
	rc |= pmu(root, "uncore_imc", 17, "0", event_only, skl_imc_events);
	rc |= pmu(root, "msr", 9, NULL, msr_fmt, msr_events);
	rc |= pmu(root, "power", 10, "0", event_only, power_events);
	rc |= pmu(root, "cstate_core", 11, "0-7", event_only, cstate_core_events);
	rc |= pmu(root, "software", 1, NULL, NULL, NULL);
	rc |= pmu(root, "tracepoint", 2, NULL, NULL, NULL);
	rc |= pmu(root, "breakpoint", 5, NULL, NULL, NULL);
	return rc ? -1 : 0;
}

/* uncore_snb.c: nhm_uncore_formats_attr (cmask8) and nhm_uncore_events. */
static const struct fmt nhm_fmt[] = {
    {"event", "config:0-7"}, {"umask", "config:8-15"},  {"edge", "config:18"},
    {"inv", "config:23"},    {"cmask", "config:24-31"}, {NULL, NULL},
};
static const struct alias nhm_events[] = {
    {"clockticks", "event=0xff,umask=0x00", NULL, NULL},
    {"qmc_normal_reads_any", "event=0x2c,umask=0x0f", NULL, NULL},
    {"qhl_request_remote_reads", "event=0x20,umask=0x04", NULL, NULL},
    {NULL, NULL, NULL, NULL},
};

int fake_sysfs_nhm(const char *root)
{
	int rc = cpus(root, 8, 4);
	rc |= pmu(root, "uncore", 6, "0,4", nhm_fmt, nhm_events);
	rc |= pmu(root, "msr", 9, NULL, msr_fmt, msr_events);
	rc |= pmu(root, "software", 1, NULL, NULL, NULL);
	return rc ? -1 : 0;
}
