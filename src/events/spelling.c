/* Other tools' spellings of an event name, rewritten to ours (spelling.h).
 * perf's form is perf-list(1)'s "PMU/term,term/" (terms are the PMU's sysfs
 * format fields or event aliases).  Intel's EventName of its perfmon event
 * files (UNC_M_CAS_COUNT.RD) is read by the table parser (parse.c). */
#include "events/spelling.h"

#include "common/uncore_error.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int is_pmu_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* "name=NUMBER" up to the end or the first ':': a raw field with a value. */
static int is_numeric_field(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return 0;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	if (*s++ != '=')
		return 0;
	const char *digits = s;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		digits = s;
		while (isxdigit((unsigned char)*s))
			s++;
	} else {
		while (isdigit((unsigned char)*s))
			s++;
	}
	return s > digits && (*s == '\0' || *s == ':' || *s == ',');
}

/* Where a perf PMU/.../ form opens: the '/' after a PMU name, or NULL. */
static const char *perf_open(const char *s)
{
	const char *p = s;
	while (is_pmu_char(*p))
		p++;
	return p > s && *p == '/' ? p : NULL;
}

int uncore_event_list_continues(const char *prev, const char *piece)
{
	const char *open = perf_open(prev);
	if (open && !strchr(open + 1, '/'))
		return 1; /* inside PMU/.../ */
	const char *fields = strstr(prev, "::");
	return fields && strchr(fields, '=') && is_numeric_field(piece);
}

static int put(char *out, size_t len, size_t *o, const char *s, size_t n)
{
	if (*o + n >= len)
		return UNCORE_ENOSPACE;
	memcpy(out + *o, s, n);
	*o += n;
	out[*o] = '\0';
	return 0;
}

/* PMU/t1,t2,.../[:qualifiers] -> PMU::t1:t2[:qualifiers] */
static int from_perf(const char *in, const char *open, char *out, size_t len)
{
	const char *close = strrchr(in, '/');
	size_t o = 0;
	if (close == open)
		return uncore_fail(UNCORE_ESYNTAX,
				   "'%s': perf's PMU/fields/ form needs its closing '/' (e.g. "
				   "uncore_imc_0/event=0x4,umask=0x3/)",
				   in);
	if (close == open + 1)
		return uncore_fail(UNCORE_ESYNTAX, "'%s': no event or field between the '/'",
				   in);
	if (put(out, len, &o, in, (size_t)(open - in)) || put(out, len, &o, "::", 2))
		return UNCORE_ENOSPACE;
	for (const char *t = open + 1; t < close;) {
		const char *end = t;
		while (end < close && *end != ',')
			end++;
		if (end == t)
			return uncore_fail(UNCORE_ESYNTAX, "'%s': an empty term between the '/'",
					   in);
		if ((t > open + 1 && put(out, len, &o, ":", 1)) ||
		    put(out, len, &o, t, (size_t)(end - t)))
			return UNCORE_ENOSPACE;
		t = end < close ? end + 1 : end;
	}
	const char *tail = close + 1;
	if (*tail && *tail != ':')
		/* perf's u, k, G, H, p...: privilege levels, guest/host, sampling.
		 * An uncore counter counts the whole socket and never samples. */
		return uncore_fail(UNCORE_ESYNTAX,
				   "'%s': perf's modifier '%s' does not apply to uncore counters "
				   "(they count the whole socket, in every privilege level, and "
				   "never sample): write '%s'",
				   in, tail, out);
	return put(out, len, &o, tail, strlen(tail));
}

int uncore_event_spelling(const char *in, char *out, size_t len)
{
	char buf[1024];
	int rc;

	if (!in || !out || len == 0)
		return uncore_fail(UNCORE_EINVAL, "no event name");
	const char *open = perf_open(in);
	if (open) {
		rc = from_perf(in, open, buf, sizeof(buf));
		if (rc == UNCORE_ENOSPACE)
			return uncore_fail(rc, "event string too long");
		if (rc < 0)
			return rc;
	} else if ((size_t)snprintf(buf, sizeof(buf), "%s", in) >= sizeof(buf)) {
		return uncore_fail(UNCORE_ENOSPACE, "event string too long");
	}

	/* Intel's EVENT.UMASK stays: the table parser reads it (parse.c,
	 * with the dots of Xeon unit masks), and no other parser sees a '.'. */
	char *sep = strstr(buf, "::");
	char *ev = sep ? sep + 2 : buf;

	/* Raw fields separated by ',' (perf stat's habit): ':' between them. */
	if (sep)
		for (char *c = strchr(ev, ','); c; c = strchr(c + 1, ','))
			if (is_numeric_field(c + 1)) {
				*c = '\0';
				int cont = strchr(ev, '=') != NULL;
				*c = ',';
				if (cont)
					*c = ':';
			}

	size_t n = strlen(buf);
	if (n >= len)
		return uncore_fail(UNCORE_ENOSPACE, "event string too long");
	memcpy(out, buf, n + 1);
	return 0;
}
