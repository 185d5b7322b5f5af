/* The simulator's audit log (PAPI_INTEL_UNCORE_SIM_LOG) of programs using
 * the component through PAPI:
 *  - the programming sequence of HSX PMON 2.1.2 (freeze, filters and
 *    controls with .en, reset of the counters, unfreeze) for an MSR box
 *    (CBo) and a PCI box (iMC), the UBox recipe of its 2.1.2 notes, and the
 *    SBo/R2PCIe/R3QPI erratum (counter control written twice);
 *  - under thousands of random valid and invalid event strings, no write
 *    outside the allowlist of the register map typed from the manual for
 *    this audit (support/hsx_regmap.c: Tables 1-2 and 1-3 and the control
 *    field tables, with the real-hardware corrections, kept apart from
 *    src/platform/ whose descriptors the backend and the simulator share):
 *    every PMON register of the boxes the accepted events name, plus
 *    U_MSR_PMON_GLOBAL_CTL of their sockets, each write within the bits its
 *    field table allows; and no write at all for a refused string.
 * Usage: papi_audit [STRINGS [SEED [MODEL]]] (default 4000 strings, seed 1,
 * e5-2699v3-2s). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hsx_regmap.h"
#include "itest.h"
#include "papi.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"

static struct itest_sim sim;
static char log_path[300];
static long log_pos;

/* Accesses logged since the last call. */
static struct itest_access *new_accesses(size_t *n)
{
	struct itest_access *a;
	if (itest_log_read(log_path, &log_pos, &a, n) != 0)
		HARNESS_FAIL_AT("audit log %s does not parse", log_path);
	return a;
}

/* Writes among `n` accesses. */
static unsigned writes_in(const struct itest_access *acc, size_t n)
{
	unsigned w = 0;
	for (size_t i = 0; i < n; i++)
		w += acc[i].op == 'w';
	return w;
}

static void skip_log(void)
{
	log_pos = itest_file_size(log_path);
}

/* Registers, from the descriptors. */

static int reg_of(enum hswep_box_kind kind, unsigned inst, unsigned socket, enum hswep_reg_kind rk,
		  unsigned idx, struct uncore_reg *r)
{
	memset(r, 0, sizeof(*r));
	const struct hswep_box_desc *d = hswep_box(kind);
	return hswep_reg(d, inst, rk, idx, socket,
			 hswep_box_bus(d, sim.topo.bus[socket], sim.topo.root_bus[socket]), r);
}

static int is_reg(const struct itest_access *a, const struct uncore_reg *r, int high)
{
	if (r->space == UNCORE_SPACE_MSR)
		return a->space == 'm' && a->socket == r->socket && a->addr == r->addr;
	return a->space == 'p' && a->bdf == r->bdf && a->addr == r->addr + (high ? 4u : 0u);
}

static int is_kind(const struct itest_access *a, enum hswep_box_kind kind, unsigned inst,
		   unsigned socket, enum hswep_reg_kind rk, unsigned idx)
{
	struct uncore_reg r;
	return reg_of(kind, inst, socket, rk, idx, &r) == 0 && is_reg(a, &r, 0);
}

/* Which register of box (kind, inst, socket) an access hits: its kind and
 * index, or -1. */
static int which(const struct itest_access *a, enum hswep_box_kind kind, unsigned inst,
		 unsigned socket, unsigned *idx)
{
	const struct hswep_box_desc *d = hswep_box(kind);
	for (int rk = 0; rk < HSWEP_REG_EXTRA; rk++) {
		unsigned n = rk == HSWEP_REG_CTL || rk == HSWEP_REG_CTR ? d->num_counters
			     : rk == HSWEP_REG_FILTER                   ? d->num_filters
									: 1;
		for (unsigned i = 0; i < n; i++) {
			struct uncore_reg r;
			if (reg_of(kind, inst, socket, (enum hswep_reg_kind)rk, i, &r) != 0)
				continue;
			int hi = r.space == UNCORE_SPACE_PCI &&
				 (rk == HSWEP_REG_CTR || rk == HSWEP_REG_FIXED_CTR);
			if (is_reg(a, &r, 0) || (hi && is_reg(a, &r, 1))) {
				*idx = i;
				return rk;
			}
		}
	}
	return -1;
}

static int is_global_ctl(const struct itest_access *a)
{
	return a->space == 'm' && a->addr == HSWEP_U_MSR_PMON_GLOBAL_CTL;
}

/* The allowlist. */

