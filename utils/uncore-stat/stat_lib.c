/* The library's own view of events (see stat_lib.h). */
#include "stat_lib.h"

#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"
#include "bind/component.h"
#include "eventset/eventset.h"
#include "presets/presets.h"

static const char PREFIX[] = "intel_uncore:::";

/* A preset (PAPI_UNC_LLC_MISSES[:socket=N]) stands for its events here:
 * PAPI expands it before the component sees it, and so must a refusal's
 * explanation (the events are what does not fit). */
static unsigned expand_preset(const struct uncore_component *comp, const char *name,
			      char out[][UNCORE_PRESET_NAME_MAX])
{
	unsigned npre = 0, nev = 0;
	const struct uncore_preset_def *pre =
	    comp->be && comp->be->machine.plat ? uncore_presets(comp->be->machine.plat->platform, &npre)
					       : NULL;
	for (unsigned p = 0; p < npre; p++) {
		size_t n = strlen(pre[p].symbol);
		int socket = -1;
		if (strncmp(name, pre[p].symbol, n) != 0)
			continue;
		if (name[n] == ':' && strncmp(name + n, ":socket=", 8) == 0)
			socket = atoi(name + n + 8);
		else if (name[n] != '\0')
			continue;
		char symbol[UNCORE_PRESET_NAME_MAX];
		if (uncore_preset_instance(&pre[p], socket, symbol, sizeof(symbol), out, &nev) == 0)
			return nev;
	}
	return 0;
}

int stat_lib_open(const char *const *names, unsigned n, struct uncore_component **comp,
		  struct uncore_set **set)
{
	unsigned cap = n * UNCORE_PRESET_MAX_EVENTS + 1, k = 0;
	const char **list = calloc(cap, sizeof(*list));
	char(*expanded)[UNCORE_PRESET_NAME_MAX] = calloc(cap, sizeof(*expanded));
	int rc;

	*comp = NULL;
	*set = NULL;
	if (!list || !expanded) {
		free(list);
		free(expanded);
		return uncore_fail(UNCORE_ENOMEM, "out of memory");
	}
	uncore_error_clear();
	rc = uncore_component_open(NULL, comp);
	for (unsigned i = 0; rc == 0 && i < n; i++) {
		const char *name = strncmp(names[i], PREFIX, sizeof(PREFIX) - 1) == 0
				       ? names[i] + sizeof(PREFIX) - 1
				       : names[i];
		unsigned e = expand_preset(*comp, name, &expanded[k]);
		if (e == 0)
			list[k++] = name;
		for (unsigned j = 0; j < e; j++, k++)
			list[k] = expanded[k];
	}
	if (rc == 0)
		rc = uncore_set_create((*comp)->be, set);
	if (rc == 0)
		rc = uncore_set_assign(*set, list, k);
	free(list);
	free(expanded);
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
