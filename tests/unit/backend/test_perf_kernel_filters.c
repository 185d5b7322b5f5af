/* The Haswell-EP CBo filters on the perf backend against the kernel's own
 * table, exhaustively: every CBo event of our tables with every unit mask
 * and every pair of unit masks, each with every filter modifier, encoded as
 * the perf backend packs it.  The expectation comes from a transcription of
 * the Linux driver made here, independent of platform/hswep/hswep_kernel.c:
 * hswep_uncore_cbox_extra_regs (event, config mask, fields) and
 * hswep_cbox_filter_mask (the config1 bits of each field), from
 * arch/x86/events/intel/uncore_snbep.c.  An encoding whose filter bits the
 * kernel would not program is refused, naming the kernel's format field and
 * rule; every other packs its filter bits into config1 unchanged
 * (platform/hswep/HARDWARE-DECISIONS.md H5). */
#include "backend/perf/perf_encode.h"
#include "backend/perf/perf_sysfs.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "events/registry.h"
#include "harness.h"
#include "simkernel/uncore_sim_perf.h"
#include "sim/uncore_sim.h"
#include "tmpdir.h"
#include "fake_sysfs.h"

#include <stdio.h>
#include <string.h>

/* The kernel's fields (hswep_cbox_filter_mask's argument bits). */
enum { K_TID = 0x1, K_LINK = 0x2, K_STATE = 0x4, K_NID = 0x8, K_OPC = 0x10 };

/* hswep_uncore_cbox_extra_regs, row by row: SNBEP_CBO_EVENT_EXTRA_REG(event,
 * config_mask, idx). */
static const struct {
	uint64_t event, mask;
	unsigned idx;
} kernel_rows[] = {
    {1u << 19, 1u << 19, 0x1}, /* SNBEP_CBO_PMON_CTL_TID_EN */
    {0x0334, 0xffff, 0x4},     {0x0534, 0xffff, 0x4},  {0x0934, 0xffff, 0x4},
    {0x1134, 0xffff, 0x4},     {0x2134, 0xffff, 0x4},  {0x4134, 0xffff, 0x4},
    {0x4037, 0x40ff, 0x8},     {0x4028, 0x40ff, 0x8},  {0x4032, 0x40ff, 0x8},
    {0x4029, 0x40ff, 0x8},     {0x4033, 0x40ff, 0x8},  {0x402A, 0x40ff, 0x8},
    {0x0135, 0xffff, 0x12},    {0x0335, 0xffff, 0x10}, {0x4135, 0xffff, 0x18},
    {0x4435, 0xffff, 0x8},     {0x4835, 0xffff, 0x8},  {0x5035, 0xffff, 0x8},
    {0x4335, 0xffff, 0x18},    {0x4a35, 0xffff, 0x8},  {0x2335, 0xffff, 0x10},
    {0x8335, 0xffff, 0x10},    {0x2135, 0xffff, 0x10}, {0x8135, 0xffff, 0x10},
    {0x0136, 0xffff, 0x10},    {0x0336, 0xffff, 0x10}, {0x4136, 0xffff, 0x18},
    {0x4436, 0xffff, 0x8},     {0x4836, 0xffff, 0x8},  {0x4336, 0xffff, 0x18},
    {0x4a36, 0xffff, 0x8},     {0x2336, 0xffff, 0x10}, {0x8336, 0xffff, 0x10},
    {0x2136, 0xffff, 0x10},    {0x8136, 0xffff, 0x10}, {0x5036, 0xffff, 0x8},
};

/* hswep_cbox_filter_mask: HSWEP_CB0_MSR_PMON_BOX_FILTER_* in config1. */
static uint64_t kernel_config1_mask(unsigned idx)
{
	uint64_t m = 0;
	if (idx & K_TID)
		m |= 0x3full;
	if (idx & K_LINK)
		m |= 0xfull << 6;
	if (idx & K_STATE)
		m |= 0x7full << 17;
	if (idx & K_NID)
		m |= 0xffffull << 32;
	if (idx & K_OPC)
		m |= 0x1ffull << 52 | 1ull << 61 | 1ull << 62 | 1ull << 63;
	return m;
}

/* hswep_cbox_hw_config: the fields of every row whose event matches the
 * control under its mask (the driver matches hw.config, the config masked
 * to the type's event_mask: event, umask, edge, inv, thresh, tid_en). */
static uint64_t kernel_programs(uint64_t config)
{
	unsigned idx = 0;
	for (size_t i = 0; i < sizeof(kernel_rows) / sizeof(kernel_rows[0]); i++)
		if ((config & kernel_rows[i].mask) == kernel_rows[i].event)
			idx |= kernel_rows[i].idx;
	return idx ? kernel_config1_mask(idx) : 0;
}

/* The kernel format fields of the CBo's config1 bits (its
 * hswep_uncore_cbox_formats_attr): which names a refusal must give. */
static const struct {
	const char *name;
	uint64_t mask;
} kernel_fields[] = {
    {"filter_tid", 0x3full},           {"filter_link", 0xfull << 6},
    {"filter_state", 0x7full << 17},   {"filter_nid", 0xffffull << 32},
    {"filter_opc", 0x1ffull << 52},    {"filter_c6", 1ull << 61},
    {"filter_nc", 1ull << 62},         {"filter_isoc", 1ull << 63},
};

static unsigned packed, refused;

