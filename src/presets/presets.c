/* The uncore presets of a generation (presets.h): its platform object's
 * data, and each preset's instance for the node or one socket. */
#include "presets/presets.h"

#include "common/uncore_error.h"
#include "events/parse.h"
#include "plan/machine.h"

#include <stdio.h>

const struct uncore_preset_def *uncore_presets(const struct uncore_platform *p, unsigned *n)
{
	*n = p ? p->npresets : 0;
	return *n ? p->presets : NULL;
}

int uncore_preset_instance(const struct uncore_preset_def *d, int socket, char *symbol,
			   size_t symbol_len, char events[][UNCORE_PRESET_NAME_MAX],
			   unsigned *nevents)
{
	char suffix[32] = "";
	unsigned k = 0;
	int w;
	if (socket >= 0)
		snprintf(suffix, sizeof(suffix), ":socket=%d", socket);
	w = snprintf(symbol, symbol_len, "%s%s", d->symbol, suffix);
	if (w < 0 || (size_t)w >= symbol_len)
		return uncore_fail(UNCORE_ERANGE, "preset name %s%s is too long", d->symbol,
				   suffix);
	for (; k < UNCORE_PRESET_MAX_EVENTS && d->events[k]; k++) {
		w = snprintf(events[k], UNCORE_PRESET_NAME_MAX, "%s%s", d->events[k], suffix);
		if (w < 0 || w >= UNCORE_PRESET_NAME_MAX)
			return uncore_fail(UNCORE_ERANGE, "event %s%s of %s is too long",
					   d->events[k], suffix, d->symbol);
	}
	*nevents = k;
	return 0;
}

int uncore_preset_countable(const struct uncore_preset_def *d, const struct uncore_machine *m)
{
	for (unsigned k = 0; k < UNCORE_PRESET_MAX_EVENTS && d->events[k]; k++) {
		struct uncore_event_ref ref;
		if (uncore_event_parse(m->plat, d->events[k], &ref) < 0) {
			uncore_error_clear();
			return 0;
		}
		int b = uncore_machine_box_index(m, ref.box);
		int any = 0;
		for (unsigned s = 0; b >= 0 && s < m->nsockets && !any; s++)
			any = ref.instance == UNCORE_ALL
				  ? uncore_inst_count(&m->present[b][s]) > 0
				  : uncore_inst_has(&m->present[b][s], (unsigned)ref.instance);
		if (!any)
			return 0;
	}
	return 1;
}
