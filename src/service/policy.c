/* uncored's policy: the parser and the decisions (policy.h). */
#define _GNU_SOURCE
#include "service/policy.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/text.h"
#include "common/uncore_error.h"

#define POLICY_MAX_BYTES (1u << 20)
#define POLICY_MAX_LIST  32 /* kinds or qualifiers a rule names */
#define POLICY_NAME_MAX  24 /* a kind's or a qualifier's name */
#define POLICY_REASON_MAX 160
#define QBUF (UNCORE_QUOTE_MAX * 4 + 8)
#define Q(s) uncore_quote((char[QBUF]){0}, QBUF, (s), UNCORE_QUOTE_MAX)

enum rule_op { RULE_ALLOW, RULE_DENY, RULE_LIMIT };
enum who_kind { WHO_ANY, WHO_USER, WHO_GROUP };

struct rule {
	enum rule_op op;
	enum who_kind who;
	uint32_t id; /* uid or gid */
	unsigned line;
	/* allow, deny: kinds (nkinds 0: any) and qualifiers (nquals 0: no
	 * `with`; any_qual: `with *`) */
	unsigned nkinds, nquals;
	int any_qual;
	char kinds[POLICY_MAX_LIST][POLICY_NAME_MAX];
	char quals[POLICY_MAX_LIST][POLICY_NAME_MAX];
	char reason[POLICY_REASON_MAX];
	/* limit */
	enum uncored_limit limit;
	uint32_t value;
};

struct uncored_policy {
	char origin[256];
	unsigned nrules;
	struct rule *rules;
};

static const char *const no_origin = "the default policy";

const char *uncored_policy_origin(const struct uncored_policy *p)
{
	return p ? p->origin : no_origin;
}

void uncored_policy_free(struct uncored_policy *p)
{
	if (!p)
		return;
	free(p->rules);
	free(p);
}

/* The next word of *s (space or tab separated), NUL-terminated in place;
 * NULL at the end of the line. */
static char *word(char **s)
{
	char *p = *s;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return NULL;
	char *w = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return w;
}

struct pctx {
	const char *origin;
	unsigned line;
};

static int bad(const struct pctx *c, const char *what, const char *token)
{
	return uncore_fail(UNCORE_ESYNTAX, "policy %s line %u: %s '%s'", c->origin, c->line, what,
			   Q(token));
}

static int parse_who(const struct pctx *c, const char *w, struct rule *r)
{
	uint64_t n;
	if (strcmp(w, "*") == 0) {
		r->who = WHO_ANY;
		return 0;
	}
	int user = strncmp(w, "user:", 5) == 0, group = strncmp(w, "group:", 6) == 0;
	if (!user && !group)
		return bad(c, "who is '*', user:NAME|UID or group:NAME|GID, not", w);
	const char *name = w + (user ? 5 : 6);
	r->who = user ? WHO_USER : WHO_GROUP;
	if (!*name)
		return bad(c, "a user or group needs a name or number:", w);
	if (uncore_parse_u64(name, &n) == 0) {
		if (n >= UINT32_MAX)
			return bad(c, "no such id:", w);
		r->id = (uint32_t)n;
		return 0;
	}
	/* Names resolved once, at load: the rule holds the number. */
	char buf[4096];
	if (user) {
		struct passwd pw, *pp = NULL;
		if (getpwnam_r(name, &pw, buf, sizeof(buf), &pp) != 0 || !pp)
			return bad(c, "no such user:", name);
		r->id = pp->pw_uid;
	} else {
		struct group gr, *gp = NULL;
		if (getgrnam_r(name, &gr, buf, sizeof(buf), &gp) != 0 || !gp)
			return bad(c, "no such group:", name);
		r->id = gp->gr_gid;
	}
	return 0;
}

/* A comma-separated list of names (letters, digits, '_', '-') into
 * list[*n]; `*` alone: *any. */
