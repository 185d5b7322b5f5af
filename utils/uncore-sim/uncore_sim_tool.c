/* uncore-sim: command-line front end of the Haswell-EP uncore simulator -
 * list the models, create and destroy shared instances, load scenarios,
 * advance time, read and write registers, dump them human-readably, inject
 * faults, tail the audit log, or run a scenario in one go.  See README.md. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "access/regio.h"
#include "common/uncore_error.h"
#include "common/version.h"
#include "platform/cpu.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"
#include "platform/platform.h"
#include "sim/uncore_sim.h"

static int usage(FILE *f)
{
	fprintf(f,
		"usage: uncore-sim <command> [arguments]   (uncore-sim --version: the release)\n"
		"  models [-v]                         list the machine models\n"
		"  platform [-m MODEL | -k KERNEL]     the generation MODEL, simulated kernel KERNEL\n"
		"                                      (or this machine's CPU) is, as key=value lines\n"
		"                                      (scripts/first-machine.sh)\n"
		"  create <inst> [-m MODEL] [-s SCN] [-l LOG] [--wall]\n"
		"                                      create a shared instance (default model "
		"e5-2699v3-2s)\n"
		"  destroy <inst>                      remove an instance\n"
		"  scenario <inst> <file.scn>          load a scenario\n"
		"  advance <inst> <time>               advance virtual time (ns, us, ms, s)\n"
		"  clock <inst> virtual|wall           choose how time moves\n"
		"  read <inst> msr <socket> <addr>     read a register (logged like any access)\n"
		"  read <inst> pci <bb:dd.f> <offset>\n"
		"  write <inst> msr <socket> <addr> <value>\n"
		"  write <inst> pci <bb:dd.f> <offset> <value>\n"
		"  dump <inst> [-S SOCKET] [-a] [BOX...]  show registers (BOX: ubox cbo sbo ha imc "
		"irp pcu qpi r2pcie r3qpi)\n"
		"  log <inst> [-n LINES] [-f]          show the audit log's tail (-f: follow)\n"
		"  log <inst> --set FILE | --off       start or stop the audit log\n"
		"  fault <inst> [--space msr|pci] [--op rd|wr] [--socket S] [--bdf bb:dd.f] "
		"[--addr A]\n"
		"               [--nth N] [--count C] [--error EIO|EACCES|ENODEV] | --clear\n"
		"  run [-m MODEL] -s SCN [-t TIME] [-p BOX:CTL ...] [-a]\n"
		"                                      run a scenario on a private machine: "
		"program counter\n"
		"                                      k of every BOX instance with the k-th -p "
		"value, advance,\n"
		"                                      dump those boxes\n"
		"<inst> is a path, or a name for /dev/shm/uncore-sim-<name>.\n");
	return f == stderr ? 2 : 0;
}

static int fail(const char *what, int rc)
{
	fprintf(stderr, "uncore-sim: %s: %s (%s)%s%s\n", what, uncore_strerror(rc),
		uncore_error_name(rc), uncore_error_detail()[0] ? ": " : "", uncore_error_detail());
	return 1;
}

static const char *inst_path(const char *name, char *buf, size_t len)
{
	if (strchr(name, '/'))
		return name;
	snprintf(buf, len, "/dev/shm/uncore-sim-%s", name);
	return buf;
}

static int open_inst(const char *name, struct uncore_sim **sim)
{
	char buf[512];
	int rc = uncore_sim_open(inst_path(name, buf, sizeof(buf)), sim);
	return rc ? fail(name, rc) : 0;
}

/* dump and run show Haswell-EP boxes; other models are read register by
 * register.  0, or 2 after saying so. */
static int hswep_only(struct uncore_sim *sim, const char *cmd)
{
	struct uncore_sim_topology t;
	if (uncore_sim_topology(sim, &t) != 0)
		return 0;
	for (size_t i = 0; i < uncore_sim_model_count(); i++) {
		const struct uncore_sim_model_info *m = uncore_sim_model(i);
		if (!strcmp(m->name, t.model) && m->flat) {
			fprintf(stderr,
				"uncore-sim: %s shows Haswell-EP boxes; model %s (platform %s) has "
				"no boxes: read its registers with `read <inst> msr <socket> "
				"<addr>`\n",
				cmd, m->name, m->platform);
			return 2;
		}
	}
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || !*s || *end)
		return -1;
	*v = x;
	return 0;
}

static int parse_ns(const char *s, uint64_t *ns)
{
	char *end;
	double v = strtod(s, &end);
	double mul = 1;
	if (end == s || v < 0)
		return -1;
	if (!strcmp(end, "s"))
		mul = 1e9;
	else if (!strcmp(end, "ms"))
		mul = 1e6;
	else if (!strcmp(end, "us"))
		mul = 1e3;
	else if (*end && strcmp(end, "ns"))
		return -1;
	*ns = (uint64_t)(v * mul + 0.5);
	return 0;
}

