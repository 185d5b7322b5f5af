/* Validator of the Skylake client register description (the direct
 * engine's, backend/direct/desc_skl.c): every MSR of the
 * manual's Table 2-1 (rows copied below by a script from seed 001, the
 * manual's "CB0" misprint included) is where the descriptors compute it,
 * the msr-safe table lists exactly those MSRs with the field tables' RW
 * bits, the descriptors agree with the event registry (counters, widths,
 * the IMC event codes' offsets), and bad requests are refused. */
#include "platform/msr_ranges.h"
#include "backend/direct/engine.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "harness.h"
#include "platform/skl/skl_regs.h"
#include "platform/skl_mchbar.h"

#include <stdio.h>
#include <string.h>

/* SKL Table 2-1 "Uncore PMU MSR List", in the manual's order. */
static const struct {
	const char *name;
	uint32_t msr;
} table_2_1[] = {
    {"MSR_UNC_PERF_GLOBAL_CTRL", 0xe01},  {"MSR_UNC_PERF_GLOBAL_STATUS", 0xe02},
    {"MSR_UNC_PERF_FIXED_CTRL", 0x394},   {"MSR_UNC_PERF_FIXED_CTR", 0x395},
    {"MSR_UNC_CBO_CONFIG", 0x396},        {"MSR_UNC_ARB_PERFCTR0", 0x3b0},
    {"MSR_UNC_ARB_PERFCTR1", 0x3b1},      {"MSR_UNC_ARB_PERFEVTSEL0", 0x3b2},
    {"MSR_UNC_ARB_PERFEVTSEL1", 0x3b3},   {"MSR_UNC_CBO_0_PERFEVTSEL0", 0x700},
    {"MSR_UNC_CBO_0_PERFEVTSEL1", 0x701}, {"MSR_UNC_CBO_0_PERFCTR0", 0x706},
    {"MSR_UNC_CBO_0_PERFCTR1", 0x707},    {"MSR_UNC_CBO_1_PERFEVTSEL0", 0x710},
    {"MSR_UNC_CBO_1_PERFEVTSEL1", 0x711}, {"MSR_UNC_CBO_1_PERFCTR0", 0x716},
    {"MSR_UNC_CBO_1_PERFCTR1", 0x717},    {"MSR_UNC_CBO_2_PERFEVTSEL0", 0x720},
    {"MSR_UNC_CBO_2_PERFEVTSEL1", 0x721}, {"MSR_UNC_CBO_2_PERFCTR0", 0x726},
    {"MSR_UNC_CBO_2_PERFCTR1", 0x727},    {"MSR_UNC_CBO_3_PERFEVTSEL0", 0x730},
    {"MSR_UNC_CBO_3_PERFEVTSEL1", 0x731}, {"MSR_UNC_CB0_3_PERFCTR0", 0x736},
    {"MSR_UNC_CB0_3_PERFCTR1", 0x737},
};
#define NROWS (sizeof(table_2_1) / sizeof(table_2_1[0]))

static const struct direct_kind *skl_kind(const char *name)
{
	return direct_kind_find(&direct_platform_skl, name);
}

/* The descriptor register a Table 2-1 name stands for: 1 and *r, 0 for the
 * global registers (checked separately), -1 when the name is not understood. */
static int reg_of_name(const char *name, struct uncore_reg *r)
{
	unsigned inst = 0, k = 0;
	char kind[16] = "";
	const struct direct_kind *d = NULL;
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", name);
	char *p = strstr(buf, "CB0_"); /* the manual's misprint of CBO_3 */
	if (p)
		p[2] = 'O';
	if (sscanf(buf, "MSR_UNC_CBO_%u_%15[A-Z]%u", &inst, kind, &k) == 3)
		d = skl_kind("cbo");
	else if (sscanf(buf, "MSR_UNC_ARB_%15[A-Z]%u", kind, &k) == 2)
		d = skl_kind("arb");
	else if (strcmp(buf, "MSR_UNC_PERF_FIXED_CTRL") == 0 ||
		 strcmp(buf, "MSR_UNC_PERF_FIXED_CTR") == 0) {
		d = skl_kind("clock");
		snprintf(kind, sizeof(kind), "%s",
			 strcmp(buf, "MSR_UNC_PERF_FIXED_CTRL") ? "PERFCTR" : "PERFEVTSEL");
	} else if (strstr(buf, "GLOBAL") || strstr(buf, "CONFIG"))
		return 0;
	if (!d)
		return -1;
	int is_ctl = strcmp(kind, "PERFEVTSEL") == 0;
	if (!is_ctl && strcmp(kind, "PERFCTR") != 0)
		return -1;
	return direct_kind_reg(d, NULL, 0, inst, is_ctl ? DIRECT_REG_CTL : DIRECT_REG_CTR, k, 0,
			       r) == 0
		   ? 1
		   : -1;
}

