/* The direct engine made (engine.h, direct_engine_create): its state over
 * a platform's box-kind descriptions, and its backend operations - the
 * sequences of engine.c and the ending ones of engine_stop.c. */
#include "backend/direct/engine_internal.h"
#include "common/uncore_error.h"
#include <stdlib.h>
#include <string.h>

static const struct uncore_backend_ops eng_ops = {
    .name = "direct",
    .acquire = eng_acquire,
    .release = eng_release,
    .program = eng_program,
    .start = eng_start,
    .stop = eng_stop,
    .read = eng_read,
    .unprogram = eng_unprogram,
    .destroy = eng_destroy,
    .max_read_interval = eng_max_read_interval,
    .wrap_ns = eng_wrap_ns,
    .stats = eng_stats,
    .socket_taken_over = eng_socket_taken_over,
};

int direct_engine_create(const struct direct_platform *p, const struct uncore_direct_config *cfg,
			 const struct uncore_machine *machine, uint64_t mmio_base,
			 struct uncore_backend **out)
{
	if (!p || !cfg || !cfg->io || !machine || !machine->plat || !out)
		return uncore_fail(UNCORE_EINVAL, "direct backend: no register access or machine");
	if (!machine->plat->platform || machine->plat->platform->direct != p)
		return uncore_fail(UNCORE_EINVAL, "%s direct backend: machine of platform %s",
				   p->title, machine->plat->name);
	struct engine *e = calloc(1, sizeof(*e));
	if (!e)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the direct backend");
	e->p = p;
	e->cfg = *cfg;
	e->base.read_freezes = cfg->read_freeze;
	/* The caller's strings need not outlive this call. */
	e->cfg.origin = NULL;
	e->cfg.absent_note = NULL;
	e->cfg.cpu_socket = NULL;
	if (cfg->lock_dir && !(e->cfg.lock_dir = e->lock_dir = strdup(cfg->lock_dir))) {
		free(e);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the direct backend");
	}
	const struct uncore_event_platform *plat = machine->plat;
	e->kinds = calloc(plat->nboxes ? plat->nboxes : 1, sizeof(*e->kinds));
	if (!e->kinds) {
		free(e->lock_dir);
		free(e);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for the direct backend");
	}
	/* Box types only the kernel's driver knows (perf sysfs) have none. */
	for (unsigned b = 0; b < plat->nboxes; b++)
		if (!(plat->boxes[b]->flags & UNCORE_BOXF_KERNEL))
			e->kinds[b] = direct_kind_find(p, plat->boxes[b]->kind);
	e->mmio_base = mmio_base;
	e->base.ops = &eng_ops;
	e->base.machine = *machine;
	*out = &e->base;
	return 0;
}
