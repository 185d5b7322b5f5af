/* Golden encodings: every row of libpfm4-events/golden/<platform>.txt (the
 * table helpers' expected values, from the manuals) and of the fixture file
 * tests/unit/events/fixtures/golden.txt is parsed and encoded, and compared
 * with the expected control value, filters, counters or error code.  A
 * failing row prints its file, line and text with both values.
 *
 * Files are found under $SRCDIR (set by `make check-unit`), or else under the
 * source tree this file was compiled from (__FILE__).  Row format: README.md
 * in src/events, "Golden files". */
#include "../../harness.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"

#include "fixture_platform.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

struct golden_stats {
	int rows, passed, failed;
};

static const char *source_root(void)
{
	static char root[1024];
	const char *env = getenv("SRCDIR");
	if (env && *env)
		return env;
	/* __FILE__ is <root>/tests/unit/events/test_golden.c in our build. */
	snprintf(root, sizeof(root), "%s", __FILE__);
	char *p = strstr(root, "/tests/unit/events/test_golden.c");
	if (p)
		*p = '\0';
	else
		snprintf(root, sizeof(root), ".");
	return root;
}

/* Error names as we print them, and the libpfm4 names golden files may use. */
static int error_code(const char *name, int *code)
{
	static const struct {
		const char *name;
		int code;
	} pfm[] = {
		{"PFM_ERR_NOTFOUND", UNCORE_ENOEVENT}, {"PFM_ERR_UMASK", UNCORE_ENOUMASK},
		{"PFM_ERR_ATTR", UNCORE_ENOMOD},       {"PFM_ERR_ATTR_VAL", UNCORE_ERANGE},
		{"PFM_ERR_ATTR_SET", UNCORE_ECOMBO},   {"PFM_ERR_FEATCOMB", UNCORE_ECOMBO},
		{"PFM_ERR_INVAL", UNCORE_ESYNTAX},
	};
	for (int c = 0; c >= -64; c--)
		if (strcmp(uncore_error_name(c), name) == 0) {
			*code = c;
			return 0;
		}
	for (size_t i = 0; i < sizeof(pfm) / sizeof(pfm[0]); i++)
		if (strcmp(pfm[i].name, name) == 0) {
			*code = pfm[i].code;
			return 0;
		}
	return -1;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

/* Check one row; 1 if it passes.  `where` is "file:line". */
static int check_row(const struct uncore_event_platform *plat, const char *where, char *line)
{
	char row[1200];
	snprintf(row, sizeof(row), "%s: %s", where, line);
	harness_row = row;
	int before = harness_case_failed;
	harness_case_failed = 0;

	char *save = NULL;
	char *event = strtok_r(line, " \t", &save);
	int want_err = 0, has_ctl = 0, has_cnt = 0, has_fixed = 0;
	uint64_t ctl = 0, cnt = 0, fixed = 0, filt[UNCORE_MAX_FILTERS] = {0};
	for (char *tok = strtok_r(NULL, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v = 0;
		if (!eq) {
			HARNESS_FAIL_AT("malformed expectation '%s'", tok);
			continue;
		}
		*eq++ = '\0';
		if (!strcmp(tok, "error")) {
			if (error_code(eq, &want_err) || want_err == 0)
				HARNESS_FAIL_AT("unknown error name '%s'", eq);
			continue;
		}
		if (parse_u64(eq, &v)) {
			HARNESS_FAIL_AT("bad number '%s=%s'", tok, eq);
			continue;
		}
		if (!strcmp(tok, "ctl"))
			ctl = v, has_ctl = 1;
		else if (!strcmp(tok, "cnt"))
			cnt = v, has_cnt = 1;
		else if (!strcmp(tok, "fixed"))
			fixed = v, has_fixed = 1;
		else if (tok[0] == 'f' && tok[1] >= '0' && tok[1] < '0' + UNCORE_MAX_FILTERS && !tok[2])
			filt[tok[1] - '0'] = v;
		else
			HARNESS_FAIL_AT("unknown expectation '%s'", tok);
	}
	if (!want_err && !has_ctl)
		HARNESS_FAIL_AT("row has neither ctl= nor error=");

	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	int rc = uncore_event_parse(plat, event, &ref);
	if (!rc)
		rc = uncore_event_encode(&ref, &enc);
	if (want_err) {
		if (rc != want_err)
			HARNESS_FAIL_AT("want %s, got %s (%s)", uncore_error_name(want_err),
					uncore_error_name(rc), rc ? uncore_error_detail() : "encoded");
	} else if (rc) {
		HARNESS_FAIL_AT("want ctl=0x%llx, got %s: %s", (unsigned long long)ctl,
				uncore_error_name(rc), uncore_error_detail());
	} else {
		CHECK_EQ_U64(enc.ctl, ctl);
		for (unsigned n = 0; n < UNCORE_MAX_FILTERS; n++)
			if (enc.filter[n] != filt[n])
				HARNESS_FAIL_AT("f%u: got 0x%llx, want 0x%llx", n,
						(unsigned long long)enc.filter[n],
						(unsigned long long)filt[n]);
		if (has_cnt)
			CHECK_EQ_U64(enc.counters, cnt);
		if (has_fixed)
			CHECK_EQ_U64(enc.fixed, fixed);
	}
	int ok = !harness_case_failed;
	harness_case_failed = before || !ok;
	harness_row = NULL;
	return ok;
}

/* Check every row of a golden text (modified in place). */
static struct golden_stats check_text(const struct uncore_event_platform *plat, const char *name,
				      char *text)
{
	struct golden_stats st = {0, 0, 0};
	int lineno = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		while (isspace((unsigned char)*line))
			line++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		size_t n = strlen(line);
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		if (!*line)
			continue;
		char where[300];
		snprintf(where, sizeof(where), "%s:%d", name, lineno);
		st.rows++;
		if (check_row(plat, where, line))
			st.passed++;
		else
			st.failed++;
	}
	return st;
}

/* Lines are counted by strtok_r over "\n", which skips empty lines: keep
 * line numbers right by turning each empty line into a comment. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	int c, prev = '\n';
	while (buf && (c = fgetc(f)) != EOF) {
		if (len + 3 >= cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		if (c == '\n' && prev == '\n')
			buf[len++] = '#';
		buf[len++] = (char)c;
		prev = c;
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

static struct golden_stats check_file(const struct uncore_event_platform *plat, const char *rel)
{
	char path[1500];
	struct golden_stats none = {0, 0, 0};
	snprintf(path, sizeof(path), "%s/%s", source_root(), rel);
	char *text = read_file(path);
	if (!text) {
		none.rows = -1;
		return none;
	}
	struct golden_stats st = check_text(plat, rel, text);
	free(text);
	fprintf(stderr, "  %s: %d rows, %d passed, %d failed\n", rel, st.rows, st.passed, st.failed);
	return st;
}

TEST(fixture_golden)
{
	struct golden_stats st = check_file(fixture_platform(), "tests/unit/events/fixtures/golden.txt");
	if (st.rows < 0)
		HARNESS_FAIL_AT("cannot read the fixture golden file under %s (set SRCDIR)", source_root());
	else if (st.rows < 40)
		HARNESS_FAIL_AT("only %d fixture rows", st.rows);
}

/* The checker must be able to fail: wrong values, wrong errors, bad rows. */
TEST(checker_reports_wrong_rows)
{
	char text[] = "fx_unc_cbo::FX_C_LOOKUP ctl=0x335 f0=0xfe0000\n"
		      "fx_unc_cbo::FX_C_LOOKUP ctl=0x334\n"
		      "fx_unc_cbo::FX_C_LOOKUP:BOGUS error=UNCORE_ERANGE\n"
		      "fx_unc_cbo::FX_C_LOOKUP error=UNCORE_ENOUMASK\n"
		      "fx_unc_cbo::FX_C_LOOKUP ctl=0x334 f0=0xfe0000 cnt=0x1\n"
		      "fx_unc_cbo::FX_C_LOOKUP ctl=zz\n"
		      "fx_unc_cbo::FX_C_LOOKUP\n"
		      "fx_unc_cbo::FX_C_LOOKUP ctl=0x334 f0=0xfe0000 cnt=0xf\n";
	FILE *saved = stderr;
	stderr = fopen("/dev/null", "w");
	struct golden_stats st = check_text(fixture_platform(), "planted", text);
	fclose(stderr);
	stderr = saved;
	harness_case_failed = 0; /* the planted failures are the expected outcome */
	CHECK_EQ_INT(st.rows, 8);
	CHECK_EQ_INT(st.failed, 7);
	CHECK_EQ_INT(st.passed, 1);
}

static const struct {
	enum uncore_platform_id id;
	const char *file;
} platform_files[] = {
	{UNCORE_PLATFORM_HSWEP, "libpfm4-events/golden/hswep.txt"},
	{UNCORE_PLATFORM_SKL, "libpfm4-events/golden/skl.txt"},
	{UNCORE_PLATFORM_NHM, "libpfm4-events/golden/nhm.txt"},
	{UNCORE_PLATFORM_X7400, "libpfm4-events/golden/x7400.txt"},
};
static unsigned current_platform;

TEST(platform_golden)
{
	struct golden_stats st = check_file(uncore_event_platform_get(platform_files[current_platform].id),
					    platform_files[current_platform].file);
	if (st.rows <= 0)
		HARNESS_FAIL_AT("%s has no rows", platform_files[current_platform].file);
}

static int file_exists(const char *rel)
{
	char path[1500];
	snprintf(path, sizeof(path), "%s/%s", source_root(), rel);
	FILE *f = fopen(path, "r");
	if (f)
		fclose(f);
	return f != NULL;
}

int main(void)
{
	RUN(fixture_golden);
	RUN(checker_reports_wrong_rows);
	/* One case per platform file; a file the tables branches have not
	 * delivered yet is reported as SKIP, not as a pass. */
	for (current_platform = 0; current_platform < sizeof(platform_files) / sizeof(platform_files[0]);
	     current_platform++) {
		if (!file_exists(platform_files[current_platform].file)) {
			printf("SKIP %s: not in this tree yet\n", platform_files[current_platform].file);
			continue;
		}
		printf("-- %s\n", platform_files[current_platform].file);
		RUN(platform_golden);
	}
	return harness_done();
}
