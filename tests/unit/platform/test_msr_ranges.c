/* Validator of the MSR range tables: every table is consistent; the
 * Haswell-EP table expands to exactly the MSRs Table 1-2 of the manual lists
 * (its address cells, copied below by a script, not by hand); masks allow the
 * fields of the field tables and nothing reserved; the msr-safe text is
 * sorted, unique and parseable; the in-process allowlist agrees with it. */
#include "platform/msr_ranges.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "hswep_manual_tables.h"

#include <stdlib.h>

static uint8_t listed[0x1000]; /* MSR -> listed by Table 1-2 (all are < 0x1000) */

static void parse_cell(const char *cell)
{
	const char *p = cell;
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 16), b = a;
		if (end == p) {
			HARNESS_FAIL_AT("cannot parse \"%s\"", cell);
			return;
		}
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 16);
			p = end;
		}
		if (a > b) { /* the manual writes ranges high-low */
			unsigned long t = a;
			a = b;
			b = t;
		}
		for (unsigned long m = a; m <= b && m < 0x1000; m++)
			listed[m] = 1;
		while (*p == ',' || *p == ' ')
			p++;
	}
}

TEST(every_table_is_consistent)
{
	size_t n;
	const struct uncore_msr_table *const *t = uncore_msr_tables(&n);
	CHECK(n >= 1);
	for (size_t i = 0; i < n; i++) {
		harness_row = t[i]->platform;
		CHECK_EQ_INT(uncore_msr_table_check(t[i]), 0);
		CHECK(uncore_msr_table_for(t[i]->platform) == t[i]);
	}
	harness_row = NULL;
	CHECK(uncore_msr_table_for("nosuch") == NULL);
	CHECK(uncore_msr_table_for(NULL) == NULL);
}

TEST(hswep_table_is_table_1_2)
{
	const struct uncore_msr_table *t = uncore_msr_table_for("hswep");
	CHECK(t != NULL);
	if (!t)
		return;
	memset(listed, 0, sizeof(listed));
	for (size_t i = 0; i < sizeof(table_1_2) / sizeof(table_1_2[0]); i++)
		parse_cell(table_1_2[i]);
	listed[0x702] = 1; /* U_MSR_PMON_GLOBAL_CONFIG: Table 2-1, not in Table 1-2 */
	size_t want = 0;
	for (unsigned m = 0; m < 0x1000; m++)
		want += listed[m];
	CHECK_EQ_INT(want, 282);
	CHECK_EQ_INT(uncore_msr_table_count(t), want);
	for (size_t i = 0; i < uncore_msr_table_count(t); i++) {
		uint32_t msr;
		uint64_t mask;
		const struct uncore_msr_range *r;
		CHECK_EQ_INT(uncore_msr_table_get(t, i, &msr, &mask, &r), 0);
		if (msr >= 0x1000 || !listed[msr])
			HARNESS_FAIL_AT("MSR 0x%x (%s) is not in Table 1-2", msr, r->name);
		else
			listed[msr] = 2;
	}
	for (unsigned m = 0; m < 0x1000; m++)
		if (listed[m] == 1)
			HARNESS_FAIL_AT("Table 1-2 lists MSR 0x%x but the table lacks it", m);
	uint32_t msr;
	uint64_t mask;
	const struct uncore_msr_range *r;
	CHECK_EQ_INT(uncore_msr_table_get(t, want, &msr, &mask, &r), UNCORE_ERANGE);
}

/* The mask of MSR `msr` in a table (or ~0 when absent). */
static uint64_t mask_of(const struct uncore_msr_table *t, uint32_t msr)
{
	for (size_t i = 0; i < uncore_msr_table_count(t); i++) {
		uint32_t m;
		uint64_t mask;
		const struct uncore_msr_range *r;
		uncore_msr_table_get(t, i, &m, &mask, &r);
		if (m == msr)
			return mask;
	}
	return ~0ull;
}