static int parse_bdf(const char *s, uint32_t *bdf)
{
	unsigned b, d, f;
	char tail;
	if (sscanf(s, "%x:%x.%x%c", &b, &d, &f, &tail) != 3 || b > 255 || d > 31 || f > 7)
		return -1;
	*bdf = UNCORE_BDF(b, d, f);
	return 0;
}

/* "msr <socket> <addr>" or "pci <bb:dd.f> <offset>" at argv[0..2]. */
static int parse_reg(char **argv, struct uncore_reg *r)
{
	uint64_t a, b;
	memset(r, 0, sizeof(*r));
	if (!strcmp(argv[0], "msr")) {
		if (parse_u64(argv[1], &a) || parse_u64(argv[2], &b) || a > 7)
			return -1;
		*r = (struct uncore_reg){
		    .space = UNCORE_SPACE_MSR, .width = 8, .socket = (uint16_t)a, .addr = b};
		return 0;
	}
	if (!strcmp(argv[0], "pci")) {
		uint32_t bdf;
		if (parse_bdf(argv[1], &bdf) || parse_u64(argv[2], &b))
			return -1;
		*r = (struct uncore_reg){
		    .space = UNCORE_SPACE_PCI, .width = 4, .bdf = bdf, .addr = b};
		return 0;
	}
	return -1;
}

static int cmd_models(int argc, char **argv)
{
	int verbose = argc > 1 && !strcmp(argv[1], "-v");
	static const char *clk[] = {"UCLK", "DCLK", "PCLK", "QFCLK", "TSC"};
	for (size_t i = 0; i < uncore_sim_model_count(); i++) {
		const struct uncore_sim_model_info *m = uncore_sim_model(i);
		printf("%-14s %-17s %s\n", m->name, m->sku, m->description);
		if (!verbose)
			continue;
		if (m->flat) {
			/* A flat PMU: its platform and the clocks of its units. */
			struct uncore_sim *fs;
			struct uncore_sim_topology t;
			int rc = uncore_sim_create(m->name, NULL, &fs);
			if (rc)
				return fail(m->name, rc);
			uncore_sim_topology(fs, &t);
			printf("    platform: %s; clocks:", m->platform);
			for (unsigned c = 0; c < HSWEP_CLK_TSC && t.clock_hz[c]; c++)
				printf(" %.6g GHz", (double)t.clock_hz[c] / 1e9);
			printf("; TSC %.6g GHz", (double)t.clock_hz[HSWEP_CLK_TSC] / 1e9);
			printf("\n");
			uncore_sim_close(fs);
			continue;
		}
		struct uncore_sim *sim;
		int rc = uncore_sim_create(m->name, NULL, &sim);
		if (rc)
			return fail(m->name, rc);
		struct uncore_sim_topology t;
		uncore_sim_topology(sim, &t);
		printf("    clocks:");
		for (unsigned c = 0; c < HSWEP_CLOCKS; c++)
			printf(" %s %.6g GHz", clk[c], (double)t.clock_hz[c] / 1e9);
		printf("\n    boxes: ");
		for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++)
			printf(" %s %d (0x%x)", hswep_box(k)->name,
			       __builtin_popcount(t.present[k]), t.present[k]);
		printf("\n    iMC channels populated: 0x%x\n", t.populated_imc);
		uncore_sim_close(sim);
	}
	return 0;
}

/* The generation a model stands for (-m MODEL: a model or a shared
 * instance) or this machine's CPU is, from its platform object, for
 * scripts: name=, description= (the generation whose description it takes:
 * a cousin's, e.g. wsm's nhm), backend= (direct, or kernel: counted
 * through the kernel's PMUs only), title=, and each preset's first event
 * (PAPI_UNC_DRAM_RD_BYTES=...), pci_ids= (a cousin's PCI device IDs where
 * they differ from its description's, "described:own" pairs); name=none
 * where papi-uncore has no tables,
 * with why= where the processor looks like one it has and is not. */
/* The kit's string field at `off` of `p` (platform.h): its own, else its
 * description's; NULL when neither has one. */
static const char *kit_str(const struct uncore_platform *p, size_t off)
{
	const struct uncore_platform *d = uncore_platform_description(p);
	const char *v = p->kit ? *(const char *const *)((const char *)p->kit + off) : NULL;
	if (!v && d->kit)
		v = *(const char *const *)((const char *)d->kit + off);
	return v;
}

