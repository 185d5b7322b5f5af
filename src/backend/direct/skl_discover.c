/* What a Skylake client machine has, found through the register-access
 * interface alone: one package; the CBos with counters from
 * MSR_UNC_CBO_CONFIG (SKL 2.4.1); the ARB and the fixed UCLK counter, which
 * every part has (2.3, 2.4); the IMC counters when MCHBAR (PCI 0:0.0
 * offset 48h, SKL 3.3) is set and the first of them can be read. */
#include "backend/direct/direct.h"

#include "backend/direct/engine.h"
#include "common/uncore_error.h"
#include "platform/skl/skl_regs.h"
#include "platform/skl_mchbar.h"

#include <stdio.h>
#include <string.h>

/* CBos with counters.  2.4.1: "read this register and subtract one"; the
 * field counts the units "including processor cores and processor
 * graphics" (Table 2-6), and the graphics has no CBo MSRs.  More than the
 * four of Table 2-1 cannot be addressed. */
static int count_cbos(struct uncore_regio *io, unsigned *ncbo)
{
	const struct uncore_reg r = {
	    .space = UNCORE_SPACE_MSR, .width = 8, .addr = SKL_MSR_UNC_CBO_CONFIG};
	uint64_t v;
	int rc = uncore_regio_read(io, &r, &v);
	if (rc < 0) {
		char detail[400];
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
		return uncore_fail(rc,
				   "cannot read MSR_UNC_CBO_CONFIG (0x396): %s. The Skylake client "
				   "direct backend needs MSR access on a 6th generation Core "
				   "(a virtual machine has no uncore MSRs)",
				   detail);
	}
	unsigned banks = (unsigned)(v & SKL_UNC_CBO_CONFIG_NO_CBO_BANKS);
	*ncbo = banks ? banks - 1 : 0;
	if (*ncbo > SKL_UNC_CBO_MAX)
		*ncbo = SKL_UNC_CBO_MAX;
	return 0;
}

/* 0 with *bar when the IMC counters can be read, else the reason in `why`. */
static int probe_imc(struct uncore_regio *io, uint64_t *bar, char *why, size_t len)
{
	struct uncore_reg r;
	uint64_t v, b = 0;
	int rc = skl_mchbar_read(io, &b);
	if (rc == 0 && (b & ~SKL_MCHBAR_MASK))
		rc = uncore_fail(UNCORE_ENODEV, "MCHBAR 0x%llx is not a base address",
				 (unsigned long long)b);
	if (rc == 0)
		rc = direct_kind_reg(direct_kind_find(&direct_platform_skl, "imc"), NULL, 0, 0,
				     DIRECT_REG_CTR, 0, b, &r);
	if (rc == 0)
		rc = uncore_regio_read(io, &r, &v);
	if (rc < 0) {
		snprintf(why, len, "IMC counters not readable: %s", uncore_error_detail());
		uncore_error_clear();
		return rc;
	}
	*bar = b;
	return 0;
}

int uncore_direct_open_skl(const struct uncore_direct_config *cfg, struct uncore_backend **out)
{
	struct uncore_machine m;
	unsigned ncbo = 0;
	uint64_t mchbar = 0;
	int rc;

	if (!cfg || !cfg->io)
		return uncore_fail(UNCORE_EINVAL, "direct backend: no register access");
	memset(&m, 0, sizeof(m));
	m.plat = uncore_platform_skl.events;
	if (!m.plat)
		return uncore_fail(UNCORE_ENOSUPP, "no Skylake client event tables in this build");
	m.nsockets = 1; /* client parts: one package */
	rc = count_cbos(cfg->io, &ncbo);
	if (rc < 0)
		return rc;
	/* A CBo per core: no more than the package's physical cores, as the
	 * Linux driver caps its client CBos (HARDWARE-DECISIONS.md H13). */
	if (cfg->cores_per_package && cfg->cores_per_package < ncbo)
		ncbo = cfg->cores_per_package;
	for (unsigned b = 0; b < m.plat->nboxes && b < UNCORE_MAX_BOX_TYPES; b++) {
		const char *kind = m.plat->boxes[b]->kind;
		if (!direct_kind_find(&direct_platform_skl, kind))
			continue;
		if (strcmp(kind, "cbo") == 0) {
			uncore_inst_fill(&m.present[b][0], ncbo);
		} else if (strcmp(kind, "imc") == 0) {
			char why[sizeof(m.absent_note)];
			if (probe_imc(cfg->io, &mchbar, why, sizeof(why)) == 0) {
				uncore_inst_add(&m.present[b][0], 0);
			} else {
				m.absent_boxes |= 1ull << b;
				snprintf(m.absent_note, sizeof(m.absent_note), "%s",
					 cfg->absent_note ? cfg->absent_note : why);
			}
		} else {
			uncore_inst_add(&m.present[b][0], 0);
		}
	}

	/* CPUs: from the caller's topology; else one per CBo, i.e. per core. */
	if (cfg->cpu_socket && cfg->ncpus) {
		m.ncpus = cfg->ncpus < UNCORE_MAX_CPUS ? cfg->ncpus : UNCORE_MAX_CPUS;
		memcpy(m.cpu_socket, cfg->cpu_socket, m.ncpus * sizeof(m.cpu_socket[0]));
	} else {
		m.ncpus = ncbo ? ncbo : 1;
	}
	m.socket_cpu[0] = -1;
	for (unsigned c = m.ncpus; c-- > 0;)
		if (m.cpu_socket[c] == 0)
			m.socket_cpu[0] = (int)c;
	for (unsigned s = 1; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		m.socket_cpu[s] = -1;
	snprintf(m.origin, sizeof(m.origin), "%s", cfg->origin ? cfg->origin : "hardware");
	return uncore_direct_create_skl(cfg, &m, mchbar, out);
}
