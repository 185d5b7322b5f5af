/* Linux perf PMU format fields: a sysfs file format/<name> holding
 * "config:0-7", "config1:0-5", "config:0-7,21" says which bits of
 * perf_event_attr.config, config1 or config2 carry the field <name>.  The
 * value's low bits fill the first range, the next bits the next range, and
 * so on (the kernel's own rule; "config:0-7,21" puts value bit 8 at bit 21).
 * Encodings are packed through these fields, never at fixed positions, so
 * the same event works whatever layout a kernel version gives. */
#ifndef UNCORE_BACKEND_PERF_FORMAT_H
#define UNCORE_BACKEND_PERF_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define UNCORE_PERF_NCONFIG    3 /* config, config1, config2 */
#define UNCORE_PERF_MAX_RANGES 8
#define UNCORE_PERF_NAME_MAX   48

struct uncore_perf_field {
	char name[UNCORE_PERF_NAME_MAX];
	uint8_t config; /* 0: config, 1: config1, 2: config2 */
	uint8_t nranges;
	uint8_t bits; /* total width, 1..64 */
	struct {
		uint8_t lo, hi;
	} range[UNCORE_PERF_MAX_RANGES];
};

/* Parse the text of format/<name> ("config1:0-5\n").  0, or UNCORE_ESYNTAX
 * with the detail naming the field and what was wrong. */
int uncore_perf_field_parse(const char *name, const char *text, struct uncore_perf_field *out);

/* The largest value the field holds (2^bits - 1). */
uint64_t uncore_perf_field_max(const struct uncore_perf_field *f);

/* The bits the field occupies in its config word. */
uint64_t uncore_perf_field_mask(const struct uncore_perf_field *f);

/* Write `value` into the field of config[0..2] (its bits replaced).  0, or
 * UNCORE_ERANGE (nothing written) when the value does not fit. */
int uncore_perf_field_put(const struct uncore_perf_field *f, uint64_t value,
			  uint64_t config[UNCORE_PERF_NCONFIG]);

/* The field's value in config[0..2]. */
uint64_t uncore_perf_field_get(const struct uncore_perf_field *f,
			       const uint64_t config[UNCORE_PERF_NCONFIG]);

/* "config1:0-5" back as text (for messages). */
int uncore_perf_field_format(const struct uncore_perf_field *f, char *buf, size_t len);

/* Gather the bits of `reg` selected by `mask` into the low bits of the
 * result, in order (a software pext); and the reverse, scattering the low
 * bits of `value` into the positions of `mask`. */
uint64_t uncore_bits_gather(uint64_t mask, uint64_t reg);
uint64_t uncore_bits_scatter(uint64_t mask, uint64_t value);

#endif
