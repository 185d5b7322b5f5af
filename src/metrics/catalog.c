/* Parsing of metric files (format: src/metrics/README.md) into catalogs,
 * and the per-platform catalogs of the files embedded in the library. */
#include "metrics/catalog.h"

#include "common/uncore_error.h"
#include "metrics/sources.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_VAR_VALUES 16
#define MAX_LINE       4096

/* Growable array of fixed-size items. */
#define GROW(arr, n, cap)                                                                          \
	do {                                                                                       \
		if ((n) == (cap)) {                                                                \
			unsigned nc_ = (cap) ? (cap)*2 : 16;                                       \
			void *np_ = realloc((arr), nc_ * sizeof(*(arr)));                          \
			if (!np_)                                                                  \
				return uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");    \
			(arr) = np_;                                                               \
			(cap) = nc_;                                                               \
		}                                                                                  \
	} while (0)

/* Every string of a catalog lives in one list, freed with it. */
struct strpool {
	char **s;
	unsigned n, cap;
};

struct parser {
	const char *file;
	unsigned line;
	struct uncore_metric_catalog *c;
	struct strpool pool;
	unsigned capdefs, capregs, capcontrols, capconsts, capclocks, capspread, capgroups,
	    capcounts;
	/* The metric stanza being read (before variable expansion). */
	int in_metric, in_group;
	unsigned stanza_line;
	char *m_name, *m_box, *m_section, *m_title, *m_units, *m_formula, *m_fix, *m_uncore,
	    *m_combine, *m_unavailable, *m_decision;
	char m_var;
	unsigned m_nvalues;
	char *m_values[MAX_VAR_VALUES];
	unsigned capmembers;
};

static char *pool_add(struct parser *p, const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	if (p->pool.n == p->pool.cap) {
		unsigned nc = p->pool.cap ? p->pool.cap * 2 : 64;
		char **ns = realloc(p->pool.s, nc * sizeof(*ns));
		if (!ns) {
			free(d);
			return NULL;
		}
		p->pool.s = ns;
		p->pool.cap = nc;
	}
	p->pool.s[p->pool.n++] = d;
	return d;
}

static char *pool_str(struct parser *p, const char *s)
{
	return pool_add(p, s, strlen(s));
}

static int syntax(struct parser *p, const char *what)
{
	return uncore_fail(UNCORE_ESYNTAX, "%s line %u: %s", p->file, p->line, what);
}

/* Replace the lower-case variable `var` by `value` in `in` (manual 1.7: a
 * lower-case variable in a name, RANKx; also a lone "x" as a value).  Only
 * letters not adjacent to other lower-case letters are variables, so field
 * names (dnid, opc) and hex numbers (0x1C00) are left alone. */
static int substitute(const char *in, char var, const char *value, char *out, size_t len)
{
	size_t o = 0, vl = strlen(value);
	for (size_t i = 0; in[i]; i++) {
		char ch = in[i];
		int word = isalnum((unsigned char)ch) || ch == '_';
		if (word && (i == 0 || !(isalnum((unsigned char)in[i - 1]) || in[i - 1] == '_')) &&
		    isdigit((unsigned char)ch)) {
			/* A number: copy the whole run unchanged. */
			while (in[i] &&
			       (isalnum((unsigned char)in[i]) || in[i] == '_' || in[i] == '.')) {
				if (o + 1 >= len)
					return -1;
				out[o++] = in[i++];
			}
			i--;
			continue;
		}
		if (ch == var && (i == 0 || !islower((unsigned char)in[i - 1])) &&
		    !islower((unsigned char)in[i + 1])) {
			if (o + vl >= len)
				return -1;
			memcpy(out + o, value, vl);
			o += vl;
			continue;
		}
		if (o + 1 >= len)
			return -1;
		out[o++] = ch;
	}
	out[o] = '\0';
	return 0;
}

static char *expand(struct parser *p, const char *s, const char *value)
{
	char buf[MAX_LINE];
	if (!s)
		return NULL;
	if (!value)
		return (char *)s;
	if (substitute(s, p->m_var, value, buf, sizeof(buf)) < 0)
		return NULL;
	return pool_str(p, buf);
}

static int finish_metric(struct parser *p)
{
	if (!p->in_metric)
		return 0;
	p->in_metric = 0;
	if (!p->m_title || !p->m_units || !p->m_formula || !p->m_section)
		return uncore_fail(UNCORE_ESYNTAX,
				   "%s line %u: metric %s needs section, title, units and formula",
				   p->file, p->stanza_line, p->m_name);
	if (!p->m_box)
		return uncore_fail(UNCORE_ESYNTAX,
				   "%s line %u: metric %s needs a box (or box none)", p->file,
				   p->stanza_line, p->m_name);
	unsigned nvalues = p->m_nvalues ? p->m_nvalues : 1;
	for (unsigned v = 0; v < nvalues; v++) {
		const char *value = p->m_nvalues ? p->m_values[v] : NULL;
		struct uncore_metric_def d;
		memset(&d, 0, sizeof(d));
		d.name = expand(p, p->m_name, value);
		d.box = strcmp(p->m_box, "none") == 0 ? NULL : p->m_box;
		d.section = p->m_section;
		d.title = expand(p, p->m_title, value);
		d.units = p->m_units;
		d.formula = expand(p, p->m_formula, value);
		if (p->m_uncore)
			d.expr = expand(p, p->m_uncore, value);
		else
			d.expr = expand(p, p->m_fix ? p->m_fix : p->m_formula, value);
		d.decision = p->m_decision ? expand(p, p->m_decision, value) : "";
		d.combine = p->m_combine ? expand(p, p->m_combine, value) : NULL;
		d.unavailable = p->m_unavailable;
		d.line = p->stanza_line;
		if (!d.name || !d.title || !d.formula || !d.expr || !d.decision ||
		    (p->m_combine && !d.combine))
			return uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
		if (p->m_uncore) {
			char name[256];
			snprintf(name, sizeof(name), "%s_UNCORE_PART", d.name);
			d.name = pool_str(p, name);
			if (!d.name)
				return uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
		}
		if (uncore_metric_def_find(p->c, d.box, d.name))
			return uncore_fail(UNCORE_ESYNTAX, "%s line %u: metric %s defined twice",
					   p->file, p->stanza_line, d.name);
		GROW(p->c->defs, p->c->ndefs, p->capdefs);
		p->c->defs[p->c->ndefs++] = d;
	}
	return 0;
}

/* Split "key rest": key into *key (terminated in place), rest trimmed. */
static char *split_word(char *s, char **rest)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *k = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	while (*s == ' ' || *s == '\t')
		s++;
	char *end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	*rest = s;
	return k;
}

static int parse_vars(struct parser *p, char *rest)
{
	/* x=0-7  or  x=RT,WT,PPT */
	if (!islower((unsigned char)rest[0]) || rest[1] != '=')
		return syntax(p, "vars: expected <lower-case letter>=<from>-<to> or =<a>,<b>,...");
	/* One variable per stanza: its values fill m_values, which a second
	 * line would overrun. */
	if (p->m_var)
		return syntax(p, "vars given twice (one vars line per metric)");
	p->m_var = rest[0];
	char *list = rest + 2;
	char *dash = strchr(list, '-');
	if (dash && isdigit((unsigned char)list[0])) {
		long a = strtol(list, NULL, 10), b = strtol(dash + 1, NULL, 10);
		if (a < 0 || b < a || b - a >= MAX_VAR_VALUES)
			return syntax(p, "vars: bad range");
		for (long v = a; v <= b; v++) {
			char num[24];
			snprintf(num, sizeof(num), "%ld", v);
			if (!(p->m_values[p->m_nvalues++] = pool_str(p, num)))
				return uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
		}
		return 0;
	}
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (p->m_nvalues == MAX_VAR_VALUES)
			return syntax(p, "vars: too many values");
		if (!(p->m_values[p->m_nvalues++] = pool_str(p, tok)))
			return uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
	}
	return 0;
}

