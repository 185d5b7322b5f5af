/* Our table encodings packed into perf config words through the format
 * files of the Linux drivers' trees (Haswell-EP: the simulated kernel's
 * tree; Skylake client and Nehalem: tests/support/fake_sysfs.c).  Golden
 * rows with the config words the kernel ABI expects, refusals side by
 * side; every Haswell-EP event checked against the README's rule (config =
 * control value; CBo config1 = FILTER1:FILTER0; PCU config1 = band filter;
 * QPI config1/config2 = match/mask); and a validator of the field tables. */
#include "backend/perf/perf_encode.h"
#include "backend/perf/perf_sysfs.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "events/table.h"
#include "fake_sysfs.h"
#include "harness.h"
#include "platform/hswep/hswep_kernel.h"
#include "simkernel/uncore_sim_perf.h"
#include "tmpdir.h"

#include <stdio.h>
#include <string.h>

struct golden {
	const char *event;
	const char *pmu; /* the kernel PMU it is packed for */
	int rc;          /* 0 or the expected error */
	uint64_t config, config1, config2;
	const char *says; /* for errors: part of the detail */
};

/* Pack `event` (parsed and encoded against `plat`) for PMU `pmu` of `s`. */
static int pack(const struct uncore_event_platform *plat, const struct uncore_perf_sysfs *s,
		const char *event, const char *pmu, uint64_t cfg[3])
{
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	int rc = uncore_event_parse(plat, event, &ref);
	if (rc == 0)
		rc = uncore_event_encode(&ref, &enc);
	if (rc < 0)
		return rc;
	const struct uncore_perf_pmu *p = uncore_perf_sysfs_find(s, pmu);
	if (!p)
		return uncore_fail(UNCORE_ENODEV, "no PMU %s in the tree", pmu);
	struct uncore_perf_table_event ev = {
	    .ctl = enc.ctl,
	    .filter = enc.filter,
	    .nfilters = enc.nfilters,
	    .fixed = enc.fixed,
	    .code = enc.code,
	};
	return uncore_perf_encode_table(ref.box, p, &ev, cfg);
}

static void check_rows(const struct uncore_event_platform *plat, const struct uncore_perf_sysfs *s,
		       const struct golden *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t cfg[3] = {0, 0, 0};
		harness_row = rows[i].event;
		int rc = pack(plat, s, rows[i].event, rows[i].pmu, cfg);
		CHECK_EQ_INT(rc, rows[i].rc);
		if (rc == 0 && rows[i].rc == 0) {
			CHECK_EQ_U64(cfg[0], rows[i].config);
			CHECK_EQ_U64(cfg[1], rows[i].config1);
			CHECK_EQ_U64(cfg[2], rows[i].config2);
		} else if (rows[i].says) {
			CHECK_CONTAINS(uncore_error_detail(), rows[i].says);
		}
	}
	harness_row = NULL;
}

