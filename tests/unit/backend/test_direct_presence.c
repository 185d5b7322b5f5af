/* Which boxes the direct backend counts as present, the way the Linux
 * driver decides it rather than by probing alone: no more CBos than the
 * package has physical cores (hswep_uncore_cpu_init), and two SBos when the
 * PCU's CAPID4 says the 6-8 core die (chop = 0, hswep_has_limit_sbox). */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "platform/hswep/hswep_regs.h"
#include "sim/uncore_sim.h"

#include <stdio.h>
#include <string.h>

/* The simulator's registers, with CAPID4's chop forced (a die the models
 * do not have: 18 cores' MSRs with the small die's capability bits). */
struct chop_io {
	struct uncore_regio io;
	struct uncore_regio *under;
	uint64_t chop;
};

static int chop_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *v)
{
	struct chop_io *c = io->impl;
	int rc = uncore_regio_read(c->under, r, v);
	if (rc == 0 && r->space == UNCORE_SPACE_PCI && r->addr == HSWEP_PCU_CAPID4 &&
	    UNCORE_BDF_DEV(r->bdf) == HSWEP_PCU_CAPID_DEV &&
	    UNCORE_BDF_FN(r->bdf) == HSWEP_PCU_CAPID_FN)
		*v = (*v & ~HSWEP_PCU_CAPID4_CHOP) | c->chop << 6;
	return rc;
}

static int chop_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t v)
{
	struct chop_io *c = io->impl;
	return uncore_regio_write(c->under, r, v);
}

static void chop_destroy(struct uncore_regio *io)
{
	(void)io;
}

static const struct uncore_regio_ops chop_ops = {
    .name = "chop", .read = chop_read, .write = chop_write, .destroy = chop_destroy};

static unsigned present(const struct uncore_backend *be, const char *pmu, unsigned socket)
{
	const struct uncore_machine *m = &be->machine;
	int b = uncore_machine_box_index(m, uncore_box_type_find(m->plat, pmu));
	return b < 0 ? 99 : uncore_inst_count(&m->present[b][socket]);
}

static int open_on(struct uncore_regio *io, unsigned cores, struct uncore_backend **be)
{
	struct uncore_direct_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.io = io;
	cfg.no_socket_lock = 1;
	cfg.origin = "SIMULATED";
	cfg.cores_per_package = cores;
	int rc = uncore_direct_open_hswep(&cfg, be);
	if (rc < 0)
		fprintf(stderr, "  open: %s\n", uncore_error_detail());
	return rc;
}

TEST(cbos_are_capped_at_the_physical_cores)
{
	struct uncore_sim *sim = NULL;
	struct uncore_backend *be = NULL;
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", NULL, &sim), 0);
	if (!sim)
		return;
	CHECK_EQ_INT(open_on(uncore_sim_regio(sim), 12, &be), 0);
	if (be) {
		CHECK_EQ_INT(present(be, "hswep_unc_cbo", 0), 12);
		CHECK_EQ_INT(present(be, "hswep_unc_cbo", 1), 12);
		be->ops->destroy(be);
		be = NULL;
	}
	/* Unknown core count: every CBo that answers. */
	CHECK_EQ_INT(open_on(uncore_sim_regio(sim), 0, &be), 0);
	if (be) {
		CHECK_EQ_INT(present(be, "hswep_unc_cbo", 0), 18);
		be->ops->destroy(be);
	}
	uncore_sim_destroy(sim);
}

TEST(two_sbos_when_capid4_says_the_small_die)
{
	struct uncore_sim *sim = NULL;
	struct uncore_backend *be = NULL;
	CHECK_EQ_INT(uncore_sim_create("e5-2699v3-2s", NULL, &sim), 0);
	if (!sim)
		return;
	/* The capability function itself, on the uncore bus. */
	struct uncore_reg id = {.space = UNCORE_SPACE_PCI,
				.width = 4,
				.bdf = UNCORE_BDF(0x7f, HSWEP_PCU_CAPID_DEV, HSWEP_PCU_CAPID_FN)};
	uint64_t v = 0;
	CHECK_EQ_INT(uncore_regio_read(uncore_sim_regio(sim), &id, &v), 0);
	CHECK_EQ_U64(v, 0x2fc08086);
	CHECK_EQ_INT(open_on(uncore_sim_regio(sim), 18, &be), 0);
	if (be) {
		CHECK_EQ_INT(present(be, "hswep_unc_sbo", 0), 4);
		be->ops->destroy(be);
		be = NULL;
	}
	struct chop_io c = {.io = {.ops = &chop_ops}, .under = uncore_sim_regio(sim), .chop = 0};
	c.io.impl = &c;
	CHECK_EQ_INT(open_on(&c.io, 18, &be), 0);
	if (be) {
		CHECK_EQ_INT(present(be, "hswep_unc_sbo", 0), 2);
		CHECK_EQ_INT(present(be, "hswep_unc_sbo", 1), 2);
		be->ops->destroy(be);
	}
	uncore_sim_destroy(sim);
	/* The small model says so itself. */
	CHECK_EQ_INT(uncore_sim_create("e5-2620v3-2s", NULL, &sim), 0);
	if (!sim)
		return;
	be = NULL;
	CHECK_EQ_INT(open_on(uncore_sim_regio(sim), 6, &be), 0);
	if (be) {
		CHECK_EQ_INT(present(be, "hswep_unc_sbo", 0), 2);
		CHECK_EQ_INT(present(be, "hswep_unc_cbo", 0), 6);
		be->ops->destroy(be);
	}
	uncore_sim_destroy(sim);
}

int main(void)
{
	RUN(cbos_are_capped_at_the_physical_cores);
	RUN(two_sbos_when_capid4_says_the_small_die);
	return harness_done();
}
