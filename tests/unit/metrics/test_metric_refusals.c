/* A metric that cannot be compiled for this machine is refused with the
 * reason, nothing compiled: a box count (INSTANCES) or a box clock
 * (SAMPLE_INTERVAL) where the metric has no box or its box no clock line,
 * a box kind the platform lacks, an event of a summary metric without its
 * box, a metric marked unavailable, another platform's metric, a socket
 * the machine does not have.  Each from a small metrics file of its own
 * (the format of src/metrics/README.md). */
#include "common/uncore_error.h"
#include "harness.h"
#include "support/full_machine.h"
#include "metrics/catalog.h"
#include "metrics/compile.h"
#include "plan/machine.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *platform, *lines; /* the metric's lines after its name */
	int socket;
	int code;
	const char *detail;
} rows[] = {
    {"hswep", "\tbox none\n\tformula INSTANCES\n", UNCORE_ALL, UNCORE_EINVAL,
     "M: INSTANCES needs a box"},
    {"hswep", "\tbox cbo\n\tformula SAMPLE_INTERVAL\n", UNCORE_ALL, UNCORE_EINVAL,
     "SAMPLE_INTERVAL: no clock line for box cbo in t.metrics"},
    {"hswep", "\tbox cbo\n\tformula NOSUCH:LLC_LOOKUP.DATA_READ\n", UNCORE_ALL, UNCORE_ENOEVENT,
     "no box of kind NOSUCH on hswep"},
    {"hswep", "\tbox none\n\tformula LLC_LOOKUP.DATA_READ\n", UNCORE_ALL, UNCORE_ENOEVENT,
     "name it BOX:LLC_LOOKUP (a summary has no box of its own)"},
    {"hswep", "\tbox cbo\n\tformula LLC_LOOKUP.DATA_READ\n\tunavailable the boxes are fused off\n",
     UNCORE_ALL, UNCORE_ENOSUPP, "cannot be measured on hswep: the boxes are fused off"},
    {"skl", "\tbox cbo\n\tformula 1\n", UNCORE_ALL, UNCORE_ENOSUPP,
     "is a metric of skl; this machine is hswep"},
    {"hswep", "\tbox cbo\n\tformula LLC_LOOKUP.DATA_READ\n", 5, UNCORE_ENODEV,
     "socket=5, but this machine has 2 sockets (0-1)"},
    /* the same metric on a socket the machine has: compiles */
    {"hswep", "\tbox cbo\n\tformula LLC_LOOKUP.DATA_READ\n", 1, 0, ""},
};

TEST(metrics_this_machine_cannot_compile_are_refused_with_the_reason)
{
	const struct uncore_event_platform *plat = uncore_event_platform_by_name("hswep");
	REQUIRE(plat);
	struct uncore_machine m = test_full_machine(plat, 2);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char text[1024];
		harness_row = rows[i].detail[0] ? rows[i].detail : "compiles";
		snprintf(text, sizeof(text),
			 "platform %s\nmanual X\nmetric M\n\tsection 1\n\ttitle t\n\tunits u\n%s",
			 rows[i].platform, rows[i].lines);
		struct uncore_metric_catalog *c = NULL;
		CHECK_EQ_INT(uncore_metric_catalog_parse("t.metrics", text, &c), 0);
		if (!c) {
			fprintf(stderr, "  %s\n", uncore_error_detail());
			continue;
		}
		struct uncore_metric_ref r = {
		    .cat = c, .def = &c->defs[0], .socket = rows[i].socket, .instance = UNCORE_ALL};
		struct uncore_mset *ms = NULL;
		unsigned failed = 9;
		uncore_error_clear();
		CHECK_EQ_INT(uncore_mset_compile(&m, &r, 1, NULL, 0, &ms, &failed), rows[i].code);
		if (rows[i].code) {
			CHECK_CONTAINS(uncore_error_detail(), rows[i].detail);
			CHECK(ms == NULL);
			CHECK_EQ_INT(failed, 0); /* the first (only) metric */
		} else {
			CHECK(ms != NULL);
		}
		uncore_mset_free(ms);
		uncore_metric_catalog_free(c);
	}
	harness_row = NULL;
}

/* A metrics file's own mistakes, refused at parse with the file and line:
 * a line past the reader's buffer, a metric without its section, title,
 * units or formula, a vars list longer than the values it may take.  Two
 * decision lines join into one text; a summary PMU name is kept. */
TEST(metrics_file_mistakes_are_refused_with_the_line)
{
	static char text[8192];
	struct uncore_metric_catalog *c = NULL;
	size_t n = (size_t)snprintf(text, sizeof(text), "platform hswep\nmanual X\n# ");
	memset(text + n, 'x', 5000); /* past the 4096 bytes of a line */
	snprintf(text + n + 5000, sizeof(text) - n - 5000, "\n");
	CHECK_EQ_INT(uncore_metric_catalog_parse("t.metrics", text, &c), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "line 3");
	CHECK_CONTAINS(uncore_error_detail(), "line too long");
	CHECK(c == NULL);

	snprintf(text, sizeof(text),
		 "platform hswep\nmanual X\nmetric M\n\tbox cbo\n\tsection 1\n\tunits u\n"
		 "\tformula 1\n");
	CHECK_EQ_INT(uncore_metric_catalog_parse("t.metrics", text, &c), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(),
		       "t.metrics line 3: metric M needs section, title, units and formula");
	CHECK(c == NULL);

	n = (size_t)snprintf(text, sizeof(text),
			     "platform hswep\nmanual X\nmetric M_$v\n\tbox cbo\n\tvars v=");
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%d", i ? "," : "", i);
	snprintf(text + n, sizeof(text) - n,
		 "\n\tsection 1\n\ttitle t\n\tunits u\n\tformula 1\n");
	CHECK_EQ_INT(uncore_metric_catalog_parse("t.metrics", text, &c), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "vars: too many values");
	CHECK(c == NULL);

	snprintf(text, sizeof(text),
		 "platform hswep\nmanual X\nsummary_pmu hswep_summary\nmetric M\n\tbox cbo\n"
		 "\tsection 1\n\ttitle t\n\tunits u\n\tformula 1\n"
		 "\tdecision first part,\n\tdecision second part\n");
	CHECK_EQ_INT(uncore_metric_catalog_parse("t.metrics", text, &c), 0);
	if (c) {
		CHECK_EQ_STR(c->summary_pmu ? c->summary_pmu : "(none)", "hswep_summary");
		CHECK_EQ_STR(c->defs[0].decision ? c->defs[0].decision : "(none)",
			     "first part, second part");
		uncore_metric_catalog_free(c);
	}
	uncore_error_clear();
}

int main(void)
{
	RUN(metrics_this_machine_cannot_compile_are_refused_with_the_reason);
	RUN(metrics_file_mistakes_are_refused_with_the_line);
	return harness_done();
}
