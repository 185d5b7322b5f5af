/* Event-string parsing: PMU (instance or box type), event, unit masks,
 * modifiers and qualifiers, with one precise message per failure, and the
 * canonical formatting of a parsed event.  Works on a bounded local copy of
 * the string; never allocates. */
#define _GNU_SOURCE /* strcasestr */
#include "events/parse.h"

#include "common/text.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/table.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The user's input as messages quote it: cut to UNCORE_QUOTE_MAX bytes
 * with "..." (an event string may be 512 bytes: its message would carry
 * no advice after it), escapes kept (common/text.h).  A buffer of its own
 * per use, valid to the end of the statement's block. */
#define QUOTE_BUF  (UNCORE_QUOTE_MAX * 4 + 8)
#define QUOTED(s) uncore_quote((char[QUOTE_BUF]){0}, QUOTE_BUF, (s), UNCORE_QUOTE_MAX)

#define MAX_EQUIV_DEPTH 4 /* aliases of aliases: tables use one level */
#define MAX_SOCKET      4095
#define MAX_CPU         1048575

/* Parse state for one event string. */
struct pstate {
	const struct uncore_event_platform *plat;
	struct uncore_event_ref ev;
	char pmu_given; /* "PMU::" was present */
	char raw;       /* event and unit mask given as raw fields (event=0x4:umask=0x3) */
};

static const struct uncore_event_platform *platform_at(const struct uncore_event_platform *plat,
						       unsigned i)
{
	if (plat)
		return i == 0 ? plat : NULL;
	return uncore_event_platform_at(i);
}

/* "hswep_unc_imc" (all instances) or "hswep_unc_imc3" (instance 3). */
static int match_pmu(const struct uncore_box_type *box, const char *name, int *instance)
{
	size_t n = strlen(box->name);
	if (strncasecmp(box->name, name, n) != 0)
		return 0;
	const char *num = name + n;
	if (*num == '\0') {
		*instance = UNCORE_ALL;
		return 1;
	}
	if (box->ninstances <= 1)
		return 0;
	/* Decimal, no sign, no leading zero: exactly one spelling per instance. */
	size_t digits = strspn(num, "0123456789");
	if (digits == 0 || num[digits] != '\0' || digits > 4 || (num[0] == '0' && digits > 1))
		return 0;
	*instance = atoi(num);
	return 1;
}

static void pmu_list(const struct uncore_event_platform *plat, char *buf, size_t len)
{
	struct name_list list;
	char item[64];
	name_list_init(&list, buf, len);
	for (unsigned b = 0; b < plat->nboxes; b++) {
		const struct uncore_box_type *box = plat->boxes[b];
		if (box->ninstances > 1)
			snprintf(item, sizeof(item), "%s[0-%u]", box->name, box->ninstances - 1);
		else
			snprintf(item, sizeof(item), "%s", box->name);
		name_list_add(&list, item);
	}
}

static int resolve_pmu(struct pstate *ps, const char *name)
{
	for (unsigned p = 0; platform_at(ps->plat, p); p++) {
		const struct uncore_event_platform *plat = platform_at(ps->plat, p);
		for (unsigned b = 0; b < plat->nboxes; b++) {
			int inst;
			if (!match_pmu(plat->boxes[b], name, &inst))
				continue;
			const struct uncore_box_type *box = plat->boxes[b];
			if (inst != UNCORE_ALL && inst >= (int)box->ninstances)
				return uncore_fail(UNCORE_ENOEVENT,
						   "unknown PMU '%s': %s has instances 0-%u", QUOTED(name),
						   box->name, box->ninstances - 1);
			ps->ev.box = box;
			ps->ev.instance = inst;
			return 0;
		}
	}
	/* The kernel's name of a box (uncore_imc_0 is hswep_unc_imc0), as perf
	 * users write it: the same box. */
	for (unsigned p = 0; platform_at(ps->plat, p); p++) {
		const struct uncore_event_platform *plat = platform_at(ps->plat, p);
		for (unsigned b = 0; b < plat->nboxes; b++) {
			const struct uncore_box_type *box = plat->boxes[b];
			for (int i = box->ninstances > 1 ? -1 : 0; i < (int)box->ninstances; i++) {
				char kname[64];
				if (!box->perf_pmu)
					break;
				if (i < 0)
					snprintf(kname, sizeof(kname), "%s", box->perf_pmu);
				else if (uncore_box_perf_name(box, i, kname, sizeof(kname)) < 0)
					continue;
				if (strcasecmp(kname, name) != 0)
					continue;
				ps->ev.box = box;
				ps->ev.instance = i < 0 ? UNCORE_ALL : i;
				return 0;
			}
		}
	}
	uncore_error_clear();
	if (ps->plat) {
		char list[300];
		pmu_list(ps->plat, list, sizeof(list));
		return uncore_fail(UNCORE_ENOEVENT, "unknown PMU '%s'; %s has: %s", QUOTED(name),
				   ps->plat->name, list);
	}
	return uncore_fail(UNCORE_ENOEVENT,
			   "unknown PMU '%s'; list the uncore PMUs with papi_native_avail",
			   QUOTED(name));
}

