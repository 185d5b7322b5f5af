/* The holders of another measurement group (stat_holders.h), read from
 * the node's socket locks through the library. */
#include "stat_holders.h"

#include <string.h>
#include <unistd.h>

#include "backend/direct/socket_lock.h"
#include "bind/component.h"
#include "bind/group.h"
#include "common/uncore_error.h"

void stat_holders_note(FILE *err)
{
	struct uncore_component *comp;
	struct uncore_group g;
	char who[8][64], note[8][240];
	int foreign[8] = {0};
	if (uncore_component_open(NULL, &comp) < 0) {
		uncore_error_clear();
		return;
	}
	unsigned n = comp->be ? comp->be->machine.nsockets : 0;
	if (n > 8)
		n = 8;
	uncore_group_identify(comp->settings, (int)getpid(), (int)getppid(), &g);
	for (unsigned s = 0; s < n && comp->kind != UNCORE_BACKEND_PERF && !comp->no_socket_lock; s++)
		foreign[s] = uncore_socket_lock_foreign(comp->lock_dir[0] ? comp->lock_dir : NULL, s,
							g.key, who[s], sizeof(who[s]), note[s],
							sizeof(note[s]));
	uncore_component_close(comp);
	uncore_error_clear();
	/* One line per holder, naming all its sockets. */
	for (unsigned s = 0; s < n; s++) {
		if (!foreign[s])
			continue;
		unsigned count = 0;
		for (unsigned t = s; t < n; t++)
			count += foreign[t] && strcmp(who[t], who[s]) == 0;
		fprintf(err, "uncore-stat: warning: socket%s ", count > 1 ? "s" : "");
		for (unsigned t = s, first = 1; t < n; t++)
			if (foreign[t] && strcmp(who[t], who[s]) == 0) {
				fprintf(err, "%s%u", first ? "" : ", ", t);
				first = 0;
				if (t != s)
					foreign[t] = 0;
			}
		fprintf(err, " %s programmed by %s, %s\n", count > 1 ? "are" : "is", who[s], note[s]);
	}
}