#define MAX_ALLOWED 4096

struct allowed {
	struct uncore_reg reg;
	uint64_t bits; /* writable bits (valid | must1) */
};

struct allowlist {
	size_t n;
	struct allowed a[MAX_ALLOWED];
};

static void allow(struct allowlist *al, const struct uncore_reg *r, uint64_t bits)
{
	if (al->n < MAX_ALLOWED)
		al->a[al->n++] = (struct allowed){.reg = *r, .bits = bits};
}

static void allow_typed(void *ctx, const struct uncore_reg *r, uint64_t bits)
{
	allow(ctx, r, bits);
}

/* Every PMON register of the boxes (kind, inst or all, socket or all) and
 * the global control of the sockets, from the typed map (never from the
 * library's descriptors). */
static void allow_boxes(struct allowlist *al, enum hswep_box_kind kind, int inst, int socket)
{
	for (unsigned s = 0; s < sim.topo.sockets; s++) {
		if (socket >= 0 && (unsigned)socket != s)
			continue;
		for (unsigned i = 0; i < HSWEP_MAX_INSTANCES; i++) {
			if ((inst >= 0 && (unsigned)inst != i) ||
			    !(sim.topo.present[kind] >> i & 1))
				continue;
			if (hsx_regmap_each(kind, i, s, sim.topo.bus[s], sim.topo.root_bus[s],
					    allow_typed, al) != 0)
				HARNESS_FAIL_AT("the typed map has no %s instance %u",
						hswep_box(kind)->name, i);
		}
	}
}

/* Writes outside the allowlist, or with bits it does not allow, or that
 * failed; each printed.  Returns their number. */
static unsigned violations(const struct allowlist *al, const struct itest_access *acc, size_t n,
			   const char *context)
{
	unsigned bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (acc[i].op != 'w')
			continue;
		const struct allowed *hit = NULL;
		for (size_t k = 0; k < al->n && !hit; k++)
			if (is_reg(&acc[i], &al->a[k].reg, 0))
				hit = &al->a[k];
		const char *why = !hit                        ? "register not allowed"
				  : acc[i].value & ~hit->bits ? "bits not writable"
				  : acc[i].result != 0        ? "write failed"
							      : NULL;
		if (why) {
			if (bad < 5)
				printf("  %s: %s: %s\n", context, why, acc[i].line);
			bad++;
		}
	}
	return bad;
}

/* 2.1.2. */

/* The writes of PAPI_start to one box with a box control, checked against
 * 2.1.2: (a) the first write freezes the box; (b, c) filters and controls,
 * every used control ending with .en, all while frozen; (d) the counters
 * are reset, still frozen, after the controls are programmed; (f) the last
 * write unfreezes.  `nctl` controls (generic and fixed) are expected with
 * .en, and `nfilt` filter writes of a value (unused filters may be zeroed). */
static void check_session(const struct itest_access *w, size_t n, enum hswep_box_kind kind,
			  unsigned inst, unsigned socket, unsigned nctl, unsigned nfilt)
{
	long first = -1, last = -1, rst = -1, last_prog = -1;
	unsigned filts = 0, fixed = 0;
	uint32_t ctls = 0; /* controls written with .en, one bit each */
	for (size_t i = 0; i < n; i++) {
		unsigned idx;
		int rk = w[i].op == 'w' ? which(&w[i], kind, inst, socket, &idx) : -1;
		if (rk < 0)
			continue;
		if (first < 0)
			first = (long)i;
		last = (long)i;
		if (rk == HSWEP_REG_BOX_CTL) {
			if ((w[i].value & HSWEP_PMON_BOX_CTL_RST_CTRS) &&
			    (w[i].value & HSWEP_PMON_BOX_CTL_FRZ))
				rst = (long)i;
		} else if (rk == HSWEP_REG_CTL || rk == HSWEP_REG_FIXED_CTL ||
			   rk == HSWEP_REG_FILTER) {
			last_prog = (long)i;
			if (rk == HSWEP_REG_CTL && (w[i].value & HSWEP_PMON_CTL_EN))
				ctls |= 1u << idx;
			fixed |= rk == HSWEP_REG_FIXED_CTL && (w[i].value & HSWEP_PMON_CTL_EN);
			filts += rk == HSWEP_REG_FILTER && w[i].value != 0;
		}
	}
	if (first < 0) {
		HARNESS_FAIL_AT("no write to box %s%u of socket %u", hswep_box(kind)->name, inst,
				socket);
		return;
	}
	CHECK(which(&w[first], kind, inst, socket, &(unsigned){0}) == HSWEP_REG_BOX_CTL);
	CHECK(w[first].value & HSWEP_PMON_BOX_CTL_FRZ);                 /* a */
	CHECK_EQ_INT((unsigned)__builtin_popcount(ctls) + fixed, nctl); /* b, c */
	CHECK_EQ_INT(filts, nfilt);
	CHECK(last_prog > first);
	CHECK(rst > last_prog); /* d */
	CHECK(which(&w[last], kind, inst, socket, &(unsigned){0}) == HSWEP_REG_BOX_CTL);
	CHECK(!(w[last].value & HSWEP_PMON_BOX_CTL_FRZ)); /* f */
	CHECK(last > rst);
	/* Frozen from a to f: no box control write in between unfreezes it. */
	for (long i = first; i < last; i++) {
		unsigned idx;
		if (w[i].op == 'w' && which(&w[i], kind, inst, socket, &idx) == HSWEP_REG_BOX_CTL)
			CHECK(w[i].value & HSWEP_PMON_BOX_CTL_FRZ);
	}
	for (size_t i = 0; i < n; i++)
		if (w[i].op == 'w')
			CHECK_EQ_INT(w[i].result, 0);
}

