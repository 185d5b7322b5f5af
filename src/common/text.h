/* Reading numbers and quoting input in messages, the same way everywhere
 * (issue 29): a number is decimal, or hexadecimal with 0x (never octal: a
 * leading 0 is decimal, as every message promises); input quoted in a
 * message is cut to a sane length and its control bytes escaped, so a
 * hostile name or file cannot flood or drive a terminal. */
#ifndef UNCORE_COMMON_TEXT_H
#define UNCORE_COMMON_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* `s` whole as a number: decimal digits, or 0x/0X and hex digits; no sign,
 * no space, no junk, no overflow.  0 and *out, or -1. */
int uncore_parse_u64(const char *s, uint64_t *out);

/* At most `max` bytes of `src` into dst (len bytes), "..." appended when
 * cut; bytes below 0x20, 0x7f and above are written \xNN, a backslash
 * \\.  Returns dst. */
char *uncore_quote(char *dst, size_t len, const char *src, size_t max);

/* The length of quoted input in messages. */
#define UNCORE_QUOTE_MAX 64

#endif
