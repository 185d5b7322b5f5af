/* Reference-counted socket holds (see socket_hold.h): a short list of the
 * locks this process has, keyed by the resolved lock directory and the
 * socket, under one mutex. */
#include "backend/direct/socket_hold.h"

#include "common/uncore_error.h"
#include "backend/direct/socket_lock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct uncore_socket_hold {
	struct uncore_socket_hold *next;
	char dir[400];
	unsigned socket;
	char tag[24]; /* "" : the node's lock */
	unsigned refs;
	int orphan; /* a fork child's copy of its parent's hold: out of the list */
	int stale;  /* taken over from a killed holder, and nobody asked yet */
	struct uncore_socket_lock *lock;
};

static pthread_mutex_t holds_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct uncore_socket_hold *holds;

static int resolve_dir(const char *dir, char *buf, size_t len)
{
	if (!dir)
		return uncore_socket_lock_default_dir(NULL, NULL, buf, len);
	if ((size_t)snprintf(buf, len, "%s", dir) >= len)
		return uncore_fail(UNCORE_ENOSPACE, "lock directory name is too long");
	return 0;
}

static struct uncore_socket_hold *find(const char *dir, unsigned socket, const char *tag)
{
	for (struct uncore_socket_hold *h = holds; h; h = h->next)
		if (h->socket == socket && strcmp(h->dir, dir) == 0 && strcmp(h->tag, tag) == 0)
			return h;
	return NULL;
}

int uncore_socket_hold_acquire(const char *dir, unsigned socket, struct uncore_socket_hold **out)
{
	return uncore_socket_hold_acquire_as(dir, socket, NULL, NULL, out, NULL, 0);
}

int uncore_socket_hold_acquire_as(const char *dir, unsigned socket, const char *tag,
				  const char *group, struct uncore_socket_hold **out, char *who,
				  size_t wlen)
{
	if (who && wlen)
		who[0] = '\0';
	char resolved[sizeof(holds->dir)];
	int rc = resolve_dir(dir, resolved, sizeof(resolved));
	if (rc < 0)
		return rc;
	if (tag && strlen(tag) >= sizeof(holds->tag))
		return uncore_fail(UNCORE_ENOSPACE, "lock tag %.30s is too long", tag);
	pthread_mutex_lock(&holds_mutex);
	struct uncore_socket_hold *h = find(resolved, socket, tag ? tag : "");
	if (h) {
		h->refs++;
	} else if (!(h = calloc(1, sizeof(*h)))) {
		rc = uncore_fail(UNCORE_ENOMEM, "out of memory for a socket hold");
	} else {
		snprintf(h->dir, sizeof(h->dir), "%s", resolved);
		h->socket = socket;
		snprintf(h->tag, sizeof(h->tag), "%s", tag ? tag : "");
		h->refs = 1;
		rc = uncore_socket_lock_acquire_who(resolved, socket, tag, group, &h->lock, who,
						    wlen);
		if (rc < 0) {
			free(h);
			h = NULL;
		} else {
			h->stale = uncore_socket_lock_stale(h->lock);
			h->next = holds;
			holds = h;
		}
	}
	pthread_mutex_unlock(&holds_mutex);
	if (rc == 0)
		*out = h;
	return rc;
}

int uncore_socket_hold_take_stale(struct uncore_socket_hold *hold)
{
	if (!hold)
		return 0;
	pthread_mutex_lock(&holds_mutex);
	int stale = hold->stale;
	hold->stale = 0;
	pthread_mutex_unlock(&holds_mutex);
	return stale;
}

void uncore_socket_hold_release(struct uncore_socket_hold *hold)
{
	if (!hold)
		return;
	pthread_mutex_lock(&holds_mutex);
	if (hold->orphan) {
		if (--hold->refs == 0) {
			uncore_socket_lock_forget(hold->lock);
			free(hold);
		}
	} else if (--hold->refs == 0) {
		for (struct uncore_socket_hold **p = &holds; *p; p = &(*p)->next) {
			if (*p == hold) {
				*p = hold->next;
				break;
			}
		}
		uncore_socket_lock_release(hold->lock);
		free(hold);
	}
	pthread_mutex_unlock(&holds_mutex);
}

void uncore_socket_hold_fork_prepare(void)
{
	pthread_mutex_lock(&holds_mutex);
}

void uncore_socket_hold_fork_parent(void)
{
	pthread_mutex_unlock(&holds_mutex);
}

void uncore_socket_hold_fork_child(void)
{
	for (struct uncore_socket_hold *h = holds; h; h = h->next)
		h->orphan = 1;
	holds = NULL;
	pthread_mutex_init(&holds_mutex, NULL);
}

int uncore_socket_hold_node_held(const char *dir, unsigned socket)
{
	char resolved[sizeof(holds->dir)];
	if (resolve_dir(dir, resolved, sizeof(resolved)) < 0)
		return 0;
	pthread_mutex_lock(&holds_mutex);
	const struct uncore_socket_hold *h = find(resolved, socket, "");
	int held = h && h->refs;
	pthread_mutex_unlock(&holds_mutex);
	return held;
}

unsigned uncore_socket_hold_count(const char *dir, unsigned socket)
{
	char resolved[sizeof(holds->dir)];
	unsigned n = 0;
	if (resolve_dir(dir, resolved, sizeof(resolved)) < 0)
		return 0;
	pthread_mutex_lock(&holds_mutex);
	for (struct uncore_socket_hold *h = holds; h; h = h->next)
		if (h->socket == socket && strcmp(h->dir, resolved) == 0)
			n += h->refs; /* the node's lock and any group's */
	pthread_mutex_unlock(&holds_mutex);
	return n;
}