/* An event name not found: suggest the one event that contains it, if any. */
static int unknown_event(const struct uncore_box_type *box, const char *name, const char *where)
{
	int hit = -1, hits = 0;
	for (unsigned i = 0; box && i < uncore_box_nevents(box); i++)
		if (strcasestr(box_event(box, i)->name, name)) {
			hit = (int)i;
			hits++;
		}
	if (hits == 1)
		return uncore_fail(UNCORE_ENOEVENT, "unknown event '%s' in %s; did you mean %s?",
				   QUOTED(name), where, box_event(box, (unsigned)hit)->name);
	return uncore_fail(UNCORE_ENOEVENT,
			   "unknown event '%s' in %s; list its events with papi_native_avail",
			   QUOTED(name), where);
}

/* Event without "PMU::": it must name an event of exactly one box type. */
static int resolve_event_anywhere(struct pstate *ps, const char *name)
{
	const struct uncore_box_type *found = NULL, *other = NULL;
	int idx = -1;
	for (unsigned p = 0; platform_at(ps->plat, p); p++) {
		const struct uncore_event_platform *plat = platform_at(ps->plat, p);
		for (unsigned b = 0; b < plat->nboxes; b++) {
			int i = uncore_box_find_event(plat->boxes[b], name);
			if (i < 0)
				continue;
			if (!found) {
				found = plat->boxes[b];
				idx = i;
			} else if (!other) {
				other = plat->boxes[b];
			}
		}
	}
	if (!found)
		return uncore_fail(UNCORE_ENOEVENT,
				   "unknown event '%s'; name its PMU (PMU::EVENT) and list events "
				   "with papi_native_avail",
				   QUOTED(name));
	if (other)
		return uncore_fail(
		    UNCORE_ENOEVENT, "event '%s' exists in %s and %s: name the PMU, e.g. %s::%s",
		    name, found->name, other->name, found->name, box_event(found, (unsigned)idx)->name);
	ps->ev.box = found;
	ps->ev.instance = UNCORE_ALL;
	ps->ev.event = (unsigned)idx;
	return 0;
}

/* Modifier values as libpfm4 reads them (strtoull base 0: a leading 0 is
 * octal), without sign or junk, so that libpfm4's event strings encode the
 * same here; the message says so. */
