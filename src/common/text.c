/* Numbers and quoted input (see text.h). */
#include "common/text.h"

#include <ctype.h>
#include <stdio.h>

int uncore_parse_u64(const char *s, uint64_t *out)
{
	unsigned base = 10;
	const char *d = s;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		d = s + 2;
	}
	/* By hand: strtoull would take a sign, spaces, a second 0x, and
	 * "010" as octal. */
	if (!*d)
		return -1;
	uint64_t v = 0;
	for (; *d; d++) {
		unsigned c = (unsigned char)*d, x;
		if (c >= '0' && c <= '9')
			x = c - '0';
		else if (base == 16 && isxdigit((int)c))
			x = (unsigned)tolower((int)c) - 'a' + 10;
		else
			return -1;
		if (v > (UINT64_MAX - x) / base)
			return -1; /* past 64 bits */
		v = v * base + x;
	}
	*out = v;
	return 0;
}

char *uncore_quote(char *dst, size_t len, const char *src, size_t max)
{
	size_t o = 0, i = 0;
	if (len == 0)
		return dst;
	for (; src[i] && i < max; i++) {
		unsigned char c = (unsigned char)src[i];
		char esc[5];
		size_t n;
		if (c < 0x20 || c >= 0x7f)
			n = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", c);
		else if (c == '\\')
			n = (size_t)snprintf(esc, sizeof(esc), "\\\\");
		else {
			esc[0] = (char)c;
			n = 1;
		}
		if (o + n + 4 > len) /* room for "..." and the end */
			break;
		for (size_t k = 0; k < n; k++)
			dst[o++] = esc[k];
	}
	if (src[i] && o + 4 <= len) {
		dst[o++] = '.';
		dst[o++] = '.';
		dst[o++] = '.';
	}
	dst[o] = '\0';
	return dst;
}
