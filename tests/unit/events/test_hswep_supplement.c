/* The Haswell-EP supplement (libpfm4-events/events/supplement/): the events
 * Intel's event data lists and the manual omits, a table apart from the
 * manual's, reached through the same box types.  Checks its size and marks,
 * that no supplement name shadows a manual event, that the events parse
 * (our spelling and Intel's dotted one), encode with Intel's codes
 * (HSX haswellx_uncore.json, typed here), pass the table validator, and are
 * enumerated apart: after every event of the manual's tables. */
#include "../../harness.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "events/registry.h"
#include "eventset/native.h"

#include "validate.h"

#include <string.h>

static const char MARK[] = "[not in the manual; Intel's event data]";

static const struct uncore_event_platform *hsx(void)
{
	return uncore_event_platform_by_name("hswep");
}

TEST(forty_five_events_each_marked_and_apart)
{
	const struct uncore_event_platform *p = hsx();
	REQUIRE(p != NULL);
	unsigned n = 0;
	for (unsigned b = 0; b < p->nboxes; b++) {
		const struct uncore_box_type *bt = p->boxes[b];
		n += bt->nsupplement;
		CHECK(bt->nsupplement == 0 || bt->supplement_maxinc != NULL);
		for (unsigned e = 0; e < uncore_box_nevents(bt); e++) {
			struct uncore_event_info info;
			REQUIRE(uncore_box_event_info(bt, e, &info) == 0);
			int marked = strncmp(info.desc, MARK, sizeof(MARK) - 1) == 0;
			CHECK_EQ_INT(marked, uncore_box_event_is_supplement(bt, e));
			/* A name finds its own event: no supplement event shadows
			 * (or is shadowed by) one of the manual's. */
			CHECK_EQ_INT(uncore_box_find_event(bt, info.name), (int)e);
			for (unsigned u = 0; marked && u < info.numasks; u++) {
				struct uncore_umask_info ui;
				REQUIRE(uncore_box_umask_info(bt, e, u, &ui) == 0);
				CHECK(strncmp(ui.desc, MARK, sizeof(MARK) - 1) == 0);
			}
		}
	}
	CHECK_EQ_INT(n, 45);
}

TEST(supplement_tables_pass_the_validator)
{
	const struct uncore_event_platform *p = hsx();
	REQUIRE(p != NULL);
	/* validate_box walks every event of the box, the supplement's too. */
	for (unsigned b = 0; b < p->nboxes; b++)
		if (p->boxes[b]->nsupplement)
			CHECK_EQ_INT(validate_box(p->boxes[b]), 0);
}

/* Intel's HSX rows (EventCode, UMask, ExtSel), control value ev_sel 7:0,
 * umask 15:8, ev_sel_ext 21 (HSX PMON Table 2-169). */
static const struct {
	const char *name;
	uint64_t ctl;
} rows[] = {
    {"hswep_unc_qpi::UNC_Q_RXL_FLITS_G0:IDLE", 0x0101},
    {"hswep_unc_qpi::UNC_Q_RxL_FLITS_G0.IDLE", 0x0101},
    {"hswep_unc_qpi::UNC_Q_RXL_STALLS_VN0:BGF_NDR", 0x202035},
    {"hswep_unc_qpi::UNC_Q_RXL_CYCLES_NE_DRS:VN1", 0x20020f},
    {"hswep_unc_qpi::UNC_Q_RXL_CRC_ERRORS:NORMAL_OP", 0x0203},
    {"hswep_unc_ha::UNC_H_RPQ_CYCLES_NO_SPEC_CREDITS:CHN2", 0x0416},
    {"hswep_unc_ha::UNC_H_WPQ_CYCLES_NO_SPEC_CREDITS:CHN3", 0x0819},
    {"hswep_unc_r2pcie::UNC_R2_IIO_CREDITS_USED:NCS", 0x2032},
    {"hswep_unc_cbo::UNC_C_QLRU:VICTIM_NON_ZERO", 0x203c},
    {"hswep_unc_ubo::UNC_U_U2C_EVENTS:CMC", 0x1043},
    {"hswep_unc_sbo::UNC_S_TXR_STARVED:IV", 0x0803},
};

TEST(supplement_events_encode_with_intels_codes)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct uncore_event_ref ref;
		struct uncore_encoding enc;
		int rc = uncore_event_parse(hsx(), rows[i].name, &ref);
		CHECK_EQ_INT(rc, 0);
		if (rc) {
			printf("  %s: %s\n", rows[i].name, uncore_error_detail());
			continue;
		}
		CHECK(uncore_box_event_is_supplement(ref.box, ref.event));
		REQUIRE(uncore_event_encode(&ref, &enc) == 0);
		CHECK_EQ_U64(enc.ctl & (0xffffULL | 1ULL << 21), rows[i].ctl);
	}
}

/* PAPI's enumeration (papi_native_avail): every manual event of every box,
 * then the 45, then the metrics (names without UNC_). */
TEST(enumerated_after_every_manual_event)
{
	struct uncore_native *n = NULL;
	REQUIRE(uncore_native_create(hsx(), &n) == 0);
	uint32_t code;
	unsigned manual = 0, supp = 0, manual_after_supp = 0, total = 0;
	int rc = uncore_native_enum(n, &code, UNCORE_ENUM_FIRST);
	while (rc == 0) {
		struct uncore_native_info info;
		REQUIRE(uncore_native_info(n, code, &info) == 0);
		if (strstr(info.name, "::UNC_")) {
			if (strstr(info.desc, MARK) == info.desc) {
				supp++;
			} else {
				manual++;
				manual_after_supp += supp > 0;
			}
		}
		total++;
		rc = uncore_native_enum(n, &code, UNCORE_ENUM_EVENTS);
	}
	CHECK_EQ_INT(supp, 45);
	CHECK_EQ_INT(manual_after_supp, 0);
	unsigned want = 0;
	for (unsigned b = 0; b < hsx()->nboxes; b++)
		want += hsx()->boxes[b]->nevents;
	CHECK_EQ_INT(manual, want);
	CHECK(total > manual + supp); /* the metrics come last */
	uncore_native_destroy(n);
}

int main(void)
{
	RUN(forty_five_events_each_marked_and_apart);
	RUN(supplement_tables_pass_the_validator);
	RUN(supplement_events_encode_with_intels_codes);
	RUN(enumerated_after_every_manual_event);
	return harness_done();
}
