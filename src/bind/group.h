/* Measurement groups (README "MPI jobs and threads"): "each socket once"
 * holds within a group, and groups count independently.  A group is the
 * MPI job or Slurm job step the process belongs to, as its launcher's
 * environment says, or the one PAPI_INTEL_UNCORE_GROUP names; otherwise the
 * process alone.  Pure: the caller passes the environment's values
 * (bind/settings.h) and the process's IDs, so it is tested without
 * launchers (tests/unit/bind/test_group.c). */
#ifndef UNCORE_BIND_GROUP_H
#define UNCORE_BIND_GROUP_H

#include <stddef.h>

#include "bind/settings.h"

struct uncore_group {
	/* What processes of one group share: "openmpi:370016257",
	 * "slurm:4242.0", "pmi:1234", "user:NAME", "process:4321". */
	char key[160];
	/* The key as a lock file name part: "g" and 16 hex digits of its hash. */
	char tag[24];
	/* The process alone (no launcher, no PAPI_INTEL_UNCORE_GROUP): no
	 * other process shares its counting. */
	int single;
};

/* The group of this process: PAPI_INTEL_UNCORE_GROUP when set; Open MPI's
 * job (PMIX_NAMESPACE, with OMPI_COMM_WORLD_RANK set); a Slurm job step (SLURM_JOB_ID and
 * SLURM_STEP_ID); an MPICH/Hydra job (PMI_RANK set: the ranks of one job on
 * a node are the children of one hydra_pmi_proxy, `ppid`); else the process
 * itself (`pid`). */
void uncore_group_identify(const struct uncore_settings *s, int pid, int ppid,
			   struct uncore_group *out);

#endif
