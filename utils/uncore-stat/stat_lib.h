/* What the papi-uncore library says, asked directly (uncore-stat links the
 * static library next to libpapi): why events are refused, in the words of
 * the parser and scheduler the component itself runs, and --explain.  Both
 * open the library's component exactly as PAPI's does (same environment),
 * and never program a counter. */
#ifndef UNCORE_STAT_LIB_H
#define UNCORE_STAT_LIB_H

#include <stddef.h>
#include <stdio.h>

#include "stat_opts.h"

struct uncore_component;
struct uncore_set;

/* Open the library's component and an event set holding names[0..n)
 * ("intel_uncore:::" prefixes removed).  0; else a negative library code
 * with the detail in uncore_error_detail() (*comp may then be set: close
 * it).  Release with stat_lib_close. */
int stat_lib_open(const char *const *names, unsigned n, struct uncore_component **comp,
		  struct uncore_set **set);
void stat_lib_close(struct uncore_component *comp, struct uncore_set *set);

/* Why names[0..n) cannot be counted together: 0 and the library's detail in
 * buf ("" when the library accepts them), or -1. */
int stat_lib_event_detail(const char *const *names, unsigned n, char *buf, size_t len);

/* --explain: the events of `o`, as each backend would program them.  Exit
 * status: 0, STAT_EXIT_USAGE (bad event, reason printed), 1. */
int stat_explain(const struct stat_opts *o, FILE *out);

#endif
