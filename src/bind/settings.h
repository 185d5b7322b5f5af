/* Every environment variable the library reads, read once (when the
 * PAPI component, or a utility, opens the component: bind/component.h)
 * into one struct that is passed down; nothing else in src/ or the
 * front-end calls getenv.  README "Environment variables" documents each
 * one; tests/integration/test_settings_documented.sh checks that table
 * against this list and that no other file of the library reads the
 * environment.  Utilities and the MPI library read their own options. */
#ifndef UNCORE_BIND_SETTINGS_H
#define UNCORE_BIND_SETTINGS_H

#include <stddef.h>

#include "sim/uncore_sim.h"

#define UNCORE_SETTING_MAX 1024

/* Each value as the environment gave it ("" when unset). */
struct uncore_settings {
	char backend[UNCORE_SETTING_MAX];          /* PAPI_INTEL_UNCORE_BACKEND */
	char read_freeze[UNCORE_SETTING_MAX];      /* PAPI_INTEL_UNCORE_READ_FREEZE */
	char poll[UNCORE_SETTING_MAX];             /* PAPI_INTEL_UNCORE_POLL */
	char verbose[UNCORE_SETTING_MAX];          /* PAPI_INTEL_UNCORE_VERBOSE */
	char pci[UNCORE_SETTING_MAX];              /* PAPI_INTEL_UNCORE_PCI */
	char lock_dir[UNCORE_SETTING_MAX];         /* PAPI_INTEL_UNCORE_LOCK_DIR */
	char runtime_dir[UNCORE_SETTING_MAX];      /* XDG_RUNTIME_DIR */
	char tmpdir[UNCORE_SETTING_MAX];           /* TMPDIR */
	char sim[UNCORE_SETTING_MAX];              /* PAPI_INTEL_UNCORE_SIM */
	char sim_scenario[UNCORE_SETTING_MAX];     /* PAPI_INTEL_UNCORE_SIM_SCENARIO */
	char sim_user[UNCORE_SETTING_MAX];         /* PAPI_INTEL_UNCORE_SIM_USER */
	char sim_log[UNCORE_SETTING_MAX];          /* PAPI_INTEL_UNCORE_SIM_LOG */
	char sim_kernel[UNCORE_SETTING_MAX];       /* PAPI_INTEL_UNCORE_SIM_KERNEL */
	char sim_kernel_share[UNCORE_SETTING_MAX]; /* PAPI_INTEL_UNCORE_SIM_KERNEL_SHARE */
	char sim_kernel_step[UNCORE_SETTING_MAX];  /* PAPI_INTEL_UNCORE_SIM_KERNEL_STEP */
	/* Tests only: a directory put in front of every device and sysfs path
	 * the real backends open (/dev/cpu, /sys/bus/pci, the MCFG table,
	 * /dev/mem, ...), so that the code a real machine runs runs on fake
	 * device files (bind/component.c; "": the real paths). */
	char test_root[UNCORE_SETTING_MAX]; /* PAPI_INTEL_UNCORE_TEST_ROOT */
	/* The measurement group (bind/group.h): set explicitly, or the
	 * launcher's. */
	char group[UNCORE_SETTING_MAX];          /* PAPI_INTEL_UNCORE_GROUP */
	/* uncored's socket ("": the default, backend/service/protocol.h; "none": do
	 * not look for it). */
	char service[UNCORE_SETTING_MAX]; /* PAPI_INTEL_UNCORE_SERVICE */
	char ompi_rank[UNCORE_SETTING_MAX];      /* OMPI_COMM_WORLD_RANK */
	char pmix_namespace[UNCORE_SETTING_MAX]; /* PMIX_NAMESPACE */
	char slurm_job[UNCORE_SETTING_MAX];      /* SLURM_JOB_ID */
	char slurm_step[UNCORE_SETTING_MAX];     /* SLURM_STEP_ID */
	char pmi_rank[UNCORE_SETTING_MAX];       /* PMI_RANK */
};

/* Read them all: 0, or UNCORE_ENOSPACE naming the variable that is too
 * long, or UNCORE_EINVAL naming a switch whose value is none of
 * uncore_settings_switch's (nothing is read partly). */
int uncore_settings_read(struct uncore_settings *out);

/* The variables read, in the struct's order: i < uncore_settings_count(). */
unsigned uncore_settings_count(void);
const char *uncore_settings_name(unsigned i);

/* A switch's value: 1 for 1, on, yes, true; 0 for 0, off, no, false (any
 * case); -1 for anything else. */
int uncore_settings_switch(const char *value);

/* A switch that is on unless set off (READ_FREEZE), and one that is off
 * unless set on (VERBOSE). */
int uncore_settings_default_on(const char *value);
int uncore_settings_set_on(const char *value);

/* The simulator's options out of them (pointers into `s`). */
void uncore_settings_sim(const struct uncore_settings *s, struct uncore_sim_options *out);

#endif