/* Start, read and stop `names` with the log captured per step. */
struct run {
	struct itest_access *start, *read, *stop;
	size_t nstart, nread, nstop;
};

static int run_set(const char *const *names, int n, struct run *r)
{
	int es = PAPI_NULL;
	long long v[16];
	memset(r, 0, sizeof(*r));
	if (PAPI_create_eventset(&es) != PAPI_OK)
		return -1;
	for (int i = 0; i < n; i++) {
		int rc = PAPI_add_named_event(es, names[i]);
		if (rc != PAPI_OK) {
			printf("  %s: %s\n", names[i], PAPI_strerror(rc));
			PAPI_destroy_eventset(&es);
			return -1;
		}
	}
	skip_log();
	int rc = PAPI_start(es);
	r->start = new_accesses(&r->nstart);
	uncore_sim_advance(sim.sim, 1000000);
	if (rc == PAPI_OK)
		rc = PAPI_read(es, v);
	r->read = new_accesses(&r->nread);
	if (rc == PAPI_OK)
		rc = PAPI_stop(es, v);
	r->stop = new_accesses(&r->nstop);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	if (rc != PAPI_OK)
		printf("  %s...: %s\n", names[0], PAPI_strerror(rc));
	return rc == PAPI_OK ? 0 : -1;
}

static void free_run(struct run *r)
{
	free(r->start);
	free(r->read);
	free(r->stop);
}

/* PAPI_library_init (discovery of buses, boxes and CPUs) only reads. */
TEST(initialisation_only_reads)
{
	size_t n;
	struct itest_access *acc = new_accesses(&n);
	CHECK(n > 0);
	CHECK_EQ_INT(writes_in(acc, n), 0);
	free(acc);
}

