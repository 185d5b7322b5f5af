/* Parser and encoder behaviour on the fixture tables (real Haswell-EP box
 * layouts): every table rule, every modifier kind, qualifiers, each failure
 * with its code and a message that names what was wrong, canonical
 * formatting, and filter sharing for the scheduler. */
#include "../../harness.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"

#include "fixture_platform.h"

static struct uncore_event_ref last_ref;

/* Parse and encode; the error code (0 on success). */
static int enc(const char *str, struct uncore_encoding *out)
{
	struct uncore_encoding dummy;
	harness_row = str;
	int rc = uncore_event_parse(fixture_platform(), str, &last_ref);
	if (rc)
		return rc;
	return uncore_event_encode(&last_ref, out ? out : &dummy);
}

#define CHECK_CTL(str, want)                                                                       \
	do {                                                                                       \
		struct uncore_encoding e_;                                                         \
		int rc_ = enc(str, &e_);                                                           \
		CHECK_EQ_INT(rc_, 0);                                                              \
		if (rc_)                                                                           \
			fprintf(stderr, "    detail: %s\n", uncore_error_detail());                \
		else                                                                               \
			CHECK_EQ_U64(e_.ctl, want);                                                \
	} while (0)

#define CHECK_ERR(str, code, text)                                                                 \
	do {                                                                                       \
		CHECK_EQ_INT(enc(str, NULL), code);                                                \
		CHECK_CONTAINS(uncore_error_detail(), text);                                       \
	} while (0)

TEST(defaults_and_filters)
{
	struct uncore_encoding e;
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_LOOKUP", &e), 0);
	CHECK_EQ_U64(e.ctl, 0x334);               /* DATA_READ is the default */
	CHECK_EQ_U64(e.filter[0], 0x7fULL << 17); /* STATE_ANY is the default */
	CHECK_EQ_U64(e.filter_mask[0], 0x7fULL << 17);
	CHECK_EQ_U64(e.filter_mask[1], 0);
	CHECK_EQ_U64(e.counters, 0xf);
	CHECK_EQ_INT(e.fixed, 0);
	CHECK_EQ_INT(e.nfilters, 2);
	CHECK_EQ_INT(last_ref.instance, UNCORE_ALL);

	CHECK_EQ_INT(enc("fx_unc_cbo5::FX_C_LOOKUP:WRITE:STATE_M:STATE_E", &e), 0);
	CHECK_EQ_U64(e.ctl, 0x534);
	CHECK_EQ_U64(e.filter[0], (1ULL << 23) | (1ULL << 21));
	CHECK_EQ_U64(e.filter_mask[0], 0x7fULL << 17); /* the whole state field */
	CHECK_EQ_INT(last_ref.instance, 5);

	/* Names in any case; no PMU: the platform's one box with the event. */
	CHECK_CTL("FX_UNC_CBO::fx_c_lookup:write", 0x534);
	CHECK_CTL("FX_C_LOOKUP:any", 0x1134);
	CHECK(last_ref.box == fixture_platform()->boxes[0]);
}

