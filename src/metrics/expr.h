/* The manual's derived-event notation (HSX PMON 1.7) as expression trees:
 *
 *   EVENT[.SUBEVENT[.SUB2]][{ctrl[=value],...}]      a counted event
 *   BOX:EVENT.SUBEVENT                                an event of another box (1.7.1:
 * IMC:CAS_COUNT.RD) expr with:REG.field=value                         filter settings for the
 * events of expr with:REG.{f1,f2}={v1,v2}   with:{REG.f=v, ...}    several fields
 *   with:REG[hi:lo]=value      with:REG{[hi:lo],f}={v1,v2}   bit ranges (QPI match/mask)
 *   + - * / ^ ( ) numbers (0x1C00, 64, 1024^3), ROUND(x, digits)
 *
 * Parsing builds the tree only; names are resolved against a machine by
 * metrics/compile.c, which turns references into terms or common terms. */
#ifndef UNCORE_METRICS_EXPR_H
#define UNCORE_METRICS_EXPR_H

#include <stddef.h>
#include <stdint.h>

enum mx_kind {
	MX_NUM,
	MX_ADD,
	MX_SUB,
	MX_MUL,
	MX_DIV,
	MX_POW,
	MX_NEG,
	MX_ROUND,  /* a rounded to b decimal digits */
	MX_REF,    /* a name, unresolved */
	MX_WITH,   /* a with: the assignments apply to the events of a; no assignments: a group */
	MX_TERM,   /* resolved: a counted term */
	MX_COMMON, /* resolved: a common term (1.7.1), by id */
};

#define MX_MAX_CTRLS 4
#define MX_NAME_LEN  96 /* every name: the lexer's limit */

struct mx_assign {
	char reg[MX_NAME_LEN];   /* register as written: "Cn_MSR_PMON_BOX_FILTER1" */
	char field[MX_NAME_LEN]; /* field name, or "" for a bit range */
	int hi, lo;              /* bit range when field is "" */
	uint64_t value;
	char symbol[MX_NAME_LEN]; /* symbolic value (my_node, other_nodes), or "" */
};

struct mx_ctrl {
	char name[MX_NAME_LEN];
	uint64_t value;
};

struct mx_node {
	enum mx_kind kind;
	double num;
	struct mx_node *a, *b;
	/* MX_REF */
	char box[MX_NAME_LEN];  /* "IMC" in IMC:CAS_COUNT.RD, or "" */
	char name[MX_NAME_LEN]; /* "CAS_COUNT" */
	char sub[MX_NAME_LEN];  /* "RD" ("FULL_CH0" for FULL.CH0), or "" */
	unsigned nctrls;
	struct mx_ctrl ctrls[MX_MAX_CTRLS];
	unsigned pos; /* offset in the text, for messages */
	/* MX_WITH */
	unsigned nassigns;
	struct mx_assign *assigns;
	/* resolved */
	int term;   /* MX_TERM */
	int common; /* MX_COMMON */
};

struct mx_arena;

int mx_arena_create(struct mx_arena **out);
void mx_arena_destroy(struct mx_arena *a);
void *mx_alloc(struct mx_arena *a, size_t size); /* zeroed; NULL when out of memory */

/* Parse `text` into a tree allocated in `arena`.  0, or UNCORE_ESYNTAX with
 * the position and what was expected in the detail (`what` names the
 * metric for the message). */
int mx_parse(struct mx_arena *arena, const char *text, const char *what, struct mx_node **out);

/* Value of a resolved tree.  Division by zero and other undefined results
 * give NaN. */
double mx_eval(const struct mx_node *n, const double *terms, const double *commons);

/* A tree compiled for the read path (src/metrics/README.md, "Compiled
 * metrics"): the same arithmetic as mx_eval, flat, in postfix order, its
 * constant parts folded, run in one pass over a small stack (no recursion,
 * no allocation). */
enum mx_opcode { MX_OP_NUM, MX_OP_TERM, MX_OP_COMMON, MX_OP_NEG, MX_OP_ADD, MX_OP_SUB,
		 MX_OP_MUL, MX_OP_DIV, MX_OP_POW, MX_OP_ROUND };
struct mx_op {
	unsigned char code;
	int index;  /* MX_OP_TERM, MX_OP_COMMON */
	double num; /* MX_OP_NUM */
};
#define MX_PROG_MAX 64 /* operations; a deeper or longer tree stays with mx_eval */
struct mx_prog {
	unsigned n;
	struct mx_op op[MX_PROG_MAX];
};

/* Compile a resolved tree: 0, or -1 when it does not fit (then mx_eval). */
int mx_compile(const struct mx_node *n, struct mx_prog *out);
double mx_run(const struct mx_prog *p, const double *terms, const double *commons);

