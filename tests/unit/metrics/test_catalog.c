/* The metric files compiled into the library, validated: each parses; every
 * metric compiles on a machine with every box of its platform (or, when
 * marked unavailable, fails with its reason); every change to the
 * manual's formula carries a decision; the registers the notation names
 * fit their box's filter fields; every group compiles and schedules as one
 * event set.  Plus the file format's own rules (variables, errors with
 * file and line). */
#include "common/uncore_error.h"
#include "plan/sched.h"
#include "harness.h"
#include "support/full_machine.h"
#include "metrics/compile.h"
#include "metrics/metrics.h"

#include <stdio.h>
#include <string.h>

static const char *const platforms[] = {"hswep", "skl", "nhm", "skx", "clx", "icx", "spr", "emr", "gnr", "srf"};

/* Runs first: asking for one platform's metrics parses that file alone
 * (start-up parses nothing on a machine that uses none, issue 14). */
TEST(a_platform_parses_its_own_file_only)
{
	const struct uncore_metric_catalog *cat = NULL;
	CHECK_EQ_INT((int)uncore_metric_catalog_nparsed(), 0);
	CHECK_EQ_INT(uncore_metric_catalog_get(uncore_event_platform_by_name("x7400"), &cat),
		     UNCORE_ENOEVENT);
	CHECK_EQ_INT((int)uncore_metric_catalog_nparsed(), 0);
	CHECK_EQ_INT(uncore_metric_catalog_get(uncore_event_platform_by_name("skl"), &cat), 0);
	CHECK_EQ_INT((int)uncore_metric_catalog_nparsed(), 1);
	CHECK(cat && strcmp(cat->platform, "skl") == 0);
	CHECK_EQ_INT(uncore_metric_catalog_get(uncore_event_platform_by_name("skl"), &cat), 0);
	CHECK_EQ_INT((int)uncore_metric_catalog_nparsed(), 1);
}

TEST(every_builtin_file_parses)
{
	/* Every embedded file, by position: none is unreachable. */
	const char *file;
	const struct uncore_metric_catalog *c;
	unsigned nfiles = 0;
	for (unsigned i = 0; uncore_metric_catalog_builtin(i, &file, &c) != UNCORE_ERANGE; i++) {
		harness_row = file;
		CHECK_EQ_INT(uncore_metric_catalog_builtin(i, &file, &c), 0);
		CHECK_EQ_INT(uncore_metric_catalog_serves(c, c->plat), 1);
		nfiles++;
	}
	uncore_error_clear();
	CHECK_EQ_INT((int)nfiles, (int)(sizeof(platforms) / sizeof(platforms[0])));
	CHECK_EQ_INT((int)uncore_metric_catalog_nparsed(), (int)nfiles);
	for (unsigned p = 0; p < sizeof(platforms) / sizeof(platforms[0]); p++) {
		const struct uncore_event_platform *plat =
		    uncore_event_platform_by_name(platforms[p]);
		const struct uncore_metric_catalog *cat = NULL;
		harness_row = platforms[p];
		CHECK(plat != NULL);
		CHECK_EQ_INT(uncore_metric_catalog_get(plat, &cat), 0);
		if (!cat)
			continue;
		CHECK(cat->ndefs > 0);
		CHECK(cat->ngroups > 0);
		CHECK_EQ_STR(cat->platform, platforms[p]);
	}
	harness_row = NULL;
	/* Xeon 7100/7400: no metrics, said so. */
	const struct uncore_metric_catalog *none;
	CHECK_EQ_INT(uncore_metric_catalog_get(uncore_event_platform_by_name("x7400"), &none),
		     UNCORE_ENOEVENT);
}