TEST(unit_mask_rules)
{
	struct uncore_encoding e;
	CHECK_ERR("fx_unc_cbo::FX_C_LOOKUP:DATA_READ:WRITE", UNCORE_ECOMBO, "cannot be combined");
	CHECK_CONTAINS(uncore_error_detail(), "DATA_READ and WRITE");
	CHECK_ERR("fx_unc_cbo::FX_C_LOOKUP:STATE_ANY:STATE_M", UNCORE_ECOMBO,
		  "STATE_ANY and STATE_M");
	CHECK_CTL("fx_unc_cbo::FX_C_LOOKUP:WRITE:WRITE", 0x534); /* repeated: same as once */

	/* EXCL_GRP_GT: ALL excludes the opcode group; OPCODE needs it. */
	CHECK_CTL("fx_unc_cbo::FX_C_TOR", 0x835);
	CHECK_ERR("fx_unc_cbo::FX_C_TOR:ALL:OPC_RFO", UNCORE_ECOMBO, "ALL excludes OPC_RFO");
	CHECK_ERR("fx_unc_cbo::FX_C_TOR:OPC_RFO", UNCORE_ECOMBO,
		  "OPC_RFO needs an explicit unit mask of group 0 (the default ALL excludes it)");
	CHECK_ERR("fx_unc_cbo::FX_C_TOR:OPCODE", UNCORE_ENOUMASK, "OPC_RFO, OPC_DRD, OPC_NONE");
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_TOR:OPCODE:OPC_DRD", &e), 0);
	CHECK_EQ_U64(e.ctl, 0x135);
	CHECK_EQ_U64(e.filter[1], 0x182ULL << 20);
	CHECK_EQ_U64(e.filter_mask[1], 0x1ffULL << 20);
	CHECK_EQ_U64(e.counters, 0x3);
	/* A clear mask (bits 63:32 of ufilters) clears, and still marks the field. */
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_TOR:OPCODE:OPC_NONE", &e), 0);
	CHECK_EQ_U64(e.filter[1], 0);
	CHECK_EQ_U64(e.filter_mask[1], 0x1ffULL << 20);

	/* GRP_REQ: EVEN needs a direction; ODD narrows the counters. */
	CHECK_ERR("fx_unc_cbo::FX_C_RING:EVEN", UNCORE_ECOMBO, "need one of UP, DOWN, BOTH");
	CHECK_ERR("fx_unc_cbo::FX_C_RING", UNCORE_ENOUMASK, "UP, DOWN, BOTH");
	CHECK_CTL("fx_unc_cbo::FX_C_RING:UP:EVEN", 0x111b);
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_RING:DOWN:ODD", &e), 0);
	CHECK_EQ_U64(e.counters, 0x2);
	CHECK_EQ_U64(e.ctl, 0x221b);
	CHECK_CTL("fx_unc_cbo::FX_C_RING:BOTH", 0x31b); /* alias of UP:DOWN */
	CHECK_EQ_INT(last_ref.numasks, 2);

	/* GRP_EXCL: one group only; defaults from the first group. */
	CHECK_CTL("fx_unc_cbo::FX_C_EXCL", 0x140);
	CHECK_CTL("fx_unc_cbo::FX_C_EXCL:Y0", 0x1040);
	CHECK_CTL("fx_unc_cbo::FX_C_EXCL:X0:X1", 0x340);
	CHECK_ERR("fx_unc_cbo::FX_C_EXCL:X0:Y0", UNCORE_ECOMBO, "one group only");

	/* CODE_OVERRIDE: the umask picks the event code. */
	CHECK_CTL("fx_unc_cbo::FX_C_OVERRIDE:ALPHA", 0x120);
	CHECK_CTL("fx_unc_cbo::FX_C_OVERRIDE:ALPHA:BETA", 0x320);
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_OVERRIDE:GAMMA", &e), 0);
	CHECK_EQ_U64(e.code, 0x21);
	CHECK_ERR("fx_unc_cbo::FX_C_OVERRIDE:ALPHA:GAMMA", UNCORE_ECOMBO, "different event codes");

	/* Event alias. */
	CHECK_CTL("fx_unc_cbo::FX_C_ALIAS", 0x534);
	CHECK_EQ_STR(last_ref.box->events[last_ref.event].name, "FX_C_LOOKUP");
	CHECK_ERR("fx_unc_imc::FX_M_NO_DEFAULT", UNCORE_ENOUMASK, "RD, WR");
}

/* Intel's dotted names (its event files, `perf list`): EVENT.UNIT_MASK is
 * EVENT:UNIT_MASK, further dots are '_' in our unit-mask names. */
