/* An event set counting on a view of a shared hub (eventset/share.h): what
 * each PAPI event set of a process is when several share a socket's
 * counters.  The unit tests of sharing open several of them on one hub. */
#ifndef UNCORE_TEST_VIEW_SET_H
#define UNCORE_TEST_VIEW_SET_H

#include "eventset/eventset.h"
#include "eventset/share.h"

struct view_set {
	struct uncore_backend *view; /* the set's backend: a view of the hub */
	struct uncore_set *set;
};

/* A view of `hub` and a set on it with the n events `names`.  0, or the
 * first error (*vs is cleared first: view_set_close is always safe). */
int view_set_open(struct uncore_share *hub, const char *const *names, unsigned n,
		  struct view_set *vs);

/* Destroy the set, then its view (a set does not own its backend); the
 * hub goes with its last view. */
void view_set_close(struct view_set *vs);

#endif
