/* The safe read interval (half the shortest wrap period of a set's
 * counters) of the generations besides Haswell-EP, and of a set that shares
 * the hardware with faster-wrapping events of other sets.  Each expected
 * value is worked out here from the facts the descriptions cite:
 *   Nehalem: 48-bit counters, at most 64 a UCLK cycle (the GQ tracker
 *     depth) at 4 GHz: 2^48 / 2.56e11 s;
 *   Xeon 7100/7400: 32-bit counts, at most once a cycle (SDM 18.21.4) at
 *     3.5 GHz, bounded by 4e9/s: 2^32 / 4e9 s;
 *   Skylake client: 44-bit CBo/ARB counters at 3.2e11/s, the 48-bit fixed
 *     UCLK counter at 5e9/s, 32-bit IMC counters at 1.1e9/s;
 *   Haswell-EP: each event's Max. Inc/Cyc at its box's clock ceiling
 *     (UCLK 3 GHz): UBox DOORBELL_RCVD 1 a cycle on 44 bits, R3QPI
 *     RxR_OCCUPANCY_VN1 32 a cycle on 44 bits. */
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "eventset/poller.h"
#include "eventset/share.h"
#include "harness.h"
#include "sim_env.h"
#include "support/sim_set.h"

#include <string.h>

/* Half of 2^width counts at `rate` per second, in ns (whole ns). */
static uint64_t half_wrap(unsigned width, uint64_t rate)
{
	unsigned __int128 wrap = ((unsigned __int128)1 << width) * 1000000000u / rate;
	return (uint64_t)(wrap / 2);
}

TEST(each_generation_reads_before_its_fastest_counter_wraps)
{
	static const struct {
		const char *model, *event;
		unsigned width;
		uint64_t rate;
	} rows[] = {
	    {"x5570-2s", "nhm_unc_guide::UNC_GQ_ALLOC:RT", 48, UINT64_C(256000000000)},
	    {"x5570-2s", "nhm_unc_guide::UNC_CLK_UNHALTED", 48, UINT64_C(256000000000)},
	    {"x7460-4s", "x7400_unc_gbsq::GBSQ_TRANSACTIONS", 32, UINT64_C(4000000000)},
	    {"x7140m-4s", "x7100_unc_fsb::FSB_DRDY", 32, UINT64_C(4000000000)},
	    {"i7-6700k", "skl_unc_cbo::UNC_CBO_CACHE_LOOKUP:READ_I", 44, UINT64_C(320000000000)},
	    {"i7-6700k", "skl_unc_arb::UNC_ARB_TRK_REQUESTS:ALL", 44, UINT64_C(320000000000)},
	    {"i7-6700k", "skl_unc_clock::UNC_CLOCK", 48, UINT64_C(5000000000)},
	    {"i7-6700k", "skl_unc_imc::DRAM_DATA_READS", 32, UINT64_C(1100000000)},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct env e;
		harness_row = rows[i].event;
		CHECK_EQ_INT(env_open(&e, rows[i].model, NULL), 0);
		if (!e.set) {
			env_close(&e);
			continue;
		}
		uint64_t ns = 0;
		const char *name = rows[i].event;
		CHECK_EQ_INT(uncore_set_assign(e.set, &name, 1), 0);
		CHECK_EQ_INT(uncore_set_max_read_interval(e.set, &ns), 0);
		CHECK_EQ_U64(ns, half_wrap(rows[i].width, rows[i].rate));
		env_close(&e);
	}
	harness_row = NULL;
}

/* A set whose own counters wrap slowly, sharing the hardware with a set
 * whose counter wraps fast: its interval is the shorter one while both
 * count (the poller of the first keeps the second's counter folded). */
TEST(the_shared_hardware_s_shorter_limit_is_chosen)
{
	struct sim_set s;
	struct uncore_share *hub = NULL;
	REQUIRE(sim_set_open(&s, "e5-2699v3-2s", NULL, NULL) == 0);
	uncore_set_destroy(s.set);
	s.set = NULL;
	struct uncore_share_config cfg = {NULL, 1};
	REQUIRE(uncore_share_create(s.be, &cfg, &hub) == 0);
	s.be = NULL;
	const char *slow = "hswep_unc_ubo::UNC_U_EVENT_MSG:DOORBELL_RCVD:socket=0";
	const char *fast = "hswep_unc_r3qpi0::UNC_R3_RXR_OCCUPANCY_VN1:HOM:socket=0";
	const uint64_t slow_ns = half_wrap(44, UINT64_C(3000000000));
	const uint64_t fast_ns = half_wrap(44, UINT64_C(3000000000) * 32);
	struct uncore_backend *va = NULL, *vb = NULL;
	struct uncore_set *a = NULL, *b = NULL;
	REQUIRE(uncore_share_view(hub, &va) == 0 && uncore_set_create(va, &a) == 0);
	REQUIRE(uncore_share_view(hub, &vb) == 0 && uncore_set_create(vb, &b) == 0);
	CHECK_EQ_INT(uncore_set_assign(a, &slow, 1), 0);
	CHECK_EQ_INT(uncore_set_assign(b, &fast, 1), 0);
	uint64_t ns = 0;
	CHECK_EQ_INT(uncore_set_max_read_interval(a, &ns), 0);
	CHECK_EQ_U64(ns, slow_ns);
	CHECK_EQ_INT(uncore_set_start(a), 0);
	CHECK_EQ_INT(uncore_set_max_read_interval(a, &ns), 0);
	CHECK_EQ_U64(ns, slow_ns);
	CHECK_EQ_INT(uncore_set_start(b), 0);
	CHECK_EQ_INT(uncore_set_max_read_interval(a, &ns), 0);
	CHECK_EQ_U64(ns, fast_ns);
	CHECK_EQ_INT(uncore_poller_period(a, NULL, &ns), 0);
	CHECK_EQ_U64(ns, fast_ns);
	CHECK_EQ_INT(uncore_set_max_read_interval(b, &ns), 0);
	CHECK_EQ_U64(ns, fast_ns);
	uint64_t v;
	CHECK_EQ_INT(uncore_set_stop(b, &v), 0);
	CHECK_EQ_INT(uncore_set_stop(a, &v), 0);
	uncore_set_destroy(a);
	uncore_set_destroy(b);
	va->ops->destroy(va); /* a set does not own its backend */
	vb->ops->destroy(vb);
	uncore_share_release(hub);
	sim_set_close(&s);
}

int main(void)
{
	RUN(each_generation_reads_before_its_fastest_counter_wraps);
	RUN(the_shared_hardware_s_shorter_limit_is_chosen);
	return harness_done();
}