/* Print `key=` and the blank-separated words of `v`, each preset symbol
 * (with what follows it: ":socket=0") as that preset's event in p's own
 * tables.  Returns 0, or 1 naming the symbol p has no preset of. */
static int print_events(const struct uncore_platform *p, const char *key, const char *v)
{
	printf("%s=", key);
	int bad = 0;
	for (const char *w = v; *w;) {
		size_t n = strcspn(w, " ");
		if (n) {
			size_t sym = strcspn(w, ": ");
			const char *ev = NULL;
			for (unsigned i = 0; i < p->npresets && !strncmp(w, "PAPI_", 5); i++)
				if (strlen(p->presets[i].symbol) == sym &&
				    !strncmp(p->presets[i].symbol, w, sym))
					ev = p->presets[i].events[0];
			if (!strncmp(w, "PAPI_", 5) && !ev) {
				fprintf(stderr, "uncore-sim: %s: no preset %.*s\n", p->name, (int)sym, w);
				bad = 1;
			}
			printf("%s%s%.*s", w == v ? "" : " ", ev ? ev : "", (int)(ev ? n - sym : n),
			       ev ? w + sym : w);
		}
		w += n;
		w += strspn(w, " ");
	}
	printf("\n");
	return bad;
}

/* The first-machine checklist's facts of p (platform.h, struct
 * uncore_platform_kit), a cousin's merged with its description's. */
static int print_kit(const struct uncore_platform *p)
{
	static const struct {
		const char *key;
		size_t off;
		int events;
	} strs[] = {
	    {"sim_scenario", offsetof(struct uncore_platform_kit, sim_scenario), 0},
	    {"uclk", offsetof(struct uncore_platform_kit, uclk), 1},
	    {"dclk", offsetof(struct uncore_platform_kit, dclk), 1},
	    {"dram_reads", offsetof(struct uncore_platform_kit, dram_reads), 1},
	    {"box_events", offsetof(struct uncore_platform_kit, box_events), 1},
	    {"backends", offsetof(struct uncore_platform_kit, backends), 0},
	    {"perf_dram_reads", offsetof(struct uncore_platform_kit, perf_dram_reads), 0},
	    {"facts", offsetof(struct uncore_platform_kit, facts), 0},
	};
	const char *pf = kit_str(p, offsetof(struct uncore_platform_kit, pci_functions));
	if (pf) { /* each ID as p's own (a cousin's pci_ids) */
		printf("pci_functions=");
		for (const char *w = pf; *w;) {
			unsigned id;
			int used = 0;
			size_t n = strcspn(w, " ");
			if (n && sscanf(w, "%4x%n", &id, &used) == 1 && used == 4)
				printf("%s%04x%.*s", w == pf ? "" : " ",
				       (unsigned)uncore_pci_device_id(p, (uint16_t)id), (int)(n - 4), w + 4);
			w += n;
			w += strspn(w, " ");
		}
		printf("\n");
	}
	int bad = 0;
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		const char *v = kit_str(p, strs[i].off);
		if (!v)
			continue;
		if (strs[i].events)
			bad |= print_events(p, strs[i].key, v);
		else
			printf("%s=%s\n", strs[i].key, v);
	}
	const struct uncore_platform *d = uncore_platform_description(p);
	unsigned mhz = p->kit && p->kit->dclk_mhz_max ? p->kit->dclk_mhz_max
			: d->kit ? d->kit->dclk_mhz_max : 0;
	if (mhz)
		printf("dclk_mhz_max=%u\n", mhz);
	printf("sim_perf=%s\n", uncore_platform_sim_perf(p) ? "yes" : "no");
	return bad;
}