TEST(intel_dotted_names)
{
	struct uncore_encoding e;
	CHECK_CTL("fx_unc_cbo::FX_C_LOOKUP.WRITE", 0x534);
	CHECK_EQ_INT(last_ref.numasks, 1);
	CHECK_CTL("FX_C_LOOKUP.WRITE", 0x534); /* without the PMU too */
	CHECK_EQ_INT(enc("fx_unc_cbo5::FX_C_LOOKUP.WRITE:STATE_M:e", &e), 0);
	CHECK_EQ_U64(e.ctl, 0x534 | (1ULL << 18));
	CHECK_EQ_U64(e.filter[0], 1ULL << 23); /* STATE_M */
	CHECK_CTL("fx_unc_cbo::fx_c_lookup.write", 0x534); /* any case, as the rest */
	CHECK_ERR("fx_unc_cbo::FX_C_LOOKUP.WRITE:DATA_READ", UNCORE_ECOMBO, "cannot be combined");
	CHECK_ERR("fx_unc_cbo::FX_C_LOOKUP.NOPE", UNCORE_ENOUMASK, "NOPE");
	CHECK_ERR("fx_unc_cbo::FX_C_LOOKUP.WRITE.X", UNCORE_ENOUMASK, "WRITE_X");
	CHECK_ERR("fx_unc_cbo::FX_C_LOOKUP.", UNCORE_ESYNTAX, "EVENT.UNIT_MASK");
	CHECK_ERR("fx_unc_cbo::.WRITE", UNCORE_ESYNTAX, "EVENT.UNIT_MASK");
	CHECK_ERR("fx_unc_cbo::FX_C_NOSUCH.WRITE", UNCORE_ENOEVENT, "FX_C_NOSUCH");
}

TEST(modifiers)
{
	struct uncore_encoding e;
	CHECK_CTL("fx_unc_cbo::FX_C_CLOCKTICKS:e:t=1", (1ULL << 18) | (1ULL << 24));
	CHECK_CTL("fx_unc_cbo::FX_C_CLOCKTICKS:e=y:t=0x10", (1ULL << 18) | (0x10ULL << 24));
	CHECK_CTL("fx_unc_cbo::FX_C_CLOCKTICKS:e=0:t=010", 8ULL << 24); /* octal, as libpfm4 */
	CHECK_CTL("fx_unc_cbo::FX_C_CLOCKTICKS:t=255", 0xffULL << 24);
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:t=256", UNCORE_ERANGE, "[0-255]");
	CHECK_CTL("fx_unc_ubo::FX_U_EVENT_MSG:t=31:i", 0x42 | (31ULL << 24) | (1ULL << 23));
	CHECK_ERR("fx_unc_ubo::FX_U_EVENT_MSG:t=32", UNCORE_ERANGE, "[0-31]");
	CHECK_CTL("fx_unc_cbo::FX_C_CLOCKTICKS:t=1:t=1", 1ULL << 24);
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:t=1:t=2", UNCORE_ECOMBO, "given twice");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:zz=1", UNCORE_ENOMOD, "its modifiers: e, t, tf, cf");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:nf=1", UNCORE_ENOMOD,
		  "does not accept modifier 'nf'");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:i", UNCORE_ENOMOD, "does not accept modifier 'i'");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:e=2", UNCORE_ESYNTAX, "0 or 1");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:t", UNCORE_ESYNTAX, "needs a value");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:t=-1", UNCORE_ESYNTAX, "must be a number");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:t=99999999999999999999999", UNCORE_ESYNTAX,
		  "number");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:t=1x", UNCORE_ESYNTAX, "number");

	/* Thread/core filter: tid_en and FILTER0.tid (HSX 2.3.2.3). */
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_LOOKUP:tf=1:cf=5", &e), 0);
	CHECK_EQ_U64(e.ctl, 0x334 | (1ULL << 19));
	CHECK_EQ_U64(e.filter[0], (0x7fULL << 17) | 1 | (5 << 1));
	CHECK_EQ_U64(e.filter_mask[0], (0x7fULL << 17) | 0x3f);
	CHECK_ERR("fx_unc_cbo::FX_C_LOOKUP:cf=32", UNCORE_ERANGE, "[0-31]");

	/* nf only with a umask that requires it; then required. */
	CHECK_ERR("fx_unc_cbo::FX_C_TOR:NID_ALL", UNCORE_EINVAL, "needs modifier nf");
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_TOR:NID_ALL:nf=0x3:isoc:nc=1", &e), 0);
	CHECK_EQ_U64(e.ctl, 0x4835);
	CHECK_EQ_U64(e.filter[1], 3 | (1ULL << 31) | (1ULL << 30));
	CHECK_EQ_U64(e.filter_mask[1], 0xffff | (1ULL << 31) | (1ULL << 30));
	CHECK_ERR("fx_unc_cbo::FX_C_TOR:OPCODE:OPC_RFO:nf=1", UNCORE_ECOMBO, "applies only");
	CHECK_ERR("fx_unc_cbo::FX_C_TOR:NID_ALL:nf=0", UNCORE_ERANGE, "[1-65535]");

	/* Event-level required modifier; hard-wired modifier. */
	CHECK_ERR("fx_unc_cbo::FX_C_NEEDS_T", UNCORE_EINVAL, "needs modifier t");
	CHECK_CTL("fx_unc_cbo::FX_C_NEEDS_T:t=2", 0x11 | (2ULL << 24));
	CHECK_CTL("fx_unc_cbo::FX_C_OVERRIDE:EDGES", 0x820 | (1ULL << 18));
	CHECK_ERR("fx_unc_cbo::FX_C_OVERRIDE:EDGES:e=1", UNCORE_ECOMBO, "fixes e=1; leave e out");
	CHECK_ERR("fx_unc_cbo::FX_C_OVERRIDE:EDGES:e=0", UNCORE_ECOMBO, "fixes e=1");
}

