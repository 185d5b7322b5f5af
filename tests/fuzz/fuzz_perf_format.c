/* Fuzz target: the perf PMU format parser ("config:0-7,21"): any text is a
 * field whose bits lie within its config word or a refusal. */
#include "backend/perf/perf_format.h"
#include "common/uncore_error.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct uncore_perf_field f;
	if (s && uncore_perf_field_parse("fuzz", s, &f) == 0) {
		uint64_t cfg[UNCORE_PERF_NCONFIG] = {0, 0, 0};
		if (f.bits < 1 || f.bits > 64 || f.config >= UNCORE_PERF_NCONFIG)
			abort();
		if (uncore_perf_field_put(&f, uncore_perf_field_max(&f), cfg) < 0 ||
		    cfg[f.config] != uncore_perf_field_mask(&f))
			abort(); /* the largest value fills exactly the field's bits */
	}
	free(s);
	return 0;
}
