/* The derived-event notation of HSX 1.7: every form the manuals use parses
 * into the expected tree, bad text is refused with the position, and
 * evaluation follows arithmetic (precedence, power, ROUND, NaN on x/0). */
#include "common/uncore_error.h"
#include "harness.h"
#include "metrics/expr.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Evaluate a formula made only of numbers. */
static double value_of(const char *text)
{
	struct mx_arena *a;
	struct mx_node *n;
	double v = -12345;
	if (mx_arena_create(&a) < 0)
		return v;
	if (mx_parse(a, text, "test", &n) == 0)
		v = mx_eval(n, NULL, NULL);
	mx_arena_destroy(a);
	return v;
}

TEST(arithmetic)
{
	CHECK_NEAR(value_of("1 + 2 * 3"), 7, 0);
	/* a*b+c and a/b-c: a product or quotient, then the sum (precedence
	 * on both sides of the sum's operator). */
	CHECK_NEAR(value_of("2 * 3 + 4"), 10, 0);
	CHECK_NEAR(value_of("8 / 2 - 1"), 3, 0);
	CHECK_NEAR(value_of("2 * 3 + 4 * 5"), 26, 0);
	CHECK_NEAR(value_of("(1 + 2) * 3"), 9, 0);
	CHECK_NEAR(value_of("1024^3"), 1073741824.0, 0);
	CHECK_NEAR(value_of("2 * 3^2"), 18, 0);
	CHECK_NEAR(value_of("8 / 1000"), 0.008, 1e-18);
	CHECK_NEAR(value_of("10 - 4 - 3"), 3, 0);
	CHECK_NEAR(value_of("-2 * -3"), 6, 0);
	CHECK_NEAR(value_of("0x1C00 + 0"), 7168, 0);
	CHECK_NEAR(value_of("ROUND (1199.6, 0) * (8 / 1000)"), 9.6, 1e-12);
	CHECK_NEAR(value_of("ROUND(2.345, 2)"), 2.35, 1e-12);
	CHECK(isnan(value_of("1 / 0")));
	CHECK(isnan(value_of("0 / (3 - 3)")));
	/* Exponents beyond long long's range, or not whole, give NaN without
	 * converting them first (undefined behaviour the sanitizer run traps). */
	CHECK(isnan(value_of("2 ^ 1e300")));
	CHECK(isnan(value_of("2 ^ -1e300")));
	CHECK(isnan(value_of("2 ^ 0.5")));
	CHECK(isnan(value_of("ROUND(2.5, 1e300)")));
	CHECK_NEAR(value_of("2 ^ -2"), 0.25, 0);
	CHECK_NEAR(value_of("1e300 * 2"), 2e300, 1e285);
}

/* One parsed formula and a look at its nodes. */
struct parsed {
	struct mx_arena *a;
	struct mx_node *root;
	int rc;
};

static struct parsed parse(const char *text)
{
	struct parsed p = {0};
	mx_arena_create(&p.a);
	p.rc = p.a ? mx_parse(p.a, text, "test", &p.root) : -1;
	return p;
}

static const struct mx_node *find_ref(const struct mx_node *n, unsigned nth, unsigned *seen)
{
	if (!n)
		return NULL;
	if (n->kind == MX_REF && (*seen)++ == nth)
		return n;
	const struct mx_node *r = find_ref(n->a, nth, seen);
	return r ? r : find_ref(n->b, nth, seen);
}

static const struct mx_node *ref(const struct parsed *p, unsigned nth)
{
	unsigned seen = 0;
	return find_ref(p->root, nth, &seen);
}

TEST(event_subevent_and_control_bits)
{
	struct parsed p = parse("RxR_OCCUPANCY.IRQ / COUNTER0_OCCUPANCY{edge_det,thresh=0x1}");
	CHECK_EQ_INT(p.rc, 0);
	const struct mx_node *a = ref(&p, 0), *b = ref(&p, 1);
	CHECK(a && b);
	if (a && b) {
		CHECK_EQ_STR(a->name, "RxR_OCCUPANCY");
		CHECK_EQ_STR(a->sub, "IRQ");
		CHECK_EQ_STR(b->name, "COUNTER0_OCCUPANCY");
		CHECK_EQ_INT(b->nctrls, 2);
		CHECK_EQ_STR(b->ctrls[0].name, "edge_det");
		CHECK_EQ_U64(b->ctrls[0].value, 1); /* 1.7: no value means 1 */
		CHECK_EQ_STR(b->ctrls[1].name, "thresh");
		CHECK_EQ_U64(b->ctrls[1].value, 1);
	}
	mx_arena_destroy(p.a);
}