static int parse_list(const struct pctx *c, char *w, char list[][POLICY_NAME_MAX], unsigned *n,
		      int *any, const char *what)
{
	if (strcmp(w, "*") == 0) {
		*any = 1;
		return 0;
	}
	for (char *save = NULL, *t = strtok_r(w, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(t);
		if (len >= POLICY_NAME_MAX || strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != len)
			return bad(c, what, t);
		if (*n == POLICY_MAX_LIST)
			return bad(c, "too many names in a list (32 at most) at", t);
		snprintf(list[(*n)++], POLICY_NAME_MAX, "%s", t);
	}
	if (*n == 0)
		return bad(c, what, w);
	return 0;
}

static int parse_line(const struct pctx *c, char *s, struct rule *r, int *empty)
{
	char *hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	char *w = word(&s);
	*empty = !w;
	if (!w)
		return 0;
	memset(r, 0, sizeof(*r));
	r->line = c->line;
	if (strcmp(w, "allow") == 0)
		r->op = RULE_ALLOW;
	else if (strcmp(w, "deny") == 0)
		r->op = RULE_DENY;
	else if (strcmp(w, "limit") == 0)
		r->op = RULE_LIMIT;
	else
		return bad(c, "a rule starts with allow, deny or limit, not", w);
	const char *op = w;
	if (!(w = word(&s)))
		return bad(c, "who is missing after", op);
	int rc = parse_who(c, w, r);
	if (rc)
		return rc;
	if (r->op == RULE_LIMIT) {
		char *what = word(&s), *num = what ? word(&s) : NULL;
		uint64_t n;
		if (!what)
			return bad(c, "limit events N or limit clients N: nothing after", w);
		if (strcmp(what, "events") == 0)
			r->limit = UNCORED_LIMIT_EVENTS;
		else if (strcmp(what, "clients") == 0)
			r->limit = UNCORED_LIMIT_CLIENTS;
		else
			return bad(c, "a limit is of events or clients, not", what);
		if (!num || uncore_parse_u64(num, &n) < 0 || n >= UINT32_MAX)
			return bad(c, "a limit is a number (decimal or 0x hexadecimal), not",
				   num ? num : what);
		r->value = (uint32_t)n;
		if ((w = word(&s)))
			return bad(c, "nothing may follow a limit's number:", w);
		return 0;
	}
	int any = 0;
	if (!(w = word(&s)))
		return bad(c, "box kinds ('*' or imc,cbo,...) are missing after", op);
	if ((rc = parse_list(c, w, r->kinds, &r->nkinds, &any, "a box kind is a name like imc, not")))
		return rc;
	while ((w = word(&s))) {
		if (strcmp(w, "with") == 0 && r->nquals == 0 && !r->any_qual) {
			if (!(w = word(&s)))
				return bad(c, "qualifiers are missing after", "with");
			if ((rc = parse_list(c, w, r->quals, &r->nquals, &r->any_qual,
					     "a qualifier is a modifier's name, raw or thread, not")))
				return rc;
		} else if (strcmp(w, "reason") == 0 && r->op == RULE_DENY) {
			while (*s == ' ' || *s == '\t')
				s++;
			size_t len = strcspn(s, "\r");
			while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
				len--;
			if (len == 0)
				return bad(c, "the text is missing after", "reason");
			if (len >= POLICY_REASON_MAX)
				return uncore_fail(UNCORE_ESYNTAX,
						   "policy %s line %u: a reason is at most %u characters",
						   c->origin, c->line, POLICY_REASON_MAX - 1);
			for (size_t i = 0; i < len; i++)
				if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
					return uncore_fail(UNCORE_ESYNTAX,
							   "policy %s line %u: a reason is printable "
							   "ASCII (byte %zu is not)",
							   c->origin, c->line, i + 1);
			memcpy(r->reason, s, len);
			return 0;
		} else
			return bad(c,
				   r->op == RULE_DENY
				       ? "after the kinds come 'with QUALIFIERS' and 'reason TEXT', not"
				       : "after the kinds comes 'with QUALIFIERS', not",
				   w);
	}
	return 0;
}

int uncored_policy_parse(const char *text, size_t len, const char *origin,
			 struct uncored_policy **out)
{
	struct uncored_policy *p = calloc(1, sizeof(*p));
	char *copy = malloc(len + 1);
	unsigned cap = 0;
	int rc = 0;
	if (!p || !copy) {
		free(p);
		free(copy);
		return uncore_fail(UNCORE_ENOMEM, "policy: out of memory");
	}
	snprintf(p->origin, sizeof(p->origin), "%s", Q(origin ? origin : "(text)"));
	memcpy(copy, text, len);
	copy[len] = '\0';
	struct pctx c = {p->origin, 0};
	char *s = copy;
	if (memchr(text, '\0', len))
		rc = uncore_fail(UNCORE_ESYNTAX, "policy %s: a NUL byte (not a text file)", p->origin);
	while (rc == 0 && s && *s) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		c.line++;
		struct rule r;
		int empty;
		rc = parse_line(&c, s, &r, &empty);
		if (rc == 0 && !empty) {
			if (p->nrules == cap) {
				unsigned ncap = cap ? cap * 2 : 16;
				struct rule *nr = ncap <= 65536 ? realloc(p->rules, ncap * sizeof(*nr)) : NULL;
				if (!nr) {
					rc = uncore_fail(UNCORE_ENOMEM,
							 "policy %s line %u: too many rules", p->origin,
							 c.line);
					break;
				}
				p->rules = nr;
				cap = ncap;
			}
			p->rules[p->nrules++] = r;
		}
		s = nl ? nl + 1 : NULL;
	}
	free(copy);
	if (rc < 0) {
		uncored_policy_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

int uncored_policy_load(const char *path, struct uncored_policy **out)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return uncore_fail(UNCORE_EIO, "policy %s: %s", Q(path), strerror(errno));
	char *buf = malloc(POLICY_MAX_BYTES + 1);
	size_t n = buf ? fread(buf, 1, POLICY_MAX_BYTES + 1, f) : 0;
	int err = ferror(f);
	fclose(f);
	int rc;
	if (!buf)
		rc = uncore_fail(UNCORE_ENOMEM, "policy: out of memory");
	else if (err)
		rc = uncore_fail(UNCORE_EIO, "policy %s: cannot read it", Q(path));
	else if (n > POLICY_MAX_BYTES)
		rc = uncore_fail(UNCORE_ESYNTAX, "policy %s: larger than 1 MiB", Q(path));
	else
		rc = uncored_policy_parse(buf, n, path, out);
	free(buf);
	return rc;
}

static int who_matches(const struct rule *r, const struct uncored_who *who)
{
	switch (r->who) {
	case WHO_ANY: return 1;
	case WHO_USER: return who->uid == r->id;
	case WHO_GROUP:
		for (unsigned i = 0; i < who->ngids; i++)
			if (who->gids[i] == r->id)
				return 1;
		return 0;
	}
	return 0;
}

static int in_list(const char list[][POLICY_NAME_MAX], unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (strcasecmp(list[i], name) == 0)
			return 1;
	return 0;
}

/* Whether the event uses one of the rule's qualifiers. */
static int uses_one(const struct rule *r, const struct uncored_what *what)
{
	if (r->any_qual)
		return what->nmods || what->sensitive;
	if ((what->sensitive & UNCORED_QUAL_RAW) && in_list(r->quals, r->nquals, "raw"))
		return 1;
	if ((what->sensitive & UNCORED_QUAL_THREAD) && in_list(r->quals, r->nquals, "thread"))
		return 1;
	for (unsigned i = 0; i < what->nmods; i++)
		if (in_list(r->quals, r->nquals, what->mods[i]))
			return 1;
	return 0;
}

/* Whether an allowing rule names the sensitive qualifiers of the event
 * explicitly (a thread filter by `thread` or by its own name). */
static int grants_sensitive(const struct rule *r, const struct uncored_what *what, unsigned *missing)
{
	*missing = 0;
	if ((what->sensitive & UNCORED_QUAL_RAW) && !(r && in_list(r->quals, r->nquals, "raw")))
		*missing |= UNCORED_QUAL_RAW;
	if ((what->sensitive & UNCORED_QUAL_THREAD) && !(r && in_list(r->quals, r->nquals, "thread"))) {
		int named = 0;
		for (unsigned i = 0; r && i < what->nmods; i++)
			if (what->mod_thread && what->mod_thread[i] &&
			    in_list(r->quals, r->nquals, what->mods[i]))
				named = 1;
		if (!named)
			*missing |= UNCORED_QUAL_THREAD;
	}
	return *missing == 0;
}

int uncored_policy_check(const struct uncored_policy *p, const struct uncored_who *who,
			 const struct uncored_what *what)
{
	if (who->uid == 0)
		return 0;
	const struct rule *decide = NULL;
	for (unsigned i = 0; p && i < p->nrules && !decide; i++) {
		const struct rule *r = &p->rules[i];
		if (r->op == RULE_LIMIT || !who_matches(r, who))
			continue;
		if (r->nkinds && !in_list(r->kinds, r->nkinds, what->kind))
			continue;
		if ((r->nquals || r->any_qual) && !uses_one(r, what))
			continue;
		/* An allow covers raw and thread events only when it names them. */
		unsigned missing;
		if (r->op == RULE_ALLOW && !grants_sensitive(r, what, &missing))
			continue;
		decide = r;
	}
	char where[300];
	if (decide)
		snprintf(where, sizeof(where), "%s line %u", uncored_policy_origin(p), decide->line);
	else
		snprintf(where, sizeof(where), "%s", uncored_policy_origin(p));
	if (decide && decide->op == RULE_DENY) {
		if (decide->reason[0])
			return uncore_fail(UNCORE_EPERM, "uncored policy (%s): %s", where,
					   decide->reason);
		return uncore_fail(UNCORE_EPERM, "uncored policy (%s): user %u may not count %s events",
				   where, who->uid, what->kind);
	}
	unsigned missing;
	if (!decide && !grants_sensitive(NULL, what, &missing))
		return uncore_fail(UNCORE_EPERM,
				   "uncored policy (%s): %s are root's alone (they can observe "
				   "another user's activity); an administrator may allow them with "
				   "'allow WHO %s with %s'",
				   where,
				   missing & UNCORED_QUAL_RAW ? "raw encodings" : "core or thread filters",
				   what->kind, missing & UNCORED_QUAL_RAW ? "raw" : "thread");
	return 0;
}

uint32_t uncored_policy_limit(const struct uncored_policy *p, const struct uncored_who *who,
			      enum uncored_limit what, unsigned *line)
{
	*line = 0;
	if (who->uid == 0)
		return UINT32_MAX;
	for (unsigned i = 0; p && i < p->nrules; i++) {
		const struct rule *r = &p->rules[i];
		if (r->op == RULE_LIMIT && r->limit == what && who_matches(r, who)) {
			*line = r->line;
			return r->value;
		}
	}
	return UINT32_MAX;
}