TEST(descriptors_compute_every_address_of_table_2_1)
{
	unsigned regs = 0;
	for (size_t i = 0; i < NROWS; i++) {
		struct uncore_reg r;
		harness_row = table_2_1[i].name;
		int got = reg_of_name(table_2_1[i].name, &r);
		CHECK(got >= 0);
		if (got == 1) {
			CHECK_EQ_U64(r.addr, table_2_1[i].msr);
			CHECK_EQ_INT(r.space, UNCORE_SPACE_MSR);
			CHECK_EQ_INT(r.width, 8);
			regs++;
		}
	}
	harness_row = NULL;
	/* 4 CBos x 4 + ARB 4 + fixed 2 */
	CHECK_EQ_INT(regs, 22);
	CHECK_EQ_U64(table_2_1[0].msr, SKL_MSR_UNC_PERF_GLOBAL_CTRL);
	CHECK_EQ_U64(table_2_1[1].msr, SKL_MSR_UNC_PERF_GLOBAL_STATUS);
	CHECK_EQ_U64(table_2_1[4].msr, SKL_MSR_UNC_CBO_CONFIG);
}

TEST(msr_table_is_table_2_1_with_the_rw_bits)
{
	const struct uncore_msr_table *t = uncore_msr_table_for("skl");
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ_INT(uncore_msr_table_check(t), 0);
	CHECK_EQ_INT(uncore_msr_table_count(t), NROWS);
	uint8_t seen[NROWS];
	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i < uncore_msr_table_count(t); i++) {
		uint32_t msr;
		uint64_t mask;
		const struct uncore_msr_range *range;
		CHECK_EQ_INT(uncore_msr_table_get(t, i, &msr, &mask, &range), 0);
		size_t row = NROWS;
		for (size_t k = 0; k < NROWS; k++)
			if (table_2_1[k].msr == msr)
				row = k;
		if (row == NROWS) {
			HARNESS_FAIL_AT("MSR 0x%x (%s) is not in Table 2-1", msr, range->name);
			continue;
		}
		seen[row]++;
		harness_row = table_2_1[row].name;
		/* Masks from the field tables, written out bit by bit. */
		const char *n = table_2_1[row].name;
		uint64_t want;
		if (strstr(n, "PERFEVTSEL")) /* Table 2-7: THR 28:24 INV 23 EN 22 OVF_EN 20 E 18
						UMASK EVT_SEL */
			want =
			    0x1fUL << 24 | 1UL << 23 | 1UL << 22 | 1UL << 20 | 1UL << 18 | 0xffff;
		else if (strstr(n, "PERFCTR")) /* Table 2-8: CTR_VAL 43:0 */
			want = (1ULL << 44) - 1;
		else if (strcmp(n, "MSR_UNC_PERF_FIXED_CTR") == 0) /* Table 2-5: 47:0 */
			want = (1ULL << 48) - 1;
		else if (strcmp(n, "MSR_UNC_PERF_FIXED_CTRL") ==
			 0) /* Table 2-4: CNT_EN 22, OVF_EN 20 */
			want = 1UL << 22 | 1UL << 20;
		else if (strcmp(n, "MSR_UNC_PERF_GLOBAL_CTRL") ==
			 0) /* Table 2-2: 31, 30, 29, 3:0, and bit 4, which
			     * Linux writes (platform/skl/HARDWARE-DECISIONS.md S1) */
			want = 0xe000001fULL;
		else if (strcmp(n, "MSR_UNC_PERF_GLOBAL_STATUS") == 0) /* Table 2-3: RW1C 3, 1, 0 */
			want = 0xb;
		else /* MSR_UNC_CBO_CONFIG: RO (Table 2-6) */
			want = 0;
		CHECK_EQ_U64(mask, want);
	}
	harness_row = NULL;
	for (size_t k = 0; k < NROWS; k++)
		if (seen[k] != 1)
			HARNESS_FAIL_AT("Table 2-1 row %s listed %u times", table_2_1[k].name,
					seen[k]);
}

static const struct uncore_event_platform *skl(void)
{
	return uncore_event_platform_get(UNCORE_PLATFORM_SKL);
}

TEST(descriptors_agree_with_the_event_registry)
{
	const struct uncore_event_platform *p = skl();
	CHECK(p != NULL);
	unsigned matched = 0;
	for (unsigned b = 0; p && b < p->nboxes; b++) {
		const struct uncore_box_type *bt = p->boxes[b];
		const struct direct_kind *d = skl_kind(bt->kind);
		harness_row = bt->name;
		CHECK(d != NULL);
		if (!d)
			continue;
		matched++;
		CHECK_EQ_INT(d->max_instances, bt->ninstances);
		if (d->ctl_enable == SKL_UNC_PERFEVTSEL_EN && bt->ngeneric) { /* CBo, ARB */
			CHECK_EQ_INT(d->ncounters, bt->ngeneric);
			CHECK_EQ_INT(d->width, bt->counter_width);
			CHECK_EQ_INT(bt->nfixed, 0);
		} else { /* fixed UCLK, IMC */
			CHECK_EQ_INT(d->ncounters, bt->nfixed);
			CHECK_EQ_INT(d->width, bt->fixed_width);
			CHECK_EQ_INT(bt->ngeneric, 0);
		}
		CHECK_EQ_INT(d->freerun, !!(bt->flags & UNCORE_BOXF_FREERUN));
		/* What the encoder may put in a control register must be writable. */
		if (bt->ctl && !d->freerun)
			CHECK_EQ_U64(bt->ctl->writable & ~d->ctl_writable, 0);
	}
	harness_row = NULL;
	CHECK_EQ_INT(matched, direct_platform_skl.nkinds);
}

