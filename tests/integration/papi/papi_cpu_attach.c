/* PAPI_CPU_ATTACH on the simulator: an event set attached to a CPU counts
 * that CPU's socket, exactly as ":cpu=N" does; an event's own :socket=
 * wins; an attached metric is the socket's; a CPU the machine lacks is
 * refused and the set keeps working.  Counts are exact: UBox
 * EVENT_MSG.DOORBELL_RCVD of src/sim/scenarios/boxes.scn (1M/s on every
 * socket, 2M/s more on socket 1) over a known simulated interval.  The
 * simulator numbers its CPUs one per CBo, socket by socket (18 per socket on
 * the default model). */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "itest.h"
#include "papi.h"
#include "platform/hswep/hswep_boxes.h"

#define M  1000000ull
#define MS 1000000ull /* ns */

static struct itest_sim sim;
static uint64_t t_load;

static const char *const doorbell = "hswep_unc_ubo::UNC_U_EVENT_MSG:DOORBELL_RCVD";

/* DOORBELL_RCVD of socket `s` from t0 to t1 (boxes.scn). */
static uint64_t doorbells(int s, uint64_t t0, uint64_t t1)
{
	uint64_t hz = sim.topo.clock_hz[hswep_box(HSWEP_BOX_UBOX)->clock];
	uint64_t rates[2] = {1 * M, s == 1 ? 2 * M : 0}, sum = 0;
	for (int k = 0; k < 2; k++) {
		uint64_t c0 = itest_cycles(t0, hz) - itest_cycles(t_load, hz);
		uint64_t c1 = itest_cycles(t1, hz) - itest_cycles(t_load, hz);
		sum += (uint64_t)((unsigned __int128)c1 * rates[k] / hz) -
		       (uint64_t)((unsigned __int128)c0 * rates[k] / hz);
	}
	return sum;
}

static int attach(int es, int cpu)
{
	PAPI_option_t opt;
	memset(&opt, 0, sizeof(opt));
	opt.cpu.eventset = es;
	opt.cpu.cpu_num = (unsigned)cpu;
	return PAPI_set_opt(PAPI_CPU_ATTACH, &opt);
}

/* Count `names` in a set attached to `cpu` (attached before or after the
 * events are added) over 5 ms; values[] and the interval's start. */
static int count_attached(int cpu, int attach_first, const char *const *names, int n,
			  long long *values, uint64_t *t0)
{
	int es = PAPI_NULL, rc = PAPI_create_eventset(&es);
	int cidx = PAPI_get_component_index("intel_uncore");
	if (rc == PAPI_OK)
		rc = PAPI_assign_eventset_component(es, cidx);
	if (rc == PAPI_OK && attach_first)
		rc = attach(es, cpu);
	for (int i = 0; rc == PAPI_OK && i < n; i++)
		rc = PAPI_add_named_event(es, names[i]);
	if (rc == PAPI_OK && !attach_first)
		rc = attach(es, cpu);
	*t0 = itest_now(&sim);
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	if (rc == PAPI_OK)
		rc = uncore_sim_advance(sim.sim, 5 * MS) == 0 ? PAPI_OK : PAPI_ESYS;
	if (rc == PAPI_OK)
		rc = PAPI_stop(es, values);
	if (es != PAPI_NULL) {
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	return rc;
}

TEST(attached_set_counts_the_cpus_socket)
{
	static const struct {
		int cpu, socket;
	} cases[] = {{0, 0}, {17, 0}, {18, 1}, {35, 1}};
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char with_cpu[128], other[128];
		int cpu = cases[k].cpu, s = cases[k].socket;
		snprintf(with_cpu, sizeof(with_cpu), "%s:cpu=%d", doorbell, cpu);
		snprintf(other, sizeof(other), "%s:socket=%d", doorbell, 1 - s);
		const char *names[] = {doorbell, with_cpu};
		long long v[2];
		uint64_t t0;
		for (int first = 0; first < 2; first++) {
			CHECK_EQ_INT(count_attached(cpu, first, names, 2, v, &t0), PAPI_OK);
			CHECK_EQ_U64((uint64_t)v[0], doorbells(s, t0, t0 + 5 * MS));
			CHECK_EQ_U64((uint64_t)v[1], (uint64_t)v[0]);
		}
		/* An event's own :socket= wins over the attachment. */
		const char *own[] = {other};
		CHECK_EQ_INT(count_attached(cpu, 1, own, 1, v, &t0), PAPI_OK);
		CHECK_EQ_U64((uint64_t)v[0], doorbells(1 - s, t0, t0 + 5 * MS));
	}
}

TEST(attached_set_refuses_a_cpu_the_machine_lacks)
{
	int es = PAPI_NULL;
	CHECK_EQ_INT(PAPI_create_eventset(&es), PAPI_OK);
	CHECK_EQ_INT(PAPI_assign_eventset_component(es, PAPI_get_component_index("intel_uncore")),
		     PAPI_OK);
	CHECK_EQ_INT(PAPI_add_named_event(es, doorbell), PAPI_OK);
	CHECK(attach(es, 4000) != PAPI_OK);
	/* Refused: the set still counts the whole node. */
	long long v;
	uint64_t t0 = itest_now(&sim);
	CHECK_EQ_INT(PAPI_start(es), PAPI_OK);
	CHECK_EQ_INT(uncore_sim_advance(sim.sim, 5 * MS), 0);
	CHECK_EQ_INT(PAPI_stop(es, &v), PAPI_OK);
	CHECK_EQ_U64((uint64_t)v, doorbells(0, t0, t0 + 5 * MS) + doorbells(1, t0, t0 + 5 * MS));
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	if (itest_sim_create("e5-2699v3-2s", &sim) != 0 || itest_papi_init() < 0) {
		printf("FAIL setup\n");
		itest_sim_destroy(&sim);
		return 1;
	}
	if (itest_load(&sim, "boxes.scn") != 0) {
		printf("FAIL loading boxes.scn\n");
		itest_sim_destroy(&sim);
		return 1;
	}
	t_load = itest_now(&sim);
	RUN(attached_set_counts_the_cpus_socket);
	RUN(attached_set_refuses_a_cpu_the_machine_lacks);
	PAPI_shutdown();
	itest_sim_destroy(&sim);
	return harness_done();
}
