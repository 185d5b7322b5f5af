/* The shapes of the Linux uncore driver (simkernel/shape_kernel.h): the list
 * and the lookups.  Each shape is data in the file of its driver family,
 * with the kernel source each fact comes from: shape_skx.c (Skylake-SP,
 * Ice Lake-SP), shape_spr.c (Sapphire Rapids, Emerald Rapids), shape_gnr.c
 * (Granite Rapids, its old-kernel variant, Sierra Forest); the format files
 * they share are shape_formats.h. */
#include "simkernel/shape_internal.h"
#include "simkernel/shape_kernel.h"

#include <string.h>

static const struct uncore_shape *const shapes[] = {
	&uncore_shape_spr, &uncore_shape_skx, &uncore_shape_icx, &uncore_shape_gnr,
	&uncore_shape_emr, &uncore_shape_srf, &uncore_shape_gnr_old,
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

size_t uncore_shape_count(void)
{
	return N(shapes);
}

const struct uncore_shape *uncore_shape_at(size_t i)
{
	return i < N(shapes) ? shapes[i] : NULL;
}

const struct uncore_shape *uncore_shape_find(const char *name)
{
	for (size_t i = 0; name && i < N(shapes); i++)
		if (strcmp(shapes[i]->name, name) == 0)
			return shapes[i];
	return NULL;
}

const char *uncore_shape_name(const struct uncore_shape *s)
{
	return s->name;
}

const char *uncore_shape_title(const struct uncore_shape *s)
{
	return s->title;
}

const char *uncore_shape_gen(const struct uncore_shape *s)
{
	return s->gen;
}

uint64_t uncore_shape_rate(const struct uncore_shape *s, const char *family, unsigned inst,
			   unsigned socket, uint64_t config, uint64_t config1)
{
	/* The filter selects what an event counts only where the kernel
	 * programs it (struct shape_filtered). */
	int filtered = !s->filtered;
	for (unsigned i = 0; i < s->nfiltered; i++)
		filtered |= strcmp(s->filtered[i].family, family) == 0 &&
			    (config & s->filtered[i].mask) == s->filtered[i].value;
	if (!filtered)
		config1 = 0;
	for (unsigned i = 0; i < s->nrates; i++) {
		const struct shape_rate *r = &s->rates[i];
		if (r->config != config || r->config1 != config1 || strcmp(r->family, family) != 0)
			continue;
		return r->uniform ? r->per_s : r->per_s * (inst + 1) * (socket + 1);
	}
	return 0;
}