TEST(fixed_pcu_and_extensions)
{
	struct uncore_encoding e;
	CHECK_EQ_INT(enc("fx_unc_imc2::FX_M_DCLOCKTICKS", &e), 0);
	CHECK_EQ_INT(e.fixed, 1);
	CHECK_EQ_U64(e.ctl, 0);
	CHECK_EQ_U64(e.code, 0xff);
	CHECK_EQ_U64(e.counters, 0);
	CHECK_CTL("fx_unc_imc::FX_M_DCLOCKTICKS:i=1", 1ULL << 23);
	CHECK_ERR("fx_unc_imc::FX_M_DCLOCKTICKS:t=1", UNCORE_ECOMBO, "fixed counter");
	CHECK_CTL("fx_unc_imc::FX_M_CAS", 0x0f04);
	CHECK_CTL("fx_unc_imc::FX_M_CAS:RD:WR", 0x0f04);

	/* PCU band filter byte follows the band event (HSX table 2-160). */
	CHECK_EQ_INT(enc("fx_unc_pcu::FX_P_BAND0:ff=32", &e), 0);
	CHECK_EQ_U64(e.ctl, 0x0b);
	CHECK_EQ_U64(e.filter[0], 0x20);
	CHECK_EQ_U64(e.filter_mask[0], 0xff);
	CHECK_EQ_INT(e.nfilters, 1);
	CHECK_EQ_INT(enc("fx_unc_pcu::FX_P_BAND2:ff=20", &e), 0);
	CHECK_EQ_U64(e.filter[0], 20ULL << 16);
	CHECK_EQ_U64(e.filter_mask[0], 0xffULL << 16);
	CHECK_ERR("fx_unc_pcu::FX_P_BAND0", UNCORE_EINVAL, "needs modifier ff");
	CHECK_ERR("fx_unc_pcu::FX_P_NOT_BAND:ff=3", UNCORE_ECOMBO, "frequency band events only");
	CHECK_ERR("fx_unc_pcu::FX_P_BAND0:ff=256", UNCORE_ERANGE, "[0-255]");

	/* Occupancy: occ_sel from the umask, e/i become occ_edge_det/occ_invert. */
	CHECK_EQ_INT(enc("fx_unc_pcu::FX_P_OCCUPANCY:C3:e:i:t=4", &e), 0);
	CHECK_EQ_U64(e.ctl, 0x80 | 0x8000 | (1ULL << 31) | (1ULL << 30) | (4ULL << 24));
	CHECK_EQ_INT(e.occupancy, 1);
	CHECK_CTL("fx_unc_pcu::FX_P_CLOCKTICKS:e:i:t=31",
		  (1ULL << 18) | (1ULL << 23) | (31ULL << 24));
	CHECK_ERR("fx_unc_pcu::FX_P_OCCUPANCY:C0:C3", UNCORE_ECOMBO, "cannot be combined");
	CHECK_EQ_INT(enc("fx_unc_pcu::FX_P_EXT", &e), 0);
	CHECK_EQ_U64(e.ctl, 0x0a | (1ULL << 21));
	CHECK_EQ_U64(e.code, 0x0a | (1ULL << 21));
}