static void check_one(const struct uncore_event_platform *plat, const struct uncore_box_type *bt,
		      const struct uncore_perf_pmu *p, const char *name)
{
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	if (uncore_event_parse(plat, name, &ref) < 0 || uncore_event_encode(&ref, &enc) < 0) {
		uncore_error_clear();
		return; /* not a combination our tables encode */
	}
	uint64_t want_c1 = (enc.filter[0] & enc.filter_mask[0]) |
			   (enc.filter[1] & enc.filter_mask[1]) << 32;
	uint64_t cfg[3] = {0, 0, 0};
	struct uncore_perf_table_event ev = {.ctl = enc.ctl,
					     .filter = enc.filter,
					     .filter_mask = enc.filter_mask,
					     .nfilters = enc.nfilters,
					     .fixed = enc.fixed,
					     .code = enc.code};
	int rc = uncore_perf_encode_table(bt, p, &ev, cfg);
	/* CBo invert (bit 23) has no kernel format field: refused on its own. */
	if (enc.ctl & (1ull << 23)) {
		CHECK_EQ_INT(rc, UNCORE_ENOSUPP);
		return;
	}
	uint64_t dropped = want_c1 & ~kernel_programs(enc.ctl);
	harness_row = name;
	if (dropped) {
		CHECK_EQ_INT(rc, UNCORE_ENOSUPP);
		for (size_t f = 0; f < sizeof(kernel_fields) / sizeof(kernel_fields[0]); f++)
			if (dropped & kernel_fields[f].mask)
				CHECK_CONTAINS(uncore_error_detail(), kernel_fields[f].name);
		CHECK_CONTAINS(uncore_error_detail(), "hswep_uncore_cbox_extra_regs");
		refused++;
	} else {
		CHECK_EQ_INT(rc, 0);
		if (rc == 0) {
			CHECK_EQ_U64(cfg[1], want_c1);
			packed++;
		}
	}
	harness_row = NULL;
	uncore_error_clear();
}

TEST(every_cbo_event_and_unit_mask_follows_the_kernels_table)
{
	struct uncore_sim *sim = NULL;
	struct uncore_sim_perf *k = NULL;
	struct uncore_perf_sysfs *s = NULL;
	const struct uncore_event_platform *plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	const char *root = fake_sysfs_mkdtemp("kfilt");
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", NULL, &sim), 0);
	if (root && sim)
		CHECK_EQ_INT(uncore_sim_perf_create(sim, root, &k), 0);
	if (k)
		CHECK_EQ_INT(uncore_perf_sysfs_read(uncore_sim_perf_pmu_root(k), &s), 0);
	const struct uncore_box_type *bt = NULL;
	for (unsigned b = 0; plat && b < plat->nboxes; b++)
		if (!strcmp(plat->boxes[b]->kind, "cbo"))
			bt = plat->boxes[b];
	CHECK(bt != NULL);
	const struct uncore_perf_pmu *p = s && bt ? uncore_perf_sysfs_find(s, "uncore_cbox_0") : NULL;
	CHECK(p != NULL);
	unsigned combos = 0;
	for (unsigned e = 0; p && e < uncore_box_nevents(bt); e++) { /* the supplement too */
		struct uncore_event_info ei;
		uncore_box_event_info(bt, e, &ei);
		/* "": the defaults; each unit mask; each pair of unit masks. */
		for (int u1 = -1; u1 < (int)ei.numasks; u1++) {
			for (int u2 = u1; u2 < (int)ei.numasks; u2++) {
				if (u1 < 0 && u2 >= 0)
					break;
				char um[160] = "";
				struct uncore_umask_info a, b2;
				if (u1 >= 0 && uncore_box_umask_info(bt, e, (unsigned)u1, &a) == 0) {
					if (u2 > u1 &&
					    uncore_box_umask_info(bt, e, (unsigned)u2, &b2) == 0)
						snprintf(um, sizeof(um), ":%s:%s", a.name, b2.name);
					else if (u2 == u1)
						snprintf(um, sizeof(um), ":%s", a.name);
				}
				if (u1 >= 0 && !um[0])
					continue;
				/* Each modifier at a non-zero value, and none. */
				for (int m = -1; m < (int)ei.nmods; m++) {
					char name[320];
					const struct uncore_mod_desc *md =
					    m >= 0 ? uncore_box_event_mod(bt, e, (unsigned)m) : NULL;
					if (m >= 0 && !md)
						continue;
					if (md)
						snprintf(name, sizeof(name), "%s::%s%s:%s=%llu",
							 bt->name, ei.name, um, md->name,
							 (unsigned long long)(md->min ? md->min : 1));
					else
						snprintf(name, sizeof(name), "%s::%s%s", bt->name,
							 ei.name, um);
					combos++;
					check_one(plat, bt, p, name);
				}
			}
		}
	}
	printf("  %u event x unit mask x modifier combinations: %u packed, %u refused "
	       "(a filter the kernel would drop)\n",
	       combos, packed, refused);
	CHECK(packed > 500);
	CHECK(refused >= 40);
	/* The case, named. */
	check_one(plat, bt, p, "hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:NID:nf=1");
	uncore_perf_sysfs_free(s);
	uncore_sim_perf_destroy(k);
	if (sim)
		uncore_sim_destroy(sim);
	if (root)
		test_rmtree(root);
}

int main(void)
{
	RUN(every_cbo_event_and_unit_mask_follows_the_kernels_table);
	return harness_done();
}
