/* Helpers of the libFuzzer targets (tests/fuzz/fuzz_*.c, built by `make
 * fuzz` with clang, ASan and UBSan): the input as a C string. */
#ifndef UNCORE_FUZZ_H
#define UNCORE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the input (NULL when out of memory); free it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif
