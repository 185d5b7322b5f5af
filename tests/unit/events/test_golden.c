/* Golden encodings: every row of libpfm4-events/golden/<platform>.txt (the
 * table helpers' expected values, from the manuals) and of the fixture file
 * tests/unit/events/fixtures/golden.txt is parsed and encoded, and compared
 * with the expected control value, filters, counters or error code.  A
 * failing row prints its file, line and text with both values.
 *
 * Files are found under $SRCDIR (set by `make check-unit`), or else under the
 * source tree this file was compiled from (__FILE__).  Row format (the
 * tables branches' own, see the head of libpfm4-events/golden/hswep.txt):
 *   event | ctl | filter0 | filter1 | OK or ERR_* [| cnt=..,fixed=..]  */
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

/* libpfm4's error names as the golden files use them (ERR_* or PFM_ERR_*),
 * each with the codes of ours that express it: libpfm4's ERR_ATTR covers an
 * unknown or refused modifier or unit mask and a missing required modifier. */
static const struct {
	const char *name;
	int codes[5];
} pfm_errors[] = {
    {"ERR_NOTFOUND", {UNCORE_ENOEVENT}},
    {"ERR_UMASK", {UNCORE_ENOUMASK}},
    {"ERR_ATTR", {UNCORE_ENOMOD, UNCORE_ENOUMASK, UNCORE_EINVAL, UNCORE_ECOMBO}},
    {"ERR_ATTR_VAL", {UNCORE_ERANGE, UNCORE_ESYNTAX}},
    {"ERR_ATTR_SET", {UNCORE_ECOMBO}},
    {"ERR_FEATCOMB", {UNCORE_ECOMBO}},
    {"ERR_INVAL", {UNCORE_ESYNTAX, UNCORE_EINVAL}},
};