static const struct golden hswep_rows[] = {
    {"hswep_unc_imc::UNC_M_CAS_COUNT:RD", "uncore_imc_0", 0, 0x0304, 0, 0, NULL},
    {"hswep_unc_imc::UNC_M_CAS_COUNT:RD:t=4:e=1", "uncore_imc_0", 0, 0x04040304, 0, 0, NULL},
    {"hswep_unc_imc::UNC_M_CLOCKTICKS", "uncore_imc_0", 0, 0xff, 0, 0, NULL},
    {"hswep_unc_ubo::UNC_U_CLOCKTICKS", "uncore_ubox", 0, 0xff, 0, 0, NULL},
    {"hswep_unc_ubo::UNC_U_EVENT_MSG:DOORBELL_RCVD:t=31", "uncore_ubox", 0, 0x1f000842, 0, 0, NULL},
    {"hswep_unc_r3qpi::UNC_R3_CLOCKTICKS:t=3", "uncore_r3qpi_0", 0, 0x3000001, 0, 0, NULL},
    {"hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M", "uncore_cbox_0", 0, 0x334, 0x100000, 0,
     NULL},
    {"hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:tf=1", "uncore_cbox_5", 0, 0x80334,
     0x100001, 0, NULL},
    /* The driver programs only the state filter for LLC_LOOKUP umask 0x41
     * and no filter at all for 0x43 (hswep_uncore_cbox_extra_regs): a node
     * filter would be dropped and the event counted unfiltered. */
    {"hswep_unc_cbo::UNC_C_LLC_LOOKUP:NID:STATE_M:nf=2", "uncore_cbox_0", UNCORE_ENOSUPP, 0, 0, 0,
     "would drop"},
    {"hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:NID:nf=1", "uncore_cbox_0", UNCORE_ENOSUPP, 0, 0, 0,
     "use the direct backend"},
    {"hswep_unc_cbo::UNC_C_TOR_INSERTS:OPCODE:OPC_DRD:nc=1", "uncore_cbox_0", 0, 0x135,
     (0x182ull << 52) | (1ull << 62), 0, NULL},
    {"hswep_unc_cbo::UNC_C_TOR_INSERTS:NID_ALL:nf=3", "uncore_cbox_0", 0, 0x4835, 3ull << 32, 0,
     NULL},
    {"hswep_unc_cbo::UNC_C_TOR_INSERTS:OPCODE:OPC_DRD", "uncore_cbox_0", 0, 0x135, 0x182ull << 52,
     0, NULL},
    {"hswep_unc_qpi::UNC_Q_CTO_COUNT:DRS_DATAC_M", "uncore_qpi_0", 0, 0x200038, 0x8000000001c00ull,
     0xf000000001fe0ull, NULL},
    {"hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=12", "uncore_pcu", 0, 0xb, 0xc, 0, NULL},
    /* Bands 1-3 as band 0: the driver masks config1 with 0xff << n, not
     * << 8n (hswep_pcu_hw_config), and moves a band-0 event to a free band
     * itself. */
    {"hswep_unc_pcu::UNC_P_FREQ_BAND2_CYCLES:ff=20", "uncore_pcu", 0, 0xb, 20, 0, NULL},
    {"hswep_unc_pcu::UNC_P_FREQ_BAND3_CYCLES:ff=200", "uncore_pcu", 0, 0xb, 200, 0, NULL},
    {"hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6", "uncore_pcu", 0, 0xc080, 0, 0, NULL},
    /* refusals: fields the kernel's formats lack */
    {"hswep_unc_cbo::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:i=1", "uncore_cbox_0", UNCORE_ENOSUPP, 0, 0,
     0, "no format field for inv"},
    {"hswep_unc_pcu::UNC_P_POWER_STATE_OCCUPANCY:CORES_C6:e=1", "uncore_pcu", UNCORE_ENOSUPP, 0, 0,
     0, "not one bit"},
    {"hswep_unc_ha::UNC_H_ADDR_OPC_MATCH:ADDR:addr=0x1000", "uncore_ha_0", UNCORE_ENOSUPP, 0, 0, 0,
     "HA_PCI_PMON_BOX_ADDRMATCH"},
};

static const struct golden skl_rows[] = {
    {"skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:ANY_MESI", "uncore_cbox_1", 0, 0x8f34, 0, 0, NULL},
    {"skl_unc_cbo2::UNC_CBO_XSNP_RESPONSE:MISS_XCORE:c=3", "uncore_cbox_2", 0, 0x3004122, 0, 0,
     NULL},
    {"skl_unc_arb::UNC_ARB_TRK_REQUESTS:ALL", "uncore_arb", 0, 0x181, 0, 0, NULL},
    {"skl_unc_arb::UNC_ARB_TRK_OCCUPANCY:ALL:e=1:i=1", "uncore_arb", 0, 0x840180, 0, 0, NULL},
    {"skl_unc_clock::UNC_CLOCK", "uncore_cbox_0", 0, 0xff, 0, 0, NULL},
    {"skl_unc_imc::DRAM_DATA_READS", "uncore_imc", 0, 0x01, 0, 0, NULL},
    {"skl_unc_imc::DRAM_DATA_WRITES", "uncore_imc", 0, 0x02, 0, 0, NULL},
    {"skl_unc_imc::DRAM_GT_REQUESTS", "uncore_imc", 0, 0x03, 0, 0, NULL},
    {"skl_unc_imc::DRAM_IA_REQUESTS", "uncore_imc", 0, 0x04, 0, 0, NULL},
    {"skl_unc_imc::DRAM_IO_REQUESTS", "uncore_imc", 0, 0x05, 0, 0, NULL},
};