TEST(cbo_session_follows_2_1_2)
{
	const char *names[] = {"hswep_unc_cbo4::UNC_C_TOR_INSERTS:OPCODE:OPC_DRD:socket=1",
			       "hswep_unc_cbo4::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=1"};
	struct run r;
	CHECK_EQ_INT(run_set(names, 2, &r), 0);
	/* Two controls; FILTER0 (state) and FILTER1 (opcode). */
	check_session(r.start, r.nstart, HSWEP_BOX_CBO, 4, 1, 2, 2);
	/* The values: TOR_INSERTS.OPCODE is ev_sel 0x35 umask 0x01 with .en;
	 * FILTER1.opc = 0x182 (Table 2-20 DRd); FILTER0.state = M (bit 3). */
	int saw_ctl = 0, saw_f0 = 0, saw_f1 = 0;
	for (size_t i = 0; i < r.nstart; i++) {
		if (r.start[i].op != 'w')
			continue;
		uint64_t v = r.start[i].value;
		for (unsigned k = 0; k < 4; k++)
			if (is_kind(&r.start[i], HSWEP_BOX_CBO, 4, 1, HSWEP_REG_CTL, k) &&
			    (v & 0xffff) == 0x0135 && (v & HSWEP_PMON_CTL_EN))
				saw_ctl = 1;
		if (is_kind(&r.start[i], HSWEP_BOX_CBO, 4, 1, HSWEP_REG_FILTER,
			    HSWEP_CBO_FILTER1) &&
		    (v & HSWEP_CBO_FILTER1_OPC) >> HSWEP_CBO_FILTER1_OPC_SHIFT == 0x182)
			saw_f1 = 1;
		if (is_kind(&r.start[i], HSWEP_BOX_CBO, 4, 1, HSWEP_REG_FILTER,
			    HSWEP_CBO_FILTER0) &&
		    (v & HSWEP_CBO_FILTER0_STATE) >> HSWEP_CBO_FILTER0_STATE_SHIFT ==
			HSWEP_CBO_STATE_M)
			saw_f0 = 1;
	}
	CHECK(saw_ctl);
	CHECK(saw_f0);
	CHECK(saw_f1);
	/* Nothing else of socket 1's CBos, and nothing on socket 0. */
	for (size_t i = 0; i < r.nstart; i++)
		if (r.start[i].op == 'w' && !is_global_ctl(&r.start[i]))
			CHECK(which(&r.start[i], HSWEP_BOX_CBO, 4, 1, &(unsigned){0}) >= 0);
	/* 2.1.3 a: reads are bracketed by a global freeze of socket 1. */
	CHECK(r.nread >= 3);
	if (r.nread >= 3) {
		CHECK(is_global_ctl(&r.read[0]) && r.read[0].socket == 1 &&
		      r.read[0].value == HSWEP_U_GLOBAL_CTL_FRZ_ALL);
		CHECK(is_global_ctl(&r.read[r.nread - 1]) &&
		      r.read[r.nread - 1].value == HSWEP_U_GLOBAL_CTL_UNFRZ_ALL);
	}
	/* PAPI_stop reads, then the box is frozen (its first write), and at
	 * last its controls and counters reset and its filters cleared. */
	long first = -1, last = -1;
	for (size_t i = 0; i < r.nstop; i++) {
		if (r.stop[i].op == 'w' &&
		    which(&r.stop[i], HSWEP_BOX_CBO, 4, 1, &(unsigned){0}) >= 0) {
			if (first < 0)
				first = (long)i;
			last = (long)i;
		}
	}
	CHECK(first >= 0);
	if (first >= 0) {
		CHECK(is_kind(&r.stop[first], HSWEP_BOX_CBO, 4, 1, HSWEP_REG_BOX_CTL, 0));
		CHECK(r.stop[first].value & HSWEP_PMON_BOX_CTL_FRZ);
		CHECK(is_kind(&r.stop[last], HSWEP_BOX_CBO, 4, 1, HSWEP_REG_FILTER,
			      HSWEP_CBO_FILTER1));
		CHECK_EQ_U64(r.stop[last].value, 0);
	}
	free_run(&r);
}

TEST(imc_session_follows_2_1_2)
{
	const char *names[] = {"hswep_unc_imc1::UNC_M_CAS_COUNT:RD:socket=0",
			       "hswep_unc_imc1::UNC_M_CLOCKTICKS:socket=0"};
	struct run r;
	CHECK_EQ_INT(run_set(names, 2, &r), 0);
	/* One generic control and the fixed DCLK control; no filter. */
	check_session(r.start, r.nstart, HSWEP_BOX_IMC, 1, 0, 2, 0);
	/* The PCI counter is read in one 8-byte access (both dwords in one
	 * pread through sysfs), never a dword at a time. */
	int whole = 0, half = 0;
	struct uncore_reg ctr;
	for (unsigned k = 0; k < 4; k++) {
		if (reg_of(HSWEP_BOX_IMC, 1, 0, HSWEP_REG_CTR, k, &ctr) != 0)
			continue;
		for (size_t i = 0; i < r.nread; i++) {
			int at = r.read[i].op == 'r' && is_reg(&r.read[i], &ctr, 0);
			int qword = strstr(r.read[i].line, "\"width\":8") != NULL;
			whole += at && qword;
			half += (at && !qword) || (r.read[i].op == 'r' && is_reg(&r.read[i], &ctr, 1));
		}
	}
	CHECK(whole >= 1);
	CHECK_EQ_INT(half, 0);
	free_run(&r);
}

/* UBox (2.1.2 d and its notes): no box control, so the counters are zeroed
 * through their data registers and enabled just before the other boxes are
 * unfrozen. */
