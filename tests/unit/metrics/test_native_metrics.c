/* Metrics in the native-event code space (eventset/native.h): listed after the
 * events with their :socket= and :box= qualifiers, described with units and
 * as doubles, found by name (plain or qualified), their PMU routed; a
 * platform without metrics lists events only. */
#include "common/uncore_error.h"
#include "eventset/native.h"
#include "harness.h"
#include "metrics/metrics.h"

#include <stdio.h>
#include <string.h>

TEST(metrics_follow_the_events_with_units)
{
	const struct uncore_event_platform *plat = uncore_event_platform_by_name("hswep");
	const struct uncore_metric_catalog *cat;
	struct uncore_native *n = NULL;
	CHECK_EQ_INT(uncore_metric_catalog_get(plat, &cat), 0);
	CHECK_EQ_INT(uncore_native_create(plat, &n), 0);
	if (!n)
		return;
	uint32_t code;
	unsigned events = 0, metrics = 0, quals = 0;
	struct uncore_native_info info;
	int rc = uncore_native_enum(n, &code, UNCORE_ENUM_FIRST);
	while (rc == 0) {
		CHECK_EQ_INT(uncore_native_info(n, code, &info), 0);
		if (code & UNCORE_NATIVE_METRIC) {
			metrics++;
			CHECK_EQ_INT(info.fp64, 1);
			CHECK(info.units[0] != '\0');
			uint32_t sub = code;
			while (uncore_native_enum(n, &sub, UNCORE_ENUM_UMASKS) == 0) {
				struct uncore_native_info qi;
				CHECK_EQ_INT(uncore_native_info(n, sub, &qi), 0);
				CHECK_EQ_INT(qi.kind, UNCORE_NATIVE_QUALIFIER);
				if (strstr(qi.name, ":int")) {
					/* The integer form: a signed integer, its own units. */
					CHECK_EQ_INT(qi.fp64, 0);
					CHECK_EQ_INT(qi.int64, 1);
					CHECK(qi.units[0] != '\0');
					uint32_t back;
					CHECK_EQ_INT(uncore_native_code(n, qi.name, &back), 0);
					CHECK_EQ_U64(back, sub);
				} else {
					CHECK(strstr(qi.name, ":socket=0") ||
					      strstr(qi.name, ":box=0"));
				}
				quals++;
			}
		} else {
			CHECK_EQ_INT(metrics, 0); /* events first */
			CHECK_EQ_INT(info.fp64, 0);
			events++;
		}
		rc = uncore_native_enum(n, &code, UNCORE_ENUM_EVENTS);
	}
	/* Only countable metrics are listed; one the platform cannot measure
	 * still answers with the reason when named. */
	unsigned available = 0;
	const struct uncore_metric_def *unlisted = NULL;
	for (unsigned i = 0; i < cat->ndefs; i++) {
		available += !cat->defs[i].unavailable;
		if (cat->defs[i].unavailable && !unlisted)
			unlisted = &cat->defs[i];
	}
	CHECK_EQ_INT(metrics, available);
	CHECK(unlisted != NULL); /* hswep has some (PCT_CYC_FREQ_CURRENT_LTD) */
	CHECK_EQ_INT(events + metrics, uncore_native_count(n));
	if (unlisted) {
		char name[128];
		snprintf(name, sizeof(name), "%s::%s", unlisted->pmu, unlisted->name);
		int urc = uncore_native_code(n, name, &code);
		CHECK_EQ_INT(urc, UNCORE_ENOSUPP);
		CHECK_CONTAINS(uncore_error_detail(), "cannot be measured");
	}
	CHECK(quals >= metrics - 1); /* every available metric has :socket= */

	/* By name: plain metrics get their enumerated code, qualified ones a
	 * named code that still describes the metric. */
	CHECK_EQ_INT(uncore_native_code(n, "hswep_metric::DRAM_BW", &code), 0);
	CHECK(code & UNCORE_NATIVE_METRIC);
	CHECK_EQ_INT(uncore_native_info(n, code, &info), 0);
	CHECK_EQ_STR(info.name, "hswep_metric::DRAM_BW");
	CHECK_EQ_STR(info.units, "GB/s");
	CHECK_CONTAINS(info.desc, "DRAM bandwidth");
	/* The run form of the whole machine is not the metric: since start
	 * (it had the metric's code, so it read since the last read). */
	uint32_t run;
	CHECK_EQ_INT(uncore_native_code(n, "hswep_metric::DRAM_BW:run", &run), 0);
	CHECK(run != code);
	CHECK_EQ_INT(uncore_native_info(n, run, &info), 0);
	CHECK_EQ_STR(info.name, "hswep_metric::DRAM_BW:run");
	CHECK_EQ_INT(info.since_start, 1);
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_imc::MEM_BW_READS:socket=1", &code), 0);
	CHECK(code & UNCORE_NATIVE_NAMED);
	CHECK_EQ_INT(uncore_native_info(n, code, &info), 0);
	CHECK_EQ_INT(info.fp64, 1);
	CHECK_EQ_STR(info.units, "bytes");
	char s[256];
	CHECK_EQ_INT(uncore_native_event_string(n, code, s, sizeof(s)), 0);
	CHECK_EQ_STR(s, "hswep_unc_imc::MEM_BW_READS:socket=1");
	/* Errors: an unknown name stays an unknown event; a bad qualifier is said. */
	CHECK_EQ_INT(uncore_native_code(n, "hswep_metric::NOPE", &code), UNCORE_ENOEVENT);
	CHECK_EQ_INT(uncore_native_code(n, "hswep_metric::DRAM_BW:socket=x", &code), UNCORE_ERANGE);
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_imc::UNC_M_CAS_COUNT:NOPE", &code),
		     UNCORE_ENOUMASK);
	/* PAPI routes hswep_metric:: to this component. */
	unsigned np;
	const char *const *pmus = uncore_native_pmu_names(n, &np);
	int found = 0;
	for (unsigned i = 0; i < np; i++)
		found |= strcmp(pmus[i], "hswep_metric") == 0;
	CHECK(found);
	uncore_native_destroy(n);
}

TEST(a_platform_without_metrics_lists_events_only)
{
	struct uncore_native *n = NULL;
	CHECK_EQ_INT(uncore_native_create(uncore_event_platform_by_name("x7400"), &n), 0);
	if (!n)
		return;
	uint32_t code;
	int rc = uncore_native_enum(n, &code, UNCORE_ENUM_FIRST);
	unsigned count = 0;
	while (rc == 0) {
		CHECK(!(code & UNCORE_NATIVE_METRIC));
		count++;
		rc = uncore_native_enum(n, &code, UNCORE_ENUM_EVENTS);
	}
	CHECK_EQ_INT(count, uncore_native_count(n));
	CHECK_EQ_INT(uncore_native_code(n, "hswep_metric::DRAM_BW", &code), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "is a metric of hswep");
	uncore_native_destroy(n);
}

int main(void)
{
	RUN(metrics_follow_the_events_with_units);
	RUN(a_platform_without_metrics_lists_events_only);
	return harness_done();
}
