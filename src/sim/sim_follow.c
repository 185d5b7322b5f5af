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
	f->sh->access_ps = 0; /* its time is the leader's, nothing added */
	f->seen_gen = f->sh->gen;
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
 * held; the leader's lock is taken inside, never the other way round).
 * A scenario or fault change of the leader is taken over at the instant it
 * was made (several changes between two syncs: the last one from its
 * instant). */
void sim_follow_sync(struct uncore_sim *sim)
{
	struct uncore_sim *l = sim->leader;
	if (!l || sim_lock(l) != 0) {
		uncore_error_clear();
		return;
	}
	struct sim_shared *ls = l->sh, *fs = sim->sh;
	sim_sync_wall(ls, l->model);
	if (ls->gen != sim->seen_gen) {
		sim_advance_to(fs, sim->model, ls->gen_ps);
		memcpy(fs->streams, ls->streams, sizeof(fs->streams));
		memcpy(fs->shapes, ls->shapes, sizeof(fs->shapes));
		memcpy(fs->faults, ls->faults, sizeof(fs->faults));
		fs->n_streams = ls->n_streams;
		fs->n_shapes = ls->n_shapes;
		fs->n_faults = ls->n_faults;
		memcpy(fs->scenario, ls->scenario, sizeof(fs->scenario));
		sim->seen_gen = ls->gen;
	}
	uint64_t now = ls->now_ps;
	sim_unlock(l);
	sim_advance_to(fs, sim->model, now);
}
