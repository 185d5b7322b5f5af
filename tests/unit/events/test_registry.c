/* The box-type registry: every built-in table passes the structural
 * validator (validate.h), the validator itself catches broken tables, and
 * naming and enumeration behave as documented. */
#include "../../harness.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "events/registry.h"

#include "fixture_platform.h"
#include "validate.h"

/* Deliberately broken rows: each one has one problem the validator must see. */
static const intel_x86_umask_t broken_um[] = {
    {.uname = "A", .udesc = "ok", .ucode = 0x100, .uflags = INTEL_X86_NCOMBO | INTEL_X86_DFL},
    {.uname = "a", .udesc = "duplicate name (case-insensitive)", .ucode = 0x200},
    {.uname = "WIDE", .udesc = "ucode outside umask", .ucode = 0x10000},
    {.uname = "LOWCODE", .udesc = "code bits without CODE_OVERRIDE", .ucode = 0x0104},
    {.uname = "B",
     .udesc = "second NCOMBO default",
     .ucode = 0x400,
     .uflags = INTEL_X86_NCOMBO | INTEL_X86_DFL},
    {.uname = "FILT", .udesc = "filter bits outside fields", .ufilters[0] = 1ULL << 10},
    {.uname = "GRP", .udesc = "group beyond ngrp", .ucode = 0x800, .grpid = 3},
};
static const intel_x86_entry_t broken_pe[] = {
    {.name = "BROKEN_UMASKS",
     .desc = "d",
     .code = 0x1,
     .cntmsk = 0xf,
     .ngrp = 1,
     .modmsk = HSWEP_UNC_CBO_ATTRS,
     .numasks = LIBPFM_ARRAY_SIZE(broken_um),
     .umasks = broken_um},
    {.name = "NO_COUNTERS", .desc = "d", .code = 0x2, .cntmsk = 0, .modmsk = HSWEP_UNC_CBO_ATTRS},
    {.name = "TOO_MANY_COUNTERS",
     .desc = "d",
     .code = 0x3,
     .cntmsk = 0x1f,
     .modmsk = HSWEP_UNC_CBO_ATTRS},
    {.name = "WIDE_CODE",
     .desc = "d",
     .code = 0x100001,
     .cntmsk = 0xf,
     .modmsk = HSWEP_UNC_CBO_ATTRS},
    {.name = "UNKNOWN_MOD",
     .desc = "d",
     .code = 0x4,
     .cntmsk = 0xf,
     .modmsk = HSWEP_UNC_CBO_ATTRS | _SNBEP_UNC_ATTR_FF},
    {.name = "NO_DESC", .desc = "", .code = 0x5, .cntmsk = 0xf, .modmsk = HSWEP_UNC_CBO_ATTRS},
    {.name = "wide_code",
     .desc = "duplicate event name",
     .code = 0x6,
     .cntmsk = 0xf,
     .modmsk = HSWEP_UNC_CBO_ATTRS},
};

TEST(fixture_tables_are_valid)
{
	const struct uncore_event_platform *plat = fixture_platform();
	for (unsigned b = 0; b < plat->nboxes; b++)
		CHECK_EQ_INT(validate_box(plat->boxes[b]), 0);
}

TEST(validator_finds_every_planted_problem)
{
	struct uncore_box_type box = *fixture_platform()->boxes[0];
	box.events = broken_pe;
	box.nevents = LIBPFM_ARRAY_SIZE(broken_pe);
	validate_quiet = 1;
	int bad = validate_box(&box);
	validate_quiet = 0;
	/* umasks: duplicate, WIDE, LOWCODE, GRP, FILT, two NCOMBO defaults;
	 * events: cntmsk 0, cntmsk too wide, code too wide, FF unknown, no desc,
	 * duplicate name. */
	if (bad < 12)
		HARNESS_FAIL_AT("%d problems found, 12 planted", bad);
	/* And one at a time: each broken event alone is reported. */
	for (unsigned i = 0; i < box.nevents; i++) {
		struct uncore_box_type one = box;
		one.events = &broken_pe[i];
		one.nevents = 1;
		validate_quiet = 1;
		int n = validate_box(&one);
		validate_quiet = 0;
		if (i == LIBPFM_ARRAY_SIZE(broken_pe) - 1)
			CHECK_EQ_INT(n, 0); /* the duplicate name needs its twin */
		else if (n == 0)
			HARNESS_FAIL_AT("broken event %s not reported", broken_pe[i].name);
	}
}