TEST(every_metric_compiles_on_a_full_machine)
{
	struct test_catalog_case c;
	for (unsigned p = 0; test_next_catalog(&p, &c);) {
		const struct uncore_metric_catalog *cat = c.cat;
		struct uncore_machine m = c.m;
		for (unsigned i = 0; i < cat->ndefs; i++) {
			const struct uncore_metric_def *d = &cat->defs[i];
			char row[160];
			snprintf(row, sizeof(row), "%s::%s (%s line %u)", d->pmu, d->name,
				 cat->file, d->line);
			harness_row = row;
			struct uncore_metric_ref r = {
			    .cat = cat, .def = d, .socket = UNCORE_ALL, .instance = UNCORE_ALL};
			struct uncore_mset *ms = NULL;
			unsigned failed;
			int rc = uncore_mset_compile(&m, &r, 1, NULL, 0, &ms, &failed);
			if (d->unavailable) {
				CHECK_EQ_INT(rc, UNCORE_ENOSUPP);
				CHECK_CONTAINS(uncore_error_detail(), d->unavailable);
			} else {
				if (rc < 0)
					fprintf(stderr, "  %s\n", uncore_error_detail());
				CHECK_EQ_INT(rc, 0);
				/* Every metric counts something, but the time. */
				if (ms && strcmp(d->name, "COUNTING_TIME") != 0)
					CHECK(uncore_mset_nterms(ms) > 0);
				/* Amounts are read as running sums, the rest per
				 * interval (README "What a read returns"): the
				 * listing's rule by units is the formula's. */
				if (ms)
					CHECK_EQ_INT(uncore_metric_units_amount(d->units),
						     uncore_mset_is_amount(ms, 0));
				/* Every scheduled event also schedules alone. */
				for (unsigned e = 0; ms && e < uncore_mset_nevents(ms); e++) {
					struct uncore_plan plan;
					int src = uncore_schedule(&m, &uncore_mset_events(ms)[e], 1,
								  &plan);
					CHECK_EQ_INT(src, 0);
					if (src == 0)
						uncore_plan_free(&plan);
				}
			}
			uncore_mset_free(ms);
			/* A changed formula says why; every metric says where it is from. */
			if (strcmp(d->expr, d->formula) != 0)
				CHECK(d->decision[0] || d->combine);
			CHECK(d->section[0] != '\0');
			CHECK(d->units[0] != '\0');
		}
	}
	harness_row = NULL;
}

static uint64_t defined_bits(const struct uncore_box_type *bt, int n)
{
	uint64_t all = 0;
	if (n >= 0 && (unsigned)n < bt->nfilters)
		for (const uint64_t *f = bt->filters[n].fields; f && *f; f++)
			all |= *f;
	return all;
}

TEST(registers_of_the_notation_fit_their_box_filters)
{
	const struct uncore_metric_catalog *cat;
	CHECK_EQ_INT(uncore_metric_catalog_get(uncore_event_platform_by_name("hswep"), &cat), 0);
	if (!cat)
		return;
	CHECK(cat->nregs >= 7);
	for (unsigned i = 0; i < cat->nregs; i++) {
		const struct uncore_metric_reg *r = &cat->regs[i];
		harness_row = r->name;
		const struct uncore_box_type *bt = uncore_metric_box(cat, r->box);
		CHECK(bt != NULL);
		if (!bt || r->filter < 0)
			continue;
		CHECK((unsigned)r->filter < bt->nfilters);
		for (unsigned f = 0; f < r->nfields; f++) {
			uint64_t m = r->fields[f].mask << r->shift;
			CHECK_EQ_U64(m & ~defined_bits(bt, r->filter), 0);
		}
	}
	harness_row = NULL;
	/* The fields the manual's metrics name, where tables 2-18/2-19 put them. */
	const struct uncore_metric_reg *f1 = uncore_metric_reg_find(cat, "Cn_MSR_PMON_BOX_FILTER1");
	CHECK(f1 != NULL);
	if (f1) {
		CHECK_EQ_U64(f1->fields[1].mask, 0x1ff00000); /* opc 28:20 */
		CHECK_EQ_STR(f1->fields[1].name, "opc");
	}
	for (unsigned i = 0; i < cat->ncontrols; i++) {
		/* Every control bit is a modifier of the CBo (and of every box). */
		const struct uncore_box_type *cbo = uncore_metric_box(cat, "cbo");
		int found = 0;
		for (unsigned k = 0; cbo && k < cbo->nmods; k++)
			found |= strcmp(cbo->mods[k].name, cat->controls[i].mod) == 0;
		CHECK(found);
	}
}

