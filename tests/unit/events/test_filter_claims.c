/* Events whose counts a box filter selects claim it even when their unit
 * masks program none of its fields (events/registry.h, struct
 * uncore_filter_claim): on the Skylake-SP CHA, UNC_CHA_TOR_INSERTS.IA_MISS
 * (every opcode, FILTER1 0) and .IA_MISS_DRD (FILTER1 0x40433) need
 * different values of FILTER1, so they can never share a box (issue 26: the
 * merge made IA_MISS count demand reads only); the CHA clock, which no
 * filter selects, shares a box with either. */
#include "../../harness.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "events/registry.h"

static int enc(const char *plat, const char *str, struct uncore_encoding *out)
{
	struct uncore_event_ref ref;
	const struct uncore_event_platform *p = uncore_event_platform_by_name(plat);
	harness_row = str;
	if (!p)
		return -1;
	int rc = uncore_event_parse(p, str, &ref);
	return rc ? rc : uncore_event_encode(&ref, out);
}

TEST(skx_tor_events_claim_filter1)
{
	struct uncore_encoding miss, drd, occ, clk, hit;
	REQUIRE(enc("skx", "skx_unc_cha::UNC_CHA_TOR_INSERTS:IA_MISS", &miss) == 0);
	REQUIRE(enc("skx", "skx_unc_cha::UNC_CHA_TOR_INSERTS:IA_MISS_DRD", &drd) == 0);
	REQUIRE(enc("skx", "skx_unc_cha::UNC_CHA_TOR_OCCUPANCY:IA_MISS_DRD", &occ) == 0);
	REQUIRE(enc("skx", "skx_unc_cha::UNC_CHA_CLOCKTICKS", &clk) == 0);
	REQUIRE(enc("skx", "skx_unc_cha::UNC_CHA_TOR_INSERTS:IA_HIT_DRD", &hit) == 0);
	/* IA_MISS: FILTER1 0 in every field the kernel programs for event 0x35. */
	CHECK_EQ_U64(miss.filter_mask[1], 0xdffffe3bULL);
	CHECK_EQ_U64(miss.filter[1], 0);
	CHECK_EQ_U64(drd.filter[1], 0x40433ULL);
	CHECK_EQ_INT(uncore_filters_compatible(&miss, &drd), 0);
	CHECK_EQ_INT(uncore_filters_compatible(&miss, &occ), 0);
	/* Same opcode filter: they share a box (LLC_MISS_LATENCY's terms). */
	CHECK_EQ_INT(uncore_filters_compatible(&drd, &occ), 1);
	CHECK_EQ_INT(uncore_filters_compatible(&drd, &hit), 1);
	/* No filter selects the clock. */
	CHECK_EQ_U64(clk.filter_mask[0] | clk.filter_mask[1], 0);
	CHECK_EQ_INT(uncore_filters_compatible(&clk, &miss), 1);
	CHECK_EQ_INT(uncore_filters_compatible(&clk, &drd), 1);
	/* A merge of the two is refused, naming the register's bits. */
	struct uncore_encoding acc = miss;
	CHECK_EQ_INT(uncore_filters_merge(&acc, &drd), UNCORE_ECONFLICT);
	CHECK_CONTAINS(uncore_error_detail(), "filter register 1");
	uncore_error_clear();
}

TEST(cascade_lake_too)
{
	struct uncore_encoding miss, drd;
	REQUIRE(enc("clx", "clx_unc_cha::UNC_CHA_TOR_INSERTS:IA_MISS", &miss) == 0);
	REQUIRE(enc("clx", "clx_unc_cha::UNC_CHA_TOR_INSERTS:IA_MISS_DRD", &drd) == 0);
	CHECK_EQ_INT(uncore_filters_compatible(&miss, &drd), 0);
}

int main(void)
{
	RUN(skx_tor_events_claim_filter1);
	RUN(cascade_lake_too);
	return harness_done();
}
