/* PAPI_INTEL_UNCORE_MPI_EVENTS (see mpi_events.h). */
#include "mpi_events.h"

#include "events/registry.h"
#include "metrics/catalog.h"
#include "metrics/metrics.h"
#include "platform/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The members of group `name` in the first platform that has one. */
static const struct uncore_metric_group *find_group(const char *name)
{
	const struct uncore_event_platform *plat;
	for (unsigned i = 0; (plat = uncore_event_platform_at(i)) != NULL; i++) {
		const struct uncore_metric_catalog *cat;
		if (uncore_metric_catalog_get(plat, &cat) < 0)
			continue;
		const struct uncore_metric_group *g = uncore_metric_group_find(cat, name);
		if (g)
			return g;
	}
	return NULL;
}

static int add(struct umpi_events *out, const char *name, char *err, size_t len)
{
	for (unsigned i = 0; i < out->n; i++)
		if (strcmp(out->name[i], name) == 0)
			return 0; /* once, even when named twice */
	if (out->n == UMPI_MAX_EVENTS) {
		snprintf(err, len, "more than %d events in PAPI_INTEL_UNCORE_MPI_EVENTS",
			 UMPI_MAX_EVENTS);
		return -1;
	}
	if (!(out->name[out->n] = strdup(name))) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	out->n++;
	return 0;
}

int umpi_events_parse(const char *spec, struct umpi_events *out, char *err, size_t len)
{
	char *copy = strdup(spec ? spec : ""), *save = NULL;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (!copy) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (char *tok = strtok_r(copy, ";", &save); tok && rc == 0;
	     tok = strtok_r(NULL, ";", &save)) {
		while (*tok == ' ' || *tok == '\t')
			tok++;
		char *end = tok + strlen(tok);
		while (end > tok && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
			*--end = '\0';
		if (!*tok)
			continue;
		const struct uncore_metric_group *g = strstr(tok, "::") ? NULL : find_group(tok);
		if (g)
			for (unsigned m = 0; m < g->nmembers && rc == 0; m++)
				rc = add(out, g->members[m], err, len);
		else
			rc = add(out, tok, err, len);
	}
	free(copy);
	if (rc == 0 && out->n == 0) {
		snprintf(err, len,
			 "PAPI_INTEL_UNCORE_MPI_EVENTS names no event (events and metric "
			 "groups separated by ';')");
		rc = -1;
	}
	if (rc < 0)
		umpi_events_free(out);
	return rc;
}

void umpi_events_free(struct umpi_events *ev)
{
	for (unsigned i = 0; i < ev->n; i++)
		free(ev->name[i]);
	memset(ev, 0, sizeof(*ev));
}

int umpi_counting_time_name(unsigned i, char *out, size_t len)
{
	const struct uncore_event_platform *plat;
	for (unsigned k = 0, seen = 0; (plat = uncore_event_platform_at(k)) != NULL; k++) {
		const struct uncore_metric_catalog *cat;
		if (uncore_metric_catalog_get(plat, &cat) < 0 || !cat->summary_pmu ||
		    !uncore_metric_def_find(cat, NULL, "COUNTING_TIME"))
			continue;
		if (seen++ == i) {
			snprintf(out, len, "%s::COUNTING_TIME", cat->summary_pmu);
			return 0;
		}
	}
	return -1;
}
