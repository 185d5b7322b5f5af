/* uncored's Prometheus exposition (service/prometheus.h) on a shared
 * simulated node in virtual time (the stream scenario: per socket 8
 * channels x 100 M CAS reads of 64 B and 50 M writes a second): after 2
 * simulated seconds the presets' counters are exact per socket and per
 * node, the clock says 2, label values are escaped, the MEM group's
 * members are gauges; a buffer too small is refused, not overrun. */
#include "harness.h"
#include "bind/component.h"
#include "service/prometheus.h"
#include "sim/uncore_sim.h"
#include "support/tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct uncore_settings settings;

TEST(scrape_is_exact)
{
	const char *dir = test_mkdtemp("prom");
	REQUIRE(dir != NULL);
	char path[512];
	snprintf(path, sizeof(path), "%s/node", dir);
	struct uncore_sim *node;
	REQUIRE(uncore_sim_create("e5-2699v3-2s", path, &node) == 0);
	REQUIRE(uncore_sim_load_scenario(node, "stream") == 0);
	REQUIRE(uncore_settings_read(&settings) == 0);
	snprintf(settings.backend, sizeof(settings.backend), "sim");
	snprintf(settings.sim, sizeof(settings.sim), "%s", path);
	snprintf(settings.service, sizeof(settings.service), "none");
	settings.sim_kernel[0] = settings.sim_scenario[0] = settings.sim_log[0] = '\0';
	struct uncore_component *comp;
	REQUIRE(uncore_component_open(&settings, &comp) == 0);
	struct uncored_prom *p;
	REQUIRE(uncored_prom_create(comp->share, comp->be, &comp->clock, "n\"1", 1, &p) == 0);
	REQUIRE(uncore_sim_advance(node, 2000000000ull) == 0);
	static char buf[1 << 20];
	long n = uncored_prom_render(p, buf, sizeof(buf));
	REQUIRE(n > 0 && (size_t)n < sizeof(buf));
	buf[n] = '\0';
#define L "host=\"n\\\"1\",platform=\"hswep\",simulated=\"true\""
	CHECK_CONTAINS(buf, "intel_uncore_clock_seconds{" L "} 2\n");
	CHECK_CONTAINS(buf, "# TYPE papi_unc_dram_rd_bytes_total counter\n");
	CHECK_CONTAINS(buf, "papi_unc_dram_rd_bytes_total{" L ",scope=\"node\"} 204800000000\n");
	CHECK_CONTAINS(buf, "papi_unc_dram_rd_bytes_total{" L ",scope=\"socket\",socket=\"0\"} 102400000000\n");
	CHECK_CONTAINS(buf, "papi_unc_dram_rd_bytes_total{" L ",scope=\"socket\",socket=\"1\"} 102400000000\n");
	CHECK_CONTAINS(buf, "papi_unc_dram_wr_bytes_total{" L ",scope=\"socket\",socket=\"1\"} 51200000000\n");
	CHECK_CONTAINS(buf, "# TYPE intel_uncore_mem_dram_bw gauge\n");
	CHECK_CONTAINS(buf, "intel_uncore_mem_dram_bw{" L ",scope=\"node\"} ");
	/* Each name's HELP and TYPE once. */
	const char *first = strstr(buf, "# TYPE papi_unc_dram_rd_bytes_total");
	CHECK(first && !strstr(first + 1, "# TYPE papi_unc_dram_rd_bytes_total"));
	/* A second scrape a simulated second later: the counters go on. */
	REQUIRE(uncore_sim_advance(node, 1000000000ull) == 0);
	n = uncored_prom_render(p, buf, sizeof(buf));
	REQUIRE(n > 0);
	buf[n] = '\0';
	CHECK_CONTAINS(buf, "papi_unc_dram_rd_bytes_total{" L ",scope=\"socket\",socket=\"0\"} 153600000000\n");
	CHECK_EQ_INT((int)uncored_prom_render(p, buf, 100), -1);
	uncored_prom_destroy(p);
	uncore_component_close(comp);
	uncore_sim_destroy(node);
	test_rmtree(dir);
}

int main(void)
{
	RUN(scrape_is_exact);
	return harness_done();
}
