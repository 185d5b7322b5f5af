/* uncored's policy (service/policy.h): the file's grammar, bad lines named
 * by number with the offending token alone, and the decisions: first
 * matching rule, deny with its reason, raw encodings and thread filters
 * root's alone unless an allow names them, limits. */
#include "harness.h"
#include "common/uncore_error.h"
#include "service/policy.h"

#include <string.h>

static struct uncored_policy *parse(const char *text)
{
	struct uncored_policy *p = NULL;
	if (uncored_policy_parse(text, strlen(text), "t.pol", &p) < 0)
		return NULL;
	return p;
}

/* The error a text gets (the detail), or "" when it parses. */
static const char *error_of(const char *text)
{
	static char detail[1024];
	struct uncored_policy *p = NULL;
	detail[0] = '\0';
	if (uncored_policy_parse(text, strlen(text), "t.pol", &p) < 0)
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
	uncored_policy_free(p);
	return detail;
}

static const uint32_t g_user[] = {1000, 27};
static const struct uncored_who alice = {1000, 2, g_user};
static const uint32_t g_other[] = {1001};
static const struct uncored_who bob = {1001, 1, g_other};
static const uint32_t g_root[] = {0};
static const struct uncored_who root = {0, 1, g_root};

static struct uncored_what ev(const char *kind)
{
	return (struct uncored_what){kind, 0, NULL, 0, NULL};
}

TEST(bad_lines_named)
{
	CHECK_EQ_STR(error_of("# nothing\n\n   \t\nallow * *\n"), "");
	CHECK_EQ_STR(error_of("allow * *\nfrob * imc\n"),
		     "policy t.pol line 2: a rule starts with allow, deny or limit, not 'frob'");
	CHECK_CONTAINS(error_of("allow\n"), "line 1: who is missing after 'allow'");
	CHECK_CONTAINS(error_of("allow someone imc\n"), "line 1: who is '*'");
	CHECK_CONTAINS(error_of("allow user:no-such-user-here imc\n"),
		       "line 1: no such user: 'no-such-user-here'");
	CHECK_CONTAINS(error_of("allow *\n"), "line 1: box kinds");
	CHECK_CONTAINS(error_of("deny * imc,c;bo\n"), "line 1: a box kind is a name like imc, not 'c;bo'");
	CHECK_CONTAINS(error_of("deny * imc with\n"), "line 1: qualifiers are missing");
	CHECK_CONTAINS(error_of("allow * imc reason x\n"), "line 1: after the kinds comes");
	CHECK_CONTAINS(error_of("deny * imc reason\n"), "line 1: the text is missing");
	CHECK_CONTAINS(error_of("limit * events\n"), "line 1: a limit is a number");
	CHECK_CONTAINS(error_of("limit * sets 3\n"), "line 1: a limit is of events or clients, not 'sets'");
	CHECK_CONTAINS(error_of("limit * events 012x\n"), "'012x'");
	CHECK_CONTAINS(error_of("limit * events 4 5\n"), "nothing may follow");
	CHECK_CONTAINS(error_of("deny * pcu reason a\033[2Jb\n"), "line 1: a reason is printable ASCII (byte 2");
	/* Only the offending token, cut and escaped: the rest of the line (a
	 * secret in a file that is not a policy) never shows. */
	const char *e = error_of("allow * *\nSECRET_TOKEN_XYZ password=hunter2\n");
	CHECK_CONTAINS(e, "line 2");
	CHECK(strstr(e, "hunter2") == NULL);
	char longtok[300];
	memset(longtok, 'A', sizeof(longtok) - 1);
	longtok[sizeof(longtok) - 1] = '\0';
	e = error_of(longtok);
	CHECK(strlen(e) < 200);
	CHECK_CONTAINS(error_of("allow * imc\nallow * \x01\n"), "line 2: a box kind is a name like imc, not '\\x01'");
	const char nul[] = "allow * imc\0deny * *";
	struct uncored_policy *p = NULL;
	CHECK_EQ_INT(uncored_policy_parse(nul, sizeof(nul) - 1, "t.pol", &p), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "a NUL byte");
}

TEST(first_rule_decides_with_its_reason)
{
	struct uncored_policy *p = parse("allow user:1000 pcu   # alice may\n"
					 "deny * pcu reason power readings are for administrators\n"
					 "deny group:27 cbo\n"
					 "allow * *\n");
	REQUIRE(p != NULL);
	struct uncored_what pcu = ev("pcu"), cbo = ev("cbo"), imc = ev("imc");
	CHECK_EQ_INT(uncored_policy_check(p, &alice, &pcu), 0);
	CHECK_EQ_INT(uncored_policy_check(p, &bob, &pcu), UNCORE_EPERM);
	CHECK_EQ_STR(uncore_error_detail(),
		     "uncored policy (t.pol line 2): power readings are for administrators");
	CHECK_EQ_INT(uncored_policy_check(p, &alice, &cbo), UNCORE_EPERM); /* by group 27 */
	CHECK_EQ_STR(uncore_error_detail(), "uncored policy (t.pol line 3): user 1000 may not count cbo events");
	CHECK_EQ_INT(uncored_policy_check(p, &bob, &cbo), 0);
	CHECK_EQ_INT(uncored_policy_check(p, &bob, &imc), 0);
	CHECK_EQ_INT(uncored_policy_check(p, &root, &pcu), 0); /* root: never refused */
	uncored_policy_free(p);
	/* No rule matches: allowed (the default). */
	p = parse("deny user:1001 imc\n");
	REQUIRE(p != NULL);
	CHECK_EQ_INT(uncored_policy_check(p, &alice, &imc), 0);
	CHECK_EQ_INT(uncored_policy_check(p, &bob, &imc), UNCORE_EPERM);
	uncored_policy_free(p);
}

