/* Lexer, recursive-descent parser and evaluator for the derived-event
 * notation (see expr.h; HSX PMON 1.7). */
#include "metrics/expr.h"

#include "common/uncore_error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h> /* NAN only: no libm functions */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Arena. */

struct mx_chunk {
	struct mx_chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct mx_arena {
	struct mx_chunk *head;
};

int mx_arena_create(struct mx_arena **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
}

void mx_arena_destroy(struct mx_arena *a)
{
	if (!a)
		return;
	while (a->head) {
		struct mx_chunk *n = a->head->next;
		free(a->head);
		a->head = n;
	}
	free(a);
}

void *mx_alloc(struct mx_arena *a, size_t size)
{
	size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!a->head || a->head->size - a->head->used < size) {
		size_t cap = size > 16384 ? size : 16384;
		struct mx_chunk *c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = a->head;
		c->used = 0;
		c->size = cap;
		a->head = c;
	}
	void *p = (char *)a->head->data + a->head->used;
	a->head->used += size;
	memset(p, 0, size);
	return p;
}

/* Lexer. */

enum tok { T_END, T_NUM, T_IDENT, T_PUNCT };

struct lexer {
	const char *text, *what;
	size_t pos;
	enum tok tok;
	size_t start; /* of the current token */
	double num;
	uint64_t inum; /* integer value of a number token, when is_int */
	int is_int;    /* the number is whole and below 2^64 */
	char ident[MX_NAME_LEN];
	char punct;
	struct mx_arena *arena;
};

static int lex_fail(struct lexer *lx, const char *expected)
{
	char near[24];
	snprintf(near, sizeof(near), "%.20s", lx->text + lx->start);
	return uncore_fail(UNCORE_ESYNTAX,
			   "%s: formula \"%s\": at offset %zu (\"%s\"): expected %s", lx->what,
			   lx->text, lx->start, near, expected);
}

static int next(struct lexer *lx)
{
	const char *s = lx->text;
	while (s[lx->pos] == ' ' || s[lx->pos] == '\t')
		lx->pos++;
	lx->start = lx->pos;
	char c = s[lx->pos];
	if (c == '\0') {
		lx->tok = T_END;
		return 0;
	}
	if (isdigit((unsigned char)c)) {
		char *end;
		if (c == '0' && (s[lx->pos + 1] == 'x' || s[lx->pos + 1] == 'X')) {
			errno = 0;
			lx->inum = strtoull(s + lx->pos, &end, 16);
			lx->is_int = errno != ERANGE;
			lx->num = (double)lx->inum;
		} else {
			lx->num = strtod(s + lx->pos, &end);
			/* Converting a double at or above 2^64 to an integer is
			 * undefined (C11 6.3.1.4): test the range first. */
			lx->is_int = lx->num >= 0 && lx->num < 18446744073709551616.0;
			lx->inum = lx->is_int ? (uint64_t)lx->num : 0;
			lx->is_int = lx->is_int && (double)lx->inum == lx->num;
		}
		if (isalpha((unsigned char)*end) || *end == '_')
			return lex_fail(lx, "a number");
		lx->pos = (size_t)(end - s);
		lx->tok = T_NUM;
		return 0;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		size_t n = 0;
		while (isalnum((unsigned char)s[lx->pos]) || s[lx->pos] == '_') {
			if (n + 1 >= sizeof(lx->ident))
				return lex_fail(lx, "a shorter name");
			lx->ident[n++] = s[lx->pos++];
		}
		lx->ident[n] = '\0';
		lx->tok = T_IDENT;
		return 0;
	}
	if (strchr("()+-*/^{},.:=[]", c)) {
		lx->punct = c;
		lx->pos++;
		lx->tok = T_PUNCT;
		return 0;
	}
	return lex_fail(lx, "an operator, a name or a number");
}

static int is_punct(const struct lexer *lx, char c)
{
	return lx->tok == T_PUNCT && lx->punct == c;
}

