/* A follower's time: a private copy of a shared simulated machine (made
 * by uncore_sim_follow, sim_machine.c) whose time is the shared machine's.
 * The simulated perf_event kernel of each process counts on one, so that processes of
 * different measurement groups on one simulated node each get counters of
 * their own, as the kernel gives each process's events counters of their
 * own (README "MPI jobs and threads"), while every follower sees the
 * scenario at the same simulated instants as the shared machine. */
#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"

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