TEST(ubox_recipe_of_the_2_1_2_notes)
{
	const char *names[] = {"hswep_unc_ubo::UNC_U_EVENT_MSG:DOORBELL_RCVD:socket=0",
			       "hswep_unc_pcu::UNC_P_CLOCKTICKS:socket=0"};
	struct run r;
	CHECK_EQ_INT(run_set(names, 2, &r), 0);
	long zero = -1, en = -1, pcu_unfrz = -1;
	for (size_t i = 0; i < r.nstart; i++) {
		unsigned idx;
		if (r.start[i].op != 'w')
			continue;
		int rk = which(&r.start[i], HSWEP_BOX_UBOX, 0, 0, &idx);
		if (rk == HSWEP_REG_CTR && r.start[i].value == 0 && zero < 0)
			zero = (long)i;
		if (rk == HSWEP_REG_CTL && (r.start[i].value & HSWEP_PMON_CTL_EN))
			en = (long)i;
		if (which(&r.start[i], HSWEP_BOX_PCU, 0, 0, &idx) == HSWEP_REG_BOX_CTL &&
		    !(r.start[i].value & HSWEP_PMON_BOX_CTL_FRZ))
			pcu_unfrz = (long)i;
	}
	CHECK(zero >= 0);
	CHECK(en > zero);
	CHECK(pcu_unfrz > en);
	check_session(r.start, r.nstart, HSWEP_BOX_PCU, 0, 0, 1, 0);
	free_run(&r);
}

/* SBo 2.4.2, R2PCIe 2.10.2, R3QPI 2.11.2: a counter control must be written
 * twice; the other boxes' controls once. */
TEST(sbo_r2pcie_r3qpi_controls_are_written_twice)
{
	const char *names[] = {"hswep_unc_sbo1::UNC_S_RING_BL_USED:UP_EVEN:socket=0",
			       "hswep_unc_r2pcie::UNC_R2_RING_BL_USED:CW_EVEN:socket=0",
			       "hswep_unc_r3qpi0::UNC_R3_RING_BL_USED:CW_EVEN:socket=0",
			       "hswep_unc_irp::UNC_I_TRANSACTIONS:READS:socket=0"};
	static const struct {
		enum hswep_box_kind kind;
		unsigned inst;
		int twice;
	} boxes[] = {{HSWEP_BOX_SBO, 1, 1},
		     {HSWEP_BOX_R2PCIE, 0, 1},
		     {HSWEP_BOX_R3QPI, 0, 1},
		     {HSWEP_BOX_IRP, 0, 0}};
	struct run r;
	CHECK_EQ_INT(run_set(names, 4, &r), 0);
	for (size_t b = 0; b < sizeof(boxes) / sizeof(boxes[0]); b++) {
		/* Positions of this box's control writes, in log order. */
		long pos[64];
		unsigned np = 0;
		for (size_t i = 0; i < r.nstart && np < 64; i++) {
			unsigned idx;
			if (r.start[i].op == 'w' && which(&r.start[i], boxes[b].kind, boxes[b].inst,
							  0, &idx) == HSWEP_REG_CTL)
				pos[np++] = (long)i;
		}
		char tag[32];
		snprintf(tag, sizeof(tag), "%s%u", hswep_box(boxes[b].kind)->name, boxes[b].inst);
		harness_row = tag;
		CHECK(np > 0);
		if (boxes[b].twice) {
			/* Pairs: the same register and value in consecutive log lines. */
			CHECK_EQ_INT(np % 2, 0);
			for (unsigned k = 0; k + 1 < np; k += 2) {
				CHECK_EQ_INT(pos[k + 1], pos[k] + 1);
				CHECK_EQ_U64(r.start[pos[k + 1]].addr, r.start[pos[k]].addr);
				CHECK_EQ_U64(r.start[pos[k + 1]].value, r.start[pos[k]].value);
			}
		} else {
			for (unsigned k = 0; k + 1 < np; k++)
				CHECK(!(pos[k + 1] == pos[k] + 1 &&
					r.start[pos[k + 1]].value == r.start[pos[k]].value));
		}
		harness_row = NULL;
		check_session(r.start, r.nstart, boxes[b].kind, boxes[b].inst, 0, 1, 0);
	}
	free_run(&r);
}

/* The allowlist check itself can fail: the CBo programming of a real run is
 * refused by an allowlist of another box, of another CBo, of the other
 * socket, and with the control's bits narrowed. */