static const struct golden nhm_rows[] = {
    {"UNC_GQ_CYCLES_FULL:READ_TRACKER:c=200:i", "uncore", 0, 0xc8800100, 0, 0, NULL},
    {"UNC_CLK_UNHALTED", "uncore", 0, 0xff, 0, 0, NULL},
    /* the occupancy-counter reset bit (17) has no kernel field */
    {"UNC_GQ_TRACKER_OCCUP:RT_LLC_MISS:o", "uncore", UNCORE_ENOSUPP, 0, 0, 0,
     "no format field for control bits"},
};

TEST(hswep_golden_rows_through_the_drivers_formats)
{
	struct uncore_sim *sim = NULL;
	struct uncore_sim_perf *k = NULL;
	struct uncore_perf_sysfs *s = NULL;
	const char *root = fake_sysfs_mkdtemp("enc-hsx");
	CHECK(root != NULL);
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", NULL, &sim), 0);
	if (root && sim)
		CHECK_EQ_INT(uncore_sim_perf_create(sim, root, &k), 0);
	if (k)
		CHECK_EQ_INT(uncore_perf_sysfs_read(uncore_sim_perf_pmu_root(k), &s), 0);
	if (s)
		check_rows(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), s, hswep_rows,
			   sizeof(hswep_rows) / sizeof(hswep_rows[0]));
	uncore_perf_sysfs_free(s);
	uncore_sim_perf_destroy(k);
	if (sim)
		uncore_sim_destroy(sim);
	if (root)
		test_rmtree(root);
}

TEST(skl_and_nhm_golden_rows)
{
	struct uncore_perf_sysfs *s = NULL;
	const char *root = fake_sysfs_mkdtemp("enc-skl");
	CHECK(root && fake_sysfs_skl(root) == 0);
	CHECK_EQ_INT(uncore_perf_sysfs_read(fake_sysfs_pmu_root(root), &s), 0);
	if (s)
		check_rows(uncore_event_platform_by_name("skl"), s, skl_rows,
			   sizeof(skl_rows) / sizeof(skl_rows[0]));
	uncore_perf_sysfs_free(s);
	test_rmtree(root);

	s = NULL;
	root = fake_sysfs_mkdtemp("enc-nhm");
	CHECK(root && fake_sysfs_nhm(root) == 0);
	CHECK_EQ_INT(uncore_perf_sysfs_read(fake_sysfs_pmu_root(root), &s), 0);
	if (s)
		check_rows(uncore_event_platform_by_name("nhm"), s, nhm_rows,
			   sizeof(nhm_rows) / sizeof(nhm_rows[0]));
	uncore_perf_sysfs_free(s);
	test_rmtree(root);
}

/* Haswell-EP's kernel layout is the register layout: every event that the
 * kernel can express packs to exactly the README's rule; the others are
 * exactly those using a field the driver does not publish (CBo invert, PCU
 * occupancy edge and ev_sel_ext, the HA's match registers). */