static int cmd_platform(int argc, char **argv)
{
	const struct uncore_platform *p;
	char what[256];
	const char *why = ""; /* "; model ... is not supported: ..." (cpu.h) */
	if (argc == 3 && !strcmp(argv[1], "-m")) {
		const char *name = uncore_sim_platform_of(argv[2]);
		if (!name) {
			fprintf(stderr, "uncore-sim: no model or instance %s (uncore-sim models)\n",
				argv[2]);
			return 2;
		}
		p = uncore_platform_by_name(name);
		snprintf(what, sizeof(what), "the simulator's model %s", argv[2]);
	} else if (argc == 3 && !strcmp(argv[1], "-k")) {
		/* The generation a simulated kernel (--sim-kernel) stands for. */
		p = NULL;
		for (unsigned i = 0; uncore_platform_at(i) && !p; i++)
			if (uncore_platform_at(i)->sim_kernel &&
			    !strcmp(uncore_platform_at(i)->sim_kernel, argv[2]))
				p = uncore_platform_at(i);
		if (!p) {
			fprintf(stderr, "uncore-sim: no generation has the simulated kernel %s\n",
				argv[2]);
			return 2;
		}
	} else if (argc == 1) {
		struct uncore_cpu_id cpu;
		int rc = uncore_cpu_identify(&cpu);
		if (rc)
			return fail("platform", rc);
		p = uncore_platform_for_cpu(&cpu);
		uncore_cpu_describe(&cpu, what, sizeof(what));
		why = uncore_platform_near_miss(&cpu);
	} else {
		return usage(stderr);
	}
	if (!p) {
		printf("name=none\ndescription=none\ntitle=%s\n", what);
		if (why[0])
			printf("why=%s\n", why + 2);
		return 0;
	}
	printf("name=%s\ndescription=%s\nbackend=%s\ntitle=%s\n", p->name,
	       uncore_platform_description(p)->name, p->direct ? "direct" : "kernel", p->title);
	for (unsigned i = 0; i < p->npresets; i++)
		printf("%s=%s\n", p->presets[i].symbol, p->presets[i].events[0]);
	if (p->pci_ids) {
		printf("pci_ids=");
		for (const uint16_t(*id)[2] = p->pci_ids; (*id)[0]; id++)
			printf("%s%04x:%04x", id == p->pci_ids ? "" : " ", (*id)[0], (*id)[1]);
		printf("\n");
	}
	return print_kit(p) ? 1 : 0;
}

static int cmd_create(int argc, char **argv)
{
	static const struct option opts[] = {{"model", 1, 0, 'm'},
					     {"scenario", 1, 0, 's'},
					     {"log", 1, 0, 'l'},
					     {"wall", 0, 0, 'w'},
					     {0, 0, 0, 0}};
	const char *model = "e5-2699v3-2s", *scn = NULL, *log = NULL;
	int wall = 0, c;
	while ((c = getopt_long(argc, argv, "m:s:l:w", opts, NULL)) != -1) {
		if (c == 'm')
			model = optarg;
		else if (c == 's')
			scn = optarg;
		else if (c == 'l')
			log = optarg;
		else if (c == 'w')
			wall = 1;
		else
			return usage(stderr);
	}
	if (optind != argc - 1)
		return usage(stderr);
	char buf[512];
	const char *path = inst_path(argv[optind], buf, sizeof(buf));
	struct uncore_sim *sim;
	int rc = uncore_sim_create(model, path, &sim);
	if (rc)
		return fail(path, rc);
	if ((scn && (rc = uncore_sim_load_scenario(sim, scn))) ||
	    (log && (rc = uncore_sim_set_log(sim, log))) ||
	    (wall && (rc = uncore_sim_set_clock(sim, UNCORE_SIM_CLOCK_WALL)))) {
		uncore_sim_destroy(sim);
		return fail(scn ? scn : path, rc);
	}
	char desc[256];
	uncore_sim_describe(sim, desc, sizeof(desc));
	printf("%s\ninstance: %s\n", desc, path);
	uncore_sim_close(sim);
	return 0;
}

static const char *flags_of(enum hswep_box_kind kind, uint64_t ctl, char *buf, size_t len)
{
	struct {
		uint64_t bit;
		const char *name;
	} f[] = {{HSWEP_PMON_CTL_EN, "en"},         {HSWEP_PMON_CTL_OV_EN, "ov_en"},
		 {HSWEP_PMON_CTL_EDGE_DET, "edge"}, {HSWEP_PMON_CTL_INVERT, "inv"},
		 {HSWEP_PMON_CTL_RST, "rst"},       {HSWEP_PMON_CTL_TID_EN, "tid_en"},
		 {HSWEP_PMON_CTL_EV_SEL_EXT, "ext"}};
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (!(ctl & f[i].bit))
			continue;
		if ((f[i].bit == HSWEP_PMON_CTL_TID_EN && kind != HSWEP_BOX_CBO &&
		     kind != HSWEP_BOX_SBO) ||
		    (f[i].bit == HSWEP_PMON_CTL_EV_SEL_EXT && kind != HSWEP_BOX_QPI &&
		     kind != HSWEP_BOX_PCU))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " %s", f[i].name);
	}
	return buf;
}

static int peek(struct uncore_sim *sim, const struct hswep_box_desc *d, unsigned inst,
		enum hswep_reg_kind rk, unsigned idx, unsigned socket, unsigned bus, uint64_t *v)
{
	struct uncore_reg r;
	if (hswep_reg(d, inst, rk, idx, socket, bus, &r))
		return -1;
	if (r.space == UNCORE_SPACE_PCI && (rk == HSWEP_REG_CTR || rk == HSWEP_REG_FIXED_CTR))
		r.width = 8;
	return uncore_sim_peek(sim, &r, v);
}