TEST(allowlist_check_rejects_what_it_should)
{
	static struct allowlist al;
	const char *names[] = {"hswep_unc_cbo2::UNC_C_LLC_LOOKUP:DATA_READ:socket=0"};
	struct run r;
	CHECK_EQ_INT(run_set(names, 1, &r), 0);
	al.n = 0;
	allow_boxes(&al, HSWEP_BOX_CBO, 2, 0);
	CHECK_EQ_INT(violations(&al, r.start, r.nstart, "own box"), 0);
	printf("  (expected violations follow)\n");
	al.n = 0;
	allow_boxes(&al, HSWEP_BOX_IMC, -1, -1);
	CHECK(violations(&al, r.start, r.nstart, "negative: iMC only") > 0);
	al.n = 0;
	allow_boxes(&al, HSWEP_BOX_CBO, 3, 0);
	CHECK(violations(&al, r.start, r.nstart, "negative: CBo 3") > 0);
	al.n = 0;
	allow_boxes(&al, HSWEP_BOX_CBO, 2, 1);
	CHECK(violations(&al, r.start, r.nstart, "negative: socket 1") > 0);
	al.n = 0;
	allow_boxes(&al, HSWEP_BOX_CBO, 2, 0);
	for (size_t k = 0; k < al.n; k++)
		al.a[k].bits &= ~HSWEP_PMON_CTL_EN;
	CHECK(violations(&al, r.start, r.nstart, "negative: .en not writable") > 0);
	free_run(&r);
}

/* Random event strings. */

/* One enumerated event of the component and the entries under it. */
struct native {
	char name[160]; /* "hswep_unc_cbo::UNC_C_LLC_LOOKUP" */
	enum hswep_box_kind kind;
	char subs[48][64]; /* "STATE_M", "t=0", "socket=0", ... */
	unsigned nsubs;
};

static struct native *natives;
static unsigned nnatives;

static const struct {
	const char *pmu;
	enum hswep_box_kind kind;
} pmu_kinds[] = {
    {"ubo", HSWEP_BOX_UBOX},    {"cbo", HSWEP_BOX_CBO}, {"sbo", HSWEP_BOX_SBO},
    {"ha", HSWEP_BOX_HA},       {"imc", HSWEP_BOX_IMC}, {"irp", HSWEP_BOX_IRP},
    {"pcu", HSWEP_BOX_PCU},     {"qpi", HSWEP_BOX_QPI}, {"r2pcie", HSWEP_BOX_R2PCIE},
    {"r3qpi", HSWEP_BOX_R3QPI},
};

static int kind_of_pmu(const char *pmu, enum hswep_box_kind *kind)
{
	for (size_t i = 0; i < sizeof(pmu_kinds) / sizeof(pmu_kinds[0]); i++) {
		if (strcmp(pmu, pmu_kinds[i].pmu) == 0) {
			*kind = pmu_kinds[i].kind;
			return 0;
		}
	}
	return -1;
}

