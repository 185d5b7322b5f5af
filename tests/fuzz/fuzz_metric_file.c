/* Fuzz target: the metric-file parser (the metrics/ files, written by users
 * too): any text is a catalog or a refusal with the line, never a crash. */
#include "common/uncore_error.h"
#include "fuzz.h"
#include "metrics/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	struct uncore_metric_catalog *c = NULL;
	if (s && uncore_metric_catalog_parse("fuzz.metrics", s, &c) < 0 &&
	    !uncore_error_detail()[0])
		abort();
	uncore_metric_catalog_free(c);
	free(s);
	return 0;
}
