/* The tables generated from Intel's perfmon data (libpfm4-events/events/
 * perfmon/, tools/gen_perfmon.py) compile against our libpfm4 types and hold
 * what the generator's contract says, without ../shared: every PMU has
 * events, every event a description, counters and consistent unit masks,
 * and golden rows copied from Intel's files keep their encodings (the full
 * comparison with Intel's data is tests/integration/test_perfmon_audit.sh). */
#include "events/pfm_compat.h"

#include "events/perfmon/intel_perfmon_tables.h"
#include "harness.h"

#include <string.h>

struct pmu_table {
	const char *gen, *box;
	const intel_x86_entry_t *events;
	unsigned nevents;
};

#define ROW(g, b, arr) {#g, #b, arr, LIBPFM_ARRAY_SIZE(arr)},
static const struct pmu_table pmus[] = {PERFMON_PMUS(ROW)};

static const struct pmu_table *pmu(const char *gen, const char *box)
{
	for (size_t i = 0; i < LIBPFM_ARRAY_SIZE(pmus); i++)
		if (!strcmp(pmus[i].gen, gen) && !strcmp(pmus[i].box, box))
			return &pmus[i];
	return NULL;
}

static const intel_x86_umask_t *umask(const char *gen, const char *box, const char *ev,
				      const char *um, const intel_x86_entry_t **evp)
{
	const struct pmu_table *t = pmu(gen, box);
	if (!t)
		return NULL;
	for (unsigned e = 0; e < t->nevents; e++) {
		if (strcmp(t->events[e].name, ev))
			continue;
		*evp = &t->events[e];
		for (unsigned u = 0; u < t->events[e].numasks; u++)
			if (!strcmp(t->events[e].umasks[u].uname, um))
				return &t->events[e].umasks[u];
	}
	return NULL;
}

TEST(every_table_is_well_formed)
{
	CHECK(LIBPFM_ARRAY_SIZE(pmus) >= 80);
	for (size_t i = 0; i < LIBPFM_ARRAY_SIZE(pmus); i++) {
		const struct pmu_table *t = &pmus[i];
		char row[64];
		snprintf(row, sizeof(row), "%s_unc_%s", t->gen, t->box);
		harness_row = row;
		CHECK(t->nevents > 0);
		for (unsigned e = 0; e < t->nevents; e++) {
			const intel_x86_entry_t *ev = &t->events[e];
			CHECK(ev->name && !strncmp(ev->name, "UNC_", 4));
			CHECK(ev->desc && ev->desc[0]);
			CHECK(ev->cntmsk != 0);
			/* ev_sel, and Broadwell-EP's ExtSel at bit 21 (the
			 * Haswell-EP-style control register's ev_sel_ext) */
			CHECK((ev->code & ~(0xffULL | 1ULL << 21)) == 0);
			CHECK((ev->umasks == NULL) == (ev->numasks == 0));
			unsigned dfl = 0;
			for (unsigned u = 0; u < ev->numasks; u++) {
				const intel_x86_umask_t *um = &ev->umasks[u];
				CHECK(um->udesc && um->udesc[0]);
				CHECK(um->uflags & INTEL_X86_NCOMBO); /* Intel's values are whole */
				CHECK((um->ucode & ~0xffffffff0000ff00ULL) == 0);
				CHECK((um->ucntmsk & ~ev->cntmsk) == 0);
				dfl += !!(um->uflags & INTEL_X86_DFL);
			}
			CHECK(dfl <= 1);
		}
	}
	harness_row = NULL;
}

/* Rows copied from Intel's files (perfmon commit 6dadedf3). */
TEST(golden_rows)
{
	const intel_x86_entry_t *ev = NULL;
	const intel_x86_umask_t *u;

	/* SPR UNC_CHA_TOR_INSERTS.IA_MISS: EventCode 0x35, UMask 0x01, UMaskExt 0x00c001fe. */
	u = umask("spr", "cha", "UNC_CHA_TOR_INSERTS", "IA_MISS", &ev);
	REQUIRE(u != NULL);
	CHECK_EQ_U64(ev->code, 0x35);
	CHECK_EQ_U64(u->ucode, 0x00c001feULL << 32 | 0x01 << 8);
	CHECK_EQ_U64(ev->cntmsk, 0xf);

	/* GNR UNC_M_CAS_COUNT_SCH0.RD: 0x05, UMask 0xcf. */
	u = umask("gnr", "imc", "UNC_M_CAS_COUNT_SCH0", "RD", &ev);
	REQUIRE(u != NULL);
	CHECK_EQ_U64(ev->code, 0x05);
	CHECK_EQ_U64(u->ucode, 0xcf00);

	/* SKX UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0: 0x83, UMask 0x04,
	 * PortMask 0x01, FCMask 0x07, counters 0,1: ch_mask config:36,
	 * fc_mask config:44 (the kernel's skx IIO format). */
	u = umask("skx", "iio", "UNC_IIO_DATA_REQ_OF_CPU", "MEM_READ_PART0", &ev);
	REQUIRE(u != NULL);
	CHECK_EQ_U64(ev->code, 0x83);
	CHECK_EQ_U64(u->ucode, 0x04 << 8 | 1ULL << 36 | 7ULL << 44);
	CHECK_EQ_U64(u->ucntmsk ? u->ucntmsk : ev->cntmsk, 0x3);

	/* SKX UNC_CHA_TOR_INSERTS.IA_HIT_DRD: UMask 0x11, FILTER_VALUE 0x40433
	 * in Filter1 (the CHA's FILTER1: opcode match). */
	u = umask("skx", "cha", "UNC_CHA_TOR_INSERTS", "IA_HIT_DRD", &ev);
	REQUIRE(u != NULL);
	CHECK_EQ_U64(u->ucode, 0x11 << 8);
	CHECK_EQ_U64(u->ufilters[1], 0x40433);
	CHECK_EQ_U64(u->ufilters[0], 0);

	/* SKX UNC_M_CLOCKTICKS_F: the fixed counter. */
	const struct pmu_table *t = pmu("skx", "imc");
	REQUIRE(t != NULL);
	int found = 0;
	for (unsigned e = 0; e < t->nevents; e++)
		if (!strcmp(t->events[e].name, "UNC_M_CLOCKTICKS_F")) {
			found = 1;
			CHECK(t->events[e].flags & INTEL_X86_FIXED);
			CHECK_EQ_U64(t->events[e].cntmsk, 1ULL << 32);
		}
	CHECK(found);

	/* Experimental rows are marked. */
	u = umask("gnr", "imc", "UNC_M_ACT_COUNT", "RD", &ev);
	REQUIRE(u != NULL);
	CHECK(!strncmp(u->udesc, "[experimental] ", 15));
}

int main(void)
{
	RUN(every_table_is_well_formed);
	RUN(golden_rows);
	return harness_done();
}
