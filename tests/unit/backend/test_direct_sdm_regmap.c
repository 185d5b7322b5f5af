/* The Nehalem, Xeon 7100/7400 and Skylake client uncores against the
 * manuals' register lists typed independently in sdm_regmap.h:
 *  - each platform's MSR allowlist (platform/msr_ranges.h: what the direct
 *    backend and msr-safe's list may write) holds exactly the manual's
 *    registers, none more, none fewer, and never a bit the manual does not
 *    let software write;
 *  - each engine description (backend/direct/desc_*.c) names, for every
 *    counter of every box, the manual's control and counter of that index,
 *    its filters, its global control, counter widths as the manual gives
 *    them, and global-control bits that name exactly the counters used (a
 *    freeze command that names the wrong counter freezes someone else's). */
#include "backend/direct/engine.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "platform/msr_ranges.h"
#include "sdm_regmap.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct map {
	const char *platform;
	const struct sdm_reg *regs;
	size_t n;
	const struct direct_platform *desc;
};

static const struct map maps[] = {
    {"nhm", sdm_nhm, sizeof(sdm_nhm) / sizeof(sdm_nhm[0]), &direct_platform_nhm},
    {"x7400", sdm_x7400, sizeof(sdm_x7400) / sizeof(sdm_x7400[0]), &direct_platform_x7400},
    {"x7100", sdm_x7400, sizeof(sdm_x7400) / sizeof(sdm_x7400[0]), &direct_platform_x7400},
    {"skl", sdm_skl, sizeof(sdm_skl) / sizeof(sdm_skl[0]), &direct_platform_skl},
};

static const struct sdm_reg *find(const struct map *m, uint64_t msr)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->regs[i].msr == msr)
			return &m->regs[i];
	return NULL;
}

TEST(allowlists_are_the_manuals_registers)
{
	for (size_t p = 0; p < sizeof(maps) / sizeof(maps[0]); p++) {
		const struct map *m = &maps[p];
		const struct uncore_msr_table *t = uncore_msr_table_for(m->platform);
		harness_row = m->platform;
		REQUIRE(t != NULL);
		uint8_t seen[64] = {0};
		size_t n = uncore_msr_table_count(t);
		for (size_t i = 0; i < n; i++) {
			uint32_t msr;
			uint64_t mask;
			const struct uncore_msr_range *r;
			CHECK_EQ_INT(uncore_msr_table_get(t, i, &msr, &mask, &r), 0);
			const struct sdm_reg *s = find(m, msr);
			if (!s) {
				HARNESS_FAIL_AT("%s: MSR 0x%x (%s) is not a register of the manual",
						m->platform, msr, r ? r->name : "?");
				continue;
			}
			seen[s - m->regs]++;
			if (mask & ~s->writable)
				HARNESS_FAIL_AT("%s: MSR 0x%x %s: allowlist 0x%" PRIx64
						" writes bits 0x%" PRIx64 " the manual does not",
						m->platform, msr, s->name, mask,
						mask & ~s->writable);
		}
		for (size_t i = 0; i < m->n; i++)
			if (seen[i] != 1)
				HARNESS_FAIL_AT(
				    "%s: %s (0x%x) is in the allowlist %u times, want 1",
				    m->platform, m->regs[i].name, m->regs[i].msr, seen[i]);
		CHECK_EQ_INT(n, m->n);
	}
	harness_row = NULL;
}

/* Register `idx` of `role` of instance `inst` of kind k is the manual's
 * register of `want` role and index; writable within the manual's. */
static void check(const struct map *m, const struct direct_kind *k, unsigned inst,
		  enum direct_reg_role role, unsigned idx, enum sdm_role want)
{
	struct uncore_reg r;
	if (direct_kind_reg(k, NULL, 0, inst, role, idx, 0, &r) < 0) {
		HARNESS_FAIL_AT("%s %s%u: register %d/%u: %s", m->platform, k->kind, inst, role,
				idx, uncore_error_detail());
		return;
	}
	const struct sdm_reg *s = find(m, r.addr);
	if (!s || s->role != want || s->index != idx) {
		HARNESS_FAIL_AT("%s %s%u: register %d/%u at MSR 0x%" PRIx64
				" is %s, want role %d index %u",
				m->platform, k->kind, inst, role, idx, r.addr,
				s ? s->name : "no register of the manual", want, idx);
		return;
	}
	char unit[16];
	if (k->max_instances > 1)
		snprintf(unit, sizeof(unit), "%s%u", k->kind, inst);
	else
		snprintf(unit, sizeof(unit), "%s", k->kind);
	if (strcmp(s->unit, unit) != 0 && strcmp(s->unit, "unc") != 0 &&
	    strcmp(s->unit, "emon") != 0)
		HARNESS_FAIL_AT("%s %s: register %d/%u at 0x%" PRIx64 " is %s's", m->platform, unit,
				role, idx, r.addr, s->unit);
	uint64_t w = direct_kind_writable(k, role, idx);
	if (w & ~s->writable)
		HARNESS_FAIL_AT("%s %s: %s: writable 0x%" PRIx64 " beyond the manual's 0x%" PRIx64,
				m->platform, unit, s->name, w, s->writable);
}

