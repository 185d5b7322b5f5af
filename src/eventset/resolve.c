/* Resolving a name once (see resolve.h). */
#include "eventset/resolve.h"

#include "backend/backend.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/spelling.h"

#include <stdio.h>
#include <string.h>

int uncore_resolve(const struct uncore_event_platform *plat, struct uncore_event_source *src,
		   const char *name, struct uncore_entry *out)
{
	int rc;

	if (!name)
		return uncore_fail(UNCORE_EINVAL, "no event name");
	if (strnlen(name, UNCORE_EVENT_MAX_LEN + 1) > UNCORE_EVENT_MAX_LEN)
		return uncore_fail(UNCORE_ESYNTAX, "event string longer than %d characters",
				   UNCORE_EVENT_MAX_LEN);
	/* perf's PMU/fields/ and Intel's EVENT.UMASK, in our spelling. */
	char spelled[UNCORE_EVENT_MAX_LEN + 1];
	rc = uncore_event_spelling(name, spelled, sizeof(spelled));
	if (rc == UNCORE_ENOSPACE)
		return uncore_fail(UNCORE_ESYNTAX, "event string longer than %d characters",
				   UNCORE_EVENT_MAX_LEN);
	if (rc < 0)
		return rc;
	rc = uncore_resolve_spelled(plat, src, spelled, out);
	if (rc == 0) /* the name as the user gave it (resolve.h), known to fit */
		snprintf(out->name, sizeof(out->name), "%s", name);
	return rc;
}

int uncore_resolve_spelled(const struct uncore_event_platform *plat,
			   struct uncore_event_source *src, const char *name,
			   struct uncore_entry *out)
{
	struct uncore_entry e;
	int rc;

	memset(&e, 0, sizeof(e));
	if ((size_t)snprintf(e.name, sizeof(e.name), "%s", name) >= sizeof(e.name))
		return uncore_fail(UNCORE_ESYNTAX, "event string longer than %d characters",
				   UNCORE_EVENT_MAX_LEN);
	if (src) {
		rc = src->ops->parse(src, name, &e.ev);
		e.ev.name = NULL;
		if (rc < 0)
			return rc;
		if (rc == 0) {
			e.kind = UNCORE_ENTRY_EVENT;
			e.from_source = 1;
			*out = e;
			return 0;
		}
	}
	rc = uncore_event_parse_encode(plat, name, &e.ev.ref, &e.ev.enc);
	if (rc == 0) {
		if (src && src->ops->table_event)
			rc = src->ops->table_event(src, &e.ev);
		if (rc < 0)
			return rc;
		e.kind = UNCORE_ENTRY_EVENT;
		*out = e;
		return 0;
	}
	if (rc != UNCORE_ENOEVENT)
		return rc;
	char detail[512];
	snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
	int mrc = uncore_metric_parse(plat, name, &e.metric);
	if (mrc == UNCORE_ENOEVENT)
		return uncore_fail(rc, "%s", detail);
	if (mrc < 0)
		return mrc;
	e.kind = UNCORE_ENTRY_METRIC;
	*out = e;
	return 0;
}