TEST(box_prefix_and_two_level_subevents)
{
	struct parsed p = parse("IMC:CAS_COUNT.RD * 64 + 64*UNC_IMC_WRITES.FULL.CH0");
	CHECK_EQ_INT(p.rc, 0);
	const struct mx_node *a = ref(&p, 0), *b = ref(&p, 1);
	CHECK(a && b);
	if (a && b) {
		CHECK_EQ_STR(a->box, "IMC");
		CHECK_EQ_STR(a->name, "CAS_COUNT");
		CHECK_EQ_STR(a->sub, "RD");
		CHECK_EQ_STR(b->sub, "FULL_CH0");
	}
	mx_arena_destroy(p.a);
}

TEST(with_forms)
{
	/* Single field, field list, brace list, bit ranges, range-and-field list. */
	struct parsed p = parse("(TOR_OCCUPANCY.MISS_OPCODE / TOR_INSERTS.MISS_OPCODE) "
				"with:Cn_MSR_PMON_BOX_FILTER1.{opc,nid}={0x182,my_node}");
	CHECK_EQ_INT(p.rc, 0);
	if (p.rc == 0) {
		CHECK_EQ_INT(p.root->kind, MX_WITH);
		CHECK_EQ_INT(p.root->nassigns, 2);
		CHECK_EQ_STR(p.root->assigns[0].reg, "Cn_MSR_PMON_BOX_FILTER1");
		CHECK_EQ_STR(p.root->assigns[0].field, "opc");
		CHECK_EQ_U64(p.root->assigns[0].value, 0x182);
		CHECK_EQ_STR(p.root->assigns[1].field, "nid");
		CHECK_EQ_STR(p.root->assigns[1].symbol, "my_node");
	}
	mx_arena_destroy(p.a);

	p = parse("TOR_INSERTS.OPCODE with:{Cn_MSR_PMON_BOX_FILTER0.tid=0x3E, "
		  "Cn_MSR_PMON_BOX_FILTER1.opc=0x1C8}"
		  " + TOR_INSERTS.OPCODE with:Cn_MSR_PMON_BOX_FILTER.opc=0x1E6");
	CHECK_EQ_INT(p.rc, 0);
	if (p.rc == 0) {
		CHECK_EQ_INT(p.root->kind, MX_ADD);
		CHECK_EQ_INT(p.root->a->kind, MX_WITH);
		CHECK_EQ_INT(p.root->a->nassigns, 2);
		CHECK_EQ_INT(p.root->b->kind, MX_WITH);
		CHECK_EQ_STR(p.root->b->assigns[0].reg, "Cn_MSR_PMON_BOX_FILTER");
	}
	mx_arena_destroy(p.a);

	p = parse("(CTO_COUNT with:{Q_Py_PCI_PMON_PKT_z_MATCH0{[12:0],dnid}={0x1C00,3}, "
		  "Q_Py_PCI_PMON_PKT_z_MASK0[17:0]=0x3FF80}) * 64");
	CHECK_EQ_INT(p.rc, 0);
	if (p.rc == 0) {
		const struct mx_node *w = p.root->a->a; /* group -> with */
		CHECK_EQ_INT(w->kind, MX_WITH);
		CHECK_EQ_INT(w->nassigns, 3);
		CHECK_EQ_STR(w->assigns[0].field, "");
		CHECK_EQ_INT(w->assigns[0].hi, 12);
		CHECK_EQ_INT(w->assigns[0].lo, 0);
		CHECK_EQ_U64(w->assigns[0].value, 0x1C00);
		CHECK_EQ_STR(w->assigns[1].field, "dnid");
		CHECK_EQ_U64(w->assigns[1].value, 3);
		CHECK_EQ_STR(w->assigns[2].reg, "Q_Py_PCI_PMON_PKT_z_MASK0");
		CHECK_EQ_INT(w->assigns[2].hi, 17);
		CHECK_EQ_INT(w->assigns[2].lo, 0);
	}
	mx_arena_destroy(p.a);
}

/* The manual's damaged texts fail with a position, as they must (the
 * metric files then carry a fix line). */
#define FOUR(x)    x x x x
#define SIXTEEN(x) FOUR(FOUR(x))