static void dump_box(struct uncore_sim *sim, const struct hswep_box_desc *d, unsigned inst,
		     unsigned socket, unsigned bus, int all)
{
	uint64_t ctl[HSWEP_MAX_COUNTERS] = {0}, ctr[HSWEP_MAX_COUNTERS] = {0}, box = 0, st = 0;
	uint64_t fctl = 0, fctr = 0, filt[HSWEP_MAX_FILTERS] = {0}, extra[HSWEP_MAX_EXTRAS] = {0};
	int any = 0;
	for (unsigned k = 0; k < d->num_counters; k++) {
		peek(sim, d, inst, HSWEP_REG_CTL, k, socket, bus, &ctl[k]);
		peek(sim, d, inst, HSWEP_REG_CTR, k, socket, bus, &ctr[k]);
		any |= ctl[k] || ctr[k];
	}
	if (peek(sim, d, inst, HSWEP_REG_BOX_CTL, 0, socket, bus, &box) == 0)
		any |= box != 0;
	if (peek(sim, d, inst, HSWEP_REG_BOX_STATUS, 0, socket, bus, &st) == 0)
		any |= st != 0;
	int has_fixed = peek(sim, d, inst, HSWEP_REG_FIXED_CTL, 0, socket, bus, &fctl) == 0 &&
			peek(sim, d, inst, HSWEP_REG_FIXED_CTR, 0, socket, bus, &fctr) == 0;
	any |= fctl || fctr;
	for (unsigned f = 0; f < d->num_filters; f++)
		if (peek(sim, d, inst, HSWEP_REG_FILTER, f, socket, bus, &filt[f]) == 0)
			any |= filt[f] != 0;
	for (unsigned e = 0; e < d->num_extras; e++)
		if (peek(sim, d, inst, HSWEP_REG_EXTRA, e, socket, bus, &extra[e]) == 0)
			any |= extra[e] != 0;
	if (!any && !all)
		return;
	printf("  %s%u", d->name, inst);
	if (d->space == UNCORE_SPACE_PCI) {
		/* The device ID the function answers with: the model's own (a
		 * cousin's differ from the description's, uncore_platform.pci_ids). */
		const struct hswep_pci_fn *fn = &d->pci_fn[HSWEP_FN_PMON][inst];
		struct uncore_reg id = {.space = UNCORE_SPACE_PCI,
					.width = 4,
					.socket = (uint16_t)socket,
					.bdf = UNCORE_BDF(bus, fn->dev, fn->fn)};
		uint64_t v = (uint64_t)fn->did << 16;
		uncore_sim_peek(sim, &id, &v);
		printf(" (%02x:%02x.%x 8086:%04x)", bus, fn->dev, fn->fn, (unsigned)(v >> 16 & 0xffff));
	}
	if (d->box_ctl != HSWEP_NO_REG)
		printf("  box_ctl 0x%" PRIx64 "%s", box,
		       box & HSWEP_PMON_BOX_CTL_FRZ ? " (frozen)" : "");
	printf("  status 0x%" PRIx64 "\n", st);
	char fl[96];
	for (unsigned k = 0; k < d->num_counters; k++)
		printf("    ctl%u 0x%08" PRIx64 "  ev 0x%02" PRIx64 " umask 0x%02" PRIx64
		       " thresh %-3" PRIu64 "%-22s ctr%u %" PRIu64 "\n",
		       k, ctl[k], ctl[k] & 0xff, (ctl[k] >> 8) & 0xff,
		       (ctl[k] >> 24) & ((1u << d->thresh_bits) - 1),
		       flags_of(d->kind, ctl[k], fl, sizeof(fl)), k, ctr[k]);
	if (has_fixed)
		printf("    fixed_ctl 0x%08" PRIx64 "  fixed_ctr %" PRIu64 "\n", fctl, fctr);
	for (unsigned f = 0; f < d->num_filters; f++)
		if (filt[f] || all)
			printf("    %s 0x%" PRIx64 "\n", d->filters[f].name, filt[f]);
	for (unsigned e = 0; e < d->num_extras; e++)
		if (extra[e] || all)
			printf("    %s %" PRIu64 "\n", d->extras[e].name, extra[e]);
}

