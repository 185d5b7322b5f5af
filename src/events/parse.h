/* Event strings in libpfm4's syntax, plus our qualifiers:
 *
 *   [PMU::]EVENT[:UMASK]...[:MOD[=VALUE]]...[:socket=N][:box=N][:cpu=N]
 *
 * PMU is an instance name (hswep_unc_imc3) or a box-type name without number
 * (hswep_unc_imc: every instance of the socket, summed).  Names are matched
 * without regard to case.  Parsing validates the whole event (unit-mask
 * groups, modifier ranges, required modifiers) so a parsed event always
 * encodes; the detail of any failure is in uncore_error_detail(). */
#ifndef UNCORE_EVENTS_PARSE_H
#define UNCORE_EVENTS_PARSE_H

#include "events/registry.h"

#include <stddef.h>
#include <stdint.h>

#define UNCORE_EVENT_MAX_LEN    512  /* longest event string accepted */
#define UNCORE_EVENT_MAX_UMASKS 16   /* unit masks named in one event */
#define UNCORE_EVENT_MAX_MODS   8    /* modifiers given in one event */
#define UNCORE_ALL              (-1) /* instance/socket/cpu not restricted */

struct uncore_mod_value {
	uint8_t mod; /* index in box->mods */
	uint64_t value;
};

/* A parsed event.  Plain data: copy it, compare it, keep it. */
struct uncore_event_ref {
	const struct uncore_box_type *box;
	int instance;   /* box instance, or UNCORE_ALL: all instances, summed */
	int socket;     /* :socket=N, or UNCORE_ALL */
	int cpu;        /* :cpu=N (the socket of that CPU, resolved by the caller), or UNCORE_ALL */
	unsigned event; /* index in box->events */
	unsigned numasks;
	uint16_t
	    umasks[UNCORE_EVENT_MAX_UMASKS]; /* umasks named (aliases expanded), no duplicates */
	unsigned nmods;
	struct uncore_mod_value mods[UNCORE_EVENT_MAX_MODS]; /* modifiers given, no duplicates */
};

/* Parse `str` against the box types of `plat` (NULL: every built-in
 * platform; the PMU must then be named).  Without "PMU::", the event name
 * must belong to exactly one box type of the platform.  0, or UNCORE_ESYNTAX,
 * UNCORE_ENOEVENT (unknown PMU or event), UNCORE_ENOUMASK, UNCORE_ENOMOD,
 * UNCORE_ERANGE, UNCORE_ECOMBO, UNCORE_EINVAL (required modifier missing).
 * `out` is written only on success.  The parser encodes the event to know it
 * is complete (events/encode.h); uncore_event_parse_encode also hands that
 * encoding on in *enc (when not NULL), so that resolving a name encodes it
 * once (eventset/resolve.c, issue 25). */
struct uncore_encoding;
int uncore_event_parse_encode(const struct uncore_event_platform *plat, const char *str,
			      struct uncore_event_ref *out, struct uncore_encoding *enc);
static inline int uncore_event_parse(const struct uncore_event_platform *plat, const char *str,
				     struct uncore_event_ref *out)
{
	return uncore_event_parse_encode(plat, str, out, NULL);
}

/* Building an event from table indices rather than a string (metric
 * terms): the parser's rules (aliases expanded, a modifier accepted by the
 * event and in range, no contradicting repeat), without a string.  The
 * event is complete when uncore_event_encode accepts it.  0, or the
 * parser's error; *ref is changed only on success. */
int uncore_event_ref_init(struct uncore_event_ref *ref, const struct uncore_box_type *box,
			  unsigned event);
int uncore_event_ref_add_umask(struct uncore_event_ref *ref, unsigned umask);
int uncore_event_ref_add_mod(struct uncore_event_ref *ref, const struct uncore_mod_desc *mod,
			     uint64_t value);

/* How many strings uncore_event_parse was given in this process: the tests
 * prove with it that a name is parsed once on every path (eventset/resolve.h). */
unsigned long uncore_event_parse_count(void);

/* ":socket1", ":box3", ":cpu5": a qualifier without '=', for tools that
 * give '=' a meaning of their own (the high-level API's "=instant").  The
 * length of its name ("socket"), or 0.  Used by every event parser (the
 * tables' and the kernel PMUs'). */
size_t uncore_glued_qualifier(const char *s);

/* The canonical string of an event: PMU (instance name if one), event name,
 * the named umasks in table order, modifiers in the box's order, then the
 * qualifiers; parsing it gives the same event.  0 or UNCORE_ENOSPACE. */
int uncore_event_format(const struct uncore_event_ref *ev, char *buf, size_t len);

#endif
