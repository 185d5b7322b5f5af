/* Tests' helpers for a simulated machine of any generation driven through
 * the direct backend and an event set: the model's platform picks the
 * backend as the component does (bind/component.c). */
#ifndef UNCORE_TEST_SIM_ENV_H
#define UNCORE_TEST_SIM_ENV_H

#include <stdio.h>
#include <string.h>

#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "sim/uncore_sim.h"

struct env {
	struct uncore_sim *sim;
	struct uncore_backend *be;
	struct uncore_set *set;
	struct uncore_sim_topology topo;
};

static inline const char *scenario(const char *name)
{
	static char buf[600];
	snprintf(buf, sizeof(buf), "%s", __FILE__);
	char *p = strstr(buf, "tests/support/");
	if (p)
		snprintf(p, sizeof(buf) - (size_t)(p - buf), "src/sim/scenarios/%s", name);
	return buf;
}

static inline const char *platform_of(const char *model)
{
	for (size_t i = 0; i < uncore_sim_model_count(); i++)
		if (!strcmp(uncore_sim_model(i)->name, model))
			return uncore_sim_model(i)->platform;
	return "?";
}

static inline int env_open(struct env *e, const char *model, const char *scn)
{
	struct uncore_direct_config cfg;
	memset(e, 0, sizeof(*e));
	int rc = uncore_sim_create(model, NULL, &e->sim);
	if (rc == 0 && scn)
		rc = uncore_sim_load_scenario(e->sim, scenario(scn));
	if (rc == 0)
		rc = uncore_sim_topology(e->sim, &e->topo);
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = uncore_sim_regio(e->sim);
	cfg.read_freeze = 1;
	cfg.no_socket_lock = 1;
	cfg.origin = "SIMULATED";
	const char *plat = platform_of(model);
	if (rc == 0)
		rc = !strcmp(plat, "skl") ? uncore_direct_open_skl(&cfg, &e->be)
					  : uncore_direct_open_msr_platform(plat, &cfg, &e->be);
	if (rc == 0)
		rc = uncore_set_create(e->be, &e->set);
	if (rc < 0)
		fprintf(stderr, "  env_open %s: %s: %s\n", model, uncore_strerror(rc),
			uncore_error_detail());
	return rc;
}

static inline void env_close(struct env *e)
{
	uncore_set_destroy(e->set);
	if (e->be)
		e->be->ops->destroy(e->be);
	if (e->sim)
		uncore_sim_destroy(e->sim);
}

#endif