TEST(every_builtin_table_is_valid)
{
	for (unsigned p = 0; uncore_event_platform_at(p); p++) {
		const struct uncore_event_platform *plat = uncore_event_platform_at(p);
		if (plat->nboxes == 0)
			HARNESS_FAIL_AT("platform %s has no box types registered yet", plat->name);
		for (unsigned b = 0; b < plat->nboxes; b++) {
			int bad = validate_box(plat->boxes[b]);
			if (bad)
				HARNESS_FAIL_AT("%s: %d table problem(s), listed above",
						plat->boxes[b]->name, bad);
		}
	}
}

TEST(builtin_platforms_match_cpu_table)
{
	size_t n;
	const struct uncore_platform *const *cpus = uncore_platforms(&n);
	for (size_t i = 0; i < n; i++) {
		const struct uncore_event_platform *plat = uncore_event_platform_get(cpus[i]->id);
		if (!plat)
			HARNESS_FAIL_AT("no event platform for %s", cpus[i]->name);
	}
	/* A generation's box types are its own (named as it is) or, for a
	 * cousin, those of the generation they belong to, listed once. */
	unsigned distinct = 0;
	while (uncore_event_platform_at(distinct))
		distinct++;
	for (size_t i = 0; i < n; i++) {
		const struct uncore_event_platform *plat = cpus[i]->events;
		harness_row = cpus[i]->name;
		CHECK(plat != NULL && plat->platform != NULL && plat->platform->events == plat);
		if (plat && plat->platform == cpus[i])
			CHECK(uncore_event_platform_by_name(cpus[i]->name) == plat);
		unsigned listed = 0;
		for (unsigned k = 0; k < distinct; k++)
			listed += uncore_event_platform_at(k) == plat;
		CHECK_EQ_INT((int)listed, 1);
	}
	CHECK(distinct < n); /* a cousin (kbl) shares Skylake client's */
	CHECK_EQ_STR(uncore_event_platform_get(UNCORE_PLATFORM_X7400)->name, "x7400");
	CHECK(uncore_event_platform_by_name("nope") == NULL);
	CHECK(uncore_event_platform_get(UNCORE_PLATFORM_NONE) == NULL);
	CHECK(uncore_event_platform_at(1000) == NULL);
}

TEST(haswell_ep_box_types)
{
	const struct uncore_event_platform *hsx = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	CHECK_EQ_INT(hsx->nboxes, 10);
	static const char *const kinds[] = {"ubo", "cbo", "sbo", "ha",     "imc",
					    "irp", "pcu", "qpi", "r2pcie", "r3qpi"};
	for (unsigned i = 0; i < 10; i++) {
		char name[64];
		snprintf(name, sizeof(name), "hswep_unc_%s", kinds[i]);
		const struct uncore_box_type *box = uncore_box_type_find(hsx, name);
		CHECK(box != NULL);
		if (box)
			CHECK_EQ_STR(box->kind, kinds[i]);
	}
	const struct uncore_box_type *imc = uncore_box_type_find(NULL, "HSWEP_UNC_IMC");
	CHECK(imc != NULL);
	if (!imc)
		return;
	CHECK_EQ_INT(imc->ninstances, 8);
	CHECK_EQ_INT(imc->ngeneric, 4);
	CHECK_EQ_INT(imc->nfixed, 1);
	CHECK_EQ_INT(uncore_box_type_find(hsx, "hswep_unc_cbo")->ninstances, 18);
	CHECK_EQ_INT(uncore_box_type_find(hsx, "hswep_unc_r3qpi")->counter_width, 44);
	CHECK_EQ_INT(uncore_box_type_find(hsx, "hswep_unc_r3qpi")->ngeneric, 3);
	CHECK(uncore_box_type_find(hsx, "hswep_unc_imc0") == NULL);
}