/* Each IMC event's code is width << 16 | offset (README.client.md); its
 * counter (fixed_index) must be the descriptor's register at that offset. */
TEST(imc_event_codes_name_the_descriptor_registers)
{
	const struct uncore_box_type *bt = uncore_box_type_find(skl(), "skl_unc_imc");
	const struct direct_kind *d = skl_kind("imc");
	CHECK(bt != NULL);
	uint32_t seen = 0;
	for (unsigned e = 0; bt && e < bt->nevents; e++) {
		struct uncore_event_info info;
		char name[128];
		struct uncore_event_ref ref;
		struct uncore_encoding enc;
		CHECK_EQ_INT(uncore_box_event_info(bt, e, &info), 0);
		snprintf(name, sizeof(name), "skl_unc_imc::%s", info.name);
		harness_row = info.name;
		CHECK_EQ_INT(uncore_event_parse(skl(), name, &ref), 0);
		CHECK_EQ_INT(uncore_event_encode(&ref, &enc), 0);
		CHECK(enc.fixed && enc.freerun);
		CHECK(enc.fixed_index < d->ncounters);
		if (enc.fixed_index >= d->ncounters)
			continue;
		CHECK_EQ_U64(enc.code & 0xffff, d->mmio_offsets[enc.fixed_index]);
		CHECK_EQ_U64(enc.code >> 16, d->width);
		seen |= 1u << enc.fixed_index;
		struct uncore_reg r;
		CHECK_EQ_INT(direct_kind_reg(d, NULL, 0, 0, DIRECT_REG_CTR, enc.fixed_index,
					     0xfed10000u, &r),
			     0);
		CHECK_EQ_U64(r.addr, 0xfed10000u + (enc.code & 0xffff));
		CHECK_EQ_INT(r.space, UNCORE_SPACE_MMIO);
		CHECK_EQ_INT(r.width, 4);
		CHECK(r.addr >= 0xfed10000u + SKL_IMC_WINDOW_FIRST &&
		      r.addr + r.width <= 0xfed10000u + SKL_IMC_WINDOW_END);
	}
	harness_row = NULL;
	CHECK_EQ_U64(seen, 0x1f);
	CHECK_EQ_U64(d->mmio_offsets[3], 0x5050); /* DRAM_DATA_READS, Table 3-3 */
}

TEST(bad_requests_are_refused)
{
	struct uncore_reg r;
	const struct direct_kind *imc = skl_kind("imc"), *cbo = skl_kind("cbo");
	CHECK_EQ_INT(direct_kind_reg(imc, NULL, 0, 0, DIRECT_REG_CTL, 0, 0xfed10000u, &r),
		     UNCORE_EINVAL);
	CHECK_EQ_INT(direct_kind_reg(imc, NULL, 0, 0, DIRECT_REG_CTR, 0, 0, &r), UNCORE_ENODEV);
	CHECK_EQ_INT(direct_kind_reg(imc, NULL, 0, 0, DIRECT_REG_CTR, 5, 0xfed10000u, &r),
		     UNCORE_ERANGE);
	CHECK_EQ_INT(direct_kind_reg(cbo, NULL, 0, 4, DIRECT_REG_CTL, 0, 0, &r), UNCORE_ERANGE);
	CHECK_EQ_INT(direct_kind_reg(cbo, NULL, 0, 0, DIRECT_REG_CTR, 2, 0, &r), UNCORE_ERANGE);
	CHECK(skl_kind("ubo") == NULL);
}

/* 2^width / max_rate: the IMC's 32 bits at 1.1e9/s last 3.9 s; the 44-bit
 * CBo/ARB counters 55 s; the 48-bit UCLK counter 15.6 hours. */
static double wrap_s(const char *name)
{
	const struct direct_kind *k = skl_kind(name);
	return k ? (double)((unsigned __int128)1 << k->width) / (double)k->max_rate : 0;
}

TEST(wrap_periods)
{
	CHECK_NEAR(wrap_s("imc"), 3.9045, 0.001);
	CHECK_NEAR(wrap_s("cbo"), 54.976, 0.01);
	CHECK_NEAR(wrap_s("arb"), 54.976, 0.01);
	CHECK_NEAR(wrap_s("clock") / 3600, 15.637, 0.01);
}

int main(void)
{
	RUN(descriptors_compute_every_address_of_table_2_1);
	RUN(msr_table_is_table_2_1_with_the_rw_bits);
	RUN(descriptors_agree_with_the_event_registry);
	RUN(imc_event_codes_name_the_descriptor_registers);
	RUN(bad_requests_are_refused);
	RUN(wrap_periods);
	return harness_done();
}
