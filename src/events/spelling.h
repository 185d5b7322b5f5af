/* The spellings of an event name users copy from other tools, rewritten to
 * ours (parse.h) before anything parses them.  The one place that knows
 * them: the library's name resolution, the component's routing, uncore-stat
 * and the PMPI library all call it.
 *
 *   perf's    PMU/term,term,.../           ->  PMU::term:term
 *             PMU/term,.../:socket=1       ->  PMU::term:socket=1 (our qualifiers after it)
 *   fields    PMU::event=0x2,umask=0xf     ->  PMU::event=0x2:umask=0xf
 *
 * Our own spelling comes out unchanged, and so does Intel's EVENT.UMASK
 * (UNC_M_CAS_COUNT.RD, hswep_unc_imc/UNC_M_CAS_COUNT.RD/ after the rewrite
 * above), which the table parser reads (parse.c). */
#ifndef UNCORE_EVENTS_SPELLING_H
#define UNCORE_EVENTS_SPELLING_H

#include <stddef.h>

/* Write `in` in our spelling into `out`.  0; UNCORE_ESYNTAX for what cannot
 * mean an uncore event (perf's event modifiers such as `/u`), the detail
 * giving the name to type instead; UNCORE_ENOSPACE when `out` is too small.
 * `out` is written only on success. */
int uncore_event_spelling(const char *in, char *out, size_t len);

/* Whether a piece of a comma-separated list continues the event before it
 * rather than starting one: `umask=0xf` after `uncore_upi::event=0x2`
 * (a raw field with a number, and the event before it has raw fields), or
 * anything while a perf `PMU/...` is still open.  `prev` is the event as
 * collected so far (commas included), `piece` the next piece. */
int uncore_event_list_continues(const char *prev, const char *piece);

#endif