static int parse_number(const char *s, uint64_t *out)
{
	if (!isdigit((unsigned char)s[0]))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

/* Boolean values as libpfm4 reads them: one of 0 1 y n t f. */
static int parse_bool(const char *s, uint64_t *out)
{
	if (s[0] == '\0' || s[1] != '\0')
		return -1;
	switch (tolower((unsigned char)s[0])) {
	case '1':
	case 'y':
	case 't':
		*out = 1;
		return 0;
	case '0':
	case 'n':
	case 'f':
		*out = 0;
		return 0;
	default:
		return -1;
	}
}

static void event_mod_list(const struct uncore_box_type *box, unsigned ev, char *buf, size_t len)
{
	struct name_list list;
	name_list_init(&list, buf, len);
	for (unsigned i = 0;; i++) {
		const struct uncore_mod_desc *d = uncore_box_event_mod(box, ev, i);
		if (!d)
			break;
		name_list_add(&list, d->name);
	}
	if (list.used == 0)
		snprintf(buf, len, "none");
}

static const char *evname(const struct pstate *ps)
{
	return box_event(ps->ev.box, ps->ev.event)->name;
}

static int set_qualifier(struct pstate *ps, const char *name, const char *val)
{
	uint64_t v;
	int *slot;
	uint64_t max;
	if (strcasecmp(name, "socket") == 0) {
		slot = &ps->ev.socket;
		max = MAX_SOCKET;
	} else if (strcasecmp(name, "cpu") == 0) {
		slot = &ps->ev.cpu;
		max = MAX_CPU;
	} else {
		slot = &ps->ev.instance;
		max = ps->ev.box->ninstances - 1;
	}
	/* Our qualifiers, not libpfm4's: decimal, or hex with 0x, as the
	 * message says (box=017 is CBo 17, not octal 15; common/text.h). */
	if (uncore_parse_u64(val, &v))
		return uncore_fail(UNCORE_ESYNTAX,
				   "%s=%s: the value must be a number (decimal, or hex with 0x)",
				   name, QUOTED(val));
	if (v > max && slot == &ps->ev.instance)
		return uncore_fail(UNCORE_ERANGE,
				   "%s=%s is out of range [0-%llu]: %s has %u instance%s", name,
				   QUOTED(val), (unsigned long long)max, ps->ev.box->name,
				   ps->ev.box->ninstances, ps->ev.box->ninstances > 1 ? "s" : "");
	if (v > max)
		return uncore_fail(UNCORE_ERANGE, "%s=%s is out of range [0-%llu]", name, QUOTED(val),
				   (unsigned long long)max);
	if (*slot != UNCORE_ALL && *slot != (int)v)
		return uncore_fail(UNCORE_ECOMBO, "%s=%s contradicts the %s given before (%d)",
				   name, QUOTED(val), slot == &ps->ev.instance ? "instance" : name, *slot);
	*slot = (int)v;
	if (ps->ev.socket != UNCORE_ALL && ps->ev.cpu != UNCORE_ALL)
		return uncore_fail(
		    UNCORE_ECOMBO,
		    "give either :socket= or :cpu= (which selects its socket), not both");
	return 0;
}

static int box_has_mod(const struct uncore_box_type *box, const char *name)
{
	for (unsigned m = 0; m < box->nmods; m++)
		if (strcasecmp(box->mods[m].name, name) == 0)
			return 1;
	return 0;
}

static int mod_not_accepted(struct pstate *ps, const char *name)
{
	const struct uncore_box_type *box = ps->ev.box;
	char list[200];
	event_mod_list(box, ps->ev.event, list, sizeof(list));
	if (box_has_mod(box, name))
		return uncore_fail(UNCORE_ENOMOD,
				   "%s::%s does not accept modifier '%s'; its modifiers: %s",
				   box->name, evname(ps), name, list);
	return uncore_fail(UNCORE_ENOMOD, "unknown modifier '%s' for %s::%s; its modifiers: %s",
			   QUOTED(name), box->name, evname(ps), list);
}

/* Modifier d (accepted by the event) with value v. */
static int add_mod_value(struct pstate *ps, const struct uncore_mod_desc *d, uint64_t v)
{
	const struct uncore_box_type *box = ps->ev.box;
	if (v < d->min || v > d->max)
		return uncore_fail(UNCORE_ERANGE, "%s=%llu is out of range [%llu-%llu] (%s)", d->name,
				   (unsigned long long)v, (unsigned long long)d->min,
				   (unsigned long long)d->max, d->desc);
	uint8_t idx = (uint8_t)(d - box->mods);
	for (unsigned k = 0; k < ps->ev.nmods; k++) {
		if (ps->ev.mods[k].mod != idx)
			continue;
		/* libpfm4: a repeated modifier with the same value is harmless. */
		if (ps->ev.mods[k].value == v)
			return 0;
		return uncore_fail(
		    UNCORE_ECOMBO, "modifier %s given twice with different values (%llu, %llu)",
		    d->name, (unsigned long long)ps->ev.mods[k].value, (unsigned long long)v);
	}
	if (ps->ev.nmods >= UNCORE_EVENT_MAX_MODS)
		return uncore_fail(UNCORE_EINVAL, "more than %d modifiers", UNCORE_EVENT_MAX_MODS);
	ps->ev.mods[ps->ev.nmods].mod = idx;
	ps->ev.mods[ps->ev.nmods].value = v;
	ps->ev.nmods++;
	return 0;
}

static int add_mod(struct pstate *ps, const char *name, const char *val, int has_val)
{
	const struct uncore_box_type *box = ps->ev.box;
	const struct uncore_mod_desc *d = NULL;
	for (unsigned i = 0;; i++) {
		const struct uncore_mod_desc *m = uncore_box_event_mod(box, ps->ev.event, i);
		if (!m)
			break;
		if (strcasecmp(m->name, name) == 0) {
			d = m;
			break;
		}
	}
	if (!d)
		return mod_not_accepted(ps, name);
	uint64_t v = 1;
	if (has_val && (d->is_bool ? parse_bool(val, &v) : parse_number(val, &v)))
		return uncore_fail(UNCORE_ESYNTAX, "%s=%s: the value must be %s", d->name, QUOTED(val),
				   d->is_bool ? "0 or 1"
					      : "a number (decimal, hex with 0x, or octal with a "
						"leading 0, as libpfm4 reads it)");
	if (!has_val && !d->is_bool)
		return uncore_fail(UNCORE_ESYNTAX, "modifier %s needs a value: %s=<%s>", d->name,
				   d->name, d->desc);
	if (v < d->min || v > d->max)
		return uncore_fail(UNCORE_ERANGE, "%s=%s is out of range [%llu-%llu] (%s)", d->name,
				   has_val ? QUOTED(val) : "1", (unsigned long long)d->min,
				   (unsigned long long)d->max, d->desc);
	return add_mod_value(ps, d, v);
}

static int add_umask_index(struct pstate *ps, unsigned um)
{
	for (unsigned k = 0; k < ps->ev.numasks; k++)
		if (ps->ev.umasks[k] == um)
			return 0; /* named twice: same as once */
	if (ps->ev.numasks >= UNCORE_EVENT_MAX_UMASKS)
		return uncore_fail(UNCORE_EINVAL, "more than %d unit masks",
				   UNCORE_EVENT_MAX_UMASKS);
	ps->ev.umasks[ps->ev.numasks++] = (uint16_t)um;
	return 0;
}

static int parse_attrs(struct pstate *ps, char *s, int depth);

/* A umask alias ("uequiv") is a list of umasks of the same event. */
static int add_umask(struct pstate *ps, unsigned um, int depth)
{
	const intel_x86_umask_t *u = box_umask(ps->ev.box, ps->ev.event, um);
	if (!u->uequiv)
		return add_umask_index(ps, um);
	if (depth >= MAX_EQUIV_DEPTH)
		return uncore_fail(UNCORE_EINVAL, "%s:%s: aliases nest too deep", evname(ps),
				   u->uname);
	char buf[UNCORE_EVENT_MAX_LEN + 1];
	if (snprintf(buf, sizeof(buf), "%s", u->uequiv) >= (int)sizeof(buf))
		return uncore_fail(UNCORE_EINVAL, "%s:%s: alias too long", evname(ps), u->uname);
	return parse_attrs(ps, buf, depth + 1);
}

static int unknown_umask(struct pstate *ps, const char *name)
{
	const struct uncore_box_type *box = ps->ev.box;
	const intel_x86_entry_t *e = box_event(box, ps->ev.event);
	char list[240];
	if (e->numasks == 0) {
		event_mod_list(box, ps->ev.event, list, sizeof(list));
		return uncore_fail(UNCORE_ENOUMASK,
				   "%s::%s has no unit masks ('%s' is neither a unit mask nor a "
				   "modifier; its modifiers: %s)",
				   box->name, e->name, QUOTED(name), list);
	}
	struct name_list l;
	name_list_init(&l, list, sizeof(list));
	for (unsigned i = 0; i < e->numasks; i++)
		name_list_add(&l, e->umasks[i].uname);
	if (!l.full)
		return uncore_fail(UNCORE_ENOUMASK, "unknown unit mask '%s' of %s::%s; valid: %s",
				   QUOTED(name), box->name, e->name, list);
	return uncore_fail(UNCORE_ENOUMASK,
			   "unknown unit mask '%s' of %s::%s (%u unit masks: list them with "
			   "papi_native_avail -e %s::%s)",
			   QUOTED(name), box->name, e->name, e->numasks, box->name, e->name);
}

size_t uncore_glued_qualifier(const char *s)
{
	static const char *const names[] = {"socket", "box", "cpu"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);
		if (strncasecmp(s, names[i], n) == 0 && s[n] >= '0' && s[n] <= '9' &&
		    strspn(s + n, "0123456789") == strlen(s + n))
			return n;
	}
	return 0;
}

