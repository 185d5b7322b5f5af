/* The uncore preset tables (presets/presets.h): every preset's events parse
 * and encode on its platform, for the node and for a socket; its formula
 * names only its events; symbols are PAPI_UNC_*, unique; instances name
 * the socket. */
#include <string.h>

#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "events/registry.h"
#include "harness.h"
#include "presets/presets.h"

static void check_platform(const struct uncore_platform *gen)
{
	unsigned n;
	const struct uncore_preset_def *d = uncore_presets(gen, &n);
	const struct uncore_event_platform *plat = gen->events;
	for (unsigned i = 0; i < n; i++) {
		harness_row = d[i].symbol;
		CHECK(strncmp(d[i].symbol, "PAPI_UNC_", 9) == 0);
		for (unsigned j = 0; j < i; j++)
			CHECK(strcmp(d[i].symbol, d[j].symbol) != 0);
		for (int socket = -1; socket < 2; socket++) {
			char sym[UNCORE_PRESET_NAME_MAX],
			    ev[UNCORE_PRESET_MAX_EVENTS][UNCORE_PRESET_NAME_MAX];
			unsigned nev = 0;
			CHECK_EQ_INT(
			    uncore_preset_instance(&d[i], socket, sym, sizeof(sym), ev, &nev), 0);
			CHECK(nev >= 1);
			if (socket == 1) {
				CHECK_CONTAINS(sym, ":socket=1");
			}
			for (unsigned k = 0; k < nev; k++) {
				struct uncore_event_ref ref;
				struct uncore_encoding enc;
				CHECK_EQ_INT(uncore_event_parse(plat, ev[k], &ref), 0);
				CHECK_EQ_INT(uncore_event_encode(&ref, &enc), 0);
				CHECK_EQ_INT(ref.socket, socket < 0 ? UNCORE_ALL : socket);
			}
			/* The formula reads N0..N(nev-1) only. */
			for (const char *p = d[i].postfix; p && *p; p++)
				if (*p == 'N')
					CHECK(p[1] >= '0' && p[1] < '0' + (int)nev);
		}
	}
}

TEST(every_preset_is_countable_on_its_platform)
{
	const struct uncore_platform *gen;
	for (unsigned i = 0; (gen = uncore_platform_at(i)) != NULL; i++)
		check_platform(gen);
	CHECK(uncore_platform_hswep.npresets >= 5);
}

TEST(platforms_without_presets_have_none)
{
	unsigned n = 7;
	CHECK(uncore_presets(NULL, &n) == NULL);
	CHECK_EQ_INT((int)n, 0);
}

TEST(too_small_buffers_are_refused)
{
	unsigned n, nev;
	const struct uncore_preset_def *d = uncore_presets(&uncore_platform_hswep, &n);
	char sym[8], ev[UNCORE_PRESET_MAX_EVENTS][UNCORE_PRESET_NAME_MAX];
	CHECK_EQ_INT(uncore_preset_instance(&d[0], 0, sym, sizeof(sym), ev, &nev), UNCORE_ERANGE);
}

int main(void)
{
	RUN(every_preset_is_countable_on_its_platform);
	RUN(platforms_without_presets_have_none);
	RUN(too_small_buffers_are_refused);
	return harness_done();
}