static void dump(struct uncore_sim *sim, int socket, uint32_t kinds, int all)
{
	struct uncore_sim_topology t;
	uncore_sim_topology(sim, &t);
	char desc[256];
	uncore_sim_describe(sim, desc, sizeof(desc));
	printf("%s; time %" PRIu64 ".%09" PRIu64 " s\n", desc, t.now_ns / 1000000000,
	       t.now_ns % 1000000000);
	for (unsigned s = 0; s < t.sockets; s++) {
		if (socket >= 0 && (unsigned)s != (unsigned)socket)
			continue;
		uint64_t gctl = 0, gst = 0, gcfg = 0;
		struct uncore_reg r = {
		    .space = UNCORE_SPACE_MSR, .width = 8, .socket = (uint16_t)s};
		r.addr = HSWEP_U_MSR_PMON_GLOBAL_CTL;
		uncore_sim_peek(sim, &r, &gctl);
		r.addr = HSWEP_U_MSR_PMON_GLOBAL_STATUS;
		uncore_sim_peek(sim, &r, &gst);
		r.addr = HSWEP_U_MSR_PMON_GLOBAL_CONFIG;
		uncore_sim_peek(sim, &r, &gcfg);
		int frozen = 0;
		uncore_sim_global_frozen(sim, s, &frozen);
		printf("socket %u (bus %02x, root bus %02x, node %u): global ctl 0x%" PRIx64 " status 0x%" PRIx64
		       " config 0x%" PRIx64 "%s\n",
		       s, t.bus[s], t.root_bus[s], t.node_id[s], gctl, gst, gcfg, frozen ? "  FROZEN" : "");
		for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
			if (!(kinds >> k & 1))
				continue;
			for (unsigned i = 0; i < HSWEP_MAX_INSTANCES; i++)
				if (t.present[k] >> i & 1)
					dump_box(sim, hswep_box(k), i, s,
						 hswep_box_bus(hswep_box(k), t.bus[s], t.root_bus[s]),
						 all);
		}
	}
}

static int parse_kinds(int argc, char **argv, int first, uint32_t *kinds)
{
	*kinds = 0;
	for (int i = first; i < argc; i++) {
		const struct hswep_box_desc *d = hswep_box_by_name(argv[i]);
		if (!d) {
			fprintf(stderr, "uncore-sim: unknown box \"%s\"\n", argv[i]);
			return -1;
		}
		*kinds |= 1u << d->kind;
	}
	if (!*kinds)
		*kinds = (1u << HSWEP_BOX_KINDS) - 1;
	return 0;
}

static int cmd_dump(int argc, char **argv)
{
	int socket = -1, all = 0, c;
	while ((c = getopt(argc, argv, "S:a")) != -1) {
		if (c == 'S')
			socket = atoi(optarg);
		else if (c == 'a')
			all = 1;
		else
			return usage(stderr);
	}
	if (optind >= argc)
		return usage(stderr);
	struct uncore_sim *sim;
	if (open_inst(argv[optind], &sim))
		return 1;
	uint32_t kinds;
	int bad = hswep_only(sim, "dump");
	if (bad || parse_kinds(argc, argv, optind + 1, &kinds)) {
		uncore_sim_close(sim);
		return 2;
	}
	dump(sim, socket, kinds, all);
	uncore_sim_close(sim);
	return 0;
}

static int print_tail(const char *path, long lines, int follow)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "uncore-sim: cannot open log %s: %s\n", path, strerror(errno));
		return 1;
	}
	/* Count lines, then skip all but the last `lines`. */
	long total = 0;
	int ch;
	while ((ch = fgetc(f)) != EOF)
		total += ch == '\n';
	rewind(f);
	char line[1024];
	for (long i = 0; fgets(line, sizeof(line), f);)
		if (i++ >= total - lines)
			fputs(line, stdout);
	while (follow) {
		fflush(stdout);
		if (fgets(line, sizeof(line), f))
			fputs(line, stdout);
		else {
			clearerr(f);
			usleep(200000);
		}
	}
	fclose(f);
	return 0;
}

static int cmd_log(int argc, char **argv)
{
	static const struct option opts[] = {{"set", 1, 0, 's'}, {"off", 0, 0, 'o'}, {0, 0, 0, 0}};
	long lines = 20;
	int follow = 0, off = 0, c;
	const char *set = NULL;
	while ((c = getopt_long(argc, argv, "n:f", opts, NULL)) != -1) {
		if (c == 'n')
			lines = atol(optarg);
		else if (c == 'f')
			follow = 1;
		else if (c == 's')
			set = optarg;
		else if (c == 'o')
			off = 1;
		else
			return usage(stderr);
	}
	if (optind != argc - 1)
		return usage(stderr);
	struct uncore_sim *sim;
	if (open_inst(argv[optind], &sim))
		return 1;
	int rc = 0;
	if (set || off) {
		rc = uncore_sim_set_log(sim, off ? NULL : set);
		uncore_sim_close(sim);
		return rc ? fail("log", rc) : 0;
	}
	/* The log path is in the shared state; ask the machine for it. */
	char path[512] = "";
	uncore_sim_log_path(sim, path, sizeof(path));
	uncore_sim_close(sim);
	if (!path[0]) {
		fprintf(stderr, "uncore-sim: logging is off (uncore-sim log <inst> --set FILE)\n");
		return 1;
	}
	return print_tail(path, lines, follow);
}

