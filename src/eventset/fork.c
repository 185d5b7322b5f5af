/* The fork handlers (see fork.h): one registry of the live hubs and
 * pollers, walked in the lock order of the read path (a poller's set lock,
 * then the hub's), then the socket holds (socket_hold.h). */
#include "eventset/fork.h"

#include "backend/direct/socket_hold.h"

#include <pthread.h>
#include <stddef.h>

#define FORK_MAX 256 /* live hubs or pollers; beyond, the rest go unguarded */

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct uncore_share *hubs[FORK_MAX];
static struct uncore_poller *pollers[FORK_MAX];
static unsigned nhubs, npollers;

static void add(void **list, unsigned *n, void *x)
{
	pthread_mutex_lock(&reg_lock);
	if (*n < FORK_MAX)
		list[(*n)++] = x;
	pthread_mutex_unlock(&reg_lock);
}

static void remove_from(void **list, unsigned *n, void *x)
{
	pthread_mutex_lock(&reg_lock);
	for (unsigned i = 0; i < *n; i++)
		if (list[i] == x) {
			list[i] = list[--*n];
			break;
		}
	pthread_mutex_unlock(&reg_lock);
}

void uncore_fork_add_hub(struct uncore_share *hub)
{
	add((void **)hubs, &nhubs, hub);
}

void uncore_fork_remove_hub(struct uncore_share *hub)
{
	remove_from((void **)hubs, &nhubs, hub);
}

void uncore_fork_add_poller(struct uncore_poller *p)
{
	add((void **)pollers, &npollers, p);
}

void uncore_fork_remove_poller(struct uncore_poller *p)
{
	remove_from((void **)pollers, &npollers, p);
}

static void prepare(void)
{
	pthread_mutex_lock(&reg_lock);
	for (unsigned i = 0; i < npollers; i++)
		poller_fork_lock(pollers[i]);
	for (unsigned i = 0; i < nhubs; i++)
		hub_fork_lock(hubs[i]);
	uncore_socket_hold_fork_prepare();
}

static void parent(void)
{
	uncore_socket_hold_fork_parent();
	for (unsigned i = nhubs; i-- > 0;)
		hub_fork_unlock(hubs[i]);
	for (unsigned i = npollers; i-- > 0;)
		poller_fork_unlock(pollers[i]);
	pthread_mutex_unlock(&reg_lock);
}

static void child(void)
{
	/* The holds first: a forked hub lets go of its own (socket_hold.h). */
	uncore_socket_hold_fork_child();
	for (unsigned i = 0; i < nhubs; i++)
		hub_fork_child(hubs[i]);
	for (unsigned i = 0; i < npollers; i++)
		poller_fork_child(pollers[i]);
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
