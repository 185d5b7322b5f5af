/* One line of an msr-safe allowlist ("0xMSR 0xWRITEMASK", '#' comments),
 * as uncore-msr-allowlist -m merges an existing list (issue 29): both
 * numbers hexadecimal (0x optional, as msr-safe writes them), the MSR 32
 * bits and the mask 64 at most: a wider number is refused, not saturated
 * into an all-ones mask. */
#ifndef UNCORE_ACCESS_ALLOWLIST_TEXT_H
#define UNCORE_ACCESS_ALLOWLIST_TEXT_H

#include <stdint.h>

/* 1 and *msr, *mask for an entry; 0 for a blank or comment line; or
 * UNCORE_ESYNTAX with the detail saying what is wrong (never quoting the
 * line: it is a file's contents). */
int uncore_allowlist_line(const char *line, uint32_t *msr, uint64_t *mask);

#endif