TEST(every_hswep_event_follows_the_rule)
{
	struct uncore_sim *sim = NULL;
	struct uncore_sim_perf *k = NULL;
	struct uncore_perf_sysfs *s = NULL;
	const struct uncore_event_platform *plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	const char *root = fake_sysfs_mkdtemp("enc-all");
	unsigned packed = 0, refused = 0, kernel_dropped = 0, moved = 0;
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", NULL, &sim), 0);
	if (root && sim)
		CHECK_EQ_INT(uncore_sim_perf_create(sim, root, &k), 0);
	if (k)
		CHECK_EQ_INT(uncore_perf_sysfs_read(uncore_sim_perf_pmu_root(k), &s), 0);
	for (unsigned b = 0; s && b < plat->nboxes; b++) {
		const struct uncore_box_type *bt = plat->boxes[b];
		char pmu[64];
		uncore_box_perf_name(bt, 0, pmu, sizeof(pmu));
		const struct uncore_perf_pmu *p = uncore_perf_sysfs_find(s, pmu);
		CHECK(p != NULL);
		for (unsigned e = 0; p && e < uncore_box_nevents(bt); e++) {
			struct uncore_event_info ei;
			uncore_box_event_info(bt, e, &ei);
			/* defaults, each unit mask, each modifier at its maximum */
			for (int u = -1; u < (int)(ei.numasks + ei.nmods); u++) {
				char name[256];
				struct uncore_event_ref ref;
				struct uncore_encoding enc;
				struct uncore_umask_info ui;
				const struct uncore_mod_desc *md =
				    u >= (int)ei.numasks
					? uncore_box_event_mod(bt, e, (unsigned)u - ei.numasks)
					: NULL;
				if (u < 0)
					snprintf(name, sizeof(name), "%s::%s", bt->name, ei.name);
				else if (md)
					snprintf(name, sizeof(name), "%s::%s:%s=%llu", bt->name,
						 ei.name, md->name, (unsigned long long)md->max);
				else if (uncore_box_umask_info(bt, e, (unsigned)u, &ui) == 0)
					snprintf(name, sizeof(name), "%s::%s:%s", bt->name, ei.name,
						 ui.name);
				if (uncore_event_parse(plat, name, &ref) < 0 ||
				    uncore_event_encode(&ref, &enc) < 0) {
					uncore_error_clear();
					continue; /* not an encodable combination on its own */
				}
				uint64_t cfg[3] = {0, 0, 0};
				struct uncore_perf_table_event ev = {.ctl = enc.ctl,
								     .filter = enc.filter,
								     .nfilters = enc.nfilters,
								     .fixed = enc.fixed,
								     .code = enc.code};
				int rc = uncore_perf_encode_table(bt, p, &ev, cfg);
				int kind_cbo = !strcmp(bt->kind, "cbo"),
				    kind_pcu = !strcmp(bt->kind, "pcu");
				int kind_qpi = !strcmp(bt->kind, "qpi"),
				    kind_ha = !strcmp(bt->kind, "ha");
				int lacking =
				    (kind_cbo && (enc.ctl & (1ull << 23))) ||
				    (kind_pcu && (enc.ctl & ((1ull << 31) | (1ull << 21)))) ||
				    (kind_ha && (enc.filter[0] | enc.filter[1]));
				/* The driver's rules: CBo filter fields it does not
				 * program for this (event, umask) are refused. */
				uint64_t km[2] = {~0ull, ~0ull};
				if (kind_cbo)
					hswep_kernel_cbo_filter_masks(
					    hswep_kernel_cbo_fields(enc.ctl), &km[0], &km[1]);
				int dropped = kind_cbo && ((enc.filter[0] & ~km[0]) ||
							   (enc.filter[1] & ~km[1]));
				harness_row = name;
				if (lacking || dropped) {
					CHECK_EQ_INT(rc, UNCORE_ENOSUPP);
					if (dropped && !lacking)
						CHECK_CONTAINS(uncore_error_detail(),
							       "count unfiltered");
					refused++;
					kernel_dropped += dropped && !lacking;
					continue;
				}
				CHECK_EQ_INT(rc, 0);
				if (rc < 0) {
					fprintf(stderr, "  %s\n", uncore_error_detail());
					continue;
				}
				packed++;
				uint64_t c0 = enc.fixed ? (enc.code | enc.ctl) : enc.ctl;
				uint64_t c1 = 0, c2 = 0;
				unsigned ev_sel = (unsigned)(enc.ctl & 0xff);
				if (kind_cbo)
					c1 = enc.filter[0] | enc.filter[1] << 32;
				else if (kind_pcu && ev_sel >= 0x0c && ev_sel <= 0x0e &&
					 enc.filter[0]) {
					/* FREQ_BAND1-3 asked for as band 0 (event 0x0b) */
					c0 = (enc.ctl & ~0xffull) | 0x0b;
					c1 = enc.filter[0] >> (8 * (ev_sel - 0x0b));
					moved++;
				} else if (kind_pcu)
					c1 = enc.filter[0];
				else if (kind_qpi) {
					c1 = enc.filter[0];
					c2 = enc.filter[1];
				}
				CHECK_EQ_U64(cfg[0], c0);
				CHECK_EQ_U64(cfg[1], c1);
				CHECK_EQ_U64(cfg[2], c2);
			}
		}
	}
	harness_row = NULL;
	printf("  %u encodings packed by the rule, %u refused (%u: the driver would drop a CBo "
	       "filter), %u PCU bands moved to band 0\n",
	       packed, refused, kernel_dropped, moved);
	CHECK(packed > 1000);
	CHECK(refused >= 10);       /* the refusal branch is exercised */
	CHECK(kernel_dropped >= 4); /* TOR_INSERTS/OCCUPANCY nc=, isoc= on a non-opcode umask */
	CHECK_EQ_INT(moved, 3);     /* FREQ_BAND1-3_CYCLES:ff=max */
	uncore_perf_sysfs_free(s);
	uncore_sim_perf_destroy(k);
	if (sim)
		uncore_sim_destroy(sim);
	if (root)
		test_rmtree(root);
}