/* A program bound to its operands (src/metrics/README.md, "Compiled
 * metrics"): the same arithmetic in the same order as mx_run, bit for
 * bit, on an accumulator, each operation taking its right operand straight
 * from where it lives (a term, a common, a constant) and the commons known
 * when binding (the TSC's MHz) folded with the constants around them.
 * Bound once per event set and clock, run at every read: one dispatch per
 * operation, no stack for operands that are not intermediate results. */
enum mx_fcode {
	MX_F_LOAD, MX_F_PUSH, MX_F_NEG,
	MX_F_ADD, MX_F_SUB, MX_F_MUL, MX_F_DIV, MX_F_POW, MX_F_ROUND,       /* acc = acc op x */
	MX_F_RSUB, MX_F_RDIV, MX_F_RPOW, MX_F_RROUND,                        /* acc = x op acc */
	MX_F_ADDP, MX_F_SUBP, MX_F_MULP, MX_F_DIVP, MX_F_POWP, MX_F_ROUNDP, /* acc = pop op acc */
};
struct mx_fop {
	unsigned char code;
	const double *x; /* the operand (LOAD, PUSH, the acc op x forms) */
};
struct mx_fprog {
	unsigned n; /* 0: not bound (mx_run instead) */
	struct mx_fop op[MX_PROG_MAX];
	double num[MX_PROG_MAX]; /* the constants the operations point at */
};

/* Bind program p: its terms are terms[index], its commons commons[index],
 * except those whose bit is set in `known`, which are known[index] now.
 * `out` must stay where it is (its operations point into it).  0, or -1
 * when p does not fit (then mx_run). */
int mx_bind(const struct mx_prog *p, const double *terms, const double *commons, unsigned known,
	    const double *known_values, struct mx_fprog *out);
double mx_frun(const struct mx_fprog *f);

/* A tree folded algebraically (src/metrics/README.md, "Folding"): its
 * value as k * (terms[term[0]] + ... + terms[term[n-1]]), divided by
 * commons[per] when per >= 0 (NaN when that is 0, as the tree gives).
 * Every constant factor and divisor, the commons known at folding (the
 * TSC's MHz) among them, combined into k; a sum of terms each times the
 * same constant summed first.  Within 1e-12 (relative) of mx_eval's value
 * for counts (terms >= 0), not bit for bit: the exact tree stays with
 * mx_eval, mx_run and mx_frun. */
#define MX_LINEAR_MAX 16
struct mx_linear {
	unsigned n; /* terms summed (one may repeat); 0: not folded */
	int term[MX_LINEAR_MAX];
	int per; /* the common divided by, or -1 */
	double k;
};

/* Fold a resolved tree, commons whose bit is set in `known` being
 * known_values[index]: 0, or -1 when it has no such form (a difference, a
 * power, a term or a sum of other constants in a divisor, a constant 0 or
 * not finite anywhere, a common in a divisor that does not end up the
 * one divisor: every case where the folded value could leave the tree's
 * class of result, NaN, infinite or 0). */
int mx_fold_linear(const struct mx_node *n, unsigned known, const double *known_values,
		   struct mx_linear *out);

/* A folded tree's value on exact counts: the terms' values are
 * counts[i] - from[i] (from NULL: counts[i]), summed as integers (exact,
 * modulo 2^64), converted once; `per` is commons[l->per]. */
static inline uint64_t mx_linear_sum(const struct mx_linear *l, const uint64_t *counts)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < l->n; i++)
		sum += counts[l->term[i]];
	return sum;
}

static inline double mx_linear_value(const struct mx_linear *l, uint64_t sum, double per)
{
	double v = (double)sum * l->k;
	if (l->per < 0)
		return v;
	return per == 0 ? __builtin_nan("") : v / per;
}

static inline double mx_linear_counts(const struct mx_linear *l, const uint64_t *counts,
				      const uint64_t *from, double per)
{
	return mx_linear_value(l, mx_linear_sum(l, counts) - (from ? mx_linear_sum(l, from) : 0),
			       per);
}

/* How a resolved tree depends on its counted terms (MX_TERM):
 * MX_LIN_CONST, no term and no common whose bit is set in `varying` (bit i:
 * common i changes with the interval, as the elapsed time does);
 * MX_LIN_COUNTS, a sum of terms times constants (an amount: its value over
 * two intervals is the sum of its values over each); MX_LIN_TIME, the same
 * of varying commons alone (the elapsed time); MX_LIN_OTHER, anything else
 * (a rate, a ratio, a latency). */
enum mx_linearity { MX_LIN_CONST, MX_LIN_COUNTS, MX_LIN_TIME, MX_LIN_OTHER };
enum mx_linearity mx_linearity(const struct mx_node *n, unsigned varying);

/* Whether the tree (resolved or not) contains a node of kind `k`. */
int mx_contains(const struct mx_node *n, enum mx_kind k);

#endif
