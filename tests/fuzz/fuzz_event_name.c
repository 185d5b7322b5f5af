/* Fuzz target: the event-name parser and encoder.  Any string, against
 * every built-in platform and against none: a refusal is a known code with
 * a message; a success encodes, and its canonical string parses back to the
 * same encoding. */
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"
#include "events/registry.h"
#include "fuzz.h"

static void one(const struct uncore_event_platform *plat, const char *s)
{
	struct uncore_event_ref ref, again;
	struct uncore_encoding enc, enc2;
	char canon[1024];
	if (uncore_event_parse(plat, s, &ref) < 0) {
		if (!uncore_error_detail()[0])
			abort(); /* a refusal always says why */
		return;
	}
	if (uncore_event_encode(&ref, &enc) < 0)
		return;
	if (uncore_event_format(&ref, canon, sizeof(canon)) < 0)
		return;
	if (uncore_event_parse(plat, canon, &again) < 0 || uncore_event_encode(&again, &enc2) < 0 ||
	    enc.ctl != enc2.ctl)
		abort(); /* the canonical string must give the same encoding */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	if (!s)
		return 0;
	one(NULL, s);
	for (unsigned i = 0; uncore_event_platform_at(i); i++)
		one(uncore_event_platform_at(i), s);
	free(s);
	return 0;
}