static int is_qualifier(const char *name)
{
	return !strcasecmp(name, "socket") || !strcasecmp(name, "box") || !strcasecmp(name, "cpu");
}

/* Attributes after the event name: "UMASK", "MOD", "MOD=VAL", "socket=N"... */
static int parse_attrs(struct pstate *ps, char *s, int depth)
{
	while (s) {
		char *next = strchr(s, ':');
		if (next)
			*next++ = '\0';
		if (*s == '\0')
			return uncore_fail(UNCORE_ESYNTAX, "empty field after ':' in %s",
					   evname(ps));
		char *val = strchr(s, '=');
		int rc;
		if (val) {
			*val++ = '\0';
			if (*s == '\0' || *val == '\0')
				return uncore_fail(UNCORE_ESYNTAX,
						   "'%s=%s': name and value must not be empty",
						   QUOTED(s), QUOTED(val));
			if (strchr(val, '='))
				return uncore_fail(UNCORE_ESYNTAX, "'%s=%s': one '=' per field",
						   QUOTED(s), QUOTED(val));
			/* Qualifiers are ours; they never come from a table alias. */
			if (is_qualifier(s) && depth == 0)
				rc = set_qualifier(ps, s, val);
			else
				rc = add_mod(ps, s, val, 1);
		} else {
			/* As in libpfm4, a name is a umask first, a boolean modifier second. */
			int um = uncore_box_find_umask(ps->ev.box, ps->ev.event, s);
			size_t glued = depth == 0 ? uncore_glued_qualifier(s) : 0;
			if (um >= 0)
				rc = add_umask(ps, (unsigned)um, depth);
			else if (glued) {
				char name[8];
				memcpy(name, s, glued);
				name[glued] = '\0';
				rc = set_qualifier(ps, name, s + glued);
			} else if (is_qualifier(s))
				rc = uncore_fail(UNCORE_ESYNTAX, "qualifier %s needs a value: %s=N",
						 s, s);
			else {
				const struct uncore_mod_desc *d = NULL;
				for (unsigned i = 0;
				     (d = uncore_box_event_mod(ps->ev.box, ps->ev.event, i)); i++)
					if (strcasecmp(d->name, s) == 0)
						break;
				if (d)
					rc = add_mod(ps, s, NULL, 0);
				else if (box_has_mod(ps->ev.box, s))
					rc = mod_not_accepted(ps, s);
				else
					rc = unknown_umask(ps, s);
			}
		}
		if (rc)
			return rc;
		s = next;
	}
	return 0;
}

