/* The simulated kernel's sysfs tree: what the Linux uncore driver for
 * Haswell-EP publishes for each box (PMU names uncore_<box>[_<n>], cpumask
 * one CPU per socket, format fields, event aliases) and where its
 * programming puts each field.  Facts from arch/x86/events/intel/
 * uncore_snbep.c and uncore.c (read, not copied): the CBo has no inv
 * field; the PCU's occ_edge field is declared config:14-51; QPI's event
 * field is config:0-7,21; a box with a fixed counter selects it with
 * event 0xff. */
#include "simkernel/sim_perf_internal.h"

#include "common/uncore_error.h"
#include "events/registry.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Tables laid out as the driver's field lists: */
/* clang-format off */
#define F(n, f, r, m) {.name = (n), .format = (f), .reg = (r), .hwmask = (m)}
#define N(a)          (sizeof(a) / sizeof((a)[0]))

/* HSX PMON control register fields (tables 2-7, 2-16, 2-158, 2-170). */
#define CTL_EV_SEL     0x000000ffULL
#define CTL_UMASK      0x0000ff00ULL
#define CTL_EDGE       (1ULL << 18)
#define CTL_TID_EN     (1ULL << 19)
#define CTL_EV_SEL_EXT (1ULL << 21)
#define CTL_INV        (1ULL << 23)
#define CTL_THRESH8    0xff000000ULL
#define CTL_THRESH5    0x1f000000ULL

#define COMMON_FIELDS                                                                              \
	F("event", "config:0-7", SK_CTL, CTL_EV_SEL), F("umask", "config:8-15", SK_CTL, CTL_UMASK), \
	    F("edge", "config:18", SK_CTL, CTL_EDGE), F("inv", "config:23", SK_CTL, CTL_INV),       \
	    F("thresh", "config:24-31", SK_CTL, CTL_THRESH8)

static const struct sk_field common_fields[] = {COMMON_FIELDS};

static const struct sk_field sbox_fields[] = {
	COMMON_FIELDS,
	F("tid_en", "config:19", SK_CTL, CTL_TID_EN),
};

/* The UBox filter (tid, cid) is not modelled by our tables; the fields are
 * published as the driver does and refused when set. */
static const struct sk_field ubox_fields[] = {
	F("event", "config:0-7", SK_CTL, CTL_EV_SEL),
	F("umask", "config:8-15", SK_CTL, CTL_UMASK),
	F("edge", "config:18", SK_CTL, CTL_EDGE),
	F("inv", "config:23", SK_CTL, CTL_INV),
	F("thresh", "config:24-28", SK_CTL, CTL_THRESH5),
	F("filter_tid", "config1:0", SK_F0, 0),
	F("filter_cid", "config1:5", SK_F0, 0),
};

/* CBo: FILTER0 (table 2-18) is config1 31:0, FILTER1 (2-19) config1 63:32. */
static const struct sk_field cbox_fields[] = {
	F("event", "config:0-7", SK_CTL, CTL_EV_SEL),
	F("umask", "config:8-15", SK_CTL, CTL_UMASK),
	F("edge", "config:18", SK_CTL, CTL_EDGE),
	F("tid_en", "config:19", SK_CTL, CTL_TID_EN),
	F("thresh", "config:24-31", SK_CTL, CTL_THRESH8),
	F("filter_tid", "config1:0-5", SK_F0, 0x3fULL),
	F("filter_link", "config1:6-8", SK_F0, 0),
	F("filter_state", "config1:17-23", SK_F0, 0x7fULL << 17),
	F("filter_nid", "config1:32-47", SK_F1, 0xffffULL),
	F("filter_opc", "config1:52-60", SK_F1, 0x1ffULL << 20),
	F("filter_c6", "config1:61", SK_F1, 0),
	F("filter_nc", "config1:62", SK_F1, 1ULL << 30),
	F("filter_isoc", "config1:63", SK_F1, 1ULL << 31),
};

