/* The simulator as a register-access interface (access/regio.h): every read
 * and write takes the machine's lock, lets wall-clock or per-access time pass,
 * checks injected faults, performs the access, and logs it.  A machine
 * chosen by the user's options is opened as one in sim_open.c. */
#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/uncore_error.h"

/* A flat-PMU model (Skylake client, Nehalem, Xeon 7100/7400): MSRs; the
 * client host bridge's config space; the client IMC counters in MMIO. */
static int flat_access(struct uncore_sim *sim, const struct uncore_reg *r, uint64_t *value,
		       int write)
{
	struct sim_shared *sh = sim->sh;
	const struct sim_model *m = sim->model;
	switch (r->space) {
	case UNCORE_SPACE_MSR:
		if (r->width != 8)
			return uncore_fail(UNCORE_EINVAL,
					   "MSR 0x%llx accessed with width %u: MSRs are 8 bytes",
					   (unsigned long long)r->addr, r->width);
		if (r->addr > UINT32_MAX)
			return uncore_fail(UNCORE_EFAULT, "MSR 0x%llx does not exist (#GP)",
					   (unsigned long long)r->addr);
		return write ? sim_flat_msr_write(sh, m, r->socket, (uint32_t)r->addr, *value)
			     : sim_flat_msr_read(sh, m, r->socket, (uint32_t)r->addr, value);
	case UNCORE_SPACE_PCI:
		if (write)
			return uncore_fail(UNCORE_EFAULT,
					   "PCI config write at %02x:%02x.%x+0x%llx: the simulated "
					   "host bridge has no writable register we model",
					   UNCORE_BDF_BUS(r->bdf), UNCORE_BDF_DEV(r->bdf),
					   UNCORE_BDF_FN(r->bdf), (unsigned long long)r->addr);
		return sim_flat_pci_read(sh, m, r->bdf, (uint32_t)r->addr, r->width, value);
	default:
		if (write)
			return uncore_fail(UNCORE_EFAULT,
					   "MMIO write at 0x%llx: the IMC counters are read-only "
					   "(SKL 3.3)",
					   (unsigned long long)r->addr);
		return sim_flat_mmio_read(sh, m, r->socket, r->addr, r->width, value);
	}
}

/* An 8-byte read of PCI configuration space is two dword reads, low then
 * high, as the kernel's sysfs config read and an ECAM window make it: time
 * passes between them, so a running counter's halves can tear (the
 * reader's torn-read rule must catch it). */
static int pci_read_qword(struct uncore_sim *sim, const struct uncore_reg *r, uint64_t *value)
{
	struct sim_shared *sh = sim->sh;
	uint64_t lo = 0, hi = 0;
	int rc = sim_pci_read(sh, sim->model, r->bdf, (uint32_t)r->addr, 4, 0, &lo);
	if (rc)
		return rc;
	sim_sync_wall(sh, sim->model);
	if (sh->clock_mode == UNCORE_SIM_CLOCK_VIRTUAL && sh->access_ps)
		sim_advance_to(sh, sim->model, sh->now_ps + sh->access_ps);
	rc = sim_pci_read(sh, sim->model, r->bdf, (uint32_t)r->addr + 4, 4, 0, &hi);
	if (rc == 0)
		*value = hi << 32 | (lo & 0xffffffffu);
	return rc;
}

/* One access; a read stores *out only on success.  sim_read and sim_write
 * are jumps here, so that the whole cost of an access is the simulator's. */