/* An event alias ("equiv") names another event of the box, with umasks. */
static int resolve_event_equiv(struct pstate *ps, int depth)
{
	const intel_x86_entry_t *e = box_event(ps->ev.box, ps->ev.event);
	if (!e->equiv)
		return 0;
	if (depth >= MAX_EQUIV_DEPTH)
		return uncore_fail(UNCORE_EINVAL, "%s: event aliases nest too deep", e->name);
	char buf[UNCORE_EVENT_MAX_LEN + 1];
	if (snprintf(buf, sizeof(buf), "%s", e->equiv) >= (int)sizeof(buf))
		return uncore_fail(UNCORE_EINVAL, "%s: alias too long", e->name);
	char *attrs = strchr(buf, ':');
	if (attrs)
		*attrs++ = '\0';
	int idx = uncore_box_find_event(ps->ev.box, buf);
	if (idx < 0)
		return uncore_fail(UNCORE_EINVAL, "%s is an alias of unknown event %s", e->name,
				   buf);
	ps->ev.event = (unsigned)idx;
	int rc = resolve_event_equiv(ps, depth + 1);
	if (!rc && attrs)
		rc = parse_attrs(ps, attrs, depth + 1);
	return rc;
}

static _Atomic unsigned long parses;

/* "value" of a raw field, number only. */
static int raw_value(const char *field, const char *v, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 0);
	if (errno || end == v || *end)
		return uncore_fail(UNCORE_ESYNTAX, "'%s=%s': a raw field's value is a number",
				   field, QUOTED(v));
	*out = x;
	return 0;
}

