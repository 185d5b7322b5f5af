/* A metric that cannot be compiled for this machine is refused with the
 * reason, nothing compiled: a box count (INSTANCES) or a box clock
 * (SAMPLE_INTERVAL) where the metric has no box or its box no clock line,
 * a box kind the platform lacks, an event of a summary metric without its
 * box, a metric marked unavailable, another platform's metric, a socket
 * the machine does not have.  Each from a small metrics file of its own
 * (the format of src/metrics/README.md). */
#include "common/uncore_error.h"
#include "harness.h"
#include "metrics/catalog.h"
#include "metrics/compile.h"
#include "plan/machine.h"

#include <stdio.h>
#include <string.h>

static struct uncore_machine full_machine(const struct uncore_event_platform *plat,
					  unsigned sockets)
{
	struct uncore_machine m;
	memset(&m, 0, sizeof(m));
	m.plat = plat;
	m.nsockets = sockets;
	for (unsigned b = 0; b < plat->nboxes && b < UNCORE_MAX_BOX_TYPES; b++)
		for (unsigned s = 0; s < sockets; s++)
			uncore_inst_fill(&m.present[b][s], plat->boxes[b]->ninstances);
	for (unsigned s = 0; s < sockets; s++)
		m.node_id[s] = (uint8_t)s;
	return m;
}

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
	struct uncore_machine m = full_machine(plat, 2);
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

int main(void)
{
	RUN(metrics_this_machine_cannot_compile_are_refused_with_the_reason);
	return harness_done();
}