TEST(engine_descriptions_name_the_manuals_registers)
{
	for (size_t p = 0; p < sizeof(maps) / sizeof(maps[0]); p++) {
		const struct map *m = &maps[p];
		const struct direct_platform *d = m->desc;
		harness_row = m->platform;
		for (unsigned i = 0; i < d->nkinds; i++) {
			const struct direct_kind *k = &d->kinds[i];
			if (k->space != UNCORE_SPACE_MSR)
				continue; /* Skylake's IMC: MMIO (test_direct_skl) */
			for (unsigned inst = 0; inst < k->max_instances; inst++) {
				for (unsigned n = 0; n < k->ncounters; n++) {
					/* Combined (7100/7400): control n + the kind's first
					 * counter. */
					unsigned idx = k->combined ? k->gbit + n : n;
					if (k->combined) {
						struct uncore_reg c, r;
						CHECK_EQ_INT(direct_kind_reg(k, NULL, 0, inst,
									     DIRECT_REG_CTL, n, 0,
									     &c),
							     0);
						CHECK_EQ_INT(direct_kind_reg(k, NULL, 0, inst,
									     DIRECT_REG_CTR, n, 0,
									     &r),
							     0);
						CHECK_EQ_U64(c.addr, 0x107cc + idx);
						CHECK_EQ_U64(r.addr, 0x107cc + idx);
						continue;
					}
					if (k->fixed) {
						check(m, k, inst, DIRECT_REG_CTL, n, SDM_FIXED_CTL);
						check(m, k, inst, DIRECT_REG_CTR, n, SDM_FIXED_CTR);
					} else {
						check(m, k, inst, DIRECT_REG_CTL, n, SDM_CTL);
						check(m, k, inst, DIRECT_REG_CTR, n, SDM_CTR);
					}
				}
				for (unsigned n = 0; n < k->nfixed; n++) {
					check(m, k, inst, DIRECT_REG_FIXED_CTL, n, SDM_FIXED_CTL);
					check(m, k, inst, DIRECT_REG_FIXED_CTR, n, SDM_FIXED_CTR);
				}
				for (unsigned n = 0; n < k->nfilters; n++)
					check(m, k, inst, DIRECT_REG_FILTER, n, SDM_FILTER);
			}
		}
		const struct sdm_reg *g = find(m, d->global_msr);
		CHECK(g != NULL && g->role == SDM_GLOBAL);
		if (g) {
			uint64_t all = (d->used_mask << d->used_shift) | d->counting | d->held;
			CHECK_EQ_U64(all & ~g->writable, 0);
			CHECK_EQ_U64(d->global_writable & ~g->writable, 0);
		}
	}
	harness_row = NULL;
}

/* Widths and global-control bits, each as the manual states it. */
TEST(widths_and_global_bits_are_the_manuals)
{
	const struct direct_kind *unc = direct_kind_find(&direct_platform_nhm, "unc");
	REQUIRE(unc != NULL);
	/* SDM 18.8.2: eight 48-bit counters, EN_PCn = bit n, EN_FC0 = bit 32,
	 * one 48-bit fixed counter. */
	CHECK_EQ_INT(unc->ncounters, 8);
	CHECK_EQ_INT(unc->width, 48);
	CHECK_EQ_INT(unc->gbit, 0);
	CHECK_EQ_INT(unc->fixed_gbit, 32);
	CHECK_EQ_INT(unc->nfixed, 1);

	/* SDM 18.21: counters 0-1 GBSQ, 2-3 GSNPQ, 4-7 FSB, 32-bit counts;
	 * GL_CTL: freeze bit 0, unfreeze bit 1, bit 16 + n selects CTR_CTLn. */
	static const struct {
		const char *kind;
		unsigned first, n;
	} emon[] = {{"gbsq", 0, 2}, {"gsnpq", 2, 2}, {"fsb", 4, 4}};
	for (size_t i = 0; i < sizeof(emon) / sizeof(emon[0]); i++) {
		const struct direct_kind *k =
		    direct_kind_find(&direct_platform_x7400, emon[i].kind);
		harness_row = emon[i].kind;
		REQUIRE(k != NULL);
		CHECK_EQ_INT(k->ncounters, emon[i].n);
		CHECK_EQ_INT(k->gbit, emon[i].first);
		CHECK_EQ_INT(k->width, 32);
		/* The counter's select bit is 16 + its CTR_CTL number. */
		struct uncore_reg r;
		for (unsigned n = 0; n < k->ncounters; n++) {
			CHECK_EQ_INT(direct_kind_reg(k, NULL, 0, 0, DIRECT_REG_CTR, n, 0, &r), 0);
			CHECK_EQ_U64((direct_platform_x7400.used_mask & (1u << (k->gbit + n)))
					 << direct_platform_x7400.used_shift,
				     UINT64_C(1) << (16 + (r.addr - 0x107cc)));
		}
	}
	harness_row = NULL;
	CHECK_EQ_U64(direct_platform_x7400.held, 1);     /* GL_freeze_cmd */
	CHECK_EQ_U64(direct_platform_x7400.counting, 2); /* GL_unfreeze_cmd */

	/* Skylake client (seed 001 2.3.2, 2.4.3): 44-bit CBo/ARB counters,
	 * the 48-bit fixed counter; counting is global EN (bit 29) with bits
	 * 4:0, as the kernel writes it (HARDWARE-DECISIONS.md S1). */
	static const struct {
		const char *kind;
		unsigned width;
	} skl[] = {{"cbo", 44}, {"arb", 44}, {"clock", 48}};
	for (size_t i = 0; i < sizeof(skl) / sizeof(skl[0]); i++) {
		const struct direct_kind *k = direct_kind_find(&direct_platform_skl, skl[i].kind);
		harness_row = skl[i].kind;
		REQUIRE(k != NULL);
		CHECK_EQ_INT(k->width, skl[i].width);
	}
	harness_row = NULL;
	CHECK_EQ_U64(direct_platform_skl.counting, UINT64_C(1) << 29 | 0x1f);
}

int main(void)
{
	RUN(allowlists_are_the_manuals_registers);
	RUN(engine_descriptions_name_the_manuals_registers);
	RUN(widths_and_global_bits_are_the_manuals);
	return harness_done();
}
