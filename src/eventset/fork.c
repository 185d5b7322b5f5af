/* The fork handlers (see fork.h): one registry of the live hubs and
 * pollers, each with what the handlers do to it (fork.h), walked in the
 * lock order of the read path (a poller's set lock, then the hub's), then
 * the socket holds (socket_hold.h). */
#include "eventset/fork.h"

#include "backend/direct/socket_hold.h"

#include <pthread.h>
#include <stddef.h>

#define FORK_MAX 256 /* live objects of a ring; beyond, the rest go unguarded */

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct ring {
	struct live {
		void *x;
		const struct uncore_fork_ops *ops;
	} live[FORK_MAX];
	unsigned n;
} rings[UNCORE_FORK_RINGS];

void uncore_fork_add(enum uncore_fork_ring ring, void *x, const struct uncore_fork_ops *ops)
{
	struct ring *r = &rings[ring];
	pthread_mutex_lock(&reg_lock);
	if (r->n < FORK_MAX)
		r->live[r->n++] = (struct live){x, ops};
	pthread_mutex_unlock(&reg_lock);
}

void uncore_fork_remove(enum uncore_fork_ring ring, void *x)
{
	struct ring *r = &rings[ring];
	pthread_mutex_lock(&reg_lock);
	for (unsigned i = 0; i < r->n; i++)
		if (r->live[i].x == x) {
			r->live[i] = r->live[--r->n];
			break;
		}
	pthread_mutex_unlock(&reg_lock);
}

static void prepare(void)
{
	pthread_mutex_lock(&reg_lock);
	for (unsigned g = 0; g < UNCORE_FORK_RINGS; g++)
		for (unsigned i = 0; i < rings[g].n; i++)
			rings[g].live[i].ops->lock(rings[g].live[i].x);
	uncore_socket_hold_fork_prepare();
}

static void parent(void)
{
	uncore_socket_hold_fork_parent();
	for (unsigned g = UNCORE_FORK_RINGS; g-- > 0;)
		for (unsigned i = rings[g].n; i-- > 0;)
			rings[g].live[i].ops->unlock(rings[g].live[i].x);
	pthread_mutex_unlock(&reg_lock);
}

static void child(void)
{
	/* The holds first: a forked hub lets go of its own (socket_hold.h). */
	uncore_socket_hold_fork_child();
	for (unsigned g = UNCORE_FORK_RINGS; g-- > 0;)
		for (unsigned i = 0; i < rings[g].n; i++)
			rings[g].live[i].ops->child(rings[g].live[i].x);
	pthread_mutex_init(&reg_lock, NULL);
}

static void register_handlers(void)
{
	pthread_atfork(prepare, parent, child);
}

void uncore_fork_init(void)
{
	pthread_once(&once, register_handlers);
}