TEST(hswep_masks_follow_the_field_tables)
{
	const struct uncore_msr_table *t = uncore_msr_table_for("hswep");
	static const struct {
		uint32_t msr;
		uint64_t mask;
		const char *what;
	} rows[] = {
	    {0x700, 0xe003ffff, "GLOBAL_CTL frz_all/unfrz_all/wk_on_pmi/pmi_core_sel (T2-2)"},
	    {0x701, 0xc3fe00007ull, "GLOBAL_STATUS RW1C ov bits (T2-3)"},
	    {0x702, 0, "GLOBAL_CONFIG read-only by choice"},
	    {0x703, 1u << 22 | 1u << 20, "UCLK_FIXED_CTL en, ov_en (T2-9)"},
	    {0x705, 0x1fd6ffff, "U CTL0: thresh 5 bits, no bit 16/19/21 (T2-7)"},
	    {0x708, 0x3, "U BOX_STATUS ov 1:0 (T2-6)"},
	    {0x70a, 0xffffffffffffull, "U CTR1 48 bits (T2-8)"},
	    {0x710, 0x30103, "PCU BOX_CTL rst/frz + must-1 17:16 (T2-156)"},
	    {0x714, 0xdff6c0ff, "PCU CTL3 occ fields (T2-158)"},
	    {0x715, 0xffffffff, "PCU FILTER bands (T2-160)"},
	    {0x3fd, 0, "CC6 residency RO (T2-161)"},
	    {0x60d, 0, "PC2 residency RO (T2-163)"},
	    {0x73e, 0x30103, "SBo3 BOX_CTL (T2-44, T2-45)"},
	    {0x742, 0xffceffff, "SBo3 CTL3 (T2-47)"},
	    {0x743, 0xf, "SBo3 BOX_STATUS (T2-46)"},
	    {0x747, 0xffffffffffffull, "SBo3 CTR3 (T2-48)"},
	    {0xe00, 0x30103, "C0 BOX_CTL (T2-14)"},
	    {0xe01, 0xffceffff, "C0 CTL0: no ov_en (21:20 rsv, T2-16)"},
	    {0xec5, 0x00fe003f, "C12 FILTER0 state, tid (T2-18)"},
	    {0xf16, 0xdff0ffff, "C17 FILTER1 isoc, nc, opc, nid (T2-19)"},
	    {0xf17, 0xf, "C17 BOX_STATUS (T2-15)"},
	    {0xf1b, 0xffffffffffffull, "C17 CTR3 (T2-17)"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		harness_row = rows[i].what;
		CHECK_EQ_U64(mask_of(t, rows[i].msr), rows[i].mask);
	}
	harness_row = NULL;
	CHECK_EQ_U64(mask_of(t, 0xe0c), ~0ull); /* CBo 0 has nothing at +0xC */
	CHECK_EQ_U64(mask_of(t, 0x707), ~0ull); /* nor the UBox at 0x707 */
}

TEST(allowlist_text_is_sorted_unique_and_parseable)
{
	const struct uncore_msr_table *t = uncore_msr_table_for("hswep");
	int need = uncore_msr_allowlist_text(t, NULL, 0);
	CHECK(need > 0);
	char *buf = malloc((size_t)need + 1);
	CHECK_EQ_INT(uncore_msr_allowlist_text(t, buf, (size_t)need + 1), need);
	CHECK_EQ_INT(strlen(buf), need);
	CHECK_CONTAINS(buf, "0x00000E01 0x00000000FFCEFFFF # Cn_MSR_PMON_CTL{0-3}");
	CHECK_CONTAINS(buf, "0x00000702 0x0000000000000000 # U_MSR_PMON_GLOBAL_CONFIG");
	size_t entries = 0;
	long last = -1;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#')
			continue;
		unsigned msr;
		unsigned long long mask;
		CHECK_EQ_INT(sscanf(line, "0x%8x 0x%16llx # ", &msr, &mask), 2);
		CHECK((long)msr > last); /* sorted, no duplicates (msr-safe rejects those) */
		CHECK_EQ_U64(mask, mask_of(t, msr));
		last = msr;
		entries++;
	}
	CHECK_EQ_INT(entries, uncore_msr_table_count(t));
	free(buf);

	/* Too small a buffer: truncated, terminated, full length returned. */
	char small[40];
	CHECK_EQ_INT(uncore_msr_allowlist_text(t, small, sizeof(small)), need);
	CHECK_EQ_INT(strlen(small), sizeof(small) - 1);
}

TEST(in_process_allowlist_agrees)
{
	const struct uncore_msr_table *t = uncore_msr_table_for("hswep");
	struct uncore_allowlist *al;
	CHECK_EQ_INT(uncore_allowlist_create(&al), 0);
	CHECK_EQ_INT(uncore_allowlist_add_msr_table(al, t, UNCORE_ALLOWLIST_ANY_UNIT), 0);
	for (size_t i = 0; i < uncore_msr_table_count(t); i++) {
		uint32_t msr;
		uint64_t mask;
		const struct uncore_msr_range *r;
		uncore_msr_table_get(t, i, &msr, &mask, &r);
		struct uncore_reg reg = {
		    .space = UNCORE_SPACE_MSR, .width = 8, .socket = 1, .addr = msr};
		CHECK_EQ_INT(uncore_allowlist_check_write(al, &reg, mask), 0);
		if (mask != ~0ull) {
			uint64_t bad = ~mask & (0 - ~mask); /* lowest bit outside the mask */
			CHECK_EQ_INT(uncore_allowlist_check_write(al, &reg, bad), UNCORE_EDENIED);
		}
	}
	struct uncore_reg hole = {.space = UNCORE_SPACE_MSR, .width = 8, .addr = 0xe0c};
	CHECK_EQ_INT(uncore_allowlist_check_write(al, &hole, 0), UNCORE_EDENIED);
	uncore_allowlist_free(al);
}

int main(void)
{
	RUN(every_table_is_consistent);
	RUN(hswep_table_is_table_1_2);
	RUN(hswep_masks_follow_the_field_tables);
	RUN(allowlist_text_is_sorted_unique_and_parseable);
	RUN(in_process_allowlist_agrees);
	return harness_done();
}
