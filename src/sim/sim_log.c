/* The audit log: one JSON object per register access, appended (O_APPEND,
 * one write() per line) to the file named in the shared state, so every
 * process using the machine logs to the same file in access order. */
#include "sim/sim_internal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/uncore_error.h"

static int log_fd(struct uncore_sim *sim)
{
	struct sim_shared *sh = sim->sh;
	if (sim->log_gen != sh->log_gen || (sim->log_fd < 0 && sh->log_path[0])) {
		if (sim->log_fd >= 0)
			close(sim->log_fd);
		sim->log_fd = -1;
		sim->log_gen = sh->log_gen;
		if (sh->log_path[0])
			sim->log_fd =
			    open(sh->log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	}
	return sh->log_path[0] ? sim->log_fd : -1;
}

void sim_log_access(struct uncore_sim *sim, int is_write, const struct uncore_reg *r,
		    uint64_t value, int result)
{
	int fd = log_fd(sim);
	if (fd < 0)
		return;
	char line[384];
	int n;
	const char *op = is_write ? "wr" : "rd";
	if (r->space == UNCORE_SPACE_PCI) {
		int s = sim_bus_socket(sim->model, UNCORE_BDF_BUS(r->bdf));
		n = snprintf(
		    line, sizeof(line),
		    "{\"op\":\"%s\",\"socket\":%d,\"space\":\"pci\",\"bdf\":\"%02x:%02x.%x\","
		    "\"offset\":\"0x%" PRIx64 "\",\"width\":%u",
		    op, s >= 0 ? s : (int)r->socket, UNCORE_BDF_BUS(r->bdf), UNCORE_BDF_DEV(r->bdf),
		    UNCORE_BDF_FN(r->bdf), r->addr, r->width);
	} else {
		n = snprintf(line, sizeof(line),
			     "{\"op\":\"%s\",\"socket\":%u,\"space\":\"%s\",\"addr\":\"0x%" PRIx64
			     "\"",
			     op, r->socket, r->space == UNCORE_SPACE_MSR ? "msr" : "mmio", r->addr);
	}
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	/* A failed read has no value. */
	if (is_write || result == 0)
		n += snprintf(line + n, sizeof(line) - (size_t)n, ",\"value\":\"0x%" PRIx64 "\"",
			      value);
	if ((size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ",\"result\":%d", result);
	if (result && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ",\"error\":\"%s\"",
			      uncore_error_name(result));
	if ((size_t)n + 2 > sizeof(line))
		return;
	line[n++] = '}';
	line[n++] = '\n';
	ssize_t w = write(fd, line, (size_t)n);
	(void)w; /* the log is best effort: a full disk must not fail the access */
}
