/* Fuzz target: one line of an msr-safe allowlist as uncore-msr-allowlist
 * -m merges it (access/allowlist_text.h): an entry's numbers within their
 * widths, an error always with its reason. */
#include "access/allowlist_text.h"
#include "common/uncore_error.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	uint32_t msr = 0;
	uint64_t mask = 0;
	uncore_error_clear();
	int rc = s ? uncore_allowlist_line(s, &msr, &mask) : 0;
	if (rc < 0 && !uncore_error_detail()[0])
		abort();
	if (rc > 1)
		abort();
	free(s);
	return 0;
}
