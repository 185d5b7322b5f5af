/* Fuzz target: the derived-event notation (HSX 1.7) of metric formulas:
 * parse any text; evaluate what parses to numbers alone. */
#include "common/uncore_error.h"
#include "fuzz.h"
#include "metrics/expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct mx_arena *a = NULL;
	struct mx_node *n = NULL;
	if (s && mx_arena_create(&a) == 0 && mx_parse(a, s, "fuzz", &n) == 0 && n &&
	    !mx_contains(n, MX_REF) && !mx_contains(n, MX_TERM) && !mx_contains(n, MX_COMMON))
		(void)mx_eval(n, NULL, NULL);
	mx_arena_destroy(a);
	free(s);
	return 0;
}
