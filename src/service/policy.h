/* uncored's policy (`uncored --policy FILE`, README "uncored, the node
 * service", uncored(8)): which users and groups may count which box kinds
 * with which qualifiers, and per-client limits.  A text file, one rule a
 * line, '#' to the end of a line a comment:
 *
 *   allow WHO KINDS [with QUALIFIERS]
 *   deny  WHO KINDS [with QUALIFIERS] [reason TEXT...]
 *   limit WHO events N        events one client counts at once
 *   limit WHO clients N       connections one user holds at once
 *
 * WHO is `*`, `user:NAME|UID` or `group:NAME|GID` (a group: the client's
 * primary or supplementary group); KINDS `*` or box kinds separated by
 * commas (imc,cbo,pcu, as the tables' PMU names end); QUALIFIERS the
 * modifiers an event is given (tf,nf,t...), `raw` (an encoding given as
 * raw fields, event=0x..:umask=0x.., or a kernel PMU's own event) and
 * `thread` (a filter that singles out one core or thread: the CBo/CHA TID
 * filters), or `*` (any qualifier).
 *
 * An event is decided by the first allow or deny rule whose WHO is the
 * client, whose KINDS hold the event's box kind and, when the rule has a
 * `with` list, one of whose qualifiers the event uses; no rule: allowed.
 * Events with `raw` or `thread` are root's alone unless the rule that
 * allows them names `raw` (`thread`, or the modifier itself) explicitly
 * (they can observe another user's activity).  Root is never refused nor
 * limited.  The first limit line of each kind whose WHO is the client
 * applies; without one, a client counts at most UNCORED_CLIENT_MAX_EVENTS
 * events and a user holds any number of clients.
 *
 * A bad line is refused with its number and the offending token only (cut
 * and escaped, common/text.h): the file's other contents are never
 * echoed.  Parsing is fuzzed (tests/fuzz/fuzz_uncored_policy.c). */
#ifndef UNCORE_SERVICE_POLICY_H
#define UNCORE_SERVICE_POLICY_H

#include <stddef.h>
#include <stdint.h>

struct uncored_policy;

/* Parse `len` bytes of policy text; `origin` names it in messages (the
 * file's path).  0 and *out, or UNCORE_ESYNTAX (UNCORE_ENOMEM) with the
 * detail "policy ORIGIN line N: ...". */
int uncored_policy_parse(const char *text, size_t len, const char *origin,
			 struct uncored_policy **out);

/* The same from a file (at most 1 MiB). */
int uncored_policy_load(const char *path, struct uncored_policy **out);

void uncored_policy_free(struct uncored_policy *p);

/* Who asks: the kernel's credentials of the client and its groups. */
struct uncored_who {
	uint32_t uid;
	unsigned ngids;
	const uint32_t *gids; /* primary first */
};

/* What an event asks for. */
#define UNCORED_QUAL_RAW    0x1u
#define UNCORED_QUAL_THREAD 0x2u
struct uncored_what {
	const char *kind;         /* its box kind: "imc" */
	unsigned nmods;
	const char *const *mods;  /* the modifiers it is given: "tf", "nf" */
	unsigned sensitive;       /* UNCORED_QUAL_* */
	const uint8_t *mod_thread; /* per mod: 1 when it is a core or thread filter (or NULL) */
};

/* 0 when `who` may count `what` under `p` (NULL: the default policy, in
 * which raw and thread are root's alone); else UNCORE_EPERM with the
 * reason in the detail ("uncored policy (ORIGIN line N): ..."). */
int uncored_policy_check(const struct uncored_policy *p, const struct uncored_who *who,
			 const struct uncored_what *what);

enum uncored_limit { UNCORED_LIMIT_EVENTS, UNCORED_LIMIT_CLIENTS };

/* The limit of `what` for `who` (UINT32_MAX: none), and where it comes
 * from in *line (0: the default). */
uint32_t uncored_policy_limit(const struct uncored_policy *p, const struct uncored_who *who,
			      enum uncored_limit what, unsigned *line);

/* Where `p` came from ("the default policy" for NULL). */
const char *uncored_policy_origin(const struct uncored_policy *p);

#endif
