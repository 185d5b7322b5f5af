/* The presets a component can count, node and per socket
 * (bind/preset_table.h). */
#include "bind/preset_table.h"

#include <stdio.h>

/* Preset `d` for `socket` (-1: the node) into `p`: 0, or -1 when this
 * machine cannot count it (no box of its events, or an event not
 * countable here: not listed). */
static int instance(struct uncore_component *c, const struct uncore_preset_def *d, int socket,
		    struct uncore_preset_instance *p)
{
	if (!uncore_preset_countable(d, &c->be->machine))
		return -1;
	if (uncore_preset_instance(d, socket, p->symbol, sizeof(p->symbol), p->events, &p->nev) <
	    0)
		return -1;
	for (unsigned i = 0; i < p->nev; i++)
		if (uncore_native_code(c->native, p->events[i], &p->codes[i]) < 0)
			return -1;
	if (socket >= 0)
		snprintf(p->descr, sizeof(p->descr), "%s; socket %d only", d->long_descr, socket);
	else
		snprintf(p->descr, sizeof(p->descr), "%s; every socket", d->long_descr);
	p->short_descr = d->short_descr;
	p->postfix = d->postfix;
	return 0;
}

void uncore_preset_table_build(struct uncore_component *c, struct uncore_preset_table *t)
{
	unsigned n;
	/* Presets come with tables, and tables bind at start-up. */
	const struct uncore_preset_def *defs =
	    c->be && c->be->machine.plat ? uncore_presets(c->be->machine.plat->platform, &n) : NULL;
	t->n = 0;
	if (!defs)
		return;
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < n; i++)
			for (int s = pass ? 0 : -1; s < (pass ? (int)c->be->machine.nsockets : 0);
			     s++) {
				if (t->n >= UNCORE_PRESET_SLOTS)
					return;
				if (instance(c, &defs[i], s, &t->preset[t->n]) == 0)
					t->n++;
			}
}