static int expect(struct lexer *lx, char c)
{
	char what[8];
	if (!is_punct(lx, c)) {
		snprintf(what, sizeof(what), "'%c'", c);
		return lex_fail(lx, what);
	}
	return next(lx);
}

/* Parser. */

static int parse_expr(struct lexer *lx, struct mx_node **out);

static struct mx_node *node(struct lexer *lx, enum mx_kind k)
{
	struct mx_node *n = mx_alloc(lx->arena, sizeof(*n));
	if (n) {
		n->kind = k;
		n->term = -1;
		n->common = -1;
		n->pos = (unsigned)lx->start;
	}
	return n;
}

#define NEW(var, lx, k)                                                                            \
	do {                                                                                       \
		(var) = node((lx), (k));                                                           \
		if (!(var))                                                                        \
			return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");           \
	} while (0)

/* The current token as a whole number no larger than `max`. */
static int int_token(struct lexer *lx, uint64_t max, const char *expected, uint64_t *out)
{
	if (lx->tok != T_NUM || !lx->is_int || lx->inum > max)
		return lex_fail(lx, expected);
	*out = lx->inum;
	return 0;
}

static int parse_value(struct lexer *lx, struct mx_assign *a)
{
	if (lx->tok == T_NUM) {
		if (!lx->is_int)
			return lex_fail(lx, "a whole value below 2^64");
		a->value = lx->inum;
		return next(lx);
	}
	if (lx->tok == T_IDENT) {
		snprintf(a->symbol, sizeof(a->symbol), "%s", lx->ident);
		return next(lx);
	}
	return lex_fail(lx, "a value");
}

static int parse_range(struct lexer *lx, struct mx_assign *a)
{
	uint64_t bit = 0;
	int rc = expect(lx, '[');
	if (rc == 0)
		rc = int_token(lx, 63, "a bit number (0 to 63)", &bit);
	a->hi = (int)bit;
	a->field[0] = '\0';
	if (rc == 0)
		rc = next(lx);
	if (rc == 0)
		rc = expect(lx, ':');
	if (rc == 0)
		rc = int_token(lx, 63, "a bit number (0 to 63)", &bit);
	a->lo = (int)bit;
	if (rc == 0)
		rc = next(lx);
	if (rc == 0)
		rc = expect(lx, ']');
	if (rc == 0 && (a->hi > 63 || a->lo > a->hi))
		return lex_fail(lx, "a bit range [hi:lo] with 63 >= hi >= lo");
	return rc;
}

/* Append assignments of one "REG..." item to (*as, *n). */
static int parse_assign(struct lexer *lx, struct mx_assign *as, unsigned *n, unsigned cap)
{
	char reg[MX_NAME_LEN];
	int rc;
	if (lx->tok != T_IDENT)
		return lex_fail(lx, "a register name");
	snprintf(reg, sizeof(reg), "%s", lx->ident);
	if ((rc = next(lx)) < 0)
		return rc;
	unsigned first = *n;
	if (is_punct(lx, '[')) {
		/* REG[hi:lo]=value */
		if (*n == cap)
			return lex_fail(lx, "fewer assignments");
		struct mx_assign *a = &as[(*n)++];
		snprintf(a->reg, sizeof(a->reg), "%s", reg);
		if ((rc = parse_range(lx, a)) < 0 || (rc = expect(lx, '=')) < 0)
			return rc;
		return parse_value(lx, a);
	}
	int braced_specs = 0;
	if (is_punct(lx, '.')) {
		if ((rc = next(lx)) < 0)
			return rc;
		if (lx->tok == T_IDENT) {
			/* REG.field=value */
			if (*n == cap)
				return lex_fail(lx, "fewer assignments");
			struct mx_assign *a = &as[(*n)++];
			snprintf(a->reg, sizeof(a->reg), "%s", reg);
			snprintf(a->field, sizeof(a->field), "%s", lx->ident);
			if ((rc = next(lx)) < 0 || (rc = expect(lx, '=')) < 0)
				return rc;
			return parse_value(lx, a);
		}
		braced_specs = 1;
	} else if (is_punct(lx, '{'))
		braced_specs = 1;
	if (!braced_specs)
		return lex_fail(lx, "'.field', '[hi:lo]' or '{' after the register name");
	/* REG.{f1,f2}={v1,v2} or REG{[hi:lo],f}={v1,v2} */
	if ((rc = expect(lx, '{')) < 0)
		return rc;
	for (;;) {
		if (*n == cap)
			return lex_fail(lx, "fewer assignments");
		struct mx_assign *a = &as[(*n)++];
		snprintf(a->reg, sizeof(a->reg), "%s", reg);
		if (is_punct(lx, '[')) {
			if ((rc = parse_range(lx, a)) < 0)
				return rc;
		} else if (lx->tok == T_IDENT) {
			snprintf(a->field, sizeof(a->field), "%s", lx->ident);
			if ((rc = next(lx)) < 0)
				return rc;
		} else
			return lex_fail(lx, "a field name or [hi:lo]");
		if (is_punct(lx, ',')) {
			if ((rc = next(lx)) < 0)
				return rc;
			continue;
		}
		break;
	}
	if ((rc = expect(lx, '}')) < 0 || (rc = expect(lx, '=')) < 0 || (rc = expect(lx, '{')) < 0)
		return rc;
	for (unsigned i = first; i < *n; i++) {
		if ((rc = parse_value(lx, &as[i])) < 0)
			return rc;
		if (i + 1 < *n && (rc = expect(lx, ',')) < 0)
			return rc;
	}
	return expect(lx, '}');
}

#define MAX_ASSIGNS 16

static int parse_with(struct lexer *lx, struct mx_node **inout)
{
	struct mx_assign as[MAX_ASSIGNS];
	unsigned n = 0;
	int rc;
	memset(as, 0, sizeof(as));
	/* "with" already seen; ':' follows. */
	if ((rc = next(lx)) < 0 || (rc = expect(lx, ':')) < 0)
		return rc;
	if (is_punct(lx, '{')) {
		if ((rc = next(lx)) < 0)
			return rc;
		for (;;) {
			if ((rc = parse_assign(lx, as, &n, MAX_ASSIGNS)) < 0)
				return rc;
			if (is_punct(lx, ',')) {
				if ((rc = next(lx)) < 0)
					return rc;
				continue;
			}
			break;
		}
		if ((rc = expect(lx, '}')) < 0)
			return rc;
	} else if ((rc = parse_assign(lx, as, &n, MAX_ASSIGNS)) < 0)
		return rc;
	struct mx_node *w;
	NEW(w, lx, MX_WITH);
	w->a = *inout;
	w->nassigns = n;
	w->assigns = mx_alloc(lx->arena, n * sizeof(*as));
	if (!w->assigns)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for a metric");
	memcpy(w->assigns, as, n * sizeof(*as));
	*inout = w;
	return 0;
}

static int parse_ref(struct lexer *lx, struct mx_node **out)
{
	struct mx_node *r;
	int rc;
	NEW(r, lx, MX_REF);
	snprintf(r->name, sizeof(r->name), "%s", lx->ident);
	if ((rc = next(lx)) < 0)
		return rc;
	if (strcasecmp(r->name, "ROUND") == 0 && is_punct(lx, '(')) {
		struct mx_node *f;
		NEW(f, lx, MX_ROUND);
		if ((rc = next(lx)) < 0 || (rc = parse_expr(lx, &f->a)) < 0 ||
		    (rc = expect(lx, ',')) < 0 || (rc = parse_expr(lx, &f->b)) < 0 ||
		    (rc = expect(lx, ')')) < 0)
			return rc;
		*out = f;
		return 0;
	}
	if (is_punct(lx, ':')) {
		/* BOX:EVENT */
		snprintf(r->box, sizeof(r->box), "%s", r->name);
		if ((rc = next(lx)) < 0)
			return rc;
		if (lx->tok != T_IDENT)
			return lex_fail(lx, "an event name after BOX:");
		snprintf(r->name, sizeof(r->name), "%s", lx->ident);
		if ((rc = next(lx)) < 0)
			return rc;
	}
	if (is_punct(lx, '.')) {
		if ((rc = next(lx)) < 0)
			return rc;
		if (lx->tok != T_IDENT)
			return lex_fail(lx, "a subevent name after '.'");
		snprintf(r->sub, sizeof(r->sub), "%s", lx->ident);
		if ((rc = next(lx)) < 0)
			return rc;
		if (is_punct(lx, '.')) {
			/* Two-level subevent names (Nehalem guide: UNC_IMC_WRITES.FULL.CH0)
			 * are one unit mask, FULL_CH0, in the tables. */
			if ((rc = next(lx)) < 0)
				return rc;
			if (lx->tok != T_IDENT)
				return lex_fail(lx, "a subevent name after '.'");
			size_t l = strlen(r->sub);
			if (l + 1 + strlen(lx->ident) >= sizeof(r->sub))
				return lex_fail(lx, "a shorter subevent name");
			r->sub[l] = '_';
			memcpy(r->sub + l + 1, lx->ident, strlen(lx->ident) + 1);
			if ((rc = next(lx)) < 0)
				return rc;
		}
	}
	if (is_punct(lx, '{')) {
		if ((rc = next(lx)) < 0)
			return rc;
		for (;;) {
			if (lx->tok != T_IDENT)
				return lex_fail(lx, "a control-bit name");
			if (r->nctrls == MX_MAX_CTRLS)
				return lex_fail(lx, "fewer control bits");
			struct mx_ctrl *c = &r->ctrls[r->nctrls++];
			snprintf(c->name, sizeof(c->name), "%s", lx->ident);
			c->value = 1; /* 1.7: without [=value] the bit is set to 1 */
			if ((rc = next(lx)) < 0)
				return rc;
			if (is_punct(lx, '=')) {
				if ((rc = next(lx)) < 0)
					return rc;
				if ((rc = int_token(
					 lx, UINT64_MAX,
					 "a control-bit value (a whole number below 2^64)",
					 &c->value)) < 0)
					return rc;
				if ((rc = next(lx)) < 0)
					return rc;
			}
			if (is_punct(lx, ',')) {
				if ((rc = next(lx)) < 0)
					return rc;
				continue;
			}
			break;
		}
		if ((rc = expect(lx, '}')) < 0)
			return rc;
	}
	*out = r;
	return 0;
}

static int parse_primary(struct lexer *lx, struct mx_node **out)
{
	int rc;
	if (lx->tok == T_NUM) {
		struct mx_node *n;
		NEW(n, lx, MX_NUM);
		n->num = lx->num;
		*out = n;
		rc = next(lx);
	} else if (is_punct(lx, '(')) {
		struct mx_node *g;
		NEW(g, lx, MX_WITH); /* a group: a with: without assignments */
		if ((rc = next(lx)) < 0 || (rc = parse_expr(lx, &g->a)) < 0 ||
		    (rc = expect(lx, ')')) < 0)
			return rc;
		*out = g;
	} else if (lx->tok == T_IDENT) {
		rc = parse_ref(lx, out);
	} else
		return lex_fail(lx, "a number, a name or '('");
	while (rc == 0 && lx->tok == T_IDENT && strcmp(lx->ident, "with") == 0)
		rc = parse_with(lx, out);
	return rc;
}

static int parse_unary(struct lexer *lx, struct mx_node **out)
{
	int rc;
	if (is_punct(lx, '-')) {
		struct mx_node *n;
		NEW(n, lx, MX_NEG);
		if ((rc = next(lx)) < 0 || (rc = parse_unary(lx, &n->a)) < 0)
			return rc;
		*out = n;
		return 0;
	}
	if ((rc = parse_primary(lx, out)) < 0)
		return rc;
	if (is_punct(lx, '^')) {
		struct mx_node *n;
		NEW(n, lx, MX_POW);
		n->a = *out;
		if ((rc = next(lx)) < 0 || (rc = parse_unary(lx, &n->b)) < 0)
			return rc;
		*out = n;
	}
	return 0;
}

static int parse_term(struct lexer *lx, struct mx_node **out)
{
	int rc = parse_unary(lx, out);
	while (rc == 0 && (is_punct(lx, '*') || is_punct(lx, '/'))) {
		struct mx_node *n;
		NEW(n, lx, is_punct(lx, '*') ? MX_MUL : MX_DIV);
		n->a = *out;
		if ((rc = next(lx)) < 0 || (rc = parse_unary(lx, &n->b)) < 0)
			return rc;
		*out = n;
	}
	return rc;
}

static int parse_expr(struct lexer *lx, struct mx_node **out)
{
	int rc = parse_term(lx, out);
	while (rc == 0 && (is_punct(lx, '+') || is_punct(lx, '-'))) {
		struct mx_node *n;
		NEW(n, lx, is_punct(lx, '+') ? MX_ADD : MX_SUB);
		n->a = *out;
		if ((rc = next(lx)) < 0 || (rc = parse_term(lx, &n->b)) < 0)
			return rc;
		*out = n;
	}
	return rc;
}

int mx_parse(struct mx_arena *arena, const char *text, const char *what, struct mx_node **out)
{
	struct lexer lx;
	struct mx_node *root = NULL;
	int rc;
	memset(&lx, 0, sizeof(lx));
	lx.text = text;
	lx.what = what;
	lx.arena = arena;
	if ((rc = next(&lx)) < 0 || (rc = parse_expr(&lx, &root)) < 0)
		return rc;
	if (lx.tok != T_END)
		return lex_fail(&lx, "an operator or the end of the formula");
	*out = root;
	return 0;
}

/* Evaluation. */

/* Without libm (PAPI links its static tools without -lm): the notation only
 * raises to whole powers (1024^3) and rounds to whole digits (ROUND(x, 0)). */
static double power(double a, double b)
{
	/* The range first: converting a double outside long long's range is
	 * undefined (C11 6.3.1.4); the test is false for NaN too. */
	if (!(b >= -64 && b <= 64) || b != (double)(long long)b)
		return NAN;
	double r = 1;
	for (long long i = 0; i < (b < 0 ? -(long long)b : (long long)b); i++)
		r *= a;
	return b < 0 ? 1 / r : r;
}

static double round_half_away(double x)
{
	if (!(x > -4503599627370496.0 && x < 4503599627370496.0)) /* 2^52: already whole, or NaN */
		return x;
	return (double)(long long)(x + (x >= 0 ? 0.5 : -0.5));
}

double mx_eval(const struct mx_node *n, const double *terms, const double *commons)
{
	double a, b;
	switch (n->kind) {
	case MX_NUM:
		return n->num;
	case MX_TERM:
		return terms[n->term];
	case MX_COMMON:
		return commons[n->common];
	case MX_WITH:
		return mx_eval(n->a, terms, commons);
	case MX_NEG:
		return -mx_eval(n->a, terms, commons);
	default:
		break;
	}
	if (n->kind == MX_REF)
		return NAN; /* unresolved: never evaluated by compile.c */
	a = mx_eval(n->a, terms, commons);
	b = mx_eval(n->b, terms, commons);
	switch (n->kind) {
	case MX_ADD:
		return a + b;
	case MX_SUB:
		return a - b;
	case MX_MUL:
		return a * b;
	case MX_DIV:
		return b == 0 ? NAN : a / b;
	case MX_POW:
		return power(a, b);
	case MX_ROUND: {
		double scale = power(10, b);
		return round_half_away(a * scale) / scale;
	}
	default:
		return NAN;
	}
}

/* Whether a tree has no counted or common term: a constant. */
static int constant(const struct mx_node *n)
{
	if (!n)
		return 1;
	if (n->kind == MX_TERM || n->kind == MX_COMMON || n->kind == MX_REF)
		return 0;
	return constant(n->a) && constant(n->b);
}

static int emit(struct mx_prog *p, struct mx_op op)
{
	if (p->n >= MX_PROG_MAX)
		return -1;
	p->op[p->n++] = op;
	return 0;
}

int mx_compile(const struct mx_node *n, struct mx_prog *p)
{
	static const unsigned char binop[] = {
	    [MX_ADD] = MX_OP_ADD, [MX_SUB] = MX_OP_SUB,	 [MX_MUL] = MX_OP_MUL,
	    [MX_DIV] = MX_OP_DIV, [MX_POW] = MX_OP_POW, [MX_ROUND] = MX_OP_ROUND};
	if (constant(n))
		return emit(p, (struct mx_op){.code = MX_OP_NUM, .num = mx_eval(n, NULL, NULL)});
	switch (n->kind) {
	case MX_TERM:
		return emit(p, (struct mx_op){.code = MX_OP_TERM, .index = n->term});
	case MX_COMMON:
		return emit(p, (struct mx_op){.code = MX_OP_COMMON, .index = n->common});
	case MX_WITH:
		return mx_compile(n->a, p);
	case MX_NEG:
		return mx_compile(n->a, p) < 0 ? -1 : emit(p, (struct mx_op){.code = MX_OP_NEG});
	case MX_ADD:
	case MX_SUB:
	case MX_MUL:
	case MX_DIV:
	case MX_POW:
	case MX_ROUND:
		if (mx_compile(n->a, p) < 0 || mx_compile(n->b, p) < 0)
			return -1;
		return emit(p, (struct mx_op){.code = binop[n->kind]});
	default:
		return -1; /* unresolved */
	}
}

double mx_run(const struct mx_prog *p, const double *terms, const double *commons)
{
	double st[MX_PROG_MAX];
	unsigned sp = 0;
	for (const struct mx_op *o = p->op, *end = o + p->n; o < end; o++) {
		double b;
		switch (o->code) {
		case MX_OP_NUM:
			st[sp++] = o->num;
			continue;
		case MX_OP_TERM:
			st[sp++] = terms[o->index];
			continue;
		case MX_OP_COMMON:
			st[sp++] = commons[o->index];
			continue;
		case MX_OP_NEG:
			st[sp - 1] = -st[sp - 1];
			continue;
		default:
			break;
		}
		b = st[--sp];
		double *a = &st[sp - 1];
		switch (o->code) {
		case MX_OP_ADD:
			*a += b;
			break;
		case MX_OP_SUB:
			*a -= b;
			break;
		case MX_OP_MUL:
			*a *= b;
			break;
		case MX_OP_DIV:
			*a = b == 0 ? NAN : *a / b;
			break;
		case MX_OP_POW:
			*a = power(*a, b);
			break;
		default: {
			double scale = power(10, b);
			*a = round_half_away(*a * scale) / scale;
			break;
		}
		}
	}
	return sp == 1 ? st[0] : NAN;
}

enum mx_linearity mx_linearity(const struct mx_node *n, unsigned varying)
{
	enum mx_linearity a, b;
	switch (n->kind) {
	case MX_NUM:
		return MX_LIN_CONST;
	case MX_TERM:
		return MX_LIN_COUNTS;
	case MX_COMMON:
		return n->common >= 0 && n->common < 32 && (varying >> n->common) & 1
			   ? MX_LIN_TIME
			   : MX_LIN_CONST;
	case MX_WITH:
	case MX_NEG:
		return mx_linearity(n->a, varying);
	case MX_ADD:
	case MX_SUB:
		a = mx_linearity(n->a, varying);
		b = mx_linearity(n->b, varying);
		return a == b ? a : MX_LIN_OTHER; /* counts + a constant is no amount */
	case MX_MUL:
		a = mx_linearity(n->a, varying);
		b = mx_linearity(n->b, varying);
		if (a != MX_LIN_CONST && b != MX_LIN_CONST)
			return MX_LIN_OTHER;
		return a == MX_LIN_CONST ? b : a;
	case MX_DIV:
		a = mx_linearity(n->a, varying);
		b = mx_linearity(n->b, varying);
		return b == MX_LIN_CONST && a != MX_LIN_OTHER ? a : MX_LIN_OTHER;
	case MX_POW:
	case MX_ROUND:
		a = mx_linearity(n->a, varying);
		b = mx_linearity(n->b, varying);
		return a == MX_LIN_CONST && b == MX_LIN_CONST ? MX_LIN_CONST : MX_LIN_OTHER;
	default:
		return MX_LIN_OTHER; /* unresolved */
	}
}

int mx_contains(const struct mx_node *n, enum mx_kind k)
{
	if (!n)
		return 0;
	return n->kind == k || mx_contains(n->a, k) || mx_contains(n->b, k);
}

/* Binding (mx_bind): the operands as the program's stack would hold them,
 * each a constant (value known), an operand not yet loaded (a pointer), or
 * an intermediate result (in the accumulator or on the run's stack). */
struct bitem {
	int kind; /* 0 constant, 1 operand, 2 result */
	double v;
	const double *x;
};

static double apply(unsigned char code, double a, double b)
{
	switch (code) {
	case MX_OP_ADD:
		return a + b;
	case MX_OP_SUB:
		return a - b;
	case MX_OP_MUL:
		return a * b;
	case MX_OP_DIV:
		return b == 0 ? NAN : a / b;
	case MX_OP_POW:
		return power(a, b);
	default: {
		double scale = power(10, b);
		return round_half_away(a * scale) / scale;
	}
	}
}

static int femit(struct mx_fprog *f, unsigned char code, const double *x)
{
	if (f->n >= MX_PROG_MAX)
		return -1;
	f->op[f->n].code = code;
	f->op[f->n].x = x;
	f->n++;
	return 0;
}

/* The operand of item `it` as a pointer: a constant goes into f->num. */
static const double *operand(struct mx_fprog *f, unsigned *nnum, const struct bitem *it)
{
	if (it->kind == 1)
		return it->x;
	if (*nnum >= MX_PROG_MAX)
		return NULL;
	f->num[*nnum] = it->v;
	return &f->num[(*nnum)++];
}

/* Bring item `it` into the accumulator (the one below, if any, pushed). */
static int materialize(struct mx_fprog *f, unsigned *nnum, struct bitem *it, int acc_live)
{
	const double *x = operand(f, nnum, it);
	if (!x || femit(f, acc_live ? MX_F_PUSH : MX_F_LOAD, x) < 0)
		return -1;
	it->kind = 2;
	return 0;
}

int mx_bind(const struct mx_prog *p, const double *terms, const double *commons, unsigned known,
	    const double *known_values, struct mx_fprog *f)
{
	struct bitem st[MX_PROG_MAX];
	unsigned sp = 0, nnum = 0, results = 0;
	f->n = 0;
	for (unsigned i = 0; i < p->n; i++) {
		const struct mx_op *o = &p->op[i];
		struct bitem *a, *b;
		switch (o->code) {
		case MX_OP_NUM:
			st[sp++] = (struct bitem){0, o->num, NULL};
			continue;
		case MX_OP_TERM:
			st[sp++] = (struct bitem){1, 0, &terms[o->index]};
			continue;
		case MX_OP_COMMON:
			if (o->index >= 0 && o->index < 32 && (known >> o->index & 1))
				st[sp++] = (struct bitem){0, known_values[o->index], NULL};
			else
				st[sp++] = (struct bitem){1, 0, &commons[o->index]};
			continue;
		case MX_OP_NEG:
			a = &st[sp - 1];
			if (a->kind == 0) {
				a->v = -a->v;
				continue;
			}
			if (a->kind == 1) {
				if (materialize(f, &nnum, a, results > 0) < 0)
					goto fail;
				results++;
			}
			if (femit(f, MX_F_NEG, NULL) < 0)
				goto fail;
			continue;
		default:
			break;
		}
		if (sp < 2)
			goto fail;
		b = &st[--sp];
		a = &st[sp - 1];
		/* MX_OP_ADD .. MX_OP_ROUND in order, as the three forms are. */
		unsigned k = (unsigned)(o->code - MX_OP_ADD);
		if (a->kind == 0 && b->kind == 0) {
			a->v = apply(o->code, a->v, b->v);
			continue;
		}
		if (a->kind != 2 && b->kind != 2) {
			if (materialize(f, &nnum, a, results > 0) < 0)
				goto fail;
			results++;
		}
		if (a->kind == 2 && b->kind == 2) {
			if (femit(f, (unsigned char)(MX_F_ADDP + k), NULL) < 0)
				goto fail;
			results--;
		} else if (a->kind == 2) {
			const double *x = operand(f, &nnum, b);
			if (!x || femit(f, (unsigned char)(MX_F_ADD + k), x) < 0)
				goto fail;
		} else {
			/* acc = a op acc: commutative operations need no form of
			 * their own (IEEE sums and products do not depend on the
			 * order of their operands). */
			static const unsigned char rev[] = {MX_F_ADD,  MX_F_RSUB, MX_F_MUL,
							    MX_F_RDIV, MX_F_RPOW, MX_F_RROUND};
			const double *x = operand(f, &nnum, a);
			if (!x || k >= sizeof(rev) || femit(f, rev[k], x) < 0)
				goto fail;
		}
		a->kind = 2;
	}
	if (sp != 1)
		goto fail;
	if (st[0].kind != 2 && materialize(f, &nnum, &st[0], 0) < 0)
		goto fail;
	return 0;
fail:
	f->n = 0;
	return -1;
}

double mx_frun(const struct mx_fprog *f)
{
	double st[MX_PROG_MAX], acc = 0;
	unsigned sp = 0;
	for (const struct mx_fop *o = f->op, *end = o + f->n; o < end; o++) {
		switch (o->code) {
		case MX_F_LOAD:
			acc = *o->x;
			break;
		case MX_F_PUSH:
			st[sp++] = acc;
			acc = *o->x;
			break;
		case MX_F_NEG:
			acc = -acc;
			break;
		case MX_F_ADD:
			acc += *o->x;
			break;
		case MX_F_SUB:
			acc -= *o->x;
			break;
		case MX_F_MUL:
			acc *= *o->x;
			break;
		case MX_F_DIV:
			acc = *o->x == 0 ? NAN : acc / *o->x;
			break;
		case MX_F_RSUB:
			acc = *o->x - acc;
			break;
		case MX_F_RDIV:
			acc = acc == 0 ? NAN : *o->x / acc;
			break;
		case MX_F_ADDP:
			acc = st[--sp] + acc;
			break;
		case MX_F_SUBP:
			acc = st[--sp] - acc;
			break;
		case MX_F_MULP:
			acc = st[--sp] * acc;
			break;
		case MX_F_DIVP:
			sp--;
			acc = acc == 0 ? NAN : st[sp] / acc;
			break;
		case MX_F_POW:
		case MX_F_ROUND:
			acc = apply((unsigned char)(MX_OP_ADD + (o->code - MX_F_ADD)), acc, *o->x);
			break;
		case MX_F_RPOW:
			acc = apply(MX_OP_POW, *o->x, acc);
			break;
		case MX_F_RROUND:
			acc = apply(MX_OP_ROUND, *o->x, acc);
			break;
		default: /* MX_F_POWP, MX_F_ROUNDP */
			sp--;
			acc = apply((unsigned char)(MX_OP_ADD + (o->code - MX_F_ADDP)), st[sp], acc);
			break;
		}
	}
	return acc;
}

