/* Folding a resolved formula algebraically (expr.h, mx_fold_linear;
 * src/metrics/README.md, "Folding"): one sum of terms, one constant, one
 * divisor at most, within 1e-12 of the tree, the tree's class of result
 * kept. */
#include "metrics/expr.h"

#include <math.h> /* isfinite only: no libm functions */
#include <string.h>

/* Folding (mx_fold_linear): a subtree as k * S^es * C^ec, S the sum of
 * `term`, C the common `per`; per_div: C stood in a divisor somewhere, so
 * that the tree gives NaN when it is 0. */
struct lin {
	double k;
	int es, ec, per, per_div;
	unsigned n;
	int term[MX_LINEAR_MAX];
};

/* A constant factor folds only when it is finite and not 0: a 0 or an
 * infinity would decide the tree's class of result (0 * x, x / 0). */
static int lin_const(double v, struct lin *out)
{
	if (!isfinite(v) || v == 0)
		return -1;
	memset(out, 0, sizeof(*out));
	out->k = v;
	out->per = -1;
	return 0;
}

static int lin_fold(const struct mx_node *n, unsigned known, const double *kv, struct lin *out)
{
	struct lin a, b;
	if (!mx_contains(n, MX_TERM) && !mx_contains(n, MX_COMMON) && !mx_contains(n, MX_REF))
		return lin_const(mx_eval(n, NULL, NULL), out); /* a constant subtree */
	switch (n->kind) {
	case MX_TERM:
		if (lin_const(1, out) < 0)
			return -1;
		out->es = 1;
		out->n = 1;
		out->term[0] = n->term;
		return 0;
	case MX_COMMON:
		if (n->common >= 0 && n->common < 32 && (known >> n->common & 1))
			return lin_const(kv[n->common], out);
		if (lin_const(1, out) < 0)
			return -1;
		out->ec = 1;
		out->per = n->common;
		return 0;
	case MX_WITH:
		return lin_fold(n->a, known, kv, out);
	case MX_ADD:
	case MX_MUL:
	case MX_DIV:
		break;
	default:
		return -1; /* a difference, a negation, a power, ROUND: kept as the tree */
	}
	if (lin_fold(n->a, known, kv, &a) < 0 || lin_fold(n->b, known, kv, &b) < 0)
		return -1;
	if (a.per >= 0 && b.per >= 0 && a.per != b.per)
		return -1;
	*out = a;
	out->per = a.per >= 0 ? a.per : b.per;
	out->per_div = a.per_div || b.per_div;
	if (n->kind == MX_ADD) {
		/* k*S1 + k*S2 = k*(S1 + S2): the same factor, the same divisor. */
		if (a.es != 1 || b.es != 1 || a.k != b.k || a.ec != b.ec || a.per != b.per ||
		    a.per_div != b.per_div || a.n + b.n > MX_LINEAR_MAX)
			return -1;
		memcpy(&out->term[a.n], b.term, b.n * sizeof(b.term[0]));
		out->n = a.n + b.n;
		return 0;
	}
	if (n->kind == MX_MUL) {
		if (a.es + b.es > 1)
			return -1;
		out->k = a.k * b.k;
		out->ec = a.ec + b.ec;
		if (b.es) {
			out->es = 1;
			out->n = b.n;
			memcpy(out->term, b.term, b.n * sizeof(b.term[0]));
		}
	} else {
		if (b.es) /* a term in a divisor */
			return -1;
		out->k = a.k / b.k;
		out->ec = a.ec - b.ec;
		out->per_div |= b.per >= 0;
	}
	return isfinite(out->k) && out->k != 0 ? 0 : -1;
}

int mx_fold_linear(const struct mx_node *n, unsigned known, const double *known_values,
		   struct mx_linear *out)
{
	struct lin l;
	memset(out, 0, sizeof(*out));
	out->per = -1;
	if (lin_fold(n, known, known_values, &l) < 0 || l.es != 1 || l.n == 0)
		return -1;
	/* Divided by the common once, or not at all and never (else the
	 * tree's NaN when it is 0 would be lost). */
	if (!(l.ec == -1 || (l.ec == 0 && !l.per_div)))
		return -1;
	out->n = l.n;
	memcpy(out->term, l.term, l.n * sizeof(l.term[0]));
	out->per = l.ec == -1 ? l.per : -1;
	out->k = l.k;
	return 0;
}
