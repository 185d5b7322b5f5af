/* Cross-check of our event encoder against the staged libpfm4 (PAPI's
 * bundled libpfm4 with libpfm4-events/ applied): for every box type of every
 * platform, every event is encoded with its defaults, with each unit mask
 * alone, with pairs of its unit masks, and with each modifier it accepts at
 * its least and greatest value, by both; they must agree on success, control value (enable bit
 * aside) and filter values.  One PASS/FAIL line per box type, with the differences. Run with
 * LIBPFM_ENCODE_INACTIVE=1 (no uncore hardware needed). events_vs_libpfm4 [-v] */
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "events/pfm_compat.h"
#include "events/registry.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

static int verbose;

struct box_tally {
	int strings, agree, differ, known;
};

/* The enable bits libpfm4's encoders may set and ours never do. */
static uint64_t libpfm_only_bits(const struct uncore_box_type *box)
{
	uint64_t bits = box->ctl->en;
	if (strncmp(box->name, "nhm_", 4) == 0)
		bits |= 1ULL << 20; /* PMI, set by libpfm4's Nehalem encoder */
	return bits;
}

static void compare(const struct uncore_box_type *box, const char *str, struct box_tally *t)
{
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	uint64_t codes[8] = {0};
	pfm_pmu_encode_arg_t arg;
	char why[600] = "";

	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.codes = codes;
	arg.count = 8;
	int pret = pfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	int rc = uncore_event_parse(NULL, str, &ref);
	if (!rc)
		rc = uncore_event_encode(&ref, &enc);
	t->strings++;

	if (pret == PFM_SUCCESS && rc == UNCORE_ECOMBO &&
	    strstr(uncore_error_detail(), " excludes")) {
		/* Known deviation (src/events/README.md): a umask of a group that an
		 * EXCL_GRP_GT umask (named or default) excludes.  libpfm4's server
		 * uncore encoder programs the filter the hardware then ignores (its
		 * core encoder refuses, as we do). */
		t->known++;
		return;
	}
	if ((pret == PFM_SUCCESS) != (rc == 0)) {
		snprintf(why, sizeof(why), "libpfm4: %s; ours: %s %s",
			 pret == PFM_SUCCESS ? "encodes" : pfm_strerror(pret),
			 rc ? uncore_error_name(rc) : "encodes", rc ? uncore_error_detail() : "");
	} else if (rc == 0) {
		uint64_t pctl = codes[0] & ~libpfm_only_bits(box);
		uint64_t octl = enc.fixed ? (enc.code | enc.ctl) : enc.ctl;
		if (pctl != octl)
			snprintf(why, sizeof(why), "ctl: libpfm4 0x%" PRIx64 ", ours 0x%" PRIx64,
				 pctl, octl);
		/* libpfm4's codes[1..2] are the table's filter slots; slot n is the
		 * box filter the event routes it to (Nehalem: MSR 301h or 396h). */
		uint64_t want[UNCORE_MAX_FILTERS] = {0};
		for (unsigned n = 0; n < 2; n++) {
			uint64_t p = (int)(n + 1) < arg.count ? codes[n + 1] : 0;
			unsigned f = uncore_box_filter_of(box, &box->events[ref.event], n);
			if (f < UNCORE_MAX_FILTERS)
				want[f] |= p;
			else if (p)
				snprintf(why, sizeof(why),
					 "libpfm4 programs filter slot %u, we have none", n);
		}
		for (unsigned f = 0; !why[0] && f < UNCORE_MAX_FILTERS; f++)
			if (want[f] != enc.filter[f])
				snprintf(why, sizeof(why),
					 "filter %u: libpfm4 0x%" PRIx64 ", ours 0x%" PRIx64, f,
					 want[f], enc.filter[f]);
	}
	if (why[0]) {
		t->differ++;
		if (verbose || t->differ <= 12)
			printf("   %s: %s\n", str, why);
	} else {
		t->agree++;
	}
}