/* The field tables: rows of one register never overlap, lie within what
 * the box can program, and cover every control field and filter field but
 * the documented gaps (fields the Linux drivers do not publish). */
TEST(field_tables_validate_against_the_registry)
{
	static const struct {
		const char *box;
		uint8_t reg;
		uint64_t uncovered;
	} gaps[] = {
	    {"hswep_unc_ha", UNCORE_REG_FILTER(0), ~0ull}, /* no match fields in perf */
	    {"hswep_unc_ha", UNCORE_REG_FILTER(1), ~0ull},
	    {"nhm_unc_guide", UNCORE_REG_CTL, 1ull << 17},  /* occupancy counter reset */
	    {"nhm_unc_guide", UNCORE_REG_FILTER(0), ~0ull}, /* MSR 396h */
	    {"nhm_unc_guide", UNCORE_REG_FILTER(1), ~0ull}, /* MSR 301h */
	};
	static const char *const plats[] = {"hswep", "skl", "nhm"};
	for (size_t p = 0; p < 3; p++) {
		const struct uncore_event_platform *plat = uncore_event_platform_by_name(plats[p]);
		for (unsigned b = 0; b < plat->nboxes; b++) {
			const struct uncore_box_type *bt = plat->boxes[b];
			harness_row = bt->name;
			if (bt->flags & UNCORE_BOXF_FREERUN || bt->ngeneric == 0)
				continue; /* named by event number, not fields */
			struct uncore_perf_map_row rows[UNCORE_PERF_MAX_ROWS];
			unsigned nrows = uncore_perf_map_rows(bt, rows, UNCORE_PERF_MAX_ROWS);
			CHECK(nrows > 0);
			CHECK(nrows < UNCORE_PERF_MAX_ROWS); /* none dropped */
			for (unsigned reg = 0; reg <= bt->nfilters; reg++) {
				uint64_t covered = 0, want = 0;
				if (reg == UNCORE_REG_CTL)
					want = bt->ctl->writable & ~bt->ctl->en;
				else
					for (const uint64_t *f = bt->filters[reg - 1].fields; *f;
					     f++)
						want |= *f;
				for (unsigned i = 0; i < nrows; i++) {
					const struct uncore_perf_map_row *r = &rows[i];
					if (r->reg != reg)
						continue;
					CHECK_EQ_U64(covered & r->mask, 0); /* no overlap */
					covered |= r->mask;
				}
				uint64_t gap = 0;
				for (size_t g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++)
					if (!strcmp(gaps[g].box, bt->name) && gaps[g].reg == reg)
						gap = gaps[g].uncovered;
				CHECK_EQ_U64(want & ~covered & ~gap, 0);
				if (reg != UNCORE_REG_CTL && bt->flags & UNCORE_BOXF_UFILTER_VALUE)
					continue; /* whole-register values: rows may be wider */
				/* tid_en is a hard-wired modifier bit on the CBo and SBo,
				 * absent from the common layout's writable mask */
				CHECK_EQ_U64(covered & ~want & ~(1ull << 19), 0);
			}
		}
	}
	harness_row = NULL;
}

int main(void)
{
	RUN(hswep_golden_rows_through_the_drivers_formats);
	RUN(skl_and_nhm_golden_rows);
	RUN(every_hswep_event_follows_the_rule);
	RUN(field_tables_validate_against_the_registry);
	return harness_done();
}
