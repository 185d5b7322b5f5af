/* One line of an msr-safe allowlist (see allowlist_text.h). */
#include "access/allowlist_text.h"

#include "common/uncore_error.h"

#include <ctype.h>
#include <string.h>

/* A hex number at *s (0x optional) of at most `bits` bits, *s moved past
 * it: 0, or -1 (no digit, or wider). */
static int hex(const char **s, unsigned bits, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	unsigned n = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	while (*p == '0' && isxdigit((unsigned char)p[1]))
		p++; /* leading zeros do not count against the width */
	for (; isxdigit((unsigned char)*p); p++) {
		if (++n > bits / 4)
			return -1;
		unsigned c = (unsigned char)*p;
		v = v << 4 | (isdigit((int)c) ? c - '0' : (unsigned)tolower((int)c) - 'a' + 10);
	}
	if (n == 0)
		return -1;
	*s = p;
	*out = v;
	return 0;
}

int uncore_allowlist_line(const char *line, uint32_t *msr, uint64_t *mask)
{
	const char *p = line + strspn(line, " \t");
	uint64_t m, w;
	if (*p == '\0' || *p == '\n' || *p == '\r' || *p == '#')
		return 0;
	if (hex(&p, 32, &m) < 0)
		return uncore_fail(UNCORE_ESYNTAX,
				   "the MSR must be a hexadecimal number of 32 bits at most");
	if (*p != ' ' && *p != '\t')
		return uncore_fail(UNCORE_ESYNTAX, "want \"0xMSR 0xWRITEMASK\"");
	p += strspn(p, " \t");
	if (hex(&p, 64, &w) < 0)
		return uncore_fail(UNCORE_ESYNTAX,
				   "the write mask must be a hexadecimal number of 64 bits at most");
	p += strspn(p, " \t\r\n");
	if (*p && *p != '#')
		return uncore_fail(UNCORE_ESYNTAX,
				   "want \"0xMSR 0xWRITEMASK\" and nothing more but a # comment");
	*msr = (uint32_t)m;
	*mask = w;
	return 1;
}
