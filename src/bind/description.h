/* The component's description in PAPI's fixed field (cmp_info.description,
 * PAPI_MAX_STR_LEN: 128 characters with the NUL; PAPI's tools print it
 * whole).  When the full text is longer, its parenthesised details go
 * first, from the last, so that the backend, who holds which socket,
 * SIMULATED, the model and the scenario stay; then it is cut after a
 * clause and marked "...".  Never a word cut in two. */
#ifndef UNCORE_BIND_DESCRIPTION_H
#define UNCORE_BIND_DESCRIPTION_H

#include <stddef.h>

/* Write `full`, fitted to `len` bytes with the NUL, into `dst`. */
void uncore_description_fit(char *dst, size_t len, const char *full);

/* `head` whole ("Intel uncore, sim backend: socket 0 counted by PID 42
 * (a.out), reads 0 here; ": who holds a socket is what a reader must not
 * miss) and `tail` fitted to the room left; when `head` does not leave room
 * for the tail, its bracketed notes (" [user alice, ...]") go first; when
 * it still does not fit, both fitted as one text. */
void uncore_description_fit_tail(char *dst, size_t len, const char *head, const char *tail);

/* Copy `src` into a fixed PAPI field of `len` bytes, cut to fit (PAPI's
 * fields are short). */
void uncore_field_copy(char *dst, size_t len, const char *src);

/* An event's description for PAPI's tools (PAPI_event_info_t.long_descr
 * and the native enumeration), cut so that papi_native_avail can show it
 * (TOOL_DESC_MAX, description.c). */
void uncore_tool_descr_copy(char *dst, size_t len, const char *desc);

#endif