/* The table event a box's raw fields select (PMU::event=0x4:umask=0x3, as
 * the kernel's format files name them): the event whose code and unit
 * mask encode to exactly those fields.  Consumes `rest` (event=...) and the
 * umask=... that follows; the other attributes stay for parse_attrs. */
static int raw_fields(struct pstate *ps, char *rest, char **attrs)
{
	const struct uncore_box_type *box = ps->ev.box;
	uint64_t code = 0, umask = 0;
	char *v = strchr(rest, '=');
	*v++ = '\0';
	if (strcasecmp(rest, "event") != 0)
		return uncore_fail(UNCORE_ESYNTAX,
				   "'%s=%s': on %s, raw fields start with event= (then umask=)",
				   QUOTED(rest), QUOTED(v), box->name);
	int rc = raw_value("event", v, &code);
	if (rc)
		return rc;
	if (*attrs && strncasecmp(*attrs, "umask=", 6) == 0) {
		char *next = strchr(*attrs, ':');
		if (next)
			*next++ = '\0';
		rc = raw_value("umask", *attrs + 6, &umask);
		if (rc)
			return rc;
		*attrs = next;
	}
	uint64_t fields = box->ctl->ev_sel | box->ctl->umask;
	uint64_t want = field_put(box->ctl->ev_sel, code) | field_put(box->ctl->umask, umask);
	if ((code << field_shift(box->ctl->ev_sel) & ~box->ctl->ev_sel) ||
	    (umask << field_shift(box->ctl->umask) & ~box->ctl->umask))
		return uncore_fail(UNCORE_ERANGE, "event=0x%llx:umask=0x%llx: wider than %s's fields",
				   (unsigned long long)code, (unsigned long long)umask, box->name);
	for (unsigned i = 0; i < uncore_box_nevents(box); i++) {
		const intel_x86_entry_t *e = box_event(box, i);
		for (unsigned u = 0; u <= e->numasks; u++) {
			struct uncore_event_ref ref;
			struct uncore_encoding enc;
			if (u == e->numasks && e->numasks)
				break;
			if (uncore_event_ref_init(&ref, box, i) < 0 ||
			    (e->numasks && uncore_event_ref_add_umask(&ref, u) < 0) ||
			    uncore_event_encode(&ref, &enc) < 0 || enc.fixed ||
			    (enc.ctl & (fields | box->ctl->ev_sel_ext)) != want)
				continue;
			ref.instance = ps->ev.instance;
			ps->ev = ref;
			ps->raw = 1;
			uncore_error_clear();
			return 0;
		}
	}
	return uncore_fail(UNCORE_ENOEVENT,
			   "event=0x%llx:umask=0x%llx: no event of %s's table has this code and "
			   "unit mask; list its events with papi_native_avail",
			   (unsigned long long)code, (unsigned long long)umask, box->name);
}

unsigned long uncore_event_parse_count(void)
{
	return parses;
}

