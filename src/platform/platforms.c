/* The list of generations (platform.h): each is one object in
 * src/platform/<gen>/<gen>.c; this is the only list of them. */
#include "platform/platform.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <string.h>

/* Cousins: another generation's parts under their own identification. */
extern const struct uncore_platform uncore_platform_kbl; /* kbl/kbl.c */
extern const struct uncore_platform uncore_platform_bdx; /* bdx/bdx.c */
extern const struct uncore_platform uncore_platform_wsm; /* wsm/wsm.c */

static const struct uncore_platform *const platforms[] = {
    &uncore_platform_hswep, &uncore_platform_skl,   &uncore_platform_nhm,
    &uncore_platform_x7400, &uncore_platform_x7100, &uncore_platform_kbl,
    &uncore_platform_bdx,   &uncore_platform_wsm,
    /* Cascade Lake before Skylake-SP: the same model, later steppings. */
    &uncore_platform_clx,   &uncore_platform_skx,   &uncore_platform_icx,
    &uncore_platform_spr,   &uncore_platform_emr,   &uncore_platform_gnr,
    &uncore_platform_srf,
};

#define NPLATFORMS (sizeof(platforms) / sizeof(platforms[0]))

const struct uncore_platform *uncore_platform_at(unsigned i)
{
	return i < NPLATFORMS ? platforms[i] : NULL;
}

const struct uncore_platform *uncore_platform_by_name(const char *name)
{
	for (size_t i = 0; name && i < NPLATFORMS; i++)
		if (strcmp(platforms[i]->name, name) == 0)
			return platforms[i];
	return NULL;
}

const struct uncore_platform *uncore_platform_description(const struct uncore_platform *p)
{
	for (size_t i = 0; p && i < NPLATFORMS; i++)
		if (platforms[i]->id == p->id)
			return platforms[i];
	return p;
}

const struct uncore_platform *const *uncore_platforms(size_t *count)
{
	*count = NPLATFORMS;
	return platforms;
}

uint16_t uncore_pci_device_id(const struct uncore_platform *p, uint16_t described)
{
	for (const uint16_t(*id)[2] = p ? p->pci_ids : NULL; id && (*id)[0]; id++)
		if ((*id)[0] == described)
			return (*id)[1];
	return described;
}

int uncore_platform_sim_perf(const struct uncore_platform *p)
{
	const struct uncore_platform *d = uncore_platform_description(p);
	enum uncore_kit_flag f = p && p->kit && p->kit->sim_perf ? p->kit->sim_perf
			       : d && d->kit ? d->kit->sim_perf : UNCORE_KIT_INHERIT;
	return f == UNCORE_KIT_YES;
}

int uncore_platforms_describe(char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < NPLATFORMS; i++) {
		const struct uncore_platform *p = platforms[i];
		int n = snprintf(buf + used, len - used, "%s%s (%x/", i ? ", " : "", p->name,
				 p->family);
		if (n < 0 || (size_t)n >= len - used)
			return UNCORE_ENOSPACE;
		used += (size_t)n;
		for (const unsigned *m = p->models; *m; m++) {
			n = snprintf(buf + used, len - used, "%s0x%x", m == p->models ? "" : ",", *m);
			if (n < 0 || (size_t)n >= len - used)
				return UNCORE_ENOSPACE;
			used += (size_t)n;
		}
		n = snprintf(buf + used, len - used, ")");
		if (n < 0 || (size_t)n >= len - used)
			return UNCORE_ENOSPACE;
		used += (size_t)n;
	}
	return 0;
}