/* The component's event list, as PAPI enumerates it. */
static int load_natives(int cidx)
{
	int code = 0 | PAPI_NATIVE_MASK;
	unsigned cap = 0;
	if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK)
		return -1;
	do {
		PAPI_event_info_t info;
		if (PAPI_get_event_info(code, &info) != PAPI_OK)
			continue;
		if (nnatives == cap) {
			cap = cap ? cap * 2 : 256;
			natives = realloc(natives, cap * sizeof(*natives));
			if (!natives)
				return -1;
		}
		struct native *nv = &natives[nnatives];
		memset(nv, 0, sizeof(*nv));
		const char *sym =
		    strstr(info.symbol, ":::") ? strstr(info.symbol, ":::") + 3 : info.symbol;
		if ((size_t)snprintf(nv->name, sizeof(nv->name), "%.159s", sym) >= sizeof(nv->name))
			continue;
		char pmu[32];
		if (sscanf(nv->name, "hswep_unc_%31[a-z0-9]::", pmu) != 1 ||
		    kind_of_pmu(pmu, &nv->kind) != 0)
			continue;
		int sub = code;
		while (PAPI_enum_cmp_event(&sub, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK &&
		       nv->nsubs < 48) {
			PAPI_event_info_t si;
			if (PAPI_get_event_info(sub, &si) != PAPI_OK)
				continue;
			/* "...::EVENT:UMASK": the part after the event's name. */
			const char *p = strstr(si.symbol, nv->name);
			if (p && p[strlen(nv->name)] == ':')
				snprintf(nv->subs[nv->nsubs++], 64, "%s", p + strlen(nv->name) + 1);
		}
		nnatives++;
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
	return nnatives ? 0 : -1;
}

static unsigned long long rng_state;
static unsigned strings = 4000; /* how many random strings */

static unsigned rnd(unsigned n)
{
	/* xorshift64*: a fixed sequence for a given seed, on every libc. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return n ? (unsigned)((rng_state * 2685821657736338717ull) >> 33) % n : 0;
}

/* A generated string and what it means if it is accepted. */
struct gen {
	char s[300];
	enum hswep_box_kind kind;
	int inst, socket;
	int must_fail; /* deliberately invalid */
};

static void append(struct gen *g, const char *fmt, const char *a)
{
	size_t n = strlen(g->s);
	snprintf(g->s + n, sizeof(g->s) - n, fmt, a);
}

static void generate(struct gen *g)
{
	const struct native *nv = &natives[rnd(nnatives)];
	const struct hswep_box_desc *d = hswep_box(nv->kind);
	memset(g, 0, sizeof(*g));
	g->kind = nv->kind;
	g->inst = g->socket = -1;
	char num[32];
	/* PMU: the type, or an instance (sometimes beyond the model's). */
	const char *ev = strstr(nv->name, "::") + 2;
	if (d->max_instances > 1 && rnd(3) == 0) {
		g->inst = (int)rnd(d->max_instances + 2);
		snprintf(g->s, sizeof(g->s), "hswep_unc_%.*s%d::%s",
			 (int)(strstr(nv->name, "::") - nv->name - 10), nv->name + 10, g->inst, ev);
		if (g->inst >= d->max_instances)
			g->must_fail = 1;
	} else {
		snprintf(g->s, sizeof(g->s), "%s", nv->name);
	}
	/* Up to two of its umasks, modifiers, qualifiers, as listed. */
	for (unsigned k = rnd(3); k > 0 && nv->nsubs; k--) {
		const char *sub = nv->subs[rnd(nv->nsubs)];
		if (strncmp(sub, "socket=", 7) == 0 || strncmp(sub, "box=", 4) == 0)
			continue;
		if (strchr(sub, '=') && rnd(2)) {
			/* A modifier with another value: small (usually valid) or huge. */
			char mod[64];
			snprintf(mod, sizeof(mod), "%.*s", (int)(strchr(sub, '=') - sub), sub);
			snprintf(num, sizeof(num), "%u", rnd(4) ? rnd(40) : 100000u + rnd(1000));
			append(g, ":%s", mod);
			append(g, "=%s", num);
			continue;
		}
		append(g, ":%s", sub);
	}
	if (rnd(3) == 0) {
		g->socket = (int)rnd(sim.topo.sockets + 2);
		snprintf(num, sizeof(num), "%d", g->socket);
		append(g, ":socket=%s", num);
		if ((unsigned)g->socket >= sim.topo.sockets)
			g->must_fail = 1;
	}
	if (g->inst < 0 && d->max_instances > 1 && rnd(5) == 0) {
		g->inst = (int)rnd(d->max_instances + 2);
		snprintf(num, sizeof(num), "%d", g->inst);
		append(g, ":box=%s", num);
		if (g->inst >= d->max_instances)
			g->must_fail = 1;
	}
	/* Deliberate damage, one string in four. */
	static const char *const junk[] = {
	    ":NO_SUCH_UMASK",     ":zz=1",    ":t=",  ":socket=-1", ":box=x", "::",
	    ":socket=0:socket=1", ":t=0x1ff", ":e=2", ":i=7"};
	switch (rnd(12)) {
	case 0:
		append(g, "%s", junk[rnd(sizeof(junk) / sizeof(junk[0]))]);
		g->must_fail = 1;
		break;
	case 1: { /* a misspelt event: "UNC_QXC_..." */
		char *u = strstr(g->s, "::UNC_");
		if (u) {
			memmove(u + 8, u + 6, strlen(u + 6) + 1);
			memcpy(u + 6, "QX", 2);
			g->must_fail = 1;
		}
		break;
	}
	case 2:
		snprintf(g->s, sizeof(g->s), "hswep_unc_nobox::%s", ev);
		g->must_fail = 1;
		break;
	default:
		break;
	}
}

/* A model-independent boundary: a :box= or instance number the model lacks. */
static int absent_on_model(const struct gen *g)
{
	return g->inst >= 0 && !(sim.topo.present[g->kind] >> g->inst & 1);
}

/* Every line the log gets from here on is checked: the adds (no write at
 * all), then the start, read, reset, stop, cleanup and destroy of the set
 * (writes only within the allowlist of its accepted events; none when no
 * event was accepted). */
TEST(random_event_strings_write_only_their_boxes)
{
	static struct allowlist al;
	unsigned total = 0, accepted = 0, refused = 0, started = 0, sets = 0, bad = 0;
	skip_log();
	while (total < strings && bad < 10) {
		struct gen g[3];
		int es = PAPI_NULL, in_set = 0, rc = PAPI_OK;
		size_t n;
		struct itest_access *acc;
		al.n = 0;
		if (PAPI_create_eventset(&es) != PAPI_OK) {
			HARNESS_FAIL_AT("PAPI_create_eventset");
			return;
		}
		sets++;
		for (unsigned k = 1 + rnd(3); k > 0 && total < strings; k--, total++) {
			struct gen *e = &g[in_set];
			generate(e);
			int arc = PAPI_add_named_event(es, e->s);
			acc = new_accesses(&n);
			unsigned w = writes_in(acc, n);
			free(acc);
			if (w) {
				HARNESS_FAIL_AT("adding %s wrote %u registers", e->s, w);
				bad++;
			}
			if (arc != PAPI_OK) {
				refused++;
				continue;
			}
			if (e->must_fail || absent_on_model(e)) {
				HARNESS_FAIL_AT("%s was accepted", e->s);
				bad++;
			}
			accepted++;
			allow_boxes(&al, e->kind, e->inst, e->socket);
			in_set++;
		}
		if (in_set) {
			long long v[3];
			rc = PAPI_start(es);
			if (rc == PAPI_OK) {
				started++;
				uncore_sim_advance(sim.sim, 100000);
				PAPI_read(es, v);
				PAPI_reset(es);
				PAPI_stop(es, v);
			}
		}
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
		acc = new_accesses(&n);
		char ctx[400];
		snprintf(ctx, sizeof(ctx), "set of %s%s", in_set ? g[0].s : "(no event)",
			 in_set > 1 ? ", ..." : "");
		unsigned v_n = violations(&al, acc, n, ctx);
		if (v_n) {
			HARNESS_FAIL_AT("%u writes outside the allowlist for the %s", v_n, ctx);
			bad++;
		}
		if (in_set && rc == PAPI_OK && writes_in(acc, n) == 0) {
			HARNESS_FAIL_AT("the %s was counted without programming anything", ctx);
			bad++;
		}
		if (rc != PAPI_OK) {
			HARNESS_FAIL_AT("PAPI_start of the %s: %s", ctx, PAPI_strerror(rc));
			bad++;
		}
		free(acc);
	}
	printf("  %u strings in %u sets: %u accepted, %u refused; %u sets started\n", total, sets,
	       accepted, refused, started);
	/* The generator must exercise both sides. */
	CHECK(accepted > strings / 5);
	CHECK(refused > strings / 5);
}

int main(int argc, char **argv)
{
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	if (argc > 1)
		strings = (unsigned)strtoul(argv[1], NULL, 0);
	rng_state = seed ? seed : 1;
	printf("seed %llu\n", seed);
	const char *model = argc > 3 ? argv[3] : "e5-2699v3-2s";
	printf("model %s\n", model);
	if (itest_sim_create(model, &sim) != 0)
		return 1;
	snprintf(log_path, sizeof(log_path), "%s.jsonl", sim.path);
	unlink(log_path);
	/* The component turns the log on, as a user would. */
	setenv("PAPI_INTEL_UNCORE_SIM_LOG", log_path, 1);
	if (itest_load(&sim, "boxes.scn") != 0) {
		itest_sim_destroy(&sim);
		return 1;
	}
	int cidx = itest_papi_init();
	if (cidx < 0 || load_natives(cidx) != 0 || itest_file_size(log_path) == 0) {
		printf("FAIL setup: no intel_uncore events, or no audit log in %s\n", log_path);
		itest_sim_destroy(&sim);
		return 1;
	}
	RUN(initialisation_only_reads);
	RUN(cbo_session_follows_2_1_2);
	RUN(imc_session_follows_2_1_2);
	RUN(ubox_recipe_of_the_2_1_2_notes);
	RUN(sbo_r2pcie_r3qpi_controls_are_written_twice);
	RUN(allowlist_check_rejects_what_it_should);
	RUN(random_event_strings_write_only_their_boxes);
	PAPI_shutdown();
	free(natives);
	itest_sim_destroy(&sim);
	unlink(log_path);
	return harness_done();
}