static int metric_key(struct parser *p, const char *key, char *rest)
{
	char **slot = NULL;
	if (strcmp(key, "box") == 0)
		slot = &p->m_box;
	else if (strcmp(key, "section") == 0)
		slot = &p->m_section;
	else if (strcmp(key, "title") == 0)
		slot = &p->m_title;
	else if (strcmp(key, "units") == 0)
		slot = &p->m_units;
	else if (strcmp(key, "formula") == 0)
		slot = &p->m_formula;
	else if (strcmp(key, "fix") == 0)
		slot = &p->m_fix;
	else if (strcmp(key, "uncore") == 0)
		slot = &p->m_uncore;
	else if (strcmp(key, "combine") == 0)
		slot = &p->m_combine;
	else if (strcmp(key, "unavailable") == 0)
		slot = &p->m_unavailable;
	else if (strcmp(key, "vars") == 0)
		return parse_vars(p, rest);
	else if (strcmp(key, "decision") == 0) {
		char buf[MAX_LINE];
		if (p->m_decision)
			snprintf(buf, sizeof(buf), "%s %s", p->m_decision, rest);
		else
			snprintf(buf, sizeof(buf), "%s", rest);
		p->m_decision = pool_str(p, buf);
		return p->m_decision ? 0 : uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
	} else
		return syntax(p, "unknown metric key");
	if (*slot)
		return syntax(p, "metric key given twice");
	if (!*rest)
		return syntax(p, "metric key without a value");
	if (strcmp(key, "section") == 0 && p->c->manual) {
		char buf[128];
		snprintf(buf, sizeof(buf), "%s %s", p->c->manual, rest);
		*slot = pool_str(p, buf);
	} else
		*slot = pool_str(p, rest);
	return *slot ? 0 : uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
}

