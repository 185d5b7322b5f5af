/* A machine with every box instance of a platform (full_machine.h). */
#include "full_machine.h"

#include <string.h>

struct uncore_machine test_full_machine(const struct uncore_event_platform *plat, unsigned sockets)
{
	struct uncore_machine m;
	memset(&m, 0, sizeof(m));
	m.plat = plat;
	m.nsockets = sockets;
	for (unsigned b = 0; b < plat->nboxes && b < UNCORE_MAX_BOX_TYPES; b++)
		for (unsigned s = 0; s < sockets; s++)
			uncore_inst_fill(&m.present[b][s], plat->boxes[b]->ninstances);
	for (unsigned s = 0; s < sockets; s++)
		m.node_id[s] = (uint8_t)s;
	return m;
}

int test_next_catalog(unsigned *i, struct test_catalog_case *c)
{
	for (const struct uncore_event_platform *p; (p = uncore_event_platform_at(*i)); ) {
		++*i;
		if (uncore_metric_catalog_get(p, &c->cat) < 0)
			continue;
		c->plat = p;
		c->m = test_full_machine(p, strcmp(p->name, "hswep") == 0 ? 2 : 1);
		return 1;
	}
	return 0;
}