int uncore_event_parse_encode(const struct uncore_event_platform *plat, const char *str,
			      struct uncore_event_ref *out, struct uncore_encoding *enc_out)
{
	parses++;
	uncore_error_clear();
	if (!str || !out)
		return uncore_fail(UNCORE_EINVAL, "no event string");
	size_t len = strnlen(str, UNCORE_EVENT_MAX_LEN + 1);
	if (len == 0)
		return uncore_fail(UNCORE_ESYNTAX, "empty event name");
	if (len > UNCORE_EVENT_MAX_LEN)
		return uncore_fail(UNCORE_ESYNTAX, "event string longer than %d characters",
				   UNCORE_EVENT_MAX_LEN);
	for (size_t i = 0; i < len; i++)
		if (!isgraph((unsigned char)str[i]))
			return uncore_fail(
			    UNCORE_ESYNTAX,
			    "character %zu of the event string is a space or not printable", i + 1);

	char buf[UNCORE_EVENT_MAX_LEN + 1];
	memcpy(buf, str, len + 1);

	struct pstate ps;
	memset(&ps, 0, sizeof(ps));
	ps.plat = plat;
	ps.ev.instance = ps.ev.socket = ps.ev.cpu = UNCORE_ALL;

	char *rest = buf;
	char *sep = strstr(buf, "::");
	int rc;
	if (sep) {
		*sep = '\0';
		rest = sep + 2;
		if (buf[0] == '\0')
			return uncore_fail(UNCORE_ESYNTAX, "empty PMU name before '::'");
		if (strstr(rest, "::"))
			return uncore_fail(UNCORE_ESYNTAX,
					   "'::' may appear once, after the PMU name");
		rc = resolve_pmu(&ps, buf);
		if (rc)
			return rc;
		ps.pmu_given = 1;
	}
	char *attrs = strchr(rest, ':');
	if (attrs)
		*attrs++ = '\0';
	if (rest[0] == '\0')
		return uncore_fail(UNCORE_ESYNTAX, "empty event name");
	if (strchr(rest, '=') && ps.pmu_given) {
		rc = raw_fields(&ps, rest, &attrs);
		if (rc)
			return rc;
	} else if (strchr(rest, '=')) {
		return uncore_fail(UNCORE_ESYNTAX, "'%s': the event name comes before any modifier",
				   rest);
	}
	/* Intel's dotted names, as its event files and `perf list` write them
	 * (UNC_CHA_TOR_INSERTS.IA_MISS): the event, then a unit mask whose own
	 * dots are '_' in our tables (libpfm4-events/tools/gen_perfmon.py). */
	char *dotted = ps.raw ? NULL : strchr(rest, '.');
	if (dotted) {
		*dotted++ = '\0';
		if (rest[0] == '\0' || dotted[0] == '\0')
			return uncore_fail(UNCORE_ESYNTAX,
					   "'%s.%s': an Intel name is EVENT.UNIT_MASK, both non-empty",
					   rest, dotted);
		for (char *p = dotted; *p; p++)
			if (*p == '.')
				*p = '_';
	}
	if (ps.raw) {
		/* raw_fields chose the event and its unit mask */
	} else if (ps.pmu_given) {
		int idx = uncore_box_find_event(ps.ev.box, rest);
		if (idx < 0)
			return unknown_event(ps.ev.box, rest, ps.ev.box->name);
		ps.ev.event = (unsigned)idx;
	} else {
		if (!plat)
			return uncore_fail(
			    UNCORE_ENOEVENT,
			    "'%s': name the PMU (PMU::EVENT) when no platform is selected", rest);
		rc = resolve_event_anywhere(&ps, rest);
		if (rc)
			return rc;
	}
	if (!ps.raw)
		rc = resolve_event_equiv(&ps, 0);
	if (!rc && dotted) {
		int um = uncore_box_find_umask(ps.ev.box, ps.ev.event, dotted);
		rc = um >= 0 ? add_umask(&ps, (unsigned)um, 0) : unknown_umask(&ps, dotted);
	}
	if (!rc && attrs)
		rc = parse_attrs(&ps, attrs, 0);
	if (rc)
		return rc;

	/* The whole event must encode: groups, required modifiers, counters. */
	struct uncore_encoding enc;
	rc = uncore_event_encode(&ps.ev, &enc);
	if (rc)
		return rc;
	*out = ps.ev;
	if (enc_out)
		*enc_out = enc;
	return 0;
}