static const struct {
	const char *text;
	const char *detail;
} bad[] = {
    {"(TOR_OCCUPANCY.MISS_OPCODE / COUNTERO_OCCUPANCY{edge_det,thresh=0x1})) with:X.opc=1",
     "end of the formula"},
    {"CTO_COUNT with:{A[12:0]=0x1C 00}", "'}'"},
    {"TOR_INSERTS.OPCODE with:{Cn_MSR_PMO N_BOX_FILTER1.opc=0x180}", "'.field'"},
    {"A + ", "a number, a name or '('"},
    {"A with:B[3:9]=1", "hi >= lo"},
    {"A $ B", "an operator"},
    {"0x1Cz", "a number"},
    /* Literals at or above 2^64 where a whole number is needed: refused,
     * never converted (that conversion is undefined behaviour). */
    {"A with:B[4294967296:0]=1", "a bit number (0 to 63)"},
    {"A with:B[99999999999999999999:0]=1", "a bit number (0 to 63)"},
    {"A with:B[3:1e300]=1", "a bit number (0 to 63)"},
    {"A with:B[3:0]=1e30", "a whole value below 2^64"},
    {"A with:B[3:0]=0x10000000000000000", "a whole value below 2^64"},
    {"A{thresh=1e300}", "a control-bit value"},
    {"A{thresh=2.5}", "a control-bit value"},
    /* Each place of the grammar that expects something names it. */
    {"A with:3=1", "a register name"},
    {"A with:B=1", "'.field', '[hi:lo]' or '{' after the register name"},
    {"A with:B.{f,3}={1,2}", "a field name or [hi:lo]"},
    {"CBO: + 1", "an event name after BOX:"},
    {"A. + 1", "a subevent name after '.'"},
    {"A.B. + 1", "a subevent name after '.'"},
    {"A{3}", "a control-bit name"},
    {"A{a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q}", "fewer control bits"},
    {"ROUND(A, 2", "')'"},
    /* A with: clause broken at each place: a bad token (9q, "a number"),
     * a missing part, or more than its 16 assignments. */
    {"A with 9q", "a number"},
    {"A with:B 9q", "a number"},
    {"A with:B.9q=1", "a number"},
    {"A with:B.f 9q", "a number"},
    {"A with:B.{f 9q", "a number"},
    {"A with:B.{f, 9q", "a number"},
    {"A with:{ 9q", "a number"},
    {"A with:{B.f=1, 9q", "a number"},
    {"A with:B.=1", "'{'"},
    {"A with:B{[x:0]}={1}", "a bit number (0 to 63)"},
    {"A with:B.{f}=1", "'{'"},
    {"A with:B.{f}={+}", "a value"},
    {"A with:B.{f,g}={1 2}", "','"},
    {"A with:{" SIXTEEN("B[1:0]=1,") "B[1:0]=1}", "fewer assignments"},
    {"A with:{" SIXTEEN("B.f=1,") "B.f=1}", "fewer assignments"},
    {"A with:B.{" SIXTEEN("f,") "f}={1}", "fewer assignments"},
};

TEST(damaged_texts_are_refused_with_the_place)
{
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char row[8];
		snprintf(row, sizeof(row), "%u", i);
		harness_row = row;
		struct parsed p = parse(bad[i].text);
		CHECK_EQ_INT(p.rc, UNCORE_ESYNTAX);
		CHECK_CONTAINS(uncore_error_detail(), bad[i].detail);
		CHECK_CONTAINS(uncore_error_detail(), "offset");
		mx_arena_destroy(p.a);
	}
	harness_row = NULL;
}

/* Every name of the tree becomes a counted term, numbered in order. */
static void as_terms(struct mx_node *n, int *next)
{
	if (!n)
		return;
	if (n->kind == MX_REF) {
		n->kind = MX_TERM;
		n->term = (*next)++;
		return;
	}
	as_terms(n->a, next);
	as_terms(n->b, next);
}

/* The read path's flat program (mx_compile, mx_run) gives mx_eval's value
 * bit for bit, for formulas of terms, constants and every operation;
 * the constant parts are folded into one number each. */