TEST(every_group_is_one_schedulable_event_set)
{
	struct test_catalog_case c;
	for (unsigned p = 0; test_next_catalog(&p, &c);) {
		const struct uncore_event_platform *plat = c.plat;
		const struct uncore_metric_catalog *cat = c.cat;
		struct uncore_machine m = c.m;
		for (unsigned g = 0; g < uncore_metric_group_count(cat); g++) {
			const struct uncore_metric_group *grp = uncore_metric_group_at(cat, g);
			struct uncore_metric_ref refs[16];
			harness_row = grp->name;
			CHECK(grp->nmembers > 0 && grp->nmembers <= 16);
			unsigned n = 0;
			for (unsigned k = 0; k < grp->nmembers && n < 16; k++) {
				int rc = uncore_metric_parse(plat, grp->members[k], &refs[n]);
				CHECK_EQ_INT(rc, 0);
				if (rc == 0)
					n++;
			}
			struct uncore_mset *ms = NULL;
			unsigned failed;
			int rc = uncore_mset_compile(&m, refs, n, NULL, 0, &ms, &failed);
			if (rc < 0)
				fprintf(stderr, "  %s\n", uncore_error_detail());
			CHECK_EQ_INT(rc, 0);
			if (!ms)
				continue;
			/* Every setting (phase) of the group schedules. */
			unsigned period = 1;
			for (unsigned e = 0; e < uncore_mset_nevents(ms); e++)
				if (uncore_mset_evinfo(ms)[e].period > period)
					period = uncore_mset_evinfo(ms)[e].period;
			for (unsigned ph = 0; ph < period; ph++) {
				struct uncore_sched_event ev[512];
				unsigned k = 0;
				for (unsigned e = 0; e < uncore_mset_nevents(ms) && k < 512; e++) {
					const struct uncore_metric_evinfo *in =
					    &uncore_mset_evinfo(ms)[e];
					if (in->period <= 1 || ph % in->period == in->phase)
						ev[k++] = uncore_mset_events(ms)[e];
				}
				struct uncore_plan plan;
				rc = uncore_schedule(&m, ev, k, &plan);
				if (rc < 0)
					fprintf(stderr, "  %s\n", uncore_error_detail());
				CHECK_EQ_INT(rc, 0);
				if (rc == 0)
					uncore_plan_free(&plan);
			}
			uncore_mset_free(ms);
		}
	}
	harness_row = NULL;
}