static int start_metric(struct parser *p, char *rest)
{
	p->in_metric = 1;
	p->stanza_line = p->line;
	p->m_name = pool_str(p, rest);
	p->m_box = p->m_section = p->m_title = p->m_units = p->m_formula = p->m_fix = NULL;
	p->m_uncore = p->m_combine = p->m_unavailable = p->m_decision = NULL;
	p->m_var = 0;
	p->m_nvalues = 0;
	return *rest ? 0 : syntax(p, "metric without a name");
}

/* "register NAME KIND filter=N [shift=N] [whole]" */
static int parse_register(struct parser *p, char *rest)
{
	struct uncore_metric_reg r;
	char *kind, *name = split_word(rest, &rest);
	memset(&r, 0, sizeof(r));
	kind = split_word(rest, &rest);
	r.name = pool_str(p, name);
	r.box = pool_str(p, kind);
	r.filter = -2;
	while (*rest) {
		char *w = split_word(rest, &rest);
		if (strncmp(w, "filter=", 7) == 0)
			r.filter = atoi(w + 7);
		else if (strncmp(w, "shift=", 6) == 0)
			r.shift = (unsigned)atoi(w + 6);
		else if (strcmp(w, "whole") == 0)
			r.whole = 1;
		else
			return syntax(p, "register: unknown attribute");
	}
	if (!*name || !*kind || r.filter < 0 || r.shift > 32)
		return syntax(p, "register: expected NAME KIND filter=N [shift=N] [whole]");
	GROW(p->c->regs, p->c->nregs, p->capregs);
	p->c->regs[p->c->nregs++] = r;
	return 0;
}

/* "field REG.name HI[:LO]" */
static int parse_field(struct parser *p, char *rest)
{
	char *spec, *dot = strchr(rest, '.');
	if (!dot)
		return syntax(p, "field: expected REGISTER.field HI[:LO]");
	*dot = '\0';
	struct uncore_metric_reg *r =
	    (struct uncore_metric_reg *)uncore_metric_reg_find(p->c, rest);
	if (!r || r->filter < 0)
		return syntax(p, "field: unknown register (declare it first)");
	char *fname = split_word(dot + 1, &spec);
	char *flag = strchr(spec, ' ');
	int raw = 0;
	if (flag) {
		*flag++ = '\0';
		while (*flag == ' ')
			flag++;
		if (strcmp(flag, "raw") != 0)
			return syntax(p, "field: unknown flag (only: raw)");
		raw = 1;
	}
	unsigned hi, lo;
	char *colon = strchr(spec, ':');
	hi = (unsigned)atoi(spec);
	lo = colon ? (unsigned)atoi(colon + 1) : hi;
	if (hi > 63 || lo > hi || !isdigit((unsigned char)spec[0]) ||
	    r->nfields == UNCORE_METRIC_MAX_FIELDS)
		return syntax(p, "field: bad bit range");
	r->fields[r->nfields].raw = raw || r->whole;
	r->fields[r->nfields].name = pool_str(p, fname);
	r->fields[r->nfields].mask =
	    (hi == 63 ? ~0ull : ((1ull << (hi + 1)) - 1)) & ~((1ull << lo) - 1);
	r->nfields++;
	return 0;
}

