/* Fuzz target: an uncored policy file (service/policy.h) as an
 * administrator's typo or a file that is not a policy gives it: parsed
 * or refused with a reason that names a line and quotes at most one token
 * (never more of the file: the detail stays short); a parsed policy
 * decides and limits without fault for a few clients and events. */
#include <stdio.h>

#include "common/uncore_error.h"
#include "fuzz.h"
#include "service/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uncored_policy *p = NULL;
	uncore_error_clear();
	int rc = uncored_policy_parse((const char *)data, size, "fuzz.pol", &p);
	if (rc < 0) {
		const char *d = uncore_error_detail();
		/* origin, line number, the fixed words, one quoted token (at most
		 * UNCORE_QUOTE_MAX bytes, each escaped to 4) */
		if (!d[0] || strncmp(d, "policy fuzz.pol", 15) != 0 || strlen(d) > 480 || p)
			abort();
		return 0;
	}
	static const uint32_t gids[] = {100, 27};
	const struct uncored_who who[] = {{0, 1, gids}, {1000, 2, gids}, {65534, 1, gids + 1}};
	static const char *const mods[] = {"tf", "nf", "t"};
	static const uint8_t thread[] = {1, 0, 0};
	const struct uncored_what what[] = {{"imc", 0, NULL, 0, NULL},
					    {"cbo", 3, mods, UNCORED_QUAL_THREAD, thread},
					    {"pcu", 1, mods + 2, 0, thread + 2},
					    {"imc", 0, NULL, UNCORED_QUAL_RAW, NULL}};
	for (unsigned w = 0; w < 3; w++) {
		unsigned line;
		for (unsigned e = 0; e < 4; e++) {
			uncore_error_clear();
			rc = uncored_policy_check(p, &who[w], &what[e]);
			if ((rc < 0 && (rc != UNCORE_EPERM || !uncore_error_detail()[0])) ||
			    (w == 0 && rc != 0))
				abort(); /* root is never refused */
		}
		(void)uncored_policy_limit(p, &who[w], UNCORED_LIMIT_EVENTS, &line);
		(void)uncored_policy_limit(p, &who[w], UNCORED_LIMIT_CLIENTS, &line);
	}
	uncored_policy_free(p);
	return 0;
}