/* The modifiers an event (with umask um, or -1) cannot do without. */
static void append_required(const struct uncore_box_type *box, const intel_x86_entry_t *e, int um,
			    char *s, size_t len)
{
	unsigned req = e->modmsk_req | (um >= 0 ? e->umasks[um].umodmsk_req : 0);
	for (unsigned m = 0; m < box->nmods; m++)
		if (req & (1u << box->mods[m].attr)) {
			size_t n = strlen(s);
			snprintf(s + n, len - n, ":%s=%llu", box->mods[m].name,
				 (unsigned long long)(box->mods[m].min ? box->mods[m].min : 1));
		}
}

static void check_box(const struct uncore_box_type *box)
{
	struct box_tally t = {0, 0, 0, 0};
	char pmu[64], s[512];
	uncore_box_instance_name(box, box->ninstances > 1 ? 0 : -1, pmu, sizeof(pmu));

	for (unsigned ev = 0; ev < box->nevents; ev++) {
		const intel_x86_entry_t *e = &box->events[ev];
		snprintf(s, sizeof(s), "%s::%s", pmu, e->name);
		append_required(box, e, -1, s, sizeof(s));
		compare(box, s, &t);
		for (unsigned um = 0; um < e->numasks; um++) {
			snprintf(s, sizeof(s), "%s::%s:%s", pmu, e->name, e->umasks[um].uname);
			append_required(box, e, (int)um, s, sizeof(s));
			compare(box, s, &t);
		}
		/* Pairs of unit masks: combination rules (NCOMBO, groups, defaults). */
		for (unsigned a = 0; a < e->numasks; a++)
			for (unsigned b = a + 1; b < e->numasks && b < a + 6; b++) {
				snprintf(s, sizeof(s), "%s::%s:%s:%s", pmu, e->name,
					 e->umasks[a].uname, e->umasks[b].uname);
				append_required(box, e, (int)a, s, sizeof(s));
				append_required(box, e, (int)b, s, sizeof(s));
				compare(box, s, &t);
			}
		/* Unit masks that hard-wire a modifier, with that modifier given. */
		for (unsigned um = 0; um < e->numasks; um++)
			for (unsigned m = 0; m < box->nmods; m++) {
				if (!(e->umasks[um].modhw & (1u << box->mods[m].attr)))
					continue;
				snprintf(s, sizeof(s), "%s::%s:%s:%s=%llu", pmu, e->name,
					 e->umasks[um].uname, box->mods[m].name,
					 (unsigned long long)box->mods[m].min);
				compare(box, s, &t);
			}
		for (unsigned m = 0; m < box->nmods; m++) {
			const struct uncore_mod_desc *d = &box->mods[m];
			if (!(e->modmsk & (1u << d->attr)) || (e->modmsk_req & (1u << d->attr)))
				continue;
			uint64_t vals[2] = {d->min, d->max};
			for (int k = 0; k < 2; k++) {
				snprintf(s, sizeof(s), "%s::%s", pmu, e->name);
				append_required(box, e, -1, s, sizeof(s));
				size_t n = strlen(s);
				snprintf(s + n, sizeof(s) - n, ":%s=%llu", d->name,
					 (unsigned long long)vals[k]);
				compare(box, s, &t);
			}
		}
	}
	printf("%s %s: %d strings, %d agree, %d differ, %d known deviations\n",
	       t.differ ? "FAIL" : "PASS", box->name, t.strings, t.agree, t.differ, t.known);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	int ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		printf("FAIL pfm_initialize: %s\n", pfm_strerror(ret));
		return 1;
	}
	for (unsigned p = 0; uncore_event_platform_at(p); p++) {
		const struct uncore_event_platform *plat = uncore_event_platform_at(p);
		/* Tables from Intel's perfmon data: libpfm4's own tables of these
		 * generations are other tables (test_perfmon_audit.sh checks ours
		 * against Intel's data instead). */
		if (plat->from_intel_perfmon)
			continue;
		for (unsigned b = 0; b < plat->nboxes; b++)
			check_box(plat->boxes[b]);
	}
	return 0;
}