/* "alias NAME REG1,REG2" */
static int parse_alias(struct parser *p, char *rest)
{
	struct uncore_metric_reg r;
	char *list, *name = split_word(rest, &list);
	memset(&r, 0, sizeof(r));
	r.name = pool_str(p, name);
	r.filter = -1;
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		const struct uncore_metric_reg *t = uncore_metric_reg_find(p->c, tok);
		if (!t || t->filter < 0 || r.nalias == UNCORE_METRIC_MAX_ALIAS)
			return syntax(p, "alias: unknown register");
		r.alias[r.nalias++] = t->name;
		r.box = t->box;
	}
	if (!r.nalias)
		return syntax(p, "alias: expected NAME REG[,REG...]");
	GROW(p->c->regs, p->c->nregs, p->capregs);
	p->c->regs[p->c->nregs++] = r;
	return 0;
}

static int top_level(struct parser *p, char *line)
{
	char *rest, *key = split_word(line, &rest);
	int rc = finish_metric(p);
	if (rc < 0)
		return rc;
	p->in_group = 0;
	if (strcmp(key, "metric") == 0)
		return start_metric(p, rest);
	if (strcmp(key, "platform") == 0) {
		p->c->platform = pool_str(p, rest);
		return 0;
	}
	if (strcmp(key, "manual") == 0) {
		p->c->manual = pool_str(p, rest);
		return 0;
	}
	if (strcmp(key, "summary_pmu") == 0) {
		p->c->summary_pmu = pool_str(p, rest);
		return 0;
	}
	if (strcmp(key, "register") == 0)
		return parse_register(p, rest);
	if (strcmp(key, "field") == 0)
		return parse_field(p, rest);
	if (strcmp(key, "alias") == 0)
		return parse_alias(p, rest);
	if (strcmp(key, "control") == 0) {
		char *mod, *name = split_word(rest, &mod);
		if (!*name || !*mod)
			return syntax(p, "control: expected NAME MODIFIER");
		GROW(p->c->controls, p->c->ncontrols, p->capcontrols);
		p->c->controls[p->c->ncontrols].name = pool_str(p, name);
		p->c->controls[p->c->ncontrols++].mod = pool_str(p, mod);
		return 0;
	}
	if (strcmp(key, "const") == 0) {
		char *eq = strchr(rest, '=');
		if (!eq)
			return syntax(p, "const: expected NAME = expression");
		char *end = eq;
		while (end > rest && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		GROW(p->c->consts, p->c->nconsts, p->capconsts);
		p->c->consts[p->c->nconsts].name = pool_add(p, rest, (size_t)(end - rest));
		p->c->consts[p->c->nconsts++].expr = pool_str(p, eq + 1);
		return 0;
	}
	if (strcmp(key, "clock") == 0) {
		char *ev, *kind = split_word(rest, &ev);
		if (!*kind || !*ev)
			return syntax(p, "clock: expected KIND EVENT");
		GROW(p->c->clocks, p->c->nclocks, p->capclocks);
		p->c->clocks[p->c->nclocks].box = pool_str(p, kind);
		p->c->clocks[p->c->nclocks++].event = pool_str(p, ev);
		return 0;
	}
	if (strcmp(key, "count") == 0) {
		char *kind, *name = split_word(rest, &kind);
		if (!*name || !*kind)
			return syntax(p, "count: expected NAME KIND");
		GROW(p->c->counts, p->c->ncounts, p->capcounts);
		p->c->counts[p->c->ncounts].name = pool_str(p, name);
		p->c->counts[p->c->ncounts++].box = pool_str(p, kind);
		return 0;
	}
	if (strcmp(key, "spread") == 0) {
		char *why, *kind = split_word(rest, &why);
		if (!*kind || !*why)
			return syntax(p, "spread: expected KIND REASON");
		unsigned n = p->c->nspread;
		GROW(p->c->spread, p->c->nspread, p->capspread);
		const char **nr = realloc(p->c->spread_reason, p->capspread * sizeof(*nr));
		if (!nr)
			return uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
		p->c->spread_reason = nr;
		p->c->spread[n] = pool_str(p, kind);
		p->c->spread_reason[n] = pool_str(p, why);
		p->c->nspread++;
		return 0;
	}
	if (strcmp(key, "group") == 0) {
		char *title, *name = split_word(rest, &title);
		if (!*name || !*title)
			return syntax(p, "group: expected NAME TITLE");
		GROW(p->c->groups, p->c->ngroups, p->capgroups);
		struct uncore_metric_group *g = &p->c->groups[p->c->ngroups++];
		memset(g, 0, sizeof(*g));
		g->name = pool_str(p, name);
		g->title = pool_str(p, title);
		p->in_group = 1;
		p->capmembers = 0;
		return 0;
	}
	return syntax(p, "unknown directive");
}

static int stanza_line(struct parser *p, char *line)
{
	char *rest, *key = split_word(line, &rest);
	if (p->in_metric)
		return metric_key(p, key, rest);
	if (p->in_group && strcmp(key, "member") == 0 && *rest) {
		struct uncore_metric_group *g = &p->c->groups[p->c->ngroups - 1];
		GROW(g->members, g->nmembers, p->capmembers);
		g->members[g->nmembers++] = pool_str(p, rest);
		return 0;
	}
	return syntax(p, "indented line outside a metric or group stanza");
}

int uncore_metric_catalog_parse(const char *file, const char *text,
				struct uncore_metric_catalog **out)
{
	struct parser p;
	int rc = 0;
	memset(&p, 0, sizeof(p));
	p.file = file;
	p.c = calloc(1, sizeof(*p.c));
	if (!p.c)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
	p.c->file = file;
	for (const char *s = text; *s && rc == 0;) {
		char line[MAX_LINE];
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		p.line++;
		if (n >= sizeof(line)) {
			rc = syntax(&p, "line too long");
			break;
		}
		memcpy(line, s, n);
		line[n] = '\0';
		s += n + (nl ? 1 : 0);
		/* '#' starts a comment at the start of a line or after a blank. */
		for (char *h = line; (h = strchr(h, '#')) != NULL; h++) {
			if (h == line || h[-1] == ' ' || h[-1] == '\t') {
				*h = '\0';
				break;
			}
		}
		char *t = line;
		while (*t == ' ' || *t == '\t')
			t++;
		if (*t == '\0')
			continue;
		rc = (t == line) ? top_level(&p, line) : stanza_line(&p, line);
	}
	if (rc == 0)
		rc = finish_metric(&p);
	if (rc == 0 && !p.c->platform)
		rc = uncore_fail(UNCORE_ESYNTAX, "%s: no platform line", file);
	if (rc == 0) {
		p.c->plat = uncore_event_platform_by_name(p.c->platform);
		if (!p.c->plat)
			rc = uncore_fail(UNCORE_ESYNTAX, "%s: unknown platform %s", file,
					 p.c->platform);
	}
	if (rc == 0 && !p.c->summary_pmu) {
		char name[64];
		snprintf(name, sizeof(name), "%s_metric", p.c->platform);
		p.c->summary_pmu = pool_str(&p, name);
	}
	for (unsigned i = 0; rc == 0 && i < p.c->ndefs; i++) {
		struct uncore_metric_def *d = &p.c->defs[i];
		if (!d->box) {
			d->pmu = p.c->summary_pmu;
			continue;
		}
		const struct uncore_box_type *bt = uncore_metric_box(p.c, d->box);
		if (!bt)
			rc = uncore_fail(UNCORE_ESYNTAX,
					 "%s line %u: metric %s: no box of kind %s on %s", file,
					 d->line, d->name, d->box, p.c->platform);
		else
			d->pmu = bt->name;
	}
	if (rc < 0) {
		uncore_metric_catalog_free(p.c);
		for (unsigned i = 0; i < p.pool.n; i++)
			free(p.pool.s[i]);
		free(p.pool.s);
		return rc;
	}
	/* The catalog keeps the pool: a NULL-terminated list of its strings. */
	struct uncore_metric_catalog *c = p.c;
	char **keep = realloc(p.pool.s, (p.pool.n + 1) * sizeof(*keep));
	if (!keep) {
		for (unsigned i = 0; i < p.pool.n; i++)
			free(p.pool.s[i]);
		free(p.pool.s);
		uncore_metric_catalog_free(c);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for metrics");
	}
	keep[p.pool.n] = NULL;
	c->pool = keep;
	*out = c;
	return 0;
}

void uncore_metric_catalog_free(struct uncore_metric_catalog *c)
{
	if (!c)
		return;
	for (char **s = c->pool; s && *s; s++)
		free(*s);
	free(c->pool);
	for (unsigned g = 0; g < c->ngroups; g++)
		free(c->groups[g].members);
	free(c->groups);
	free(c->defs);
	free(c->regs);
	free(c->controls);
	free(c->consts);
	free(c->clocks);
	free(c->counts);
	free(c->spread);
	free(c->spread_reason);
	free(c);
}

/* The built-in catalogs, each parsed the first time its platform is asked
 * for: a process that never uses metrics of a platform (a machine without
 * uncore, another platform's machine) never parses its file. */

#define MAX_BUILTIN 32

static pthread_mutex_t builtin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct builtin {
	struct uncore_metric_catalog *cat;
	int scanned;       /* platform[] is known */
	char platform[32]; /* what the file declares ("" when nothing) */
	int parsed;
	int rc; /* of the parse: 0, or its error with the detail */
	char detail[512];
} builtin[MAX_BUILTIN];

/* The platform a metric file declares (its first "platform NAME" line),
 * found without parsing the file, into out ("" when absent). */
static void declared_platform(const char *text, char *out, size_t len)
{
	out[0] = '\0';
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, "platform ", 9) != 0)
			continue;
		const char *v = l + 9 + strspn(l + 9, " \t");
		int n = (int)strcspn(v, " \t\r\n#");
		snprintf(out, len, "%.*s", n, v);
		return;
	}
}

