/* uncored's Prometheus endpoint (`uncored --prometheus ADDR:PORT`, README
 * "uncored, the node service"): what a scrape returns, in Prometheus's
 * text exposition format (version 0.0.4).  Per socket (label socket="N")
 * and per node (scope="node"), with the labels host, platform and, on the
 * simulator, simulated="true":
 *   - the generation's presets as counters: PAPI_UNC_DRAM_RD_BYTES is
 *     papi_unc_dram_rd_bytes_total, the total since the service started
 *     (its postfix formula over its events applied, presets/presets.h);
 *   - the members of the metric groups MEM, LLC, UPI (QPI), IO as gauges
 *     (intel_uncore_<group>_<member>): a rate over the interval since the
 *     previous scrape, a ratio over it;
 *   - intel_uncore_clock_seconds: the clock the counts are timed by (the
 *     simulator's virtual time on the simulator).
 * Counted through the component's shared counters, as the service's
 * clients are (the service's own event sets, union programmed once). */
#ifndef UNCORE_SERVICE_PROMETHEUS_H
#define UNCORE_SERVICE_PROMETHEUS_H

#include <stddef.h>

#include "backend/backend.h"
#include "eventset/clock.h"
#include "eventset/share.h"

struct uncored_prom;

/* The sets counted for the endpoint, started now.  `host` and `simulated`
 * label every series.  0 and *out; what cannot be counted on this machine
 * (a preset or metric whose boxes it lacks, a set that does not fit) is
 * left out and said in the exposition's comments. */
int uncored_prom_create(struct uncore_share *share, const struct uncore_backend *be,
			const struct uncore_clock *clock, const char *host, int simulated,
			struct uncored_prom **out);
void uncored_prom_destroy(struct uncored_prom *p);

/* One scrape: every set read now, the exposition into buf (len bytes).
 * The number of bytes written, or -1 when it does not fit. */
long uncored_prom_render(struct uncored_prom *p, char *buf, size_t len);

#endif