static const struct sk_field pcu_fields[] = {
	F("event", "config:0-7", SK_CTL, CTL_EV_SEL | CTL_EV_SEL_EXT),
	F("occ_sel", "config:14-15", SK_CTL, 0xc000ULL),
	F("edge", "config:18", SK_CTL, CTL_EDGE),
	F("inv", "config:23", SK_CTL, CTL_INV),
	F("thresh", "config:24-28", SK_CTL, CTL_THRESH5),
	F("occ_invert", "config:30", SK_CTL, 1ULL << 30),
	F("occ_edge", "config:14-51", SK_DOC, 0),
	F("filter_band0", "config1:0-7", SK_F0, 0xffULL),
	F("filter_band1", "config1:8-15", SK_F0, 0xffULL << 8),
	F("filter_band2", "config1:16-23", SK_F0, 0xffULL << 16),
	F("filter_band3", "config1:24-31", SK_F0, 0xffULL << 24),
};

/* QPI: the packet match pair is config1, the mask pair config2 (tables
 * 2-172..2-175); the sub-fields name parts of the same bits. */
static const struct sk_field qpi_fields[] = {
	F("event", "config:0-7,21", SK_CTL, CTL_EV_SEL | CTL_EV_SEL_EXT),
	F("umask", "config:8-15", SK_CTL, CTL_UMASK),
	F("edge", "config:18", SK_CTL, CTL_EDGE),
	F("inv", "config:23", SK_CTL, CTL_INV),
	F("thresh", "config:24-31", SK_CTL, CTL_THRESH8),
	F("match_rds", "config1:48-51", SK_F0, 0xfULL << 48),
	F("match_rnid30", "config1:32-35", SK_F0, 0xfULL << 32),
	F("match_rnid4", "config1:31", SK_F0, 1ULL << 31),
	F("match_dnid", "config1:13-17", SK_F0, 0x1fULL << 13),
	F("match_mc", "config1:9-12", SK_F0, 0xfULL << 9),
	F("match_opc", "config1:5-8", SK_F0, 0xfULL << 5),
	F("match_vnw", "config1:3-4", SK_F0, 0x3ULL << 3),
	F("match0", "config1:0-31", SK_F0, 0xffffffffULL),
	F("match1", "config1:32-63", SK_F0, 0xffffffffULL << 32),
	F("mask_rds", "config2:48-51", SK_F1, 0xfULL << 48),
	F("mask_rnid30", "config2:32-35", SK_F1, 0xfULL << 32),
	F("mask_rnid4", "config2:31", SK_F1, 1ULL << 31),
	F("mask_dnid", "config2:13-17", SK_F1, 0x1fULL << 13),
	F("mask_mc", "config2:9-12", SK_F1, 0xfULL << 9),
	F("mask_opc", "config2:5-8", SK_F1, 0xfULL << 5),
	F("mask_vnw", "config2:3-4", SK_F1, 0x3ULL << 3),
	F("mask0", "config2:0-31", SK_F1, 0xffffffffULL),
	F("mask1", "config2:32-63", SK_F1, 0xffffffffULL << 32),
};

static const struct sk_alias imc_aliases[] = {
	{"clockticks", "event=0x00,umask=0x00", NULL, NULL},
	{"cas_count_read", "event=0x04,umask=0x03", "6.103515625e-5", "MiB"},
	{"cas_count_write", "event=0x04,umask=0x0c", "6.103515625e-5", "MiB"},
};

static const struct sk_kind kinds[] = {
	{.kind = "ubo", .fields = ubox_fields, .nfields = N(ubox_fields), .has_fixed = 1},
	{.kind = "cbo", .fields = cbox_fields, .nfields = N(cbox_fields)},
	{.kind = "sbo", .fields = sbox_fields, .nfields = N(sbox_fields)},
	{.kind = "ha", .fields = common_fields, .nfields = N(common_fields)},
	{.kind = "imc",
	 .fields = common_fields,
	 .nfields = N(common_fields),
	 .aliases = imc_aliases,
	 .naliases = N(imc_aliases),
	 .has_fixed = 1},
	{.kind = "irp", .fields = common_fields, .nfields = N(common_fields)},
	{.kind = "pcu", .fields = pcu_fields, .nfields = N(pcu_fields)},
	{.kind = "qpi", .fields = qpi_fields, .nfields = N(qpi_fields)},
	{.kind = "r2pcie", .fields = common_fields, .nfields = N(common_fields)},
	{.kind = "r3qpi", .fields = common_fields, .nfields = N(common_fields)},
};

/* clang-format on */