/* Whether `rc` is what the result column `name` expects; -1: unknown name. */
static int error_matches(const char *name, int rc)
{
	for (int c = -1; c >= -64; c--)
		if (strcmp(uncore_error_name(c), name) == 0)
			return rc == c;
	if (strncmp(name, "PFM_", 4) == 0)
		name += 4;
	for (size_t i = 0; i < sizeof(pfm_errors) / sizeof(pfm_errors[0]); i++) {
		if (strcmp(pfm_errors[i].name, name) != 0)
			continue;
		for (int k = 0; k < 5 && pfm_errors[i].codes[k]; k++)
			if (pfm_errors[i].codes[k] == rc)
				return 1;
		return 0;
	}
	return -1;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* A value column: "-" (register not used: 0) or a number. */
static int parse_value(const char *s, uint64_t *v)
{
	if (strcmp(s, "-") == 0) {
		*v = 0;
		return 0;
	}
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

/* Check one row "event | ctl | filter0 | filter1 | result [| k=v,...]";
 * 1 if it passes.  `where` is "file:line". */
static int check_row(const struct uncore_event_platform *plat, const char *where, char *line)
{
	char row[1200];
	snprintf(row, sizeof(row), "%s: %s", where, line);
	harness_row = row;
	int before = harness_case_failed;
	harness_case_failed = 0;

	char *col[7];
	int ncol = 0;
	char *save = NULL;
	for (char *c = strtok_r(line, "|", &save); c && ncol < 7; c = strtok_r(NULL, "|", &save))
		col[ncol++] = trim(c);
	if (ncol < 5 || ncol > 6) {
		HARNESS_FAIL_AT("want 5 or 6 '|'-separated columns, got %d", ncol);
		goto done;
	}
	const char *event = col[0], *result = col[4];
	uint64_t ctl = 0, filt[2] = {0, 0};
	int ok_row = strcmp(result, "OK") == 0;
	if (parse_value(col[1], &ctl) || parse_value(col[2], &filt[0]) ||
	    parse_value(col[3], &filt[1])) {
		HARNESS_FAIL_AT("bad number in the value columns");
		goto done;
	}
	if (ok_row && strcmp(col[1], "-") == 0)
		HARNESS_FAIL_AT("an OK row needs a ctl value");

	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	/* PMU names are unique across platforms: a file may mix the two
	 * Xeon 7100/7400 platforms, so a PMU unknown to `plat` is looked up in
	 * every built-in platform. */
	int rc = uncore_event_parse(plat, event, &ref);
	if (rc == UNCORE_ENOEVENT && strstr(event, "::") &&
	    strstr(uncore_error_detail(), "unknown PMU"))
		rc = uncore_event_parse(NULL, event, &ref);
	if (!rc)
		rc = uncore_event_encode(&ref, &enc);
	if (!ok_row) {
		int m = error_matches(result, rc);
		if (m < 0)
			HARNESS_FAIL_AT("unknown result '%s'", result);
		else if (!m)
			HARNESS_FAIL_AT("want %s, got %s (%s)", result, uncore_error_name(rc),
					rc ? uncore_error_detail() : "encoded");
		goto done;
	}
	if (rc) {
		HARNESS_FAIL_AT("want ctl=0x%llx, got %s: %s", (unsigned long long)ctl,
				uncore_error_name(rc), uncore_error_detail());
		goto done;
	}
	/* A fixed-counter event's ctl column is its perf selector (0xff): our
	 * enc.code; enc.ctl holds the few FIXED_CTL bits it sets (usually 0). */
	uint64_t got = enc.fixed ? (enc.code | enc.ctl) : enc.ctl;
	if (got != ctl)
		HARNESS_FAIL_AT("ctl: got 0x%llx, want 0x%llx", (unsigned long long)got,
				(unsigned long long)ctl);
	/* The filter columns are the table's slots (libpfm4's extra codes):
	 * slot n is the box filter the event routes it to (Nehalem: MSR 301h
	 * or 396h); every other filter must stay 0. */
	uint64_t want[UNCORE_MAX_FILTERS] = {0};
	for (unsigned n = 0; n < 2; n++) {
		unsigned f = uncore_box_filter_of(ref.box, &ref.box->events[ref.event], n);
		if (f < UNCORE_MAX_FILTERS)
			want[f] |= filt[n];
		else if (filt[n])
			HARNESS_FAIL_AT("filter%u given, but the box has no such filter", n);
	}
	for (unsigned f = 0; f < UNCORE_MAX_FILTERS; f++)
		if (enc.filter[f] != want[f])
			HARNESS_FAIL_AT("%s: got 0x%llx, want 0x%llx",
					f < ref.box->nfilters ? ref.box->filters[f].name : "filter",
					(unsigned long long)enc.filter[f],
					(unsigned long long)want[f]);
	/* Optional sixth column: cnt=0x..,fixed=N (our fixture rows). */
	if (ncol == 6) {
		char *s2 = NULL;
		for (char *kv = strtok_r(col[5], ", ", &s2); kv; kv = strtok_r(NULL, ", ", &s2)) {
			char *eq = strchr(kv, '=');
			uint64_t v;
			if (!eq || parse_value(eq + 1, &v)) {
				HARNESS_FAIL_AT("bad extra '%s'", kv);
				continue;
			}
			*eq = '\0';
			if (!strcmp(kv, "cnt"))
				CHECK_EQ_U64(enc.counters, v);
			else if (!strcmp(kv, "fixed"))
				CHECK_EQ_U64(enc.fixed, v);
			else if (!strcmp(kv, "fixed_index"))
				CHECK_EQ_U64(enc.fixed_index, v);
			else if (!strcmp(kv, "code"))
				CHECK_EQ_U64(enc.code, v);
			else
				HARNESS_FAIL_AT("unknown extra '%s'", kv);
		}
	}
done:;
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
	fprintf(stderr, "  %s: %d rows, %d passed, %d failed\n", rel, st.rows, st.passed,
		st.failed);
	return st;
}

TEST(fixture_golden)
{
	struct golden_stats st =
	    check_file(fixture_platform(), "tests/unit/events/fixtures/golden.txt");
	if (st.rows < 0)
		HARNESS_FAIL_AT("cannot read the fixture golden file under %s (set SRCDIR)",
				source_root());
	else if (st.rows < 40)
		HARNESS_FAIL_AT("only %d fixture rows", st.rows);
}

/* The checker must be able to fail: wrong values, wrong errors, bad rows. */
TEST(checker_reports_wrong_rows)
{
	char text[] = "fx_unc_cbo::FX_C_LOOKUP | 0x335 | 0xfe0000 | - | OK\n"
		      "fx_unc_cbo::FX_C_LOOKUP | 0x334 | - | - | OK\n"
		      "fx_unc_cbo::FX_C_LOOKUP:BOGUS | - | - | - | ERR_ATTR_VAL\n"
		      "fx_unc_cbo::FX_C_LOOKUP | - | - | - | UNCORE_ENOUMASK\n"
		      "fx_unc_cbo::FX_C_LOOKUP | 0x334 | 0xfe0000 | - | OK | cnt=0x1\n"
		      "fx_unc_cbo::FX_C_LOOKUP | zz | - | - | OK\n"
		      "fx_unc_cbo::FX_C_LOOKUP | 0x334 | 0xfe0000 | OK\n"
		      "fx_unc_cbo::FX_C_LOOKUP | 0x334 | 0xfe0000 | - | OK | cnt=0xf\n";
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
	struct golden_stats st =
	    check_file(uncore_event_platform_get(platform_files[current_platform].id),
		       platform_files[current_platform].file);
	if (st.rows < 0)
		HARNESS_FAIL_AT("golden file %s/%s is missing or unreadable", source_root(),
				platform_files[current_platform].file);
	else if (st.rows == 0)
		HARNESS_FAIL_AT("%s has no rows", platform_files[current_platform].file);
}

int main(void)
{
	RUN(fixture_golden);
	RUN(checker_reports_wrong_rows);
	/* One case per platform file; a missing file fails its case. */
	for (current_platform = 0;
	     current_platform < sizeof(platform_files) / sizeof(platform_files[0]);
	     current_platform++) {
		printf("-- %s\n", platform_files[current_platform].file);
		RUN(platform_golden);
	}
	return harness_done();
}
