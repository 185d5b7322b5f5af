/* The types, flags and modifier-bit macros that event tables in libpfm4's
 * header format (libpfm4-events/events/<name>_events.h) refer to, so that
 * each table compiles into our library exactly as it does inside libpfm4.
 * Field names and numeric values are facts of that shared format and must
 * stay equal to libpfm4's; the meaning we give them is in encode.c.
 * Include this header only from the files that include table headers. */
#ifndef UNCORE_EVENTS_PFM_COMPAT_H
#define UNCORE_EVENTS_PFM_COMPAT_H

#include <stdint.h>

/* Limits of the format: unit-mask groups per event, filter words per umask. */
#define INTEL_X86_NUM_GRP     8
#define INTEL_X86_MAX_FILTERS 2
#define INTEL_X86_MAX_GRPID   ((unsigned short)(~0))

#ifndef LIBPFM_ARRAY_SIZE
#define LIBPFM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* One unit mask.  ucode is a control-register image: bits 15:8 are the umask
 * field, higher bits hard-wire modifiers (see modhw), bits 7:0 replace the
 * event code when INTEL_X86_CODE_OVERRIDE is set.  ufilters[n]: bits 31:0
 * are set in filter register n, bits 63:32 are cleared in it. */
typedef struct intel_x86_umask {
	const char *uname;
	const char *udesc;
	const char *uequiv; /* "UMASK[:UMASK]" this one stands for, or NULL */
	uint64_t ucntmsk;   /* counters allowed with this umask (0: event's) */
	uint64_t ucode;
	uint64_t ufilters[INTEL_X86_MAX_FILTERS];
	unsigned int uflags; /* INTEL_X86_* */
	unsigned short umodel;
	unsigned short grpid;     /* group; with INTEL_X86_GRP_REQ: required group << 8 */
	unsigned int modhw;       /* modifiers hard-wired by ucode */
	unsigned int umodmsk_req; /* modifiers required with this umask */
} intel_x86_umask_t;

/* One event.  code is a control-register image: ev_sel in bits 7:0, plus any
 * bits the event always sets (a fixed umask in 15:8, ev_sel_ext in bit 21). */
typedef struct intel_x86_entry {
	const char *name;
	const char *desc;
	const char *equiv; /* "EVENT[:UMASK]" this one stands for, or NULL */
	uint64_t cntmsk;   /* counters that can count it */
	unsigned int code;
	unsigned int numasks;
	unsigned int flags;  /* INTEL_X86_* */
	unsigned int modmsk; /* modifiers allowed: bit n = modifier attribute n */
	unsigned int modmsk_req;
	unsigned short ngrp; /* number of umask groups */
	unsigned short model;
	const intel_x86_umask_t *umasks;
} intel_x86_entry_t;

/* Event and umask flags (values as in libpfm4's pfmlib_intel_x86_priv.h). */
#define INTEL_X86_NCOMBO         0x00001 /* umasks of a group cannot be combined */
#define INTEL_X86_FALLBACK_GEN   0x00002 /* fixed event may use a generic counter */
#define INTEL_X86_PEBS           0x00004
#define INTEL_X86_DFL            0x00008 /* default umask of its group */
#define INTEL_X86_GRP_EXCL       0x00010 /* umasks of only one group may be used */
#define INTEL_X86_NHM_OFFCORE    0x00020
#define INTEL_X86_EXCL_GRP_GT    0x00040 /* excludes groups with a higher id */
#define INTEL_X86_FIXED          0x00080 /* fixed-counter event */
#define INTEL_X86_NO_AUTOENCODE  0x00100
#define INTEL_X86_CODE_OVERRIDE  0x00200 /* ucode bits 7:0 replace the event code */
#define INTEL_X86_LDLAT          0x00400
#define INTEL_X86_GRP_DFL_NONE   0x00800 /* group may stay without umask */
#define INTEL_X86_FRONTEND       0x01000
#define INTEL_X86_FETHR          0x02000
#define INTEL_X86_EXCL_GRP_BUT_0 0x04000
#define INTEL_X86_GRP_REQ        0x08000 /* grpid bits 15:8 name a required group */
#define INTEL_X86_FILT_UMASK     0x10000 /* event uses filters set by umasks */
#define INTEL_X86_FORCE_FILT0    0x20000 /* filter 0 is programmed even if zero */
#define INTEL_X86_SPEC           0x40000