static int cmd_fault(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"space", 1, 0, 'S'}, {"op", 1, 0, 'o'},  {"socket", 1, 0, 's'}, {"bdf", 1, 0, 'b'},
	    {"addr", 1, 0, 'a'},  {"nth", 1, 0, 'n'}, {"count", 1, 0, 'c'},  {"error", 1, 0, 'e'},
	    {"clear", 0, 0, 'C'}, {0, 0, 0, 0}};
	struct uncore_sim_fault f = {.space = -1,
				     .op = UNCORE_SIM_OP_ANY,
				     .socket = -1,
				     .bdf = -1,
				     .addr = -1,
				     .nth = 1,
				     .count = 0,
				     .error = EIO};
	int clear = 0, c;
	uint64_t v;
	uint32_t bdf;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'S':
			f.space = !strcmp(optarg, "msr")   ? UNCORE_SPACE_MSR
				  : !strcmp(optarg, "pci") ? UNCORE_SPACE_PCI
							   : -2;
			break;
		case 'o':
			f.op = !strcmp(optarg, "rd")   ? UNCORE_SIM_OP_READ
			       : !strcmp(optarg, "wr") ? UNCORE_SIM_OP_WRITE
						       : -2;
			break;
		case 's':
			f.socket = atoi(optarg);
			break;
		case 'b':
			if (parse_bdf(optarg, &bdf))
				return usage(stderr);
			f.bdf = bdf;
			break;
		case 'a':
			if (parse_u64(optarg, &v))
				return usage(stderr);
			f.addr = (int64_t)v;
			break;
		case 'n':
			f.nth = (unsigned)atoi(optarg);
			break;
		case 'c':
			f.count = (unsigned)atoi(optarg);
			break;
		case 'e':
			f.error = !strcmp(optarg, "EIO")      ? EIO
				  : !strcmp(optarg, "EACCES") ? EACCES
				  : !strcmp(optarg, "ENODEV") ? ENODEV
							      : -1;
			break;
		case 'C':
			clear = 1;
			break;
		default:
			return usage(stderr);
		}
	}
	if (optind != argc - 1 || f.space == -2 || f.op == -2)
		return usage(stderr);
	struct uncore_sim *sim;
	if (open_inst(argv[optind], &sim))
		return 1;
	int rc = clear ? uncore_sim_clear_faults(sim) : uncore_sim_inject_fault(sim, &f);
	uncore_sim_close(sim);
	return rc ? fail("fault", rc) : 0;
}