TEST(file_format_rules)
{
	static const char good[] = "platform hswep\n"
				   "manual HSX\n"
				   "metric PCT_CYCLES_DRAM_RANKx_IN_CKE   # a comment\n"
				   "\tbox imc\n"
				   "\tsection 2.6.6\n"
				   "\tvars x=2-3\n"
				   "\ttitle rank (x)\n"
				   "\tunits fraction\n"
				   "\tformula POWER_CKE_CYCLES.RANKx / MC_Chy_PCI_PMON_CTR_FIXED "
				   "with:R.{opc,nid}={0x1C0,my_node}\n"
				   "metric SUM\n"
				   "\tbox none\n"
				   "\tsection 1.7.1\n"
				   "\ttitle t\n"
				   "\tunits GB/s\n"
				   "\tformula IMC:PCT_CYCLES_DRAM_RANK2_IN_CKE\n"
				   "group G a group\n"
				   "\tmember hswep_metric::SUM\n";
	struct uncore_metric_catalog *c = NULL;
	CHECK_EQ_INT(uncore_metric_catalog_parse("t.metrics", good, &c), 0);
	if (c) {
		CHECK_EQ_INT(c->ndefs, 3);
		CHECK_EQ_STR(c->defs[0].name, "PCT_CYCLES_DRAM_RANK2_IN_CKE");
		CHECK_EQ_STR(c->defs[1].name, "PCT_CYCLES_DRAM_RANK3_IN_CKE");
		CHECK_EQ_STR(c->defs[1].title, "rank (3)");
		/* Hex numbers, field names and other lower-case words are not variables. */
		CHECK_EQ_STR(c->defs[1].formula,
			     "POWER_CKE_CYCLES.RANK3 / MC_Chy_PCI_PMON_CTR_FIXED "
			     "with:R.{opc,nid}={0x1C0,my_node}");
		CHECK_EQ_STR(c->defs[1].section, "HSX 2.6.6");
		CHECK_EQ_STR(c->defs[1].pmu, "hswep_unc_imc");
		CHECK_EQ_STR(c->defs[2].pmu, "hswep_metric");
		CHECK_EQ_INT(c->ngroups, 1);
		CHECK_EQ_STR(c->groups[0].members[0], "hswep_metric::SUM");
		uncore_metric_catalog_free(c);
	}
	static const struct {
		const char *text, *detail;
	} bad[] = {
	    {"platform hswep\nmetric A\n\tbox imc\n\tsection 1\n\ttitle t\n\tformula X\n",
	     "line 2: metric A needs"},
	    {"platform hswep\nfrobnicate\n", "line 2: unknown directive"},
	    {"platform hswep\n\tbox imc\n", "line 2: indented line"},
	    {"platform nosuch\n", "unknown platform"},
	    {"platform hswep\nmetric A\n\tbox gpu\n\tsection 1\n\ttitle t\n\tunits u\n\tformula "
	     "X\n",
	     "no box of kind gpu"},
	    {"platform hswep\nfield NOREG.x 3:0\n", "line 2: field: unknown register"},
	    /* A second vars line would overflow the 16 values a stanza holds. */
	    {"platform hswep\nmetric Ax\n\tvars x=0-15\n\tvars x=0-15\n",
	     "line 4: vars given twice"},
	    {"platform hswep\nmetric Ax\n\tvars x=0-9\n\tvars y=a,b,c,d,e,f,g,h\n",
	     "line 4: vars given twice"},
	    {"platform hswep\nmetric Ax\n\tvars x=0-16\n", "line 3: vars: bad range"},
	    /* Every directive's own complaint, with its line. */
	    {"platform hswep\nmetric A\n\tbox none\n\tsection 1\n\ttitle t\n\tunits u\n"
	     "\tformula X\nmetric A\n\tbox none\n\tsection 1\n\ttitle t\n\tunits u\n"
	     "\tformula X\n",
	     "metric A defined twice"},
	    {"platform hswep\nmetric Ax\n\tvars 7\n", "line 3: vars: expected"},
	    {"platform hswep\nmetric A\n\tcolour red\n", "line 3: unknown metric key"},
	    {"platform hswep\nmetric A\n\ttitle a\n\ttitle b\n", "line 4: metric key given twice"},
	    {"platform hswep\nmetric A\n\ttitle\n", "line 3: metric key without a value"},
	    {"platform hswep\nregister R cbo filter=0 wide\n",
	     "line 2: register: unknown attribute"},
	    {"platform hswep\nregister R\n", "line 2: register: expected NAME KIND filter=N"},
	    {"platform hswep\nregister R cbo filter=0\nfield Rx 3:0\n",
	     "line 3: field: expected REGISTER.field HI[:LO]"},
	    {"platform hswep\nregister R cbo filter=0\nfield R.x 3:0 cooked\n",
	     "line 3: field: unknown flag (only: raw)"},
	    {"platform hswep\nregister R cbo filter=0\nfield R.x 3:9\n",
	     "line 3: field: bad bit range"},
	    {"platform hswep\nalias A NOREG\n", "line 2: alias: unknown register"},
	    {"platform hswep\nalias A\n", "line 2: alias: expected NAME REG[,REG...]"},
	    {"platform hswep\ncontrol edge_det\n", "line 2: control: expected NAME MODIFIER"},
	    {"platform hswep\nconst GB\n", "line 2: const: expected NAME = expression"},
	    {"platform hswep\nclock imc\n", "line 2: clock: expected KIND EVENT"},
	    {"platform hswep\ncount N\n", "line 2: count: expected NAME KIND"},
	    {"platform hswep\nspread imc\n", "line 2: spread: expected KIND REASON"},
	    {"platform hswep\ngroup G\n", "line 2: group: expected NAME TITLE"},
	    {"manual HSX\n", "no platform line"},
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char row[8];
		snprintf(row, sizeof(row), "%u", i);
		harness_row = row;
		c = NULL;
		CHECK_EQ_INT(uncore_metric_catalog_parse("t.metrics", bad[i].text, &c),
			     UNCORE_ESYNTAX);
		CHECK_CONTAINS(uncore_error_detail(), bad[i].detail);
		uncore_metric_catalog_free(c);
	}
	harness_row = NULL;
}

TEST(descriptions_carry_units_formula_and_decisions)
{
	const struct uncore_metric_catalog *cat;
	CHECK_EQ_INT(uncore_metric_catalog_get(uncore_event_platform_by_name("hswep"), &cat), 0);
	if (!cat)
		return;
	char desc[1024];
	const struct uncore_metric_def *d = uncore_metric_def_find(cat, "imc", "PCT_RD_REQUESTS");
	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_EQ_INT(uncore_metric_describe(cat, d, desc, sizeof(desc)), 0);
	CHECK_CONTAINS(desc, "[fraction, double]");
	CHECK_CONTAINS(desc, "HSX 2.6.6: RPQ_INSERTS / (RPQ_INSERTS + WPQ_INSERTS)");
	CHECK_CONTAINS(desc, "measured as: RPQ_INSERTS / (RPQ_INSERTS + CAS_COUNT.WR)");
	CHECK_CONTAINS(desc, "Decision: The iMC has no WPQ_INSERTS");
	d = uncore_metric_def_find(cat, "cbo", "LLC_MPI_UNCORE_PART");
	CHECK(d != NULL);
	if (d) {
		uncore_metric_describe(cat, d, desc, sizeof(desc));
		CHECK_CONTAINS(desc, "INST_RETIRED.ALL");
		CHECK_CONTAINS(desc, "PAPI_TOT_INS");
	}
	struct uncore_metric_ref r;
	CHECK_EQ_INT(uncore_metric_parse(cat->plat, "HSWEP_METRIC::dram_bw:socket=1", &r), 0);
	CHECK_EQ_INT(r.socket, 1);
	CHECK_EQ_STR(r.def->name, "DRAM_BW");
	CHECK(uncore_metric_group_find(cat, "mem") != NULL);
	CHECK(uncore_metric_group_find(cat, "NOPE") == NULL);
	CHECK_CONTAINS(uncore_error_detail(), "MEM, LLC, QPI, IO, POWER");
}