/* Core-style modifier attributes (SNB/SKL client uncore tables use these). */
#define INTEL_X86_ATTR_K       0
#define INTEL_X86_ATTR_U       1
#define INTEL_X86_ATTR_E       2
#define INTEL_X86_ATTR_I       3
#define INTEL_X86_ATTR_C       4
#define INTEL_X86_ATTR_T       5
#define INTEL_X86_ATTR_LDLAT   6
#define INTEL_X86_ATTR_INTX    7
#define INTEL_X86_ATTR_INTXCP  8
#define INTEL_X86_ATTR_FETHR   9
#define _INTEL_X86_ATTR_K      (1 << INTEL_X86_ATTR_K)
#define _INTEL_X86_ATTR_U      (1 << INTEL_X86_ATTR_U)
#define _INTEL_X86_ATTR_E      (1 << INTEL_X86_ATTR_E)
#define _INTEL_X86_ATTR_I      (1 << INTEL_X86_ATTR_I)
#define _INTEL_X86_ATTR_C      (1 << INTEL_X86_ATTR_C)
#define _INTEL_X86_ATTR_T      (1 << INTEL_X86_ATTR_T)
#define _INTEL_X86_ATTR_LDLAT  (1 << INTEL_X86_ATTR_LDLAT)
#define _INTEL_X86_ATTR_INTX   (1 << INTEL_X86_ATTR_INTX)
#define _INTEL_X86_ATTR_INTXCP (1 << INTEL_X86_ATTR_INTXCP)
#define _INTEL_X86_ATTR_FETHR  (1 << INTEL_X86_ATTR_FETHR)
#define INTEL_SNB_UNC_ATTRS    (_INTEL_X86_ATTR_I | _INTEL_X86_ATTR_E | _INTEL_X86_ATTR_C)

/* Server-uncore modifier attributes (bit numbers of modmsk). */
#define SNBEP_UNC_ATTR_E       0
#define SNBEP_UNC_ATTR_I       1
#define SNBEP_UNC_ATTR_T8      2
#define SNBEP_UNC_ATTR_T5      3
#define SNBEP_UNC_ATTR_TF      4
#define SNBEP_UNC_ATTR_CF      5
#define SNBEP_UNC_ATTR_NF      6
#define SNBEP_UNC_ATTR_FF      7
#define SNBEP_UNC_ATTR_A       8
#define SNBEP_UNC_ATTR_NF1     9
#define SNBEP_UNC_ATTR_ISOC    10
#define SNBEP_UNC_ATTR_NC      11
#define SNBEP_UNC_ATTR_CF1     12
#define SNBEP_UNC_ATTR_TF1     13
#define SNBEP_UNC_ATTR_CF2     14
#define SNBEP_UNC_ATTR_LOC     15
#define SNBEP_UNC_ATTR_REM     16
#define SNBEP_UNC_ATTR_LMEM    17
#define SNBEP_UNC_ATTR_RMEM    18
#define SNBEP_UNC_ATTR_DNID    19
#define SNBEP_UNC_ATTR_RCSNID  20
#define _SNBEP_UNC_ATTR_E      (1 << SNBEP_UNC_ATTR_E)
#define _SNBEP_UNC_ATTR_I      (1 << SNBEP_UNC_ATTR_I)
#define _SNBEP_UNC_ATTR_T8     (1 << SNBEP_UNC_ATTR_T8)
#define _SNBEP_UNC_ATTR_T5     (1 << SNBEP_UNC_ATTR_T5)
#define _SNBEP_UNC_ATTR_TF     (1 << SNBEP_UNC_ATTR_TF)
#define _SNBEP_UNC_ATTR_CF     (1 << SNBEP_UNC_ATTR_CF)
#define _SNBEP_UNC_ATTR_NF     (1 << SNBEP_UNC_ATTR_NF)
#define _SNBEP_UNC_ATTR_FF     (1 << SNBEP_UNC_ATTR_FF)
#define _SNBEP_UNC_ATTR_A      (1 << SNBEP_UNC_ATTR_A)
#define _SNBEP_UNC_ATTR_NF1    (1 << SNBEP_UNC_ATTR_NF1)
#define _SNBEP_UNC_ATTR_ISOC   (1 << SNBEP_UNC_ATTR_ISOC)
#define _SNBEP_UNC_ATTR_NC     (1 << SNBEP_UNC_ATTR_NC)
#define _SNBEP_UNC_ATTR_CF1    (1 << SNBEP_UNC_ATTR_CF1)
#define _SNBEP_UNC_ATTR_TF1    (1 << SNBEP_UNC_ATTR_TF1)
#define _SNBEP_UNC_ATTR_CF2    (1 << SNBEP_UNC_ATTR_CF2)
#define _SNBEP_UNC_ATTR_LOC    (1 << SNBEP_UNC_ATTR_LOC)
#define _SNBEP_UNC_ATTR_REM    (1 << SNBEP_UNC_ATTR_REM)
#define _SNBEP_UNC_ATTR_LMEM   (1 << SNBEP_UNC_ATTR_LMEM)
#define _SNBEP_UNC_ATTR_RMEM   (1 << SNBEP_UNC_ATTR_RMEM)
#define _SNBEP_UNC_ATTR_DNID   (1 << SNBEP_UNC_ATTR_DNID)
#define _SNBEP_UNC_ATTR_RCSNID (1 << SNBEP_UNC_ATTR_RCSNID)

