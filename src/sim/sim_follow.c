/* A follower: a private copy of a shared simulated machine whose time is
 * the shared machine's (uncore_sim.h, uncore_sim_follow).  The simulated
 * perf_event kernel of each process counts on one, so that processes of
 * different measurement groups on one simulated node each get counters of
 * their own, as the kernel gives each process's events counters of their
 * own (README "MPI jobs and threads"), while every follower sees the
 * scenario at the same simulated instants as the shared machine. */
#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"

int uncore_sim_is_shared(const struct uncore_sim *sim)
{
	return sim && sim->path[0] != '\0';
}

int uncore_sim_follow(struct uncore_sim *leader, struct uncore_sim **out)
{
	struct uncore_sim *f;
	if (!leader || !leader->path[0]) {
		uncore_sim_close(leader);
		return uncore_fail(UNCORE_EINVAL, "only a shared simulated machine can be followed");
	}
	int rc = uncore_sim_create(leader->model->info.name, NULL, &f);
	if (rc < 0) {
		uncore_sim_close(leader);
		return rc;
	}
	rc = sim_lock(leader);
	if (rc < 0) {
		uncore_sim_close(f);
		uncore_sim_close(leader);
		return rc;
	}
	sim_sync_wall(leader->sh, leader->model);
	/* The scenario, time, faults and log of the leader; a lock and
	 * registers of its own (at their reset values: a fresh PMU). */
	pthread_mutex_t keep = f->sh->lock;
	memcpy(f->sh, leader->sh, sizeof(*f->sh));
	f->sh->lock = keep;
	sim_unlock(leader);
	f->sh->clock_mode = UNCORE_SIM_CLOCK_VIRTUAL;
	sim_reset_registers(f->sh, f->model);
	f->user = leader->user;
	f->scenario_by_default = leader->scenario_by_default;
	f->leader = leader;
	leader->owns_regio_alloc = 0;
	f->owns_regio_alloc = 1;
	*out = f;
	return 0;
}

/* Bring a follower to its leader's time (called with the follower's lock
 * held; the leader's lock is taken inside, never the other way round). */
void sim_follow_sync(struct uncore_sim *sim)
{
	uint64_t ns;
	if (sim->leader && uncore_sim_now(sim->leader, &ns) == 0)
		sim_advance_to(sim->sh, sim->model, ns * SIM_PS_PER_NS);
	uncore_error_clear();
}
