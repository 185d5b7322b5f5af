/* What a machine of an MSR-only uncore has (Nehalem, Xeon 7100/7400), found
 * through the register-access interface: one PMU per package, so the
 * sockets are the packages whose global control MSR answers (or the
 * caller's topology), and every box type of the tables on each. */
#include "backend/direct/direct.h"
#include "backend/direct/engine.h"

#include "common/uncore_error.h"

#include <stdio.h>
#include <string.h>

/* Sockets 0.. whose global control reads; stops at the first that does not. */
static int probe_sockets(const struct direct_platform *p, struct uncore_regio *io, unsigned *n)
{
	unsigned s;
	for (s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++) {
		struct uncore_reg r = {.space = UNCORE_SPACE_MSR,
				       .width = 8,
				       .socket = (uint16_t)s,
				       .addr = p->global_msr};
		uint64_t v;
		int rc = uncore_regio_read(io, &r, &v);
		if (rc == 0)
			continue;
		if (s > 0) {
			uncore_error_clear();
			break;
		}
		char detail[400];
		snprintf(detail, sizeof(detail), "%s", uncore_error_detail());
		return uncore_fail(rc,
				   "cannot read the %s global control (MSR 0x%x) on socket 0: %s. "
				   "The direct backend needs MSR access on that processor (a "
				   "virtual machine has no uncore MSRs)",
				   p->title, p->global_msr, detail);
	}
	*n = s;
	return 0;
}

int uncore_direct_open_msr(const struct uncore_platform *gen, const struct uncore_direct_config *cfg,
			   struct uncore_backend **out)
{
	struct uncore_machine m;
	int rc;

	if (!cfg || !cfg->io || !out)
		return uncore_fail(UNCORE_EINVAL, "direct backend: no register access");
	if (!gen || !gen->direct || gen->access != UNCORE_ACCESS_MSR)
		return uncore_fail(UNCORE_ENOSUPP,
				   "platform \"%s\": not an MSR-only uncore the direct engine knows",
				   gen ? gen->name : "(none)");
	const struct direct_platform *p = gen->direct;
	memset(&m, 0, sizeof(m));
	m.plat = gen->events;
	for (unsigned s = 0; s < UNCORE_MACHINE_MAX_SOCKETS; s++)
		m.socket_cpu[s] = -1;
	if (cfg->cpu_socket && cfg->ncpus) {
		m.ncpus = cfg->ncpus < UNCORE_MAX_CPUS ? cfg->ncpus : UNCORE_MAX_CPUS;
		memcpy(m.cpu_socket, cfg->cpu_socket, m.ncpus * sizeof(m.cpu_socket[0]));
		for (unsigned c = m.ncpus; c-- > 0;) {
			int s = m.cpu_socket[c];
			if (s < 0 || s >= UNCORE_MACHINE_MAX_SOCKETS)
				continue;
			m.socket_cpu[s] = (int)c;
			if ((unsigned)s + 1 > m.nsockets)
				m.nsockets = (unsigned)s + 1;
		}
		/* The MSRs must answer on the first package. */
		unsigned n;
		if ((rc = probe_sockets(p, cfg->io, &n)) < 0)
			return rc;
	} else if ((rc = probe_sockets(p, cfg->io, &m.nsockets)) < 0) {
		return rc;
	}
	for (unsigned b = 0; b < m.plat->nboxes && b < UNCORE_MAX_BOX_TYPES; b++)
		if (direct_kind_find(p, m.plat->boxes[b]->kind))
			for (unsigned s = 0; s < m.nsockets; s++)
				uncore_inst_add(&m.present[b][s], 0);
	snprintf(m.origin, sizeof(m.origin), "%s", cfg->origin ? cfg->origin : "hardware");
	return direct_engine_create(p, cfg, &m, 0, out);
}

int uncore_direct_open_msr_platform(const char *platform, const struct uncore_direct_config *cfg,
				    struct uncore_backend **out)
{
	return uncore_direct_open_msr(uncore_platform_by_name(platform), cfg, out);
}