/* Per-box modifier sets of Sandy Bridge-EP, which Haswell-EP's are defined
 * from (same values as libpfm4's pfmlib_intel_snbep_unc_priv.h). */
#define SNBEP_UNC_E_I_T8         (_SNBEP_UNC_ATTR_I | _SNBEP_UNC_ATTR_E | _SNBEP_UNC_ATTR_T8)
#define SNBEP_UNC_IRP_ATTRS      (_SNBEP_UNC_ATTR_E | _SNBEP_UNC_ATTR_T8)
#define SNBEP_UNC_R3QPI_ATTRS    SNBEP_UNC_E_I_T8
#define SNBEP_UNC_R2PCIE_ATTRS   SNBEP_UNC_E_I_T8
#define SNBEP_UNC_QPI_ATTRS      SNBEP_UNC_E_I_T8
#define SNBEP_UNC_UBO_ATTRS      SNBEP_UNC_E_I_T8
#define SNBEP_UNC_PCU_ATTRS      (_SNBEP_UNC_ATTR_I | _SNBEP_UNC_ATTR_E | _SNBEP_UNC_ATTR_T5)
#define SNBEP_UNC_PCU_BAND_ATTRS (SNBEP_UNC_PCU_ATTRS | _SNBEP_UNC_ATTR_FF)
#define SNBEP_UNC_IMC_ATTRS      SNBEP_UNC_E_I_T8
#define SNBEP_UNC_CBO_ATTRS      (SNBEP_UNC_E_I_T8 | _SNBEP_UNC_ATTR_CF | _SNBEP_UNC_ATTR_TF)
#define SNBEP_UNC_CBO_NID_ATTRS  (SNBEP_UNC_CBO_ATTRS | _SNBEP_UNC_ATTR_NF)
#define SNBEP_UNC_HA_ATTRS       SNBEP_UNC_E_I_T8
#define SNBEP_UNC_HA_OPC_ATTRS   (SNBEP_UNC_HA_ATTRS | _SNBEP_UNC_ATTR_A)

/* Haswell-EP per-box modifier sets. */
#define HSWEP_UNC_IRP_ATTRS      (_SNBEP_UNC_ATTR_E | _SNBEP_UNC_ATTR_T8 | _SNBEP_UNC_ATTR_I)
#define HSWEP_UNC_R3QPI_ATTRS    SNBEP_UNC_R3QPI_ATTRS
#define HSWEP_UNC_R2PCIE_ATTRS   SNBEP_UNC_R2PCIE_ATTRS
#define HSWEP_UNC_QPI_ATTRS      SNBEP_UNC_QPI_ATTRS
#define HSWEP_UNC_UBO_ATTRS      SNBEP_UNC_UBO_ATTRS
#define HSWEP_UNC_PCU_ATTRS      SNBEP_UNC_PCU_ATTRS
#define HSWEP_UNC_PCU_BAND_ATTRS SNBEP_UNC_PCU_BAND_ATTRS
#define HSWEP_UNC_IMC_ATTRS      SNBEP_UNC_IMC_ATTRS
#define HSWEP_UNC_CBO_ATTRS                                                                        \
	(_SNBEP_UNC_ATTR_E | _SNBEP_UNC_ATTR_T8 | _SNBEP_UNC_ATTR_CF1 | _SNBEP_UNC_ATTR_TF)
#define HSWEP_UNC_CBO_NID_ATTRS (HSWEP_UNC_CBO_ATTRS | _SNBEP_UNC_ATTR_NF1)
#define HSWEP_UNC_HA_ATTRS      (_SNBEP_UNC_ATTR_E | _SNBEP_UNC_ATTR_T8 | _SNBEP_UNC_ATTR_I)
#define HSWEP_UNC_SBO_ATTRS     (_SNBEP_UNC_ATTR_E | _SNBEP_UNC_ATTR_T8 | _SNBEP_UNC_ATTR_I)

/* Nehalem/Westmere uncore modifier attributes. */
#define NHM_UNC_ATTR_E  0
#define NHM_UNC_ATTR_I  1
#define NHM_UNC_ATTR_C  2
#define NHM_UNC_ATTR_O  3
#define _NHM_UNC_ATTR_E (1 << NHM_UNC_ATTR_E)
#define _NHM_UNC_ATTR_I (1 << NHM_UNC_ATTR_I)
#define _NHM_UNC_ATTR_C (1 << NHM_UNC_ATTR_C)
#define _NHM_UNC_ATTR_O (1 << NHM_UNC_ATTR_O)
#define NHM_UNC_ATTRS   (_NHM_UNC_ATTR_I | _NHM_UNC_ATTR_E | _NHM_UNC_ATTR_C | _NHM_UNC_ATTR_O)

#endif
