/* Every event of the Skylake client, Nehalem and Xeon 7100/7400 tables,
 * with each of its unit masks, programmed on its generation's simulator
 * through the one direct engine, and the control value the audit log shows
 * checked against the table row itself (code, ucode, the other groups'
 * defaults): the manual's bits, as audited in libpfm4-events/ against the
 * specifications, reach the register unchanged, with the local enable
 * where the register has one.  And every write of all those sessions lies
 * in the generation's PMON MSR table (platform/msr_ranges.h: the manual's
 * register list with its writable bits): no write elsewhere, no MMIO or PCI
 * write at all. */
#include "events/pfm_compat.h"
#include "events/registry.h"
#include "harness.h"
#include "platform/msr_ranges.h"
#include "platform/nhm/nhm_regs.h"
#include "platform/skl/skl_regs.h"
#include "sim_env.h"

#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

struct write {
	char space[8];
	unsigned socket;
	uint64_t addr, value;
};

/* The writes logged since offset *pos. */
static unsigned logged_writes(const char *path, long *pos, struct write *w, unsigned max)
{
	FILE *f = fopen(path, "r");
	unsigned n = 0;
	char line[512];
	if (!f)
		return 0;
	fseek(f, *pos, SEEK_SET);
	while (fgets(line, sizeof(line), f)) {
		struct write x;
		memset(&x, 0, sizeof(x));
		if (sscanf(
			line,
			"{\"op\":\"wr\",\"socket\":%u,\"space\":\"%7[a-z]\",\"addr\":\"0x%" SCNx64
			"\",\"value\":\"0x%" SCNx64 "\"",
			&x.socket, x.space, &x.addr, &x.value) == 4 &&
		    n < max)
			w[n++] = x;
		else if (strstr(line, "\"op\":\"wr\"") && n < max) /* PCI or malformed: keep it */
			snprintf(w[n++].space, sizeof(w[0].space), "?");
	}
	*pos = ftell(f);
	fclose(f);
	return n;
}

/* The umasks an event is given with umask u: u, and the first umask of
 * every other group that has no default (a required choice, e.g. the
 * source and the opcode of UNC_ADDR_OPCODE_MATCH). */
static unsigned chosen_umasks(const intel_x86_entry_t *e, const intel_x86_umask_t *u,
			      const intel_x86_umask_t **out)
{
	unsigned n = 0;
	if (!u)
		return 0;
	out[n++] = u;
	for (unsigned g = 0; g < e->ngrp; g++) {
		int has_dfl = 0, first = -1;
		for (unsigned i = 0; i < e->numasks; i++)
			if (e->umasks[i].grpid == g) {
				has_dfl |= !!(e->umasks[i].uflags & INTEL_X86_DFL);
				if (first < 0)
					first = (int)i;
			}
		if (g != u->grpid && !has_dfl && first >= 0)
			out[n++] = &e->umasks[first];
	}
	return n;
}

/* The control image the table gives for event e with umasks um[0..n). */
static uint64_t table_image(const struct uncore_box_type *b, const intel_x86_entry_t *e,
			    const intel_x86_umask_t *const *um, unsigned n)
{
	uint64_t img = e->code;
	for (unsigned k = 0; k < n; k++)
		img = (um[k]->uflags & INTEL_X86_CODE_OVERRIDE) ? um[k]->ucode : img | um[k]->ucode;
	/* Whole-image boxes (EMON) also carry the other groups' defaults. */
	if (b->flags & UNCORE_BOXF_UCODE_WHOLE)
		for (unsigned i = 0; i < e->numasks; i++) {
			const intel_x86_umask_t *w = &e->umasks[i];
			if ((w->uflags & INTEL_X86_DFL) && (!n || w->grpid != um[0]->grpid))
				img |= w->ucode;
		}
	return img << b->code_shift;
}

struct gen {
	const char *model, *platform;
	uint64_t fixed_enable; /* the fixed counter's enable bit */
	unsigned events, writes;
};

static int in_table(const struct uncore_msr_table *t, const struct write *w)
{
	for (size_t i = 0; i < uncore_msr_table_count(t); i++) {
		uint32_t msr;
		uint64_t mask;
		const struct uncore_msr_range *r;
		uncore_msr_table_get(t, i, &msr, &mask, &r);
		if (msr == w->addr)
			return (w->value & ~mask) == 0;
	}
	return 0;
}