/* Whether source i is the file of platform `plat` (by name, as
 * uncore_metric_catalog_serves compares). */
static int source_for(unsigned i, const struct uncore_event_platform *plat)
{
	struct builtin *b = &builtin[i];
	if (!b->scanned) {
		declared_platform(uncore_metric_sources[i].text, b->platform, sizeof(b->platform));
		b->scanned = 1;
	}
	return plat && plat->name && b->platform[0] && strcasecmp(plat->name, b->platform) == 0;
}

/* Parse source i once; its catalog or its parse error. */
static int builtin_at(unsigned i, const struct uncore_metric_catalog **out)
{
	struct builtin *b = &builtin[i];
	if (!b->parsed) {
		b->parsed = 1;
		b->rc = uncore_metric_catalog_parse(uncore_metric_sources[i].file,
						    uncore_metric_sources[i].text, &b->cat);
		snprintf(b->detail, sizeof(b->detail), "%s",
			 b->rc < 0 ? uncore_error_detail() : "");
	}
	if (b->rc < 0)
		return uncore_fail(b->rc, "built-in metric file %s: %s",
				   uncore_metric_sources[i].file, b->detail);
	*out = b->cat;
	return 0;
}

static unsigned builtin_count(void)
{
	unsigned n = 0;
	while (uncore_metric_sources[n].file)
		n++;
	return n;
}