TEST(a_metric_whose_boxes_the_machine_lacks_is_refused_with_the_reason)
{
	const struct uncore_event_platform *plat = uncore_event_platform_by_name("hswep");
	const struct uncore_metric_catalog *cat;
	CHECK_EQ_INT(uncore_metric_catalog_get(plat, &cat), 0);
	if (!cat)
		return;
	/* A one-socket machine: no QPI port has a PMON. */
	struct uncore_machine m = test_full_machine(plat, 1);
	const struct uncore_box_type *qpi = uncore_metric_box(cat, "qpi");
	int b = uncore_machine_box_index(&m, qpi);
	CHECK(b >= 0);
	if (b < 0)
		return;
	memset(&m.present[b][0], 0, sizeof(m.present[b][0]));
	struct uncore_metric_ref r;
	CHECK_EQ_INT(uncore_metric_parse(plat, "hswep_metric::QPI_UTIL", &r), 0);
	struct uncore_mset *ms = NULL;
	unsigned failed = 9;
	CHECK_EQ_INT(uncore_mset_compile(&m, &r, 1, NULL, 0, &ms, &failed), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "hswep_metric::QPI_UTIL");
	CHECK_CONTAINS(uncore_error_detail(), "needs hswep_unc_qpi boxes");
	CHECK_EQ_INT(failed, 0);
	uncore_mset_free(ms);
	/* The other metrics of the set are unaffected. */
	CHECK_EQ_INT(uncore_metric_parse(plat, "hswep_metric::DRAM_BW", &r), 0);
	CHECK_EQ_INT(uncore_mset_compile(&m, &r, 1, NULL, 0, &ms, &failed), 0);
	uncore_mset_free(ms);
}

/* A formula whose names do not resolve is refused naming the name and,
 * where there is a list to choose from, the list: the event, the unit
 * mask (with the event's unit masks), the register and its field (with
 * the register's fields), a value too wide for its field, one register
 * set twice to different values, a box kind the platform lacks. */
TEST(formula_names_that_do_not_resolve_are_refused_naming_them)
{
	static const struct {
		const char *formula, *detail;
		int code;
	} rows[] = {
	    {"NO_SUCH_EVENT", "NO_SUCH_EVENT is not an event of the cbo boxes", UNCORE_ENOEVENT},
	    {"LLC_LOOKUP.NO_SUCH_UMASK", "DATA_READ", UNCORE_ENOUMASK},
	    {"LLC_LOOKUP.DATA_READ with:NOREG.x=1", "unknown register NOREG", UNCORE_ENOEVENT},
	    {"LLC_LOOKUP.DATA_READ with:R0.nosuch=1", "has no field nosuch (fields: state, tid)",
	     UNCORE_ENOEVENT},
	    {"LLC_LOOKUP.DATA_READ with:R.nosuch=1", "no register of R has a field nosuch",
	     UNCORE_ENOEVENT},
	    {"LLC_LOOKUP.DATA_READ with:R0.tid=0x40", "value 0x40 does not fit R0.tid",
	     UNCORE_ERANGE},
	    {"LLC_LOOKUP.DATA_READ with:{R0.state=1, R0.state=2}",
	     "R0 set twice to different values", UNCORE_ECONFLICT},
	};
	const struct uncore_event_platform *plat = uncore_event_platform_by_name("hswep");
	struct uncore_machine m = test_full_machine(plat, 2);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char text[1024];
		harness_row = rows[i].formula;
		snprintf(text, sizeof(text),
			 "platform hswep\nmanual HSX\n"
			 "register R0 cbo filter=0\nfield R0.state 23:17 raw\nfield R0.tid 5:0\n"
			 "register R1 cbo filter=1\nfield R1.nid 15:0\nalias R R0,R1\n"
			 "metric M\n\tbox cbo\n\tsection 1\n\ttitle t\n\tunits u\n"
			 "\tformula %s\n",
			 rows[i].formula);
		struct uncore_metric_catalog *c = NULL;
		CHECK_EQ_INT(uncore_metric_catalog_parse("t.metrics", text, &c), 0);
		if (!c) {
			fprintf(stderr, "  %s\n", uncore_error_detail());
			continue;
		}
		struct uncore_metric_ref r = {
		    .cat = c, .def = &c->defs[0], .socket = UNCORE_ALL, .instance = UNCORE_ALL};
		struct uncore_mset *ms = NULL;
		unsigned failed = 9;
		CHECK_EQ_INT(uncore_mset_compile(&m, &r, 1, NULL, 0, &ms, &failed), rows[i].code);
		CHECK_CONTAINS(uncore_error_detail(), rows[i].detail);
		uncore_mset_free(ms);
		uncore_metric_catalog_free(c);
	}
	harness_row = NULL;
}

