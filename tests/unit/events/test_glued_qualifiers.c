/* Qualifiers without '=' (":socket1", ":box3", ":cpu5"), for tools that
 * give '=' a meaning of their own (the high-level API's "=instant"): the
 * same event as with '='; a umask of that spelling would win; bad forms are
 * refused. */
#include "common/uncore_error.h"
#include "events/parse.h"
#include "events/registry.h"
#include "harness.h"

static const struct uncore_event_platform *plat;

TEST(glued_qualifiers_equal_the_ones_with_equals)
{
	static const struct {
		const char *glued, *equals;
	} rows[] = {
	    {"hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket1",
	     "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1"},
	    {"hswep_unc_imc::UNC_M_CAS_COUNT:RD:box3", "hswep_unc_imc::UNC_M_CAS_COUNT:RD:box=3"},
	    {"hswep_unc_cbo::UNC_C_CLOCKTICKS:cpu5", "hswep_unc_cbo::UNC_C_CLOCKTICKS:cpu=5"},
	    {"hswep_unc_imc::UNC_M_CAS_COUNT:SOCKET0:RD",
	     "hswep_unc_imc::UNC_M_CAS_COUNT:socket=0:RD"},
	};
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct uncore_event_ref a, b;
		harness_row = rows[i].glued;
		CHECK_EQ_INT(uncore_event_parse(plat, rows[i].glued, &a), 0);
		CHECK_EQ_INT(uncore_event_parse(plat, rows[i].equals, &b), 0);
		CHECK_EQ_INT(a.socket, b.socket);
		CHECK_EQ_INT(a.instance, b.instance);
		CHECK_EQ_INT(a.cpu, b.cpu);
		CHECK_EQ_INT((int)a.numasks, (int)b.numasks);
	}
}

TEST(bad_glued_forms_are_refused)
{
	struct uncore_event_ref r;
	CHECK(uncore_event_parse(plat, "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socketx", &r) < 0);
	CHECK(uncore_event_parse(plat, "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket1x", &r) < 0);
	CHECK(uncore_event_parse(plat, "hswep_unc_imc::UNC_M_CAS_COUNT:RD:box99", &r) < 0);
	CHECK(uncore_event_parse(plat, "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket1:socket0", &r) <
	      0);
}

int main(void)
{
	plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	RUN(glued_qualifiers_equal_the_ones_with_equals);
	RUN(bad_glued_forms_are_refused);
	return harness_done();
}
