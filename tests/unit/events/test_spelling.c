/* Other tools' spellings of an event (events/spelling.h): perf's
 * PMU/fields/, Intel's EVENT.UMASK, raw fields separated by ','.  Each row:
 * the name as typed, and our spelling, or NULL with a piece of the message
 * that refuses it (which names what to type instead); then the rows that
 * name table events parse to the same event as our spelling. */
#include "common/uncore_error.h"
#include "events/parse.h"
#include "events/registry.h"
#include "events/spelling.h"
#include "harness.h"

static const struct {
	const char *in, *want, *refusal;
} rows[] = {
    /* ours, unchanged */
    {"hswep_unc_imc::UNC_M_CAS_COUNT:RD", "hswep_unc_imc::UNC_M_CAS_COUNT:RD", NULL},
    {"uncore_imc_0::event=0x4:umask=0x3", "uncore_imc_0::event=0x4:umask=0x3", NULL},
    {"hswep_metric::DRAM_BW:int", "hswep_metric::DRAM_BW:int", NULL},
    {"PAPI_UNC_DRAM_RD_BYTES:socket=1", "PAPI_UNC_DRAM_RD_BYTES:socket=1", NULL},
    {"UNC_M_CAS_COUNT:RD", "UNC_M_CAS_COUNT:RD", NULL},
    /* perf's PMU/terms/ */
    {"uncore_imc_0/event=0x4,umask=0x3/", "uncore_imc_0::event=0x4:umask=0x3", NULL},
    {"uncore_imc/cas_count_read/", "uncore_imc::cas_count_read", NULL},
    {"uncore_imc_0/event=0x4,umask=0x3/:socket=1", "uncore_imc_0::event=0x4:umask=0x3:socket=1",
     NULL},
    {"hswep_unc_imc/UNC_M_CAS_COUNT.RD/", "hswep_unc_imc::UNC_M_CAS_COUNT.RD", NULL},
    {"uncore_cbox_0/event=0x34,umask=0x8f,thresh=1/",
     "uncore_cbox_0::event=0x34:umask=0x8f:thresh=1", NULL},
    {"uncore_imc_0/event=0x4,umask=0x3/u", NULL, "write 'uncore_imc_0::event=0x4:umask=0x3'"},
    {"uncore_imc_0/event=0x4,umask=0x3/GH", NULL, "perf's modifier 'GH'"},
    {"uncore_imc_0/event=0x4", NULL, "needs its closing '/'"},
    {"uncore_imc_0//", NULL, "no event or field"},
    {"uncore_imc_0/event=0x4,,umask=0x3/", NULL, "an empty term"},
    /* Intel's dotted names: left to the table parser */
    {"UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT.RD", NULL},
    {"hswep_unc_imc::UNC_M_CAS_COUNT.RD:socket=1", "hswep_unc_imc::UNC_M_CAS_COUNT.RD:socket=1",
     NULL},
    /* raw fields separated by ',' */
    {"uncore_upi::event=0x2,umask=0xf", "uncore_upi::event=0x2:umask=0xf", NULL},
    {"uncore_upi::event=0x2,umask=0xf:socket=1", "uncore_upi::event=0x2:umask=0xf:socket=1",
     NULL},
    /* a list is not one name: its commas stay for the parser to refuse */
    {"hswep_unc_imc::UNC_M_CAS_COUNT:RD,hswep_unc_imc::UNC_M_CAS_COUNT:WR",
     "hswep_unc_imc::UNC_M_CAS_COUNT:RD,hswep_unc_imc::UNC_M_CAS_COUNT:WR", NULL},
};

TEST(every_spelling_becomes_ours_or_is_refused_with_what_to_type)
{
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char out[256] = "untouched";
		harness_row = rows[i].in;
		int rc = uncore_event_spelling(rows[i].in, out, sizeof(out));
		if (rows[i].want) {
			CHECK_EQ_INT(rc, 0);
			CHECK_EQ_STR(out, rows[i].want);
		} else {
			CHECK_EQ_INT(rc, UNCORE_ESYNTAX);
			CHECK_EQ_STR(out, "untouched");
			CHECK_CONTAINS(uncore_error_detail(), rows[i].refusal);
		}
	}
	harness_row = NULL;
}

TEST(table_events_in_other_spellings_parse_as_ours)
{
	static const struct {
		const char *other, *ours;
	} same[] = {
	    {"UNC_M_CAS_COUNT.RD", "hswep_unc_imc::UNC_M_CAS_COUNT:RD"},
	    {"hswep_unc_imc/UNC_M_CAS_COUNT.WR/", "hswep_unc_imc::UNC_M_CAS_COUNT:WR"},
	    {"UNC_Q_TXL_FLITS_G0.DATA", "hswep_unc_qpi::UNC_Q_TXL_FLITS_G0:DATA"},
	    {"UNC_C_LLC_LOOKUP.ANY:STATE_I", "hswep_unc_cbo::UNC_C_LLC_LOOKUP:ANY:STATE_I"},
	};
	const struct uncore_event_platform *plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	for (unsigned i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		char spelled[256], a[256], b[256];
		struct uncore_event_ref ra, rb;
		harness_row = same[i].other;
		CHECK_EQ_INT(uncore_event_spelling(same[i].other, spelled, sizeof(spelled)), 0);
		CHECK_EQ_INT(uncore_event_parse(plat, spelled, &ra), 0);
		CHECK_EQ_INT(uncore_event_parse(plat, same[i].ours, &rb), 0);
		CHECK_EQ_INT(uncore_event_format(&ra, a, sizeof(a)), 0);
		CHECK_EQ_INT(uncore_event_format(&rb, b, sizeof(b)), 0);
		CHECK_EQ_STR(a, b);
	}
	harness_row = NULL;
}

TEST(list_pieces_continue_an_open_perf_form_or_raw_fields)
{
	CHECK_EQ_INT(uncore_event_list_continues("uncore_imc_0/event=0x4", "umask=0x3/"), 1);
	CHECK_EQ_INT(uncore_event_list_continues("uncore_upi::event=0x2", "umask=0xf"), 1);
	CHECK_EQ_INT(uncore_event_list_continues("uncore_upi::event=0x2", "umask=0xf:socket=1"), 1);
	CHECK_EQ_INT(uncore_event_list_continues("uncore_imc_0/event=0x4,umask=0x3/", "x"), 0);
	CHECK_EQ_INT(
	    uncore_event_list_continues("hswep_unc_imc::UNC_M_CAS_COUNT:RD", "UNC_M_CAS_COUNT:WR"), 0);
	/* an event with '=' of its own (the high-level API's =instant) starts anew */
	CHECK_EQ_INT(uncore_event_list_continues("uncore_upi::event=0x2", "PAPI_TOT_CYC=instant"), 0);
	CHECK_EQ_INT(uncore_event_list_continues("hswep_unc_imc::UNC_M_CAS_COUNT:RD", "t=1"), 0);
}

TEST(too_long_is_refused)
{
	char in[2048], out[64];
	memset(in, 'a', sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	CHECK_EQ_INT(uncore_event_spelling(in, out, sizeof(out)), UNCORE_ENOSPACE);
	CHECK_EQ_INT(uncore_event_spelling("UNC_M_CAS_COUNT.RD", out, 8), UNCORE_ENOSPACE);
}

int main(void)
{
	RUN(every_spelling_becomes_ours_or_is_refused_with_what_to_type);
	RUN(table_events_in_other_spellings_parse_as_ours);
	RUN(list_pieces_continue_an_open_perf_form_or_raw_fields);
	RUN(too_long_is_refused);
	return harness_done();
}
