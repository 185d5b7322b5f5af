/* An event set on a view of a shared hub (view_set.h). */
#include "view_set.h"

#include <string.h>

int view_set_open(struct uncore_share *hub, const char *const *names, unsigned n,
		  struct view_set *vs)
{
	memset(vs, 0, sizeof(*vs));
	int rc = uncore_share_view(hub, &vs->view);
	if (rc == 0)
		rc = uncore_set_create(vs->view, &vs->set);
	if (rc == 0)
		rc = uncore_set_assign(vs->set, names, n);
	return rc;
}

void view_set_close(struct view_set *vs)
{
	uncore_set_destroy(vs->set);
	if (vs->view)
		vs->view->ops->destroy(vs->view);
	memset(vs, 0, sizeof(*vs));
}
