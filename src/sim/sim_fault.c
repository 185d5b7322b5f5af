/* Fault injection: rules in the shared state say which accesses fail (by
 * space, operation, socket, PCI device, address), from which matching access
 * on, how many times, and with which errno (EIO, EACCES, ENODEV), as the
 * real device files would report them. */
#include "sim/sim_internal.h"

#include <errno.h>
#include <inttypes.h>

#include "common/uncore_error.h"

static int matches(const struct uncore_sim_fault *f, int write, const struct uncore_reg *r)
{
	if (f->space >= 0 && f->space != r->space)
		return 0;
	if (f->op == UNCORE_SIM_OP_READ && write)
		return 0;
	if (f->op == UNCORE_SIM_OP_WRITE && !write)
		return 0;
	if (r->space == UNCORE_SPACE_PCI) {
		if (f->bdf >= 0 && (uint32_t)f->bdf != r->bdf)
			return 0;
	} else if (f->socket >= 0 && (unsigned)f->socket != r->socket) {
		return 0;
	}
	if (f->addr >= 0 && (uint64_t)f->addr != r->addr)
		return 0;
	return 1;
}

int sim_fault_check(struct sim_shared *sh, int write, const struct uncore_reg *r)
{
	for (unsigned i = 0; i < sh->n_faults; i++) {
		struct sim_fault_rule *rule = &sh->faults[i];
		if (!matches(&rule->f, write, r))
			continue;
		rule->seen++;
		if (rule->seen < rule->f.nth)
			continue;
		if (rule->f.count && rule->failed >= rule->f.count)
			continue;
		rule->failed++;
		char where[64];
		uncore_reg_format(r, where, sizeof(where));
		return uncore_fail(
		    uncore_error_from_errno(rule->f.error),
		    "injected fault: %s of %s failed with %s (rule %u, access %" PRIu64 ")",
		    write ? "write" : "read", where,
		    rule->f.error == EIO      ? "EIO"
		    : rule->f.error == EACCES ? "EACCES"
					      : "ENODEV",
		    i, rule->seen);
	}
	return 0;
}