TEST(qualifiers)
{
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_CLOCKTICKS:socket=1", NULL), 0);
	CHECK_EQ_INT(last_ref.socket, 1);
	CHECK_EQ_INT(last_ref.cpu, UNCORE_ALL);
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_CLOCKTICKS:cpu=17:box=4", NULL), 0);
	CHECK_EQ_INT(last_ref.cpu, 17);
	CHECK_EQ_INT(last_ref.instance, 4);
	CHECK_EQ_INT(enc("fx_unc_cbo4::FX_C_CLOCKTICKS:box=4", NULL), 0);
	CHECK_ERR("fx_unc_cbo3::FX_C_CLOCKTICKS:box=4", UNCORE_ECOMBO, "contradicts");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:box=18", UNCORE_ERANGE, "[0-17]");
	/* Decimal, or hex with 0x, as the message says: never octal. */
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_CLOCKTICKS:box=017", NULL), 0);
	CHECK_EQ_INT(last_ref.instance, 17);
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_CLOCKTICKS:box=0x11", NULL), 0);
	CHECK_EQ_INT(last_ref.instance, 17);
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_CLOCKTICKS:box=08", NULL), 0);
	CHECK_EQ_INT(last_ref.instance, 8);
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:box=-1", UNCORE_ESYNTAX, "number");
	CHECK_ERR("fx_unc_pcu::FX_P_CLOCKTICKS:box=1", UNCORE_ERANGE, "[0-0]");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:socket=1:cpu=2", UNCORE_ECOMBO, "not both");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:socket=one", UNCORE_ESYNTAX, "number");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:socket", UNCORE_ESYNTAX, "socket=N");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:socket=1:socket=2", UNCORE_ECOMBO, "contradicts");
}

TEST(lookup_errors)
{
	CHECK_ERR("fx_unc_xyz::FX_C_LOOKUP", UNCORE_ENOEVENT, "unknown PMU 'fx_unc_xyz'");
	CHECK_CONTAINS(uncore_error_detail(), "fx_unc_cbo[0-17]");
	CHECK_ERR("fx_unc_cbo18::FX_C_LOOKUP", UNCORE_ENOEVENT, "instances 0-17");
	CHECK_ERR("fx_unc_cbo03::FX_C_LOOKUP", UNCORE_ENOEVENT, "unknown PMU");
	CHECK_ERR("fx_unc_pcu0::FX_P_CLOCKTICKS", UNCORE_ENOEVENT, "unknown PMU");
	CHECK_ERR("fx_unc_cbo::FX_C_LOOK", UNCORE_ENOEVENT, "did you mean FX_C_LOOKUP");
	CHECK_ERR("fx_unc_cbo::NOPE", UNCORE_ENOEVENT, "papi_native_avail");
	CHECK_ERR("NOPE", UNCORE_ENOEVENT, "unknown event 'NOPE'");
	CHECK_ERR("fx_unc_cbo::FX_C_LOOKUP:READ", UNCORE_ENOUMASK, "valid: DATA_READ, WRITE, ANY");
	CHECK_ERR("fx_unc_cbo::FX_C_CLOCKTICKS:READ", UNCORE_ENOUMASK, "has no unit masks");

	struct uncore_event_ref ref;
	CHECK_EQ_INT(uncore_event_parse(NULL, "FX_C_LOOKUP", &ref), UNCORE_ENOEVENT);
	CHECK_CONTAINS(uncore_error_detail(), "name the PMU");

	/* An event name in two box types needs its PMU. */
	struct uncore_box_type twin = *fixture_platform()->boxes[0];
	twin.name = "fx_unc_twin";
	const struct uncore_box_type *boxes[] = {fixture_platform()->boxes[0], &twin};
	struct uncore_event_platform two = {
	    .platform = &uncore_platform_hswep, .name = "two", .boxes = boxes, .nboxes = 2};
	CHECK_EQ_INT(uncore_event_parse(&two, "FX_C_LOOKUP", &ref), UNCORE_ENOEVENT);
	CHECK_CONTAINS(uncore_error_detail(), "exists in fx_unc_cbo and fx_unc_twin");
	CHECK_EQ_INT(uncore_event_parse(&two, "fx_unc_twin::FX_C_LOOKUP", &ref), 0);
	CHECK(ref.box == &twin);
}