/* Program counter k of every present instance of `kind` on every socket. */
static int program(struct uncore_sim *sim, enum hswep_box_kind kind, unsigned k, uint64_t ctl)
{
	const struct hswep_box_desc *d = hswep_box(kind);
	struct uncore_sim_topology t;
	uncore_sim_topology(sim, &t);
	struct uncore_regio *io = uncore_sim_regio(sim);
	if (k >= d->num_counters) {
		fprintf(stderr, "uncore-sim: %s has %u counters\n", d->name, d->num_counters);
		return -1;
	}
	for (unsigned s = 0; s < t.sockets; s++)
		for (unsigned i = 0; i < d->max_instances; i++) {
			if (!(t.present[kind] >> i & 1))
				continue;
			struct uncore_reg r;
			hswep_reg(d, i, HSWEP_REG_CTL, k, s, hswep_box_bus(d, t.bus[s], t.root_bus[s]),
				  &r);
			/* SBo/R2PCIe/R3QPI erratum: write twice, first with en = 0. */
			int rc = 0;
			if (d->errata & HSWEP_ERRATUM_CTL_WRITE_TWICE)
				rc = uncore_regio_write(io, &r, ctl & ~HSWEP_PMON_CTL_EN);
			if (!rc)
				rc = uncore_regio_write(io, &r, ctl);
			if (rc)
				return fail("program", rc);
		}
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	const char *model = "e5-2699v3-2s", *scn = NULL;
	uint64_t ns = 1000000000;
	unsigned next[HSWEP_BOX_KINDS] = {0};
	const char *prog[32];
	int nprog = 0, all = 0, c;
	while ((c = getopt(argc, argv, "m:s:t:p:a")) != -1) {
		if (c == 'm')
			model = optarg;
		else if (c == 's')
			scn = optarg;
		else if (c == 't') {
			if (parse_ns(optarg, &ns))
				return usage(stderr);
		} else if (c == 'p' && nprog < 32)
			prog[nprog++] = optarg;
		else if (c == 'a')
			all = 1;
		else
			return usage(stderr);
	}
	if (!scn || optind != argc)
		return usage(stderr);
	struct uncore_sim *sim;
	int rc = uncore_sim_create(model, NULL, &sim);
	if (rc)
		return fail(model, rc);
	if ((rc = hswep_only(sim, "run")) != 0) {
		uncore_sim_close(sim);
		return rc;
	}
	if ((rc = uncore_sim_load_scenario(sim, scn))) {
		uncore_sim_close(sim);
		return fail(scn, rc);
	}
	uint32_t kinds = 0;
	for (int i = 0; i < nprog; i++) {
		char box[32];
		uint64_t ctl;
		const char *colon = strchr(prog[i], ':');
		if (!colon || (size_t)(colon - prog[i]) >= sizeof(box) ||
		    parse_u64(colon + 1, &ctl)) {
			fprintf(stderr, "uncore-sim: -p wants BOX:CTL, e.g. imc:0x400304\n");
			uncore_sim_close(sim);
			return 2;
		}
		snprintf(box, sizeof(box), "%.*s", (int)(colon - prog[i]), prog[i]);
		const struct hswep_box_desc *d = hswep_box_by_name(box);
		if (!d || program(sim, d->kind, next[d->kind]++, ctl)) {
			if (!d)
				fprintf(stderr, "uncore-sim: unknown box \"%s\"\n", box);
			uncore_sim_close(sim);
			return 2;
		}
		kinds |= 1u << d->kind;
	}
	uncore_sim_advance(sim, ns);
	dump(sim, -1, kinds ? kinds : (1u << HSWEP_BOX_KINDS) - 1, all);
	uncore_sim_close(sim);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	const char *cmd = argv[1];
	argc--;
	argv++;
	if (!strcmp(cmd, "models"))
		return cmd_models(argc, argv);
	if (!strcmp(cmd, "platform"))
		return cmd_platform(argc, argv);
	if (!strcmp(cmd, "create"))
		return cmd_create(argc, argv);
	if (!strcmp(cmd, "dump"))
		return cmd_dump(argc, argv);
	if (!strcmp(cmd, "log"))
		return cmd_log(argc, argv);
	if (!strcmp(cmd, "fault"))
		return cmd_fault(argc, argv);
	if (!strcmp(cmd, "run"))
		return cmd_run(argc, argv);
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help"))
		return usage(stdout);
	if (!strcmp(cmd, "--version")) {
		printf("uncore-sim (papi-uncore) %s\n", PAPI_UNCORE_VERSION);
		return 0;
	}
	if (argc < 2)
		return usage(stderr);
	char buf[512];
	const char *path = inst_path(argv[1], buf, sizeof(buf));
	struct uncore_sim *sim;
	if (!strcmp(cmd, "destroy")) {
		/* Only ever remove a file that is a simulator instance. */
		if (open_inst(argv[1], &sim))
			return 1;
		int drc = uncore_sim_destroy(sim);
		return drc ? fail(path, drc) : 0;
	}
	if (open_inst(argv[1], &sim))
		return 1;
	int rc = 0, status = 0;
	if (!strcmp(cmd, "scenario") && argc == 3) {
		rc = uncore_sim_load_scenario(sim, argv[2]);
	} else if (!strcmp(cmd, "advance") && argc == 3) {
		uint64_t ns;
		if (parse_ns(argv[2], &ns))
			status = usage(stderr);
		else
			rc = uncore_sim_advance(sim, ns);
	} else if (!strcmp(cmd, "clock") && argc == 3) {
		rc = uncore_sim_set_clock(sim, !strcmp(argv[2], "wall") ? UNCORE_SIM_CLOCK_WALL
									: UNCORE_SIM_CLOCK_VIRTUAL);
	} else if ((!strcmp(cmd, "read") && argc == 5) || (!strcmp(cmd, "write") && argc == 6)) {
		struct uncore_reg r;
		uint64_t v = 0;
		if (parse_reg(argv + 2, &r) || (argc == 6 && parse_u64(argv[5], &v))) {
			status = usage(stderr);
		} else if (argc == 5) {
			rc = uncore_regio_read(uncore_sim_regio(sim), &r, &v);
			if (!rc)
				printf("0x%" PRIx64 "\n", v);
		} else {
			rc = uncore_regio_write(uncore_sim_regio(sim), &r, v);
		}
	} else {
		status = usage(stderr);
	}
	if (rc)
		status = fail(cmd, rc);
	uncore_sim_close(sim);
	return status;
}
