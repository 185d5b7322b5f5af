/* Look-ups over the machine description. */
#include "plan/machine.h"

#include "common/uncore_error.h"

int uncore_machine_box_index(const struct uncore_machine *m, const struct uncore_box_type *box)
{
	for (unsigned b = 0; b < m->plat->nboxes && b < UNCORE_MAX_BOX_TYPES; b++)
		if (m->plat->boxes[b] == box)
			return (int)b;
	return -1;
}

int uncore_machine_socket_of_cpu(const struct uncore_machine *m, int cpu, unsigned *socket)
{
	if (cpu < 0 || (unsigned)cpu >= m->ncpus || (unsigned)cpu >= UNCORE_MAX_CPUS ||
	    m->cpu_socket[cpu] < 0)
		return uncore_fail(UNCORE_ENODEV, "cpu=%d is not an online CPU of this machine (0-%u)",
				   cpu, m->ncpus ? m->ncpus - 1 : 0);
	*socket = (unsigned)m->cpu_socket[cpu];
	return 0;
}