TEST(instance_and_perf_names)
{
	const struct uncore_event_platform *hsx = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	const struct uncore_box_type *imc = uncore_box_type_find(hsx, "hswep_unc_imc");
	const struct uncore_box_type *pcu = uncore_box_type_find(hsx, "hswep_unc_pcu");
	const struct uncore_box_type *cbo = uncore_box_type_find(hsx, "hswep_unc_cbo");
	char buf[32];
	CHECK_EQ_INT(uncore_box_instance_name(imc, 7, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "hswep_unc_imc7");
	CHECK_EQ_INT(uncore_box_instance_name(imc, -1, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "hswep_unc_imc");
	CHECK_EQ_INT(uncore_box_instance_name(imc, 8, buf, sizeof(buf)), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_box_instance_name(pcu, 0, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "hswep_unc_pcu");
	CHECK_EQ_INT(uncore_box_instance_name(cbo, 17, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "hswep_unc_cbo17");
	CHECK_EQ_INT(uncore_box_perf_name(cbo, 17, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "uncore_cbox_17");
	CHECK_EQ_INT(uncore_box_perf_name(imc, 3, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "uncore_imc_3");
	CHECK_EQ_INT(uncore_box_perf_name(pcu, 0, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "uncore_pcu");
	char tiny[8];
	CHECK_EQ_INT(uncore_box_instance_name(cbo, 1, tiny, sizeof(tiny)), UNCORE_ENOSPACE);
}

TEST(enumeration)
{
	const struct uncore_box_type *cbo = fixture_platform()->boxes[0];
	struct uncore_event_info ei;
	struct uncore_umask_info ui;
	int lookup = uncore_box_find_event(cbo, "fx_c_lookup");
	CHECK_EQ_INT(lookup, 1);
	CHECK_EQ_INT(uncore_box_event_info(cbo, (unsigned)lookup, &ei), 0);
	CHECK_EQ_STR(ei.name, "FX_C_LOOKUP");
	CHECK_EQ_INT(ei.numasks, 7);
	CHECK_EQ_INT(ei.ngroups, 2);
	CHECK_EQ_U64(ei.counters, 0xf);
	CHECK_EQ_INT(ei.fixed, 0);
	CHECK_EQ_INT(ei.nmods, 4); /* e, t, tf, cf: HSWEP_UNC_CBO_ATTRS */
	CHECK_EQ_INT(uncore_box_umask_info(cbo, (unsigned)lookup, 6, &ui), 0);
	CHECK_EQ_STR(ui.name, "STATE_ANY");
	CHECK_EQ_INT(ui.group, 1);
	CHECK_EQ_INT(ui.is_default, 1);
	CHECK_EQ_INT(uncore_box_umask_info(cbo, (unsigned)lookup, 7, &ui), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_box_event_info(cbo, uncore_box_nevents(cbo), &ei), UNCORE_EINVAL);
	CHECK_EQ_STR(uncore_box_event_mod(cbo, (unsigned)lookup, 0)->name, "e");
	CHECK_EQ_STR(uncore_box_event_mod(cbo, (unsigned)lookup, 3)->name, "cf");
	CHECK(uncore_box_event_mod(cbo, (unsigned)lookup, 4) == NULL);
	CHECK_EQ_INT(uncore_box_find_umask(cbo, (unsigned)lookup, "nope"), UNCORE_ENOUMASK);
	CHECK_EQ_INT(uncore_box_find_event(cbo, "nope"), UNCORE_ENOEVENT);

	const struct uncore_box_type *imc = fixture_platform()->boxes[1];
	CHECK_EQ_INT(uncore_box_event_info(imc, 0, &ei), 0);
	CHECK_EQ_INT(ei.fixed, 1);
	CHECK_EQ_U64(ei.counters, 0);
}

int main(void)
{
	RUN(fixture_tables_are_valid);
	RUN(validator_finds_every_planted_problem);
	RUN(every_builtin_table_is_valid);
	RUN(builtin_platforms_match_cpu_table);
	RUN(haswell_ep_box_types);
	RUN(instance_and_perf_names);
	RUN(enumeration);
	return harness_done();
}
