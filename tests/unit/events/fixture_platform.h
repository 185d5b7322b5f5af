/* A test platform: the real Haswell-EP box descriptors (register layouts,
 * modifiers, counters) carrying the fixture tables of fixtures/, under the
 * names fx_unc_<kind>.  Copies are made in the test program; the library's
 * descriptors are not touched. */
#ifndef TEST_EVENTS_FIXTURE_PLATFORM_H
#define TEST_EVENTS_FIXTURE_PLATFORM_H

#include "events/pfm_compat.h"
#include "events/registry.h"

#include "fixtures/fixture_events.h"

#include <stdio.h>
#include <stdlib.h>

static struct uncore_box_type fx_boxes[4];
static const struct uncore_box_type *fx_box_list[4];
static struct uncore_event_platform fx_platform;

static void fx_box(unsigned i, const char *real, const char *name, const intel_x86_entry_t *pe,
		   unsigned n)
{
	const struct uncore_box_type *src =
	    uncore_box_type_find(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), real);
	if (!src) {
		fprintf(stderr, "fixture: no box type %s in the registry\n", real);
		exit(1);
	}
	fx_boxes[i] = *src;
	fx_boxes[i].name = name;
	fx_boxes[i].events = pe;
	fx_boxes[i].nevents = n;
	fx_box_list[i] = &fx_boxes[i];
}

static const struct uncore_event_platform *fixture_platform(void)
{
	if (!fx_platform.nboxes) {
		fx_box(0, "hswep_unc_cbo", "fx_unc_cbo", fx_c_pe, LIBPFM_ARRAY_SIZE(fx_c_pe));
		fx_box(1, "hswep_unc_imc", "fx_unc_imc", fx_m_pe, LIBPFM_ARRAY_SIZE(fx_m_pe));
		fx_box(2, "hswep_unc_pcu", "fx_unc_pcu", fx_p_pe, LIBPFM_ARRAY_SIZE(fx_p_pe));
		fx_box(3, "hswep_unc_ubo", "fx_unc_ubo", fx_u_pe, LIBPFM_ARRAY_SIZE(fx_u_pe));
		fx_platform.platform = &uncore_platform_hswep;
		fx_platform.name = "fixture";
		fx_platform.boxes = fx_box_list;
		fx_platform.nboxes = 4;
	}
	return &fx_platform;
}

#endif
