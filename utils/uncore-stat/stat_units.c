/* Bytes per count of an event (see stat_units.h). */
#include "stat_units.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "platform/platform.h"

/* Event names (any case, as a part of the name) whose every count moves one
 * 64-byte line: a DRAM CAS reads or writes one cache line (HSX 2.6.6
 * MEM_BW_READS/WRITES: 64 bytes per CAS; the kernel's cas_count_* aliases
 * say the same with .scale 6.103515625e-5 MiB). */
static const struct {
	const char *part;
	double bytes;
} line_events[] = {
    {"CAS_COUNT", 64.0},
};

/* `name` without a trailing ":socket=N" (or ":socket=N" anywhere, as
 * uncore-stat's rows carry it last). */
static void strip_socket(const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s", name);
	char *q = strstr(out, ":socket=");
	if (q)
		*q = '\0';
}

/* A preset whose formula is "N0|K|*|" over one event: K bytes per count of
 * that event; a preset named *_BYTES counts bytes itself. */
static double preset_bytes(const char *name)
{
	size_t n = 0;
	const struct uncore_platform *const *all = uncore_platforms(&n);
	for (size_t i = 0; i < n; i++)
		for (unsigned j = 0; j < all[i]->npresets; j++) {
			const struct uncore_preset_def *d = &all[i]->presets[j];
			size_t sl = strlen(d->symbol);
			int bytes = sl > 6 && strcmp(d->symbol + sl - 6, "_BYTES") == 0;
			if (!bytes)
				continue;
			if (strcasecmp(d->symbol, name) == 0)
				return 1.0;
			double k;
			char tail;
			if (d->postfix && !d->events[1] && strcasecmp(d->events[0], name) == 0 &&
			    sscanf(d->postfix, "N0|%lf|*%c", &k, &tail) == 2 && tail == '|' && k > 0)
				return k;
		}
	return 0;
}

double stat_event_bytes(const char *name)
{
	char base[256];
	if (!name)
		return 0;
	strip_socket(name, base, sizeof(base));
	double b = preset_bytes(base);
	if (b > 0)
		return b;
	/* The event part: after the PMU ("hswep_unc_imc::", "uncore_imc_0/"). */
	for (size_t i = 0; i < sizeof(line_events) / sizeof(line_events[0]); i++) {
		size_t pl = strlen(line_events[i].part);
		for (const char *p = base; *p; p++)
			if (strncasecmp(p, line_events[i].part, pl) == 0)
				return line_events[i].bytes;
	}
	return 0;
}
