/*
 * The generations whose units are Haswell-EP's boxes, with their tables
 * (gen_perfmon.py HSWEP_COUSINS): PERFMON_HSWEP_COUSINS(X) expands X(gen)
 * once per generation.  GENERATED: do not edit.
 */
#ifndef __INTEL_HSWEP_COUSINS_H__
#define __INTEL_HSWEP_COUSINS_H__

#include "events/perfmon/intel_bdx_unc_ubo_events.h"
#include "events/perfmon/intel_bdx_unc_cbo_events.h"
#include "events/perfmon/intel_bdx_unc_sbo_events.h"
#include "events/perfmon/intel_bdx_unc_ha_events.h"
#include "events/perfmon/intel_bdx_unc_imc_events.h"
#include "events/perfmon/intel_bdx_unc_irp_events.h"
#include "events/perfmon/intel_bdx_unc_pcu_events.h"
#include "events/perfmon/intel_bdx_unc_qpi_events.h"
#include "events/perfmon/intel_bdx_unc_r2pcie_events.h"
#include "events/perfmon/intel_bdx_unc_r3qpi_events.h"

#define PERFMON_HSWEP_COUSINS(X) X(bdx)

#endif
