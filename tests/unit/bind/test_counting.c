/* The event set as the PAPI front-end counts with it (bind/counting.h) and
 * the front-end's other decisions made in the library: a fault reported
 * once, a failure's words, the set's life on the simulator, the preset
 * list (bind/preset_table.h), the PMU routing test, a name's two steps and
 * the holders' description (bind/component.h). */
#include "bind/component.h"
#include "bind/counting.h"
#include "bind/preset_table.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "support/lock_owner.h"
#include "support/shared_sim.h"
#include "support/tmpdir.h"

#include <stdio.h>
#include <string.h>

static const struct uncore_cpu_id HSX = {"GenuineIntel", 6, 0x3f, 2, 8192, 0, ""};

static unsigned said;
static char last_said[1200];
static void say(const char *words)
{
	said++;
	snprintf(last_said, sizeof(last_said), "%s", words);
}
static int event_name(uint32_t code, char *buf, size_t len)
{
	snprintf(buf, len, "code %u", (unsigned)code);
	return 0;
}
static const struct uncore_counting_voice voice = {.say = say, .event_name = event_name};

TEST(a_fault_is_reported_once_until_a_read_is_fine)
{
	static struct uncore_counting k;
	uncore_counting_init(&k, &voice);
	CHECK_EQ_INT(k.attach_cpu, -1);
	CHECK_EQ_INT(uncore_counting_fault(&k, UNCORE_EIO), UNCORE_EIO);
	CHECK_EQ_INT(uncore_counting_fault(&k, UNCORE_EIO), 0);
	CHECK_EQ_INT(uncore_counting_fault(&k, UNCORE_EIO), 0);
	CHECK_EQ_INT(uncore_counting_fault(&k, 0), 0);
	CHECK_EQ_INT(k.fault_reported, 0);
	CHECK_EQ_INT(uncore_counting_fault(&k, UNCORE_EIO), UNCORE_EIO);
}

TEST(a_failure_names_what_failed_once)
{
	char words[256];
	uncore_fail(UNCORE_ENOEVENT, "hswep_unc_imc::NOPE: no such event");
	uncore_failure_words(UNCORE_ENOEVENT, "hswep_unc_imc::NOPE", words, sizeof(words));
	CHECK_EQ_STR(words, "hswep_unc_imc::NOPE: no such event");
	uncore_fail(UNCORE_EBUSY, "socket 0 is held");
	uncore_failure_words(UNCORE_EBUSY, "starting", words, sizeof(words));
	CHECK_EQ_STR(words, "starting: socket 0 is held");
	uncore_error_clear();
	uncore_failure_words(UNCORE_ENOMEM, "reading", words, sizeof(words));
	char want[256];
	snprintf(want, sizeof(want), "reading: %s", uncore_strerror(UNCORE_ENOMEM));
	CHECK_EQ_STR(words, want);
}

/* A component bound to simulated machine `machine` (a model, or a shared
 * instance's path), scenario "none"; `locks`: the lock directory setting
 * (NULL: none set).  NULL when it cannot be made. */
static struct uncore_component *sim_component(const char *machine, const char *locks)
{
	static struct uncore_settings s; /* the component keeps a pointer to it */
	memset(&s, 0, sizeof(s));
	snprintf(s.backend, sizeof(s.backend), "sim");
	if (locks)
		snprintf(s.lock_dir, sizeof(s.lock_dir), "%s", locks);
	snprintf(s.sim_scenario, sizeof(s.sim_scenario), "none");
	snprintf(s.sim, sizeof(s.sim), "%s", machine);
	struct uncore_component *c = NULL;
	if (uncore_component_probe(&s, &HSX, &c) < 0)
		return NULL;
	if (uncore_component_bind(c) < 0) {
		uncore_component_close(c);
		return NULL;
	}
	return c;
}

