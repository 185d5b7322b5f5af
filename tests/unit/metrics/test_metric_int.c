/* Integer forms of metrics (":int", metrics.h): the units table, the
 * qualifier forms without '=' (":socket1", for the high-level API's
 * "=instant"), and the values in an event set on the simulator: the double
 * times the scale, rounded, exactly, beside the double itself. */
#include "common/uncore_error.h"
#include "events/registry.h"
#include "harness.h"
#include "metrics/metrics.h"
#include "sim_set.h"

#include <math.h>
#include <string.h>

TEST(units_have_integer_forms)
{
	static const struct {
		const char *units, *int_units;
		double scale;
	} rows[] = {
	    {"GB/s", "MB/s", 1e3},
	    {"fraction", "parts per million", 1e6},
	    {"fraction of cycles", "parts per million of cycles", 1e6},
	    {"ns", "ps", 1e3},
	    {"MHz", "kHz", 1e3},
	    {"bytes", "bytes", 1},
	    {"requests", "requests", 1},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char u[48];
		double scale = 0;
		harness_row = rows[i].units;
		uncore_metric_int_units(rows[i].units, &scale, u, sizeof(u));
		CHECK_EQ_STR(u, rows[i].int_units);
		CHECK_NEAR(scale, rows[i].scale, 0);
	}
}

TEST(qualifiers_with_and_without_equals)
{
	const struct uncore_event_platform *plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	struct uncore_metric_ref r;
	CHECK_EQ_INT(uncore_metric_parse(plat, "hswep_metric::DRAM_BW:int", &r), 0);
	CHECK_EQ_INT(r.integer, 1);
	CHECK_EQ_INT(r.socket, UNCORE_ALL);
	CHECK_EQ_INT(uncore_metric_parse(plat, "hswep_metric::DRAM_BW:socket1:int", &r), 0);
	CHECK_EQ_INT(r.socket, 1);
	CHECK_EQ_INT(r.integer, 1);
	CHECK_EQ_INT(uncore_metric_parse(plat, "hswep_unc_imc::MEM_BW_READS:box3:SOCKET0", &r), 0);
	CHECK_EQ_INT(r.instance, 3);
	CHECK_EQ_INT(r.socket, 0);
	CHECK_EQ_INT(r.integer, 0);
	CHECK_EQ_INT(uncore_metric_parse(plat, "hswep_metric::DRAM_BW:int:int", &r),
		     UNCORE_ESYNTAX);
	CHECK_EQ_INT(uncore_metric_parse(plat, "hswep_metric::DRAM_BW:socketx", &r),
		     UNCORE_ESYNTAX);
	CHECK_EQ_INT(uncore_metric_parse(plat, "hswep_metric::DRAM_BW:socket1=instant", &r),
		     UNCORE_ERANGE);
}

TEST(integer_forms_in_an_event_set)
{
	struct sim_set e;
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", "stream.scn", NULL), 0);
	if (!e.set)
		return;
	const char *names[] = {"hswep_metric::DRAM_BW", "hswep_metric::DRAM_BW:int",
			       "hswep_metric::DRAM_BW:socket1:int",
			       "hswep_unc_imc::PCT_REQUESTS_PAGE_HIT",
			       "hswep_unc_imc::PCT_REQUESTS_PAGE_HIT:int"};
	uint64_t v[5];
	CHECK_EQ_INT(sim_set_assign(&e, names, 5), 0);
	CHECK_EQ_INT(uncore_set_start(e.set), 0);
	CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S / 3), 0);
	CHECK_EQ_INT(uncore_set_read(e.set, v), 0);
	double bw = sim_set_value(&e, v, 0), hit = sim_set_value(&e, v, 3);
	CHECK(bw > 0);
	CHECK_EQ_U64(v[1], (uint64_t)(int64_t)round(bw * 1e3));
	CHECK_EQ_U64(v[2], (uint64_t)(int64_t)round(bw * 1e3 / 2));
	CHECK_EQ_U64(v[4], (uint64_t)(int64_t)round(hit * 1e6));
	struct uncore_set_entry_info info;
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 1, &info), 0);
	CHECK_EQ_INT(info.integer, 1);
	CHECK_EQ_STR(info.units, "MB/s");
	CHECK_EQ_INT(uncore_set_entry_info(e.set, 0, &info), 0);
	CHECK_EQ_INT(info.integer, 0);
	CHECK_EQ_STR(info.units, "GB/s");
	sim_set_close(&e);
}

int main(void)
{
	RUN(units_have_integer_forms);
	RUN(qualifiers_with_and_without_equals);
	RUN(integer_forms_in_an_event_set);
	return harness_done();
}