static void one_event(struct gen *g, struct env *e, const char *log, long *pos,
		      const struct uncore_box_type *b, const intel_x86_entry_t *ev,
		      const intel_x86_umask_t *u, const struct uncore_msr_table *t)
{
	char name[160];
	const intel_x86_umask_t *um[8];
	unsigned nu = chosen_umasks(ev, u, um);
	int len = snprintf(name, sizeof(name), "%s::%s", b->name, ev->name);
	uint64_t filter = 0;
	for (unsigned k = 0; k < nu; k++) {
		len += snprintf(name + len, sizeof(name) - (size_t)len, ":%s", um[k]->uname);
		filter |= um[k]->ufilters[0]; /* Nehalem: the whole value (UFILTER_VALUE) */
	}
	harness_row = name;
	const char *names[] = {name};
	int rc = uncore_set_assign(e->set, names, 1);
	if (rc == 0)
		rc = uncore_set_start(e->set);
	if (rc == 0)
		rc = uncore_set_stop(e->set, NULL);
	if (rc < 0) {
		HARNESS_FAIL_AT("%s: %s", uncore_strerror(rc), uncore_error_detail());
		return;
	}
	g->events++;
	struct write w[64];
	unsigned n = logged_writes(log, pos, w, 64);
	g->writes += n;
	for (unsigned i = 0; i < n; i++)
		if (strcmp(w[i].space, "msr") || !in_table(t, &w[i]))
			HARNESS_FAIL_AT("write outside the %s PMON table: %s 0x%" PRIx64
					" <- 0x%" PRIx64,
					g->platform, w[i].space, w[i].addr, w[i].value);
	if (b->flags & UNCORE_BOXF_FREERUN) {
		CHECK_EQ_INT(n, 0);
		return;
	}
	int fixed = (ev->cntmsk & b->cntmsk_fixed) && !(ev->cntmsk & ~b->cntmsk_fixed);
	uint64_t want =
	    fixed ? g->fixed_enable : table_image(b, ev, um, nu) | (b->ctl ? b->ctl->en : 0);
	int seen = 0;
	for (unsigned i = 0; i < n; i++)
		seen |= w[i].value == want;
	if (!seen)
		HARNESS_FAIL_AT("no control write of 0x%" PRIx64 " (the table's bits)", want);
	/* A match value of the table reaches its filter register (guide
	 * tables 28, 37/38: MSR 301h for event 0Ch, 396h for 35h). */
	if (filter) {
		uint64_t msr = ev->code == 0x0c ? NHM_MSR_UNCORE_GQ_SNOOP_MESF
						: NHM_MSR_UNCORE_ADDR_OPCODE_MATCH;
		int fseen = 0;
		for (unsigned i = 0; i < n; i++)
			fseen |= w[i].addr == msr && w[i].value == filter;
		if (!fseen)
			HARNESS_FAIL_AT("no write of the table's match value 0x%" PRIx64
					" to MSR 0x%" PRIx64,
					filter, msr);
	}
}

TEST(every_event_programmed_with_the_tables_bits_and_only_pmon_writes)
{
	struct gen gens[] = {
	    {"i7-6700k", "skl", SKL_UNC_FIXED_CTRL_CNT_EN, 0, 0},
	    {"x5570-2s", "nhm", NHM_FIXED_CTRL_EN, 0, 0},
	    {"x7460-4s", "x7400", 0, 0, 0},
	    {"x7140m-4s", "x7100", 0, 0, 0},
	};
	for (size_t gi = 0; gi < sizeof(gens) / sizeof(gens[0]); gi++) {
		struct gen *g = &gens[gi];
		struct env e;
		char log[64];
		long pos = 0;
		snprintf(log, sizeof(log), "/tmp/uncore-gen-%d.jsonl", (int)getpid());
		unlink(log);
		harness_row = g->model;
		CHECK_EQ_INT(env_open(&e, g->model, NULL), 0);
		if (!e.be)
			continue;
		CHECK_EQ_INT(uncore_sim_set_log(e.sim, log), 0);
		const struct uncore_msr_table *t = uncore_msr_table_for(g->platform);
		CHECK(t != NULL);
		const struct uncore_event_platform *p = e.be->machine.plat;
		CHECK_EQ_STR(p->name, g->platform);
		unsigned rows = 0;
		for (unsigned bi = 0; t && bi < p->nboxes; bi++) {
			const struct uncore_box_type *b = p->boxes[bi];
			for (unsigned k = 0; k < b->nevents; k++) {
				const intel_x86_entry_t *ev = &b->events[k];
				rows += ev->numasks ? ev->numasks : 1;
				if (!ev->numasks)
					one_event(g, &e, log, &pos, b, ev, NULL, t);
				for (unsigned u = 0; u < ev->numasks; u++)
					one_event(g, &e, log, &pos, b, ev, &ev->umasks[u], t);
			}
		}
		harness_row = g->model;
		CHECK_EQ_INT(g->events, rows);
		CHECK(g->writes > 0);
		env_close(&e);
		unlink(log);
	}
	harness_row = NULL;
}

int main(void)
{
	RUN(every_event_programmed_with_the_tables_bits_and_only_pmon_writes);
	return harness_done();
}