TEST(qualifiers)
{
	const char *m_t[] = {"t"}, *m_tf[] = {"tf"}, *m_nf[] = {"nf"};
	const uint8_t th[] = {1}, notth[] = {0};
	struct uncored_what thresh = {"cbo", 1, m_t, 0, notth};
	struct uncored_what tf = {"cbo", 1, m_tf, UNCORED_QUAL_THREAD, th};
	struct uncored_what nf = {"cbo", 1, m_nf, 0, notth};
	struct uncored_what raw = {"imc", 0, NULL, UNCORED_QUAL_RAW, NULL};
	struct uncored_what plain = ev("cbo");
	/* The default policy: thread filters and raw encodings root's alone. */
	CHECK_EQ_INT(uncored_policy_check(NULL, &alice, &plain), 0);
	CHECK_EQ_INT(uncored_policy_check(NULL, &alice, &thresh), 0);
	CHECK_EQ_INT(uncored_policy_check(NULL, &alice, &tf), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "the default policy): core or thread filters are root's alone");
	CHECK_EQ_INT(uncored_policy_check(NULL, &alice, &raw), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "raw encodings are root's alone");
	CHECK_CONTAINS(uncore_error_detail(), "'allow WHO imc with raw'");
	CHECK_EQ_INT(uncored_policy_check(NULL, &root, &tf), 0);
	CHECK_EQ_INT(uncored_policy_check(NULL, &root, &raw), 0);

	/* `allow * *` does not cover them; naming them does. */
	struct uncored_policy *p = parse("deny * cbo with nf reason no node filters here\n"
					 "allow * *\n"
					 "allow user:1000 cbo with tf\n"
					 "allow group:1001 * with raw,thread\n");
	REQUIRE(p != NULL);
	CHECK_EQ_INT(uncored_policy_check(p, &alice, &nf), UNCORE_EPERM);
	CHECK_CONTAINS(uncore_error_detail(), "line 1): no node filters here");
	CHECK_EQ_INT(uncored_policy_check(p, &alice, &thresh), 0);
	CHECK_EQ_INT(uncored_policy_check(p, &alice, &tf), 0);  /* line 3 names tf */
	CHECK_EQ_INT(uncored_policy_check(p, &alice, &raw), UNCORE_EPERM);
	CHECK_EQ_INT(uncored_policy_check(p, &bob, &raw), 0);   /* line 4 */
	CHECK_EQ_INT(uncored_policy_check(p, &bob, &tf), 0);
	uncored_policy_free(p);
	/* `with *`: any qualifier, but not raw or thread unless named. */
	p = parse("deny user:1000 * with * reason plain events only\nallow * * with *\n");
	REQUIRE(p != NULL);
	CHECK_EQ_INT(uncored_policy_check(p, &alice, &plain), 0);
	CHECK_EQ_INT(uncored_policy_check(p, &alice, &thresh), UNCORE_EPERM);
	CHECK_EQ_INT(uncored_policy_check(p, &bob, &thresh), 0);
	CHECK_EQ_INT(uncored_policy_check(p, &bob, &tf), UNCORE_EPERM);
	uncored_policy_free(p);
}

TEST(limits)
{
	struct uncored_policy *p = parse("limit user:1000 events 3\nlimit * events 0x10\n"
					 "limit group:1001 clients 2\nlimit user:1001 clients 9\n");
	REQUIRE(p != NULL);
	unsigned line;
	CHECK_EQ_U64(uncored_policy_limit(p, &alice, UNCORED_LIMIT_EVENTS, &line), 3);
	CHECK_EQ_INT((int)line, 1);
	CHECK_EQ_U64(uncored_policy_limit(p, &bob, UNCORED_LIMIT_EVENTS, &line), 16);
	CHECK_EQ_INT((int)line, 2);
	CHECK_EQ_U64(uncored_policy_limit(p, &bob, UNCORED_LIMIT_CLIENTS, &line), 2);
	CHECK_EQ_U64(uncored_policy_limit(p, &alice, UNCORED_LIMIT_CLIENTS, &line), UINT32_MAX);
	CHECK_EQ_INT((int)line, 0);
	CHECK_EQ_U64(uncored_policy_limit(p, &root, UNCORED_LIMIT_EVENTS, &line), UINT32_MAX);
	CHECK_EQ_U64(uncored_policy_limit(NULL, &alice, UNCORED_LIMIT_EVENTS, &line), UINT32_MAX);
	uncored_policy_free(p);
}

int main(void)
{
	RUN(bad_lines_named);
	RUN(first_rule_decides_with_its_reason);
	RUN(qualifiers);
	RUN(limits);
	return harness_done();
}
