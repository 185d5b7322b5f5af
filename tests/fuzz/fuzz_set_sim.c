/* Fuzz target: the component's path from names to programmed boxes, on the
 * simulator: the input is up to eight event or metric names, one a line;
 * a set that assigns is started, read and stopped by the direct backend.
 * A refusal says why; a write the allowlist refuses (the plan reaching
 * outside its boxes' PMON registers) is a bug. */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "fuzz.h"
#include "sim/uncore_sim.h"

static struct uncore_sim *sim;
static struct uncore_backend *be;

static void setup(void)
{
	struct uncore_direct_config cfg;
	if (uncore_sim_create("e5-2699v3-2s", NULL, &sim) < 0)
		abort();
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = uncore_sim_regio(sim);
	cfg.read_freeze = 1;
	cfg.no_socket_lock = 1;
	if (uncore_direct_open_hswep(&cfg, &be) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!be)
		setup();
	char *s = fuzz_string(data, size);
	const char *names[8];
	unsigned n = 0;
	struct uncore_set *set = NULL;
	uint64_t v[8];
	if (!s)
		return 0;
	for (char *p = s; p && n < 8;) {
		names[n++] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
	if (uncore_set_create(be, &set) < 0)
		abort();
	int rc = uncore_set_assign(set, names, n);
	if (rc < 0 && !uncore_error_detail()[0])
		abort();
	if (rc == 0) {
		rc = uncore_set_start(set);
		if (rc == UNCORE_EDENIED)
			abort();
		if (rc == 0) {
			uncore_sim_advance(sim, 1000);
			if (uncore_set_read(set, v) == UNCORE_EDENIED ||
			    uncore_set_stop(set, NULL) == UNCORE_EDENIED)
				abort();
		}
	}
	uncore_set_destroy(set);
	free(s);
	return 0;
}
