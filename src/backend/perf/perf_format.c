/* Parsing of sysfs format strings and packing of values through them (see
 * perf_format.h).  The grammar is the kernel's: "configN:" followed by a
 * comma-separated list of bit numbers or lo-hi ranges. */
#include "backend/perf/perf_format.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <string.h>

uint64_t uncore_bits_gather(uint64_t mask, uint64_t reg)
{
	uint64_t out = 0;
	unsigned k = 0;
	for (unsigned b = 0; b < 64; b++)
		if (mask & (UINT64_C(1) << b))
			out |= ((reg >> b) & 1) << k++;
	return out;
}

uint64_t uncore_bits_scatter(uint64_t mask, uint64_t value)
{
	uint64_t out = 0;
	unsigned k = 0;
	for (unsigned b = 0; b < 64; b++)
		if (mask & (UINT64_C(1) << b))
			out |= ((value >> k++) & 1) << b;
	return out;
}

static int parse_bit(const char **p, unsigned *out)
{
	const char *s = *p;
	unsigned v = 0;
	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned)(*s - '0');
		if (v > 63)
			return -1;
		s++;
	}
	*p = s;
	*out = v;
	return 0;
}

int uncore_perf_field_parse(const char *name, const char *text, struct uncore_perf_field *out)
{
	struct uncore_perf_field f;
	const char *p = text;

	memset(&f, 0, sizeof(f));
	if (!name || !*name || strlen(name) >= sizeof(f.name))
		return uncore_fail(UNCORE_ESYNTAX,
				   "format field name \"%.60s\" is empty or too long",
				   name ? name : "");
	snprintf(f.name, sizeof(f.name), "%s", name);
	if (strncmp(p, "config", 6) != 0)
		goto bad;
	p += 6;
	if (*p == '1' || *p == '2')
		f.config = (uint8_t)(*p++ - '0');
	if (*p++ != ':')
		goto bad;
	for (;;) {
		unsigned lo, hi;
		if (parse_bit(&p, &lo))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_bit(&p, &hi) || hi < lo)
				goto bad;
		}
		if (f.nranges == UNCORE_PERF_MAX_RANGES || f.bits + (hi - lo + 1) > 64)
			goto bad;
		f.range[f.nranges].lo = (uint8_t)lo;
		f.range[f.nranges].hi = (uint8_t)hi;
		f.nranges++;
		f.bits = (uint8_t)(f.bits + hi - lo + 1);
		if (*p != ',')
			break;
		p++;
	}
	while (*p == '\n' || *p == ' ')
		p++;
	if (*p != '\0')
		goto bad;
	/* Overlapping ranges would make put/get disagree. */
	uint64_t seen = 0;
	for (unsigned r = 0; r < f.nranges; r++) {
		uint64_t m = (f.range[r].hi == 63 ? ~UINT64_C(0)
						  : (UINT64_C(1) << (f.range[r].hi + 1)) - 1) &
			     ~((UINT64_C(1) << f.range[r].lo) - 1);
		if (seen & m)
			goto bad;
		seen |= m;
	}
	*out = f;
	return 0;
bad:
	return uncore_fail(UNCORE_ESYNTAX,
			   "format field %s: \"%.60s\" is not configN:bits (e.g. config:0-7,21)",
			   name, text);
}

uint64_t uncore_perf_field_max(const struct uncore_perf_field *f)
{
	return f->bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << f->bits) - 1;
}

static uint64_t range_mask(unsigned lo, unsigned hi)
{
	uint64_t upto = hi >= 63 ? ~UINT64_C(0) : (UINT64_C(1) << (hi + 1)) - 1;
	return upto & ~((UINT64_C(1) << lo) - 1);
}

uint64_t uncore_perf_field_mask(const struct uncore_perf_field *f)
{
	uint64_t m = 0;
	for (unsigned r = 0; r < f->nranges; r++)
		m |= range_mask(f->range[r].lo, f->range[r].hi);
	return m;
}

int uncore_perf_field_put(const struct uncore_perf_field *f, uint64_t value,
			  uint64_t config[UNCORE_PERF_NCONFIG])
{
	if (value > uncore_perf_field_max(f))
		return uncore_fail(UNCORE_ERANGE, "%s=0x%llx does not fit the field's %u bits",
				   f->name, (unsigned long long)value, f->bits);
	uint64_t word = config[f->config];
	unsigned used = 0;
	for (unsigned r = 0; r < f->nranges; r++) {
		unsigned lo = f->range[r].lo, n = f->range[r].hi - lo + 1u;
		uint64_t part =
		    n >= 64 ? value >> used : (value >> used) & ((UINT64_C(1) << n) - 1);
		word = (word & ~range_mask(lo, f->range[r].hi)) | (part << lo);
		used += n;
	}
	config[f->config] = word;
	return 0;
}

uint64_t uncore_perf_field_get(const struct uncore_perf_field *f,
			       const uint64_t config[UNCORE_PERF_NCONFIG])
{
	uint64_t word = config[f->config], value = 0;
	unsigned used = 0;
	for (unsigned r = 0; r < f->nranges; r++) {
		unsigned lo = f->range[r].lo, hi = f->range[r].hi;
		value |= ((word & range_mask(lo, hi)) >> lo) << used;
		used += hi - lo + 1u;
	}
	return value;
}

int uncore_perf_field_format(const struct uncore_perf_field *f, char *buf, size_t len)
{
	size_t used = 0;
	int n = snprintf(buf, len, "config%s:", f->config ? (f->config == 1 ? "1" : "2") : "");
	for (unsigned r = 0; n >= 0 && (size_t)n < len - used && r < f->nranges; r++) {
		used += (size_t)n;
		if (f->range[r].lo == f->range[r].hi)
			n = snprintf(buf + used, len - used, "%s%u", r ? "," : "", f->range[r].lo);
		else
			n = snprintf(buf + used, len - used, "%s%u-%u", r ? "," : "",
				     f->range[r].lo, f->range[r].hi);
	}
	if (n < 0 || (size_t)n >= len - used)
		return uncore_fail(UNCORE_ENOSPACE, "format of %s does not fit %zu bytes", f->name,
				   len);
	return 0;
}
