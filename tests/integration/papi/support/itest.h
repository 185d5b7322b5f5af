/* Helpers of the integration test programs (tests/integration/papi/NAME.c):
 * a simulated machine in a shared file that the PAPI component is pointed
 * at, PAPI start-up that insists on the intel_uncore component, the
 * simulator's clock arithmetic (src/sim/SCENARIOS.md), and a reader of the
 * simulator's audit log (JSON lines, src/sim/sim_log.c). */
#ifndef ITEST_H
#define ITEST_H

#include <stddef.h>
#include <stdint.h>

#include "sim/uncore_sim.h"

struct itest_sim {
	struct uncore_sim *sim;
	char path[256];
	struct uncore_sim_topology topo;
};

/* Create machine `model` in a fresh shared file and point the component at
 * it (PAPI_INTEL_UNCORE_BACKEND=sim, PAPI_INTEL_UNCORE_SIM=<file>): call
 * before PAPI_library_init.  0, or -1 with the reason printed. */
int itest_sim_create(const char *model, struct itest_sim *s);
void itest_sim_destroy(struct itest_sim *s);

/* The path of scenario `file` of the library (src/sim/scenarios), found
 * from $SRCDIR or from this file's location.  Static storage. */
const char *itest_scenario(const char *file);

/* Load scenario `file` of the library now; 0 or -1 (printed). */
int itest_load(struct itest_sim *s, const char *file);

/* Simulated time now, in ns. */
uint64_t itest_now(struct itest_sim *s);

/* Cycles of a clock of `hz` in the first `ns` nanoseconds, as the simulator
 * counts them (whole cycles, floor). */
uint64_t itest_cycles(uint64_t ns, uint64_t hz);

/* PAPI_library_init and the index of the intel_uncore component, which must
 * be active; -1 (reason printed) otherwise. */
int itest_papi_init(void);

/* Count `names[0..n)` in one event set: start, advance `ns` of simulated
 * time, read into values[], stop.  0, or the PAPI error (printed with the
 * step and the event) of the first step that failed. */
int itest_count(struct itest_sim *s, const char *const *names, int n, uint64_t ns,
		long long *values);

/* Audit log. */

struct itest_access {
	char op;        /* 'r' or 'w' */
	int socket;     /* as logged */
	char space;     /* 'm' MSR, 'p' PCI, 'x' MMIO */
	unsigned bdf;   /* PCI: UNCORE_BDF(bus, dev, fn) */
	uint64_t addr;  /* MSR address or PCI config offset */
	uint64_t value; /* written, or read (when the read succeeded) */
	int result;     /* 0 or the error code */
	char line[512]; /* the line as logged, for messages */
};

/* Every access logged from byte offset *pos of `path` on; *pos moves to the
 * end.  The caller frees *out.  0, or -1 on a line that does not parse
 * (printed). */
int itest_log_read(const char *path, long *pos, struct itest_access **out, size_t *n);

/* The size of a file (0 if it does not exist). */
long itest_file_size(const char *path);

#endif