unsigned uncore_metric_catalog_nparsed(void)
{
	unsigned n = 0, total = builtin_count();
	pthread_mutex_lock(&builtin_lock);
	for (unsigned i = 0; i < total && i < MAX_BUILTIN; i++)
		n += builtin[i].parsed;
	pthread_mutex_unlock(&builtin_lock);
	return n;
}

int uncore_metric_catalog_serves(const struct uncore_metric_catalog *c,
				 const struct uncore_event_platform *plat)
{
	if (!c->plat || !plat)
		return 0;
	/* By name too: a backend may describe the machine with a platform of
	 * its own that holds the built-in one's box types (the perf backend
	 * adds the kernel's PMUs). */
	return c->plat == plat || (plat->name && strcmp(c->plat->name, plat->name) == 0);
}

int uncore_metric_catalog_get(const struct uncore_event_platform *plat,
			      const struct uncore_metric_catalog **out)
{
	unsigned n = builtin_count();
	int rc = UNCORE_ENOEVENT;
	if (n > MAX_BUILTIN)
		return uncore_fail(UNCORE_ENOSPACE, "too many metric files (%u, room for %d)", n,
				   MAX_BUILTIN);
	pthread_mutex_lock(&builtin_lock);
	for (unsigned i = 0; i < n; i++) {
		const struct uncore_metric_catalog *c;
		if (!source_for(i, plat))
			continue;
		rc = builtin_at(i, &c);
		if (rc == 0 && !uncore_metric_catalog_serves(c, plat))
			rc = UNCORE_ENOEVENT; /* declares the name of another platform */
		if (rc == 0)
			*out = c;
		break;
	}
	pthread_mutex_unlock(&builtin_lock);
	if (rc == UNCORE_ENOEVENT)
		return uncore_fail(UNCORE_ENOEVENT, "no metrics are defined for platform %s",
				   plat ? plat->name : "(none)");
	return rc;
}