TEST(syntax_errors)
{
	static const char *const bad[] = {
	    "",
	    "::",
	    "fx_unc_cbo::",
	    "::FX_C_LOOKUP",
	    "fx_unc_cbo::FX_C_LOOKUP:",
	    "fx_unc_cbo::FX_C_LOOKUP::WRITE",
	    "fx_unc_cbo::FX_C_LOOKUP: WRITE",
	    "fx_unc_cbo::FX_C_LOOKUP:t=",
	    "fx_unc_cbo::FX_C_LOOKUP:=1",
	    "fx_unc_cbo::FX_C_LOOKUP:t=1=2",
	    "fx_unc_cbo::FX_C_LOOKUP:WRITE::",
	    "fx_unc_cbo::t=1",
	    "fx_unc_cbo::FX_C_LOOKUP\t",
	    "fx_unc_cbo::FX_C_LOOKUP:\x01",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		harness_row = bad[i];
		CHECK_EQ_INT(enc(bad[i], NULL), UNCORE_ESYNTAX);
	}
	char longer[UNCORE_EVENT_MAX_LEN + 10];
	memset(longer, 'A', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	CHECK_ERR(longer, UNCORE_ESYNTAX, "longer than");
	struct uncore_event_ref ref;
	CHECK_EQ_INT(uncore_event_parse(fixture_platform(), NULL, &ref), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_event_parse(fixture_platform(), "FX_C_LOOKUP", NULL), UNCORE_EINVAL);
}

/* Input quoted in a message is cut (issue 29): a 500-byte name leaves
 * room for the advice after it, and the message says it was cut. */
static void check_cut(const char *what, const char *str, const char *advice)
{
	harness_row = what;
	struct uncore_event_ref ref;
	CHECK(uncore_event_parse(fixture_platform(), str, &ref) < 0);
	const char *d = uncore_error_detail();
	CHECK(strlen(d) < 300);
	CHECK_CONTAINS(d, "...");
	CHECK_CONTAINS(d, advice);
	CHECK(strstr(d, "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB") ==
	      NULL); /* 66 B: more than UNCORE_QUOTE_MAX */
}

TEST(long_input_is_cut_in_messages)
{
	char name[481], s[UNCORE_EVENT_MAX_LEN + 1];
	memset(name, 'B', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(s, sizeof(s), "%s::FX_C_LOOKUP", name);
	check_cut("PMU", s, "fx_unc_cbo");
	snprintf(s, sizeof(s), "fx_unc_cbo::%s", name);
	check_cut("event", s, "papi_native_avail");
	snprintf(s, sizeof(s), "%s", name);
	check_cut("event anywhere", s, "name its PMU");
	snprintf(s, sizeof(s), "fx_unc_cbo::FX_C_LOOKUP:%s", name);
	check_cut("unit mask", s, "valid: DATA_READ");
	snprintf(s, sizeof(s), "fx_unc_cbo::FX_C_LOOKUP:t=%s", name);
	check_cut("modifier value", s, "the value must be");
	snprintf(s, sizeof(s), "fx_unc_cbo::FX_C_LOOKUP:socket=%s", name);
	check_cut("qualifier value", s, "decimal, or hex with 0x");
	harness_row = NULL;
}

TEST(format_round_trip)
{
	static const char *const events[] = {
	    "fx_unc_cbo::FX_C_LOOKUP",
	    "fx_unc_cbo7::fx_c_lookup:state_e:write:state_m:t=3:e",
	    "fx_unc_cbo::FX_C_TOR:nf=9:NID_ALL:isoc",
	    "fx_unc_cbo::FX_C_RING:BOTH:EVEN",
	    "fx_unc_pcu::FX_P_OCCUPANCY:C6:i:t=2:socket=1",
	    "fx_unc_pcu::FX_P_CLOCKTICKS:box=0:cpu=3",
	    "fx_unc_imc::FX_M_DCLOCKTICKS:i",
	    "FX_M_CAS:RD",
	};
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		struct uncore_encoding a, b;
		struct uncore_event_ref first;
		char s1[256], s2[256];
		harness_row = events[i];
		CHECK_EQ_INT(enc(events[i], &a), 0);
		first = last_ref;
		CHECK_EQ_INT(uncore_event_format(&first, s1, sizeof(s1)), 0);
		CHECK_EQ_INT(enc(s1, &b), 0);
		CHECK_EQ_INT(uncore_event_format(&last_ref, s2, sizeof(s2)), 0);
		CHECK_EQ_STR(s2, s1);
		CHECK_EQ_U64(b.ctl, a.ctl);
		CHECK_EQ_U64(b.filter[0], a.filter[0]);
		CHECK_EQ_U64(b.filter[1], a.filter[1]);
		CHECK_EQ_INT(last_ref.instance, first.instance);
		CHECK_EQ_INT(last_ref.socket, first.socket);
		CHECK_EQ_INT(last_ref.cpu, first.cpu);
	}
	enc("fx_unc_cbo7::fx_c_lookup:state_e:write:state_m:t=3:e", NULL);
	char s[256];
	CHECK_EQ_INT(uncore_event_format(&last_ref, s, sizeof(s)), 0);
	CHECK_EQ_STR(s, "fx_unc_cbo7::FX_C_LOOKUP:WRITE:STATE_M:STATE_E:e=1:t=3");
	char tiny[10];
	CHECK_EQ_INT(uncore_event_format(&last_ref, tiny, sizeof(tiny)), UNCORE_ENOSPACE);
}

TEST(filter_sharing)
{
	struct uncore_encoding m, e, opc, clk, acc;
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_LOOKUP:STATE_M", &m), 0);
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_LOOKUP:STATE_E", &e), 0);
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_TOR:OPCODE:OPC_RFO", &opc), 0);
	CHECK_EQ_INT(enc("fx_unc_cbo::FX_C_CLOCKTICKS", &clk), 0);
	CHECK_EQ_INT(uncore_filters_compatible(&m, &e), 0);
	CHECK_EQ_INT(uncore_filters_compatible(&m, &opc), 1);
	CHECK_EQ_INT(uncore_filters_compatible(&clk, &m), 1);
	acc = clk;
	CHECK_EQ_INT(uncore_filters_merge(&acc, &m), 0);
	CHECK_EQ_INT(uncore_filters_merge(&acc, &opc), 0);
	CHECK_EQ_U64(acc.filter[0], 1ULL << 23);
	CHECK_EQ_U64(acc.filter[1], 0x180ULL << 20);
	CHECK_EQ_INT(uncore_filters_merge(&acc, &e), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "filter register 0");
	CHECK_EQ_U64(acc.filter[0], 1ULL << 23); /* unchanged on conflict */
}

int main(void)
{
	RUN(defaults_and_filters);
	RUN(unit_mask_rules);
	RUN(intel_dotted_names);
	RUN(modifiers);
	RUN(fixed_pcu_and_extensions);
	RUN(qualifiers);
	RUN(lookup_errors);
	RUN(syntax_errors);
	RUN(long_input_is_cut_in_messages);
	RUN(format_round_trip);
	RUN(filter_sharing);
	return harness_done();
}
