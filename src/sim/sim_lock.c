/* The lock of a simulated machine's shared state: a process-shared robust
 * mutex (sim_machine.c makes it), taken by every access, clock reading and
 * control of the machine. */
#include "sim/sim_internal.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "common/uncore_error.h"

int sim_lock(struct uncore_sim *sim)
{
	int rc = pthread_mutex_lock(&sim->sh->lock);
	if (rc == EOWNERDEAD) {
		/* A process died holding the lock.  Every update of the shared
		 * state is a handful of stores, so the state is usable; mark the
		 * mutex consistent and count the event for inspection. */
		pthread_mutex_consistent(&sim->sh->lock);
		sim->sh->recovered++;
		return 0;
	}
	if (rc != 0)
		return uncore_fail(UNCORE_EIO, "simulator lock failed: %s", strerror(rc));
	return 0;
}

void sim_unlock(struct uncore_sim *sim)
{
	pthread_mutex_unlock(&sim->sh->lock);
}