TEST(a_set_counts_through_its_life_on_the_simulator)
{
	const char *locks = test_mkdtemp("counting");
	REQUIRE(locks);
	struct uncore_component *c = sim_component("e5-2699v3-2s", locks);
	REQUIRE(c);

	/* PAPI's routing: a PMU name, a numbered instance, nothing else. */
	CHECK_EQ_INT(uncore_component_has_pmu(c, "hswep_unc_imc", 13), 1);
	CHECK_EQ_INT(uncore_component_has_pmu(c, "hswep_unc_imc3", 14), 1);
	CHECK_EQ_INT(uncore_component_has_pmu(c, "hswep_unc_imc_", 14), 0);
	CHECK_EQ_INT(uncore_component_has_pmu(c, "perf", 4), 0);
	CHECK_EQ_INT(uncore_component_names_pmu(c, "hswep_unc_cbo::UNC_C_CLOCKTICKS"), 1);
	CHECK_EQ_INT(uncore_component_names_pmu(c, "PAPI_TOT_INS"), 0);

	/* A name in two steps: ours, another component's, ours refused. */
	char name[UNCORE_EVENT_MAX_LEN + 1];
	uint32_t code;
	CHECK_EQ_INT(uncore_component_spell(c, "UNC_M_CAS_COUNT.RD", name, sizeof(name)), 0);
	CHECK_EQ_INT(uncore_component_code(c, name, &code), 0);
	CHECK_EQ_INT(uncore_component_spell(c, "PAPI_TOT_INS", name, sizeof(name)), 0);
	CHECK_EQ_INT(uncore_component_code(c, name, &code), UNCORE_NAME_NOT_OURS);
	CHECK(uncore_component_code(c, "hswep_unc_imc::NO_SUCH_EVENT", &code) < 0);
	CHECK(uncore_component_spell(c, "hswep_unc_imc/UNC_M_CAS_COUNT.RD/u", name, sizeof(name)) <
	      0);
	CHECK_EQ_INT(uncore_component_spell(c, "cpu/instructions/u", name, sizeof(name)),
		     UNCORE_NAME_NOT_OURS);
	CHECK_EQ_INT(uncore_component_spell(NULL, "cpu/instructions/u", name, sizeof(name)),
		     UNCORE_NAME_NOT_OURS);

	static struct uncore_counting k;
	const char *what = NULL;
	uncore_counting_init(&k, &voice);
	REQUIRE(uncore_counting_open(&k, c, &what) == 0);
	/* Timed by the component's clock (the simulator's virtual one), not
	 * the host's. */
	const struct uncore_clock *ck = uncore_set_get_clock(k.set);
	CHECK(c->clock.now_ns != NULL);
	CHECK(ck->now_ns == c->clock.now_ns && ck->ctx == c->clock.ctx);
	REQUIRE(uncore_native_code(c->native, "hswep_unc_imc::UNC_M_CAS_COUNT:RD", &code) == 0);
	pthread_mutex_lock(&k.lock);
	CHECK_EQ_INT(uncore_counting_assign(&k, c, &code, 1, &what), 0);
	pthread_mutex_unlock(&k.lock);
	CHECK_EQ_INT(k.n, 1);
	CHECK_EQ_INT(uncore_counting_start(&k), 0);
	CHECK_EQ_INT(uncore_counting_poll(&k, "off"), 0);
	CHECK(k.poller == NULL);
	k.values[0] = 99;
	said = 0;
	CHECK_EQ_INT(uncore_counting_read(&k, 0), 0);
	CHECK_EQ_U64(k.values[0], 0); /* scenario "none": nothing moves */
	CHECK_EQ_INT(uncore_counting_stop(&k), 0);
	CHECK_EQ_U64(k.values[0], 0);
	CHECK_EQ_INT(said, 0); /* nothing to say: no fault, no wrap, no scaling */
	CHECK_EQ_INT(uncore_counting_notices(&k, last_said, sizeof(last_said)), 0);
	CHECK_EQ_INT(uncore_counting_reset(&k), 0);

	/* The description says who holds the sockets: this process alone. */
	char descr[128], holders[600];
	struct uncore_described last = {0};
	CHECK_EQ_INT(
	    uncore_component_holders(c, descr, sizeof(descr), holders, sizeof(holders), &last), 0);
	CHECK_CONTAINS(descr, "Intel uncore, sim backend: ");
	char plain[128];
	uncore_component_describe_fitted(c, "", plain, sizeof(plain));
	CHECK_EQ_STR(descr, plain);
	/* Said already, and nothing changed: nothing to write again. */
	descr[0] = '\0';
	CHECK_EQ_INT(
	    uncore_component_holders(c, descr, sizeof(descr), holders, sizeof(holders), &last), 2);
	CHECK_EQ_STR(descr, "");
	/* Another origin (a deferred binding's): described again. */
	snprintf(last.origin, sizeof(last.origin), "kernel PMUs only");
	CHECK_EQ_INT(
	    uncore_component_holders(c, descr, sizeof(descr), holders, sizeof(holders), &last), 0);
	CHECK_EQ_STR(descr, plain);
	uncore_component_describe(c, descr, sizeof(descr));
	CHECK_CONTAINS(descr, "SIMULATED");

	/* Presets: node ones first, then each of the 2 sockets. */
	static struct uncore_preset_table t;
	uncore_preset_table_build(c, &t);
	REQUIRE(t.n >= 3);
	CHECK_EQ_STR(t.preset[0].symbol, "PAPI_UNC_DRAM_RD_BYTES");
	CHECK_CONTAINS(t.preset[0].descr, "; every socket");
	int found = 0;
	for (unsigned i = 0; i < t.n; i++)
		if (strcmp(t.preset[i].symbol, "PAPI_UNC_DRAM_RD_BYTES:socket=1") == 0) {
			found = 1;
			CHECK_CONTAINS(t.preset[i].descr, "; socket 1 only");
			CHECK(t.preset[i].nev >= 1);
			CHECK_CONTAINS(t.preset[i].events[0], ":socket=1");
		}
	CHECK(found);

	uncore_counting_drop(&k);
	CHECK(k.set == NULL && k.view == NULL && k.n == 0);
	uncore_component_close(c);
	test_rmtree(locks);
}