int uncore_event_ref_init(struct uncore_event_ref *ref, const struct uncore_box_type *box,
			  unsigned event)
{
	struct pstate ps;
	if (!box || event >= uncore_box_nevents(box))
		return uncore_fail(UNCORE_ENOEVENT, "no event %u in %s", event, box ? box->name : "(none)");
	memset(&ps, 0, sizeof(ps));
	ps.ev.box = box;
	ps.ev.event = event;
	ps.ev.instance = ps.ev.socket = ps.ev.cpu = UNCORE_ALL;
	int rc = resolve_event_equiv(&ps, 0);
	if (rc == 0)
		*ref = ps.ev;
	return rc;
}

int uncore_event_ref_add_umask(struct uncore_event_ref *ref, unsigned umask)
{
	struct pstate ps;
	const intel_x86_entry_t *e = box_event(ref->box, ref->event);
	if (umask >= e->numasks)
		return uncore_fail(UNCORE_ENOUMASK, "%s::%s has no unit mask %u", ref->box->name,
				   e->name, umask);
	memset(&ps, 0, sizeof(ps));
	ps.ev = *ref;
	int rc = add_umask(&ps, umask, 0);
	if (rc == 0)
		*ref = ps.ev;
	return rc;
}

int uncore_event_ref_add_mod(struct uncore_event_ref *ref, const struct uncore_mod_desc *mod,
			     uint64_t value)
{
	struct pstate ps;
	memset(&ps, 0, sizeof(ps));
	ps.ev = *ref;
	for (unsigned i = 0;; i++) {
		const struct uncore_mod_desc *m = uncore_box_event_mod(ref->box, ref->event, i);
		if (!m)
			return mod_not_accepted(&ps, mod->name);
		if (m == mod)
			break;
	}
	int rc = add_mod_value(&ps, mod, value);
	if (rc == 0)
		*ref = ps.ev;
	return rc;
}

static int append(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *used)
		return uncore_fail(UNCORE_ENOSPACE, "event name does not fit in %zu bytes", len);
	*used += (size_t)n;
	return 0;
}

int uncore_event_format(const struct uncore_event_ref *ev, char *buf, size_t len)
{
	if (!ev || !ev->box || ev->event >= uncore_box_nevents(ev->box) || !buf || len == 0 ||
	    ev->numasks > UNCORE_EVENT_MAX_UMASKS || ev->nmods > UNCORE_EVENT_MAX_MODS)
		return uncore_fail(UNCORE_EINVAL,
				   "nothing to format, or a malformed event reference");
	const struct uncore_box_type *box = ev->box;
	const intel_x86_entry_t *e = box_event(box, ev->event);
	char pmu[64];
	size_t used = 0;
	int rc = uncore_box_instance_name(box, box->ninstances > 1 ? ev->instance : UNCORE_ALL, pmu,
					  sizeof(pmu));
	if (!rc)
		rc = append(buf, len, &used, "%s::%s", pmu, e->name);
	/* Umasks in table order, modifiers in the box's order: one spelling. */
	for (unsigned i = 0; !rc && i < e->numasks; i++)
		for (unsigned k = 0; k < ev->numasks; k++)
			if (ev->umasks[k] == i)
				rc = append(buf, len, &used, ":%s", e->umasks[i].uname);
	for (unsigned m = 0; !rc && m < box->nmods; m++)
		for (unsigned k = 0; k < ev->nmods; k++)
			if (ev->mods[k].mod == m)
				rc = append(buf, len, &used, ":%s=%llu", box->mods[m].name,
					    (unsigned long long)ev->mods[k].value);
	if (!rc && box->ninstances <= 1 && ev->instance != UNCORE_ALL)
		rc = append(buf, len, &used, ":box=%d", ev->instance);
	if (!rc && ev->socket != UNCORE_ALL)
		rc = append(buf, len, &used, ":socket=%d", ev->socket);
	if (!rc && ev->cpu != UNCORE_ALL)
		rc = append(buf, len, &used, ":cpu=%d", ev->cpu);
	return rc;
}