const struct sk_kind *sim_perf_kind(const char *kind)
{
	for (size_t i = 0; i < N(kinds); i++)
		if (strcmp(kinds[i].kind, kind) == 0)
			return &kinds[i];
	return NULL;
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0755);
		*p = '/';
		if (rc < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

static int put(const char *root, const char *rel, const char *text)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (mkdirs(path) < 0)
		return uncore_fail(UNCORE_EIO, "cannot create the directories of %s: %s", path,
				   strerror(errno));
	FILE *f = fopen(path, "w");
	if (!f)
		return uncore_fail(UNCORE_EIO, "cannot create %s: %s", path, strerror(errno));
	fprintf(f, "%s\n", text);
	return fclose(f) == 0 ? 0 : uncore_fail(UNCORE_EIO, "cannot write %s", path);
}

static int put_pmu(const char *root, const char *name, unsigned type, const char *cpumask)
{
	char rel[256], text[32];
	snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/type", name);
	snprintf(text, sizeof(text), "%u", type);
	int rc = put(root, rel, text);
	if (rc == 0 && cpumask) {
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/cpumask", name);
		rc = put(root, rel, cpumask);
	}
	return rc;
}

static int put_sub(const char *root, const char *pmu, const char *dir, const char *file,
		   const char *suffix, const char *text)
{
	char rel[320];
	snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/%s/%s%s", pmu, dir, file, suffix);
	return put(root, rel, text);
}

static int write_cpus(const char *root, const struct uncore_machine *m)
{
	char rel[128], text[32];
	snprintf(text, sizeof(text), "0-%u", m->ncpus - 1);
	int rc = put(root, "devices/system/cpu/online", text);
	for (unsigned c = 0; rc == 0 && c < m->ncpus; c++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%u/topology/physical_package_id",
			 c);
		snprintf(text, sizeof(text), "%d", m->cpu_socket[c]);
		rc = put(root, rel, text);
	}
	return rc;
}

int sim_perf_write_tree(const char *root, const struct uncore_machine *m)
{
	unsigned type = SK_TYPE_FIRST_BOX;
	int rc = write_cpus(root, m);

	for (unsigned b = 0; rc == 0 && b < m->plat->nboxes; b++) {
		const struct uncore_box_type *bt = m->plat->boxes[b];
		const struct sk_kind *k = sim_perf_kind(bt->kind);
		if (!k || !bt->perf_pmu)
			continue;
		for (unsigned i = 0; rc == 0 && i < bt->ninstances && i < UNCORE_MAX_INSTANCES; i++) {
			char name[64], mask[128] = "";
			size_t used = 0;
			for (unsigned s = 0; s < m->nsockets; s++)
				if (uncore_inst_has(&m->present[b][s], i))
					used += (size_t)snprintf(mask + used, sizeof(mask) - used,
								 "%s%d", used ? "," : "",
								 m->socket_cpu[s]);
			if (!used)
				continue; /* the driver registers present boxes only */
			rc = uncore_box_perf_name(bt, (int)i, name, sizeof(name));
			if (rc == 0)
				rc = put_pmu(root, name, type++, mask);
			for (unsigned f = 0; rc == 0 && f < k->nfields; f++)
				rc = put_sub(root, name, "format", k->fields[f].name, "",
					     k->fields[f].format);
			for (unsigned a = 0; rc == 0 && a < k->naliases; a++) {
				const struct sk_alias *al = &k->aliases[a];
				rc = put_sub(root, name, "events", al->name, "", al->terms);
				if (rc == 0 && al->scale)
					rc = put_sub(root, name, "events", al->name, ".scale",
						     al->scale);
				if (rc == 0 && al->unit)
					rc = put_sub(root, name, "events", al->name, ".unit",
						     al->unit);
			}
		}
	}
	/* arch/x86/events/msr.c: a per-CPU PMU, no cpumask; tsc is event 0. */
	if (rc == 0)
		rc = put_pmu(root, "msr", SK_TYPE_MSR, NULL);
	if (rc == 0)
		rc = put_sub(root, "msr", "format", "event", "", "config:0-63");
	if (rc == 0)
		rc = put_sub(root, "msr", "events", "tsc", "", "event=0x00");
	if (rc == 0)
		rc = put_pmu(root, "software", SK_TYPE_SOFTWARE, NULL);
	if (rc == 0)
		rc = put_pmu(root, "tracepoint", SK_TYPE_TRACEPOINT, NULL);
	return rc;
}