TEST(compiled_programs_give_the_tree_s_values)
{
	static const struct {
		const char *text;
		unsigned ops; /* operations after folding */
	} rows[] = {
	    {"(A + B) * 64 / 10^9", 7},
	    {"A / (B - C)", 5},
	    {"-A * 3 + 2 ^ 10", 6},
	    {"ROUND(A / B * 100, 2)", 7},
	    {"A ^ 2 - B", 5},
	    {"(A + B) / (C * (1024 * 1024 / 8))", 7},
	    {"A / (B - B)", 5},
	    {"C - (A + B) / (2 - C)", 9},
	    {"2 ^ C - ROUND(C / 3, A - 1.6e9) + -(A * B)", 16},
	    {"(A * 64 + B * 64) / ((C * 2300 / 1000) / (2300 * 1000000)) / 10^9", 17},
	};
	/* Values of the terms in the order they stand (as_terms numbers each
	 * occurrence: the longest row has 5). */
	static const double sets[][5] = {{1.6e9, 8e8, 3, 2.5, 1.6e9},
					 {0, 0, 0, 0, 0},
					 {-7.25, 3.5, 3.5, -7.25, 1e-3},
					 {1e300, 1e-300, 2, 1e300, 3}};
	for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct mx_arena *a;
		struct mx_node *n;
		struct mx_prog prog = {0};
		int next = 0;
		harness_row = rows[r].text;
		REQUIRE(mx_arena_create(&a) == 0);
		CHECK_EQ_INT(mx_parse(a, rows[r].text, "test", &n), 0);
		as_terms(n, &next);
		REQUIRE(next <= (int)(sizeof(sets[0]) / sizeof(sets[0][0])));
		CHECK_EQ_INT(mx_compile(n, &prog), 0);
		CHECK_EQ_INT((int)prog.n, (int)rows[r].ops);
		for (unsigned k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
			double t = mx_eval(n, sets[k], NULL), c = mx_run(&prog, sets[k], NULL);
			CHECK(memcmp(&t, &c, sizeof(t)) == 0 || (isnan(t) && isnan(c)));
			/* The program bound to the terms' places (mx_bind) too. */
			static struct mx_fprog f;
			CHECK_EQ_INT(mx_bind(&prog, sets[k], NULL, 0, NULL, &f), 0);
			double b = mx_frun(&f);
			CHECK(memcmp(&t, &b, sizeof(t)) == 0 || (isnan(t) && isnan(b)));
		}
		mx_arena_destroy(a);
	}
	harness_row = NULL;
}

/* Names whose first letter is C become commons (numbered in order), the
 * others terms: as the catalog resolves a formula's constants (TSC speed,
 * the elapsed time) and its counted events. */
static void as_terms_and_commons(struct mx_node *n, int *next_term, int *next_common)
{
	if (!n)
		return;
	if (n->kind == MX_REF) {
		if (n->name[0] == 'C') {
			n->kind = MX_COMMON;
			n->common = (*next_common)++;
		} else {
			n->kind = MX_TERM;
			n->term = (*next_term)++;
		}
		return;
	}
	as_terms_and_commons(n->a, next_term, next_common);
	as_terms_and_commons(n->b, next_term, next_common);
}

/* Commons known when a program is bound (mx_bind's `known`: the TSC speed
 * of a set's clock) are folded with each other and with the program's
 * numbers there, in the operands' order: the bound program gives the
 * tree's value bit for bit, a difference or a quotient of two of them
 * included. */
TEST(commons_known_at_bind_time_fold_in_order)
{
	static const char *rows[] = {
	    "A / (C1 - C2)", "A * (C1 / C2)", "(C1 - C2) * A", "C1 - C2 - A",
	    "A - (C1 - 1) ^ C2", "ROUND(C1 - C2 / 3, 2) + A",
	};
	const double terms[] = {6.4e10}, commons[] = {2.3e9, 5e8};
	for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct mx_arena *a;
		struct mx_node *n;
		struct mx_prog prog = {0};
		int nt = 0, nc = 0;
		harness_row = rows[r];
		REQUIRE(mx_arena_create(&a) == 0);
		CHECK_EQ_INT(mx_parse(a, rows[r], "test", &n), 0);
		as_terms_and_commons(n, &nt, &nc);
		CHECK_EQ_INT(nt, 1);
		CHECK_EQ_INT(nc, 2);
		CHECK_EQ_INT(mx_compile(n, &prog), 0);
		double t = mx_eval(n, terms, commons);
		static struct mx_fprog f;
		/* Both commons known: folded; none known: loaded at each run. */
		for (unsigned known = 0; known <= 3; known += 3) {
			CHECK_EQ_INT(mx_bind(&prog, terms, commons, known, commons, &f), 0);
			double b = mx_frun(&f);
			CHECK(memcmp(&t, &b, sizeof(t)) == 0);
		}
		mx_arena_destroy(a);
	}
	harness_row = NULL;
}

