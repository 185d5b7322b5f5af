/* A process's measurement group (group.h), from the launcher's
 * environment: the first rule that applies wins. */
#include "bind/group.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* FNV-1a, 64 bits: a short, stable file-name part for any key. */
static uint64_t hash_key(const char *k)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *k; k++) {
		h ^= (unsigned char)*k;
		h *= 0x100000001b3ull;
	}
	return h;
}

void uncore_group_identify(const struct uncore_settings *s, int pid, int ppid,
			   struct uncore_group *out)
{
	if (s->group[0])
		snprintf(out->key, sizeof(out->key), "user:%.150s", s->group);
	else if (s->ompi_rank[0] && s->pmix_namespace[0])
		snprintf(out->key, sizeof(out->key), "openmpi:%.140s", s->pmix_namespace);
	else if (s->slurm_job[0] && s->slurm_step[0])
		snprintf(out->key, sizeof(out->key), "slurm:%.70s.%.70s", s->slurm_job,
			 s->slurm_step);
	else if (s->pmi_rank[0])
		snprintf(out->key, sizeof(out->key), "pmi:%d", ppid);
	else
		snprintf(out->key, sizeof(out->key), "process:%d", pid);
	out->single = strncmp(out->key, "process:", 8) == 0;
	snprintf(out->tag, sizeof(out->tag), "g%016llx", (unsigned long long)hash_key(out->key));
}