/* The description at each start (the front-end's note_holders): rewritten
 * only when a socket's holder changes.  A shared simulated machine, so
 * that it has socket locks (uncore_sim_lock_dir) another process can take. */
TEST(a_start_describes_the_holders_when_they_change)
{
	char path[512];
	struct uncore_sim *sim = NULL;
	const char *dir = test_shared_sim("holders", "e5-2699v3-2s", path, sizeof(path), &sim);
	REQUIRE(dir);
	struct uncore_component *c = sim_component(path, NULL);
	REQUIRE(c && c->lock_dir[0]);
	static struct uncore_counting k;
	const char *what = NULL;
	uint32_t code;
	uncore_counting_init(&k, &voice);
	REQUIRE(uncore_counting_open(&k, c, &what) == 0);
	REQUIRE(uncore_native_code(c->native, "hswep_unc_ubo::UNC_U_CLOCKTICKS", &code) == 0);
	pthread_mutex_lock(&k.lock);
	REQUIRE(uncore_counting_assign(&k, c, &code, 1, &what) == 0);
	pthread_mutex_unlock(&k.lock);

	char descr[128], plain[128], holders[600];
	struct uncore_described last = {0};
	uncore_component_describe_fitted(c, "", plain, sizeof(plain));
	CHECK_EQ_INT(uncore_counting_start(&k), 0);
	CHECK_EQ_INT(
	    uncore_component_holders(c, descr, sizeof(descr), holders, sizeof(holders), &last), 0);
	CHECK_EQ_STR(descr, plain);
	CHECK_EQ_INT(uncore_counting_stop(&k), 0);

	/* Socket 1 held by another process at the next start: said, though
	 * the description said no holder the last time. */
	pid_t other = test_spawn_lock_owner(c->lock_dir, 1, "other-owner");
	REQUIRE(other > 0);
	CHECK_EQ_INT(uncore_counting_start(&k), 0);
	CHECK_EQ_INT(
	    uncore_component_holders(c, descr, sizeof(descr), holders, sizeof(holders), &last), 1);
	CHECK_CONTAINS(holders, "socket 1 counted by");
	CHECK_CONTAINS(descr, "socket 1 counted by");
	/* Still held at the next start: said again. */
	CHECK_EQ_INT(uncore_counting_stop(&k), 0);
	CHECK_EQ_INT(uncore_counting_start(&k), 0);
	descr[0] = '\0';
	CHECK_EQ_INT(
	    uncore_component_holders(c, descr, sizeof(descr), holders, sizeof(holders), &last), 1);
	CHECK_CONTAINS(descr, "socket 1 counted by");
	CHECK_EQ_INT(uncore_counting_stop(&k), 0);

	/* Free again: the description without it, once. */
	test_kill_lock_owner(other);
	CHECK_EQ_INT(uncore_counting_start(&k), 0);
	CHECK_EQ_INT(
	    uncore_component_holders(c, descr, sizeof(descr), holders, sizeof(holders), &last), 0);
	CHECK_EQ_STR(descr, plain);
	CHECK_EQ_INT(
	    uncore_component_holders(c, descr, sizeof(descr), holders, sizeof(holders), &last), 2);
	CHECK_EQ_INT(uncore_counting_stop(&k), 0);

	uncore_counting_drop(&k);
	uncore_component_close(c);
	CHECK_EQ_INT(uncore_sim_destroy(sim), 0);
	test_rmtree(dir);
}

int main(void)
{
	RUN(a_fault_is_reported_once_until_a_read_is_fine);
	RUN(a_failure_names_what_failed_once);
	RUN(a_set_counts_through_its_life_on_the_simulator);
	RUN(a_start_describes_the_holders_when_they_change);
	return harness_done();
}