/* Folding (mx_fold_linear; src/metrics/README.md, "Folding"): constant
 * factors and divisors combined into one, a sum of terms times the same
 * constant summed first, divided by one common at most: within 1e-12 of
 * the tree, NaN where the tree divides by a zero time.  Everything else
 * (differences, powers, a term or a sum in a divisor, a constant 0, the
 * common cancelled or squared) is not folded: it stays bit for bit with
 * mx_run and mx_frun (above). */
/* Commons by name: C1 is common 0, C2 common 1, however often named. */
static void named_commons(struct mx_node *n)
{
	if (!n)
		return;
	if (n->kind == MX_COMMON)
		n->common = strcmp(n->name, "C2") == 0;
	named_commons(n->a);
	named_commons(n->b);
}

TEST(folding_combines_constants_and_keeps_the_class_of_result)
{
	static const struct {
		const char *text;
		int folds;
		unsigned n; /* terms summed */
		double k;
	} rows[] = {
	    {"(A * 64 + B * 64) / ((C1 * C2 / 1000) / (C2 * 1000000)) / 10^9", 1, 2, 64},
	    {"A * 64 / C1", 1, 1, 64},
	    {"(A + B + D) * 2 / 4", 1, 3, 0.5},
	    {"A / 8 * 1024 / (C1 / 1000)", 1, 1, 128000},
	    {"A * 64 + B * 32", 0, 0, 0},
	    {"A - B", 0, 0, 0},
	    {"A / B", 0, 0, 0},
	    {"-A", 0, 0, 0},
	    {"A ^ 2", 0, 0, 0},
	    {"A * 0 + B * 0", 0, 0, 0},
	    {"A / (C1 - C1)", 0, 0, 0},
	    {"A * C1 / C1", 0, 0, 0},
	    {"A / C1 / C1", 0, 0, 0},
	    {"A * C1", 0, 0, 0},
	    {"A + 5", 0, 0, 0},
	    {"A * 1e300 * 1e300", 0, 0, 0},
	};
	const double known[] = {0, 2300};
	for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct mx_arena *a;
		struct mx_node *n;
		struct mx_linear l;
		int nt = 0, nc = 0;
		harness_row = rows[r].text;
		REQUIRE(mx_arena_create(&a) == 0);
		CHECK_EQ_INT(mx_parse(a, rows[r].text, "test", &n), 0);
		as_terms_and_commons(n, &nt, &nc);
		named_commons(n);
		nc = mx_contains(n, MX_COMMON) && strstr(rows[r].text, "C1");
		/* C2 (common 1) known, as the TSC's MHz is. */
		int rc = mx_fold_linear(n, 2u, known, &l);
		CHECK_EQ_INT(rc, rows[r].folds ? 0 : -1);
		if (rc == 0) {
			CHECK_EQ_INT((int)l.n, (int)rows[r].n);
			CHECK_EQ_INT(l.per, nc ? 0 : -1);
			CHECK(fabs(l.k - rows[r].k) <= 1e-15 * rows[r].k);
			const uint64_t counts[] = {1600000000, 800000000, 12345};
			const double terms[] = {1.6e9, 8e8, 12345};
			for (unsigned z = 0; z < 2; z++) {
				double commons[] = {z ? 1e9 : 0, 2300};
				double t = mx_eval(n, terms, commons);
				double f = mx_linear_counts(&l, counts, NULL, commons[0]);
				if (nc && !z)
					CHECK(isnan(t) && isnan(f));
				else
					CHECK(fabs(f - t) <= 1e-12 * fabs(t));
			}
		} else {
			CHECK_EQ_INT((int)l.n, 0);
		}
		mx_arena_destroy(a);
	}
	harness_row = NULL;
}

int main(void)
{
	RUN(arithmetic);
	RUN(compiled_programs_give_the_tree_s_values);
	RUN(commons_known_at_bind_time_fold_in_order);
	RUN(folding_combines_constants_and_keeps_the_class_of_result);
	RUN(event_subevent_and_control_bits);
	RUN(box_prefix_and_two_level_subevents);
	RUN(with_forms);
	RUN(damaged_texts_are_refused_with_the_place);
	return harness_done();
}
