/* The library's own view of events (see stat_lib.h). */
#include "stat_lib.h"

#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"
#include "bind/component.h"
#include "eventset/eventset.h"

static const char PREFIX[] = "intel_uncore:::";

int stat_lib_open(const char *const *names, unsigned n, struct uncore_component **comp,
		  struct uncore_set **set)
{
	const char **list = calloc(n ? n : 1, sizeof(*list));
	int rc;

	*comp = NULL;
	*set = NULL;
	if (!list)
		return uncore_fail(UNCORE_ENOMEM, "out of memory");
	for (unsigned i = 0; i < n; i++)
		list[i] = strncmp(names[i], PREFIX, sizeof(PREFIX) - 1) == 0
			      ? names[i] + sizeof(PREFIX) - 1
			      : names[i];
	uncore_error_clear();
	rc = uncore_component_open(NULL, comp);
	if (rc == 0)
		rc = uncore_set_create((*comp)->be, set);
	if (rc == 0)
		rc = uncore_set_assign(*set, list, n);
	free(list);
	return rc;
}

void stat_lib_close(struct uncore_component *comp, struct uncore_set *set)
{
	uncore_set_destroy(set);
	uncore_component_close(comp);
}

int stat_lib_event_detail(const char *const *names, unsigned n, char *buf, size_t len)
{
	struct uncore_component *comp;
	struct uncore_set *set;
	int rc = stat_lib_open(names, n, &comp, &set);

	if (rc == 0)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%s",
			 uncore_error_detail()[0] ? uncore_error_detail() : uncore_strerror(rc));
	stat_lib_close(comp, set);
	return 0;
}