int uncore_metric_catalog_builtin(unsigned i, const char **file,
				  const struct uncore_metric_catalog **out)
{
	int rc;
	if (i >= builtin_count() || i >= MAX_BUILTIN)
		return uncore_fail(UNCORE_ERANGE, "no built-in metric file %u", i);
	*file = uncore_metric_sources[i].file;
	pthread_mutex_lock(&builtin_lock);
	rc = builtin_at(i, out);
	pthread_mutex_unlock(&builtin_lock);
	return rc;
}

/* Lookups. */

const struct uncore_metric_def *uncore_metric_def_find(const struct uncore_metric_catalog *c,
						       const char *box, const char *name)
{
	for (unsigned i = 0; i < c->ndefs; i++) {
		const struct uncore_metric_def *d = &c->defs[i];
		if (strcasecmp(d->name, name) != 0)
			continue;
		if ((!box && !d->box) || (box && d->box && strcasecmp(box, d->box) == 0))
			return d;
	}
	return NULL;
}

const struct uncore_metric_reg *uncore_metric_reg_find(const struct uncore_metric_catalog *c,
						       const char *name)
{
	for (unsigned i = 0; i < c->nregs; i++)
		if (strcasecmp(c->regs[i].name, name) == 0)
			return &c->regs[i];
	return NULL;
}

const struct uncore_metric_const *uncore_metric_const_find(const struct uncore_metric_catalog *c,
							   const char *name)
{
	for (unsigned i = 0; i < c->nconsts; i++)
		if (strcmp(c->consts[i].name, name) == 0)
			return &c->consts[i];
	return NULL;
}

const char *uncore_metric_control_mod(const struct uncore_metric_catalog *c, const char *name)
{
	for (unsigned i = 0; i < c->ncontrols; i++)
		if (strcasecmp(c->controls[i].name, name) == 0)
			return c->controls[i].mod;
	return NULL;
}

const char *uncore_metric_count_box(const struct uncore_metric_catalog *c, const char *name)
{
	for (unsigned i = 0; i < c->ncounts; i++)
		if (strcmp(c->counts[i].name, name) == 0)
			return c->counts[i].box;
	return NULL;
}

const char *uncore_metric_clock_event(const struct uncore_metric_catalog *c, const char *box)
{
	for (unsigned i = 0; i < c->nclocks; i++)
		if (strcasecmp(c->clocks[i].box, box) == 0)
			return c->clocks[i].event;
	return NULL;
}

const char *uncore_metric_spread_reason(const struct uncore_metric_catalog *c, const char *box)
{
	for (unsigned i = 0; i < c->nspread; i++)
		if (strcasecmp(c->spread[i], box) == 0)
			return c->spread_reason[i];
	return NULL;
}

const struct uncore_box_type *uncore_metric_box(const struct uncore_metric_catalog *c,
						const char *kind)
{
	if (!c->plat || !kind)
		return NULL;
	for (unsigned b = 0; b < c->plat->nboxes; b++)
		if (strcasecmp(c->plat->boxes[b]->kind, kind) == 0)
			return c->plat->boxes[b];
	return NULL;
}