/* With more terms than a box has counters, the settings (phases) keep each
 * metric's terms of the box together where they fit together, so that a
 * ratio or a sum counts over the same time, and never need a setting more
 * for it: on Sapphire Rapids, LLC_MISS_LATENCY's 3 CHA terms beside
 * IO_WRITE_BW's 2 (first fit term by term would split IO_WRITE_BW over
 * both settings), and with IO_READ_BW too (6 terms, 4 counters: 2
 * settings); Ice Lake-SP's IO group (2 + 4 TOR terms: 2 settings). */
static void check_settings(const char *plat_name, const char *const *names, unsigned n,
			   unsigned want_period)
{
	const struct uncore_event_platform *plat = uncore_event_platform_by_name(plat_name);
	REQUIRE(plat != NULL);
	struct uncore_machine m = test_full_machine(plat, 1);
	struct uncore_metric_ref refs[8];
	for (unsigned k = 0; k < n; k++)
		REQUIRE(uncore_metric_parse(plat, names[k], &refs[k]) == 0);
	struct uncore_mset *ms = NULL;
	unsigned failed;
	harness_row = names[n - 1];
	REQUIRE(uncore_mset_compile(&m, refs, n, NULL, 0, &ms, &failed) == 0);
	const struct uncore_metric_evinfo *in = uncore_mset_evinfo(ms);
	unsigned period = 1;
	for (unsigned e = 0; e < uncore_mset_nevents(ms); e++)
		if (in[e].period > period)
			period = in[e].period;
	CHECK_EQ_INT(period, want_period);
	for (unsigned k = 0; k < n; k++) {
		int phase = -1, split = 0;
		for (unsigned e = 0; e < uncore_mset_nevents(ms); e++) {
			if (in[e].period < 2 || !uncore_mset_uses_term(ms, k, in[e].term))
				continue;
			if (phase >= 0 && phase != in[e].phase)
				split = 1;
			phase = in[e].phase;
		}
		harness_row = names[k];
		CHECK_EQ_INT(split, 0);
	}
	harness_row = NULL;
	uncore_mset_free(ms);
}

TEST(a_metrics_terms_share_one_setting)
{
	const char *spr2[] = {"spr_metric::LLC_MISS_LATENCY", "spr_metric::IO_WRITE_BW"};
	check_settings("spr", spr2, 2, 2);
	const char *spr3[] = {"spr_metric::LLC_MISS_LATENCY", "spr_metric::IO_READ_BW",
			      "spr_metric::IO_WRITE_BW"};
	check_settings("spr", spr3, 3, 2);
	const char *icx[] = {"icx_metric::IO_READ_BW", "icx_metric::IO_WRITE_BW"};
	check_settings("icx", icx, 2, 2);
}

int main(void)
{
	RUN(a_platform_parses_its_own_file_only);
	RUN(every_builtin_file_parses);
	RUN(every_metric_compiles_on_a_full_machine);
	RUN(registers_of_the_notation_fit_their_box_filters);
	RUN(every_group_is_one_schedulable_event_set);
	RUN(file_format_rules);
	RUN(descriptions_carry_units_formula_and_decisions);
	RUN(a_metric_whose_boxes_the_machine_lacks_is_refused_with_the_reason);
	RUN(formula_names_that_do_not_resolve_are_refused_naming_them);
	RUN(a_metrics_terms_share_one_setting);
	return harness_done();
}