static int sim_access(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *out, int write)
{
	struct uncore_sim *sim = io->impl;
	uint64_t v = write ? *out : 0, *value = &v;
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	struct sim_shared *sh = sim->sh;
	if (__builtin_expect(sim->leader != NULL, 0))
		sim_follow_sync(sim);
	sim_sync_wall(sh, sim->model);
	if (sh->clock_mode == UNCORE_SIM_CLOCK_VIRTUAL && sh->access_ps)
		sim_advance_to(sh, sim->model, sh->now_ps + sh->access_ps);
	rc = sim_fault_check(sh, write, r);
	if (rc == 0 && sim->model->flat) {
		rc = flat_access(sim, r, value, write);
	} else if (rc == 0) {
		switch (r->space) {
		case UNCORE_SPACE_MSR:
			if (r->width != 8)
				rc = uncore_fail(
				    UNCORE_EINVAL,
				    "MSR 0x%llx accessed with width %u: MSRs are 8 bytes",
				    (unsigned long long)r->addr, r->width);
			else if (r->addr > UINT32_MAX)
				rc = uncore_fail(UNCORE_EFAULT, "MSR 0x%llx does not exist (#GP)",
						 (unsigned long long)r->addr);
			else if (write)
				rc = sim_msr_write(sh, sim->model, r->socket, (uint32_t)r->addr,
						   *value);
			else
				rc = sim_msr_read(sh, sim->model, r->socket, (uint32_t)r->addr,
						  value);
			break;
		case UNCORE_SPACE_PCI:
			if (sim->user == UNCORE_SIM_USER_MSR_SAFE &&
			    (write || r->addr + r->width > 64))
				rc = uncore_fail(
				    UNCORE_EPERM,
				    "%s of %02x:%02x.%x+0x%llx: without CAP_SYS_ADMIN (root) Linux "
				    "shows only the first 64 bytes of PCI configuration space and "
				    "refuses writes (simulated msr-safe user)",
				    write ? "write" : "read", UNCORE_BDF_BUS(r->bdf),
				    UNCORE_BDF_DEV(r->bdf), UNCORE_BDF_FN(r->bdf),
				    (unsigned long long)r->addr);
			else if (r->addr > 0xfff)
				rc = uncore_fail(UNCORE_EINVAL,
						 "PCI config offset 0x%llx beyond 4 KiB",
						 (unsigned long long)r->addr);
			else if (write)
				rc = sim_pci_write(sh, sim->model, r->bdf, (uint32_t)r->addr,
						   r->width, *value);
			else if (r->width == 8)
				rc = pci_read_qword(sim, r, value);
			else
				rc = sim_pci_read(sh, sim->model, r->bdf, (uint32_t)r->addr,
						  r->width, 0, value);
			break;
		default:
			rc = uncore_fail(UNCORE_ENODEV,
					 "the Haswell-EP simulator has no MMIO registers");
		}
	}
	sim_log_access(sim, write, r, (write || rc == 0) ? v : 0, rc);
	sim_unlock(sim);
	if (write)
		io->stats.writes++;
	else
		io->stats.reads++;
	if (rc == 0 && !write)
		*out = v;
	return rc;
}

static int sim_read(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *value)
{
	return sim_access(io, r, value, 0);
}

static int sim_write(struct uncore_regio *io, const struct uncore_reg *r, uint64_t value)
{
	return sim_access(io, r, &value, 1);
}

/* Two reads, each one access as sim_read makes it (lock, time, faults,
 * log), so a counter may tear between them as between two read calls.
 * The barrier keeps the second a call, not a jump: the benchmark counts
 * the simulator's share inclusive in its entry points. */
static int sim_read_twice(struct uncore_regio *io, const struct uncore_reg *r, uint64_t *first,
			  uint64_t *second)
{
	int rc = sim_access(io, r, first, 0);
	if (rc == 0)
		rc = sim_access(io, r, second, 0);
	__asm__("" : "+r"(rc));
	return rc;
}

static void sim_regio_destroy(struct uncore_regio *io)
{
	struct uncore_sim *sim = io->impl;
	if (sim && sim->regio_closes)
		sim->regio_closes(sim);
}

static const struct uncore_regio_ops sim_ops = {
    .name = "sim",
    .read = sim_read,
    .write = sim_write,
    .batch = NULL,
    .read_twice = sim_read_twice,
    .destroy = sim_regio_destroy,
};

void sim_regio_init(struct uncore_sim *sim)
{
	sim->io.ops = &sim_ops;
	sim->io.impl = sim;
}

struct uncore_regio *uncore_sim_regio(struct uncore_sim *sim)
{
	return &sim->io;
}

int uncore_sim_set_user(struct uncore_sim *sim, enum uncore_sim_user user)
{
	if (!sim || (user != UNCORE_SIM_USER_ROOT && user != UNCORE_SIM_USER_MSR_SAFE))
		return uncore_fail(UNCORE_EINVAL, "uncore_sim_set_user: no machine or bad user %d",
				   (int)user);
	sim->user = (int)user;
	return 0;
}

struct uncore_sim *uncore_sim_from_regio(struct uncore_regio *io)
{
	return io && io->ops == &sim_ops ? io->impl : NULL;
}
