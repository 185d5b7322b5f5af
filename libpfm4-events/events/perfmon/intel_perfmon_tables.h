/*
 * Every table generated from Intel's perfmon data (gen_perfmon.py), for C code
 * that includes them all: PERFMON_PMUS(X) expands X(gen, box, array) once per
 * PMU <gen>_unc_<box>.  GENERATED: do not edit.
 */
#ifndef __INTEL_PERFMON_TABLES_H__
#define __INTEL_PERFMON_TABLES_H__

#include "events/perfmon/intel_bdx_unc_cbo_events.h"
#include "events/perfmon/intel_bdx_unc_ha_events.h"
#include "events/perfmon/intel_bdx_unc_imc_events.h"
#include "events/perfmon/intel_bdx_unc_irp_events.h"
#include "events/perfmon/intel_bdx_unc_pcu_events.h"
#include "events/perfmon/intel_bdx_unc_qpi_events.h"
#include "events/perfmon/intel_bdx_unc_r2pcie_events.h"
#include "events/perfmon/intel_bdx_unc_r3qpi_events.h"
#include "events/perfmon/intel_bdx_unc_sbo_events.h"
#include "events/perfmon/intel_bdx_unc_ubo_events.h"
#include "events/perfmon/intel_skx_unc_cha_events.h"
#include "events/perfmon/intel_skx_unc_iio_events.h"
#include "events/perfmon/intel_skx_unc_imc_events.h"
#include "events/perfmon/intel_skx_unc_irp_events.h"
#include "events/perfmon/intel_skx_unc_m2m_events.h"
#include "events/perfmon/intel_skx_unc_m3upi_events.h"
#include "events/perfmon/intel_skx_unc_pcu_events.h"
#include "events/perfmon/intel_skx_unc_ubo_events.h"
#include "events/perfmon/intel_skx_unc_upi_events.h"
#include "events/perfmon/intel_clx_unc_cha_events.h"
#include "events/perfmon/intel_clx_unc_iio_events.h"
#include "events/perfmon/intel_clx_unc_imc_events.h"
#include "events/perfmon/intel_clx_unc_irp_events.h"
#include "events/perfmon/intel_clx_unc_m2m_events.h"
#include "events/perfmon/intel_clx_unc_m3upi_events.h"
#include "events/perfmon/intel_clx_unc_pcu_events.h"
#include "events/perfmon/intel_clx_unc_ubo_events.h"
#include "events/perfmon/intel_clx_unc_upi_events.h"
#include "events/perfmon/intel_icx_unc_cha_events.h"
#include "events/perfmon/intel_icx_unc_iio_events.h"
#include "events/perfmon/intel_icx_unc_iio_free_events.h"
#include "events/perfmon/intel_icx_unc_imc_events.h"
#include "events/perfmon/intel_icx_unc_imc_free_events.h"
#include "events/perfmon/intel_icx_unc_irp_events.h"
#include "events/perfmon/intel_icx_unc_m2m_events.h"
#include "events/perfmon/intel_icx_unc_m2pcie_events.h"
#include "events/perfmon/intel_icx_unc_m3upi_events.h"
#include "events/perfmon/intel_icx_unc_pcu_events.h"
#include "events/perfmon/intel_icx_unc_ubo_events.h"
#include "events/perfmon/intel_icx_unc_upi_events.h"
#include "events/perfmon/intel_spr_unc_cha_events.h"
#include "events/perfmon/intel_spr_unc_cxlcm_events.h"
#include "events/perfmon/intel_spr_unc_cxldp_events.h"
#include "events/perfmon/intel_spr_unc_iio_events.h"
#include "events/perfmon/intel_spr_unc_iio_free_events.h"
#include "events/perfmon/intel_spr_unc_imc_events.h"
#include "events/perfmon/intel_spr_unc_irp_events.h"
#include "events/perfmon/intel_spr_unc_m2hbm_events.h"
#include "events/perfmon/intel_spr_unc_m2m_events.h"
#include "events/perfmon/intel_spr_unc_m2pcie_events.h"
#include "events/perfmon/intel_spr_unc_m3upi_events.h"
#include "events/perfmon/intel_spr_unc_mchbm_events.h"
#include "events/perfmon/intel_spr_unc_mdf_events.h"
#include "events/perfmon/intel_spr_unc_pcu_events.h"
#include "events/perfmon/intel_spr_unc_ubo_events.h"
#include "events/perfmon/intel_spr_unc_upi_events.h"
#include "events/perfmon/intel_emr_unc_cha_events.h"
#include "events/perfmon/intel_emr_unc_cxlcm_events.h"
#include "events/perfmon/intel_emr_unc_cxldp_events.h"
#include "events/perfmon/intel_emr_unc_iio_events.h"
#include "events/perfmon/intel_emr_unc_iio_free_events.h"
#include "events/perfmon/intel_emr_unc_imc_events.h"
#include "events/perfmon/intel_emr_unc_irp_events.h"
#include "events/perfmon/intel_emr_unc_m2hbm_events.h"
#include "events/perfmon/intel_emr_unc_m2m_events.h"
#include "events/perfmon/intel_emr_unc_m2pcie_events.h"
#include "events/perfmon/intel_emr_unc_m3upi_events.h"
#include "events/perfmon/intel_emr_unc_mchbm_events.h"
#include "events/perfmon/intel_emr_unc_mdf_events.h"
#include "events/perfmon/intel_emr_unc_pcu_events.h"
#include "events/perfmon/intel_emr_unc_ubo_events.h"
#include "events/perfmon/intel_emr_unc_upi_events.h"
#include "events/perfmon/intel_gnr_unc_b2cmi_events.h"
#include "events/perfmon/intel_gnr_unc_b2cxl_events.h"
#include "events/perfmon/intel_gnr_unc_b2hot_events.h"
#include "events/perfmon/intel_gnr_unc_b2upi_events.h"
#include "events/perfmon/intel_gnr_unc_cha_events.h"
#include "events/perfmon/intel_gnr_unc_chacms_events.h"
#include "events/perfmon/intel_gnr_unc_cxlcm_events.h"
#include "events/perfmon/intel_gnr_unc_cxldp_events.h"
#include "events/perfmon/intel_gnr_unc_iio_events.h"
#include "events/perfmon/intel_gnr_unc_imc_events.h"
#include "events/perfmon/intel_gnr_unc_irp_events.h"
#include "events/perfmon/intel_gnr_unc_mdf_events.h"
#include "events/perfmon/intel_gnr_unc_pcu_events.h"
#include "events/perfmon/intel_gnr_unc_ubo_events.h"
#include "events/perfmon/intel_gnr_unc_upi_events.h"
#include "events/perfmon/intel_srf_unc_b2cmi_events.h"
#include "events/perfmon/intel_srf_unc_b2cxl_events.h"
#include "events/perfmon/intel_srf_unc_b2hot_events.h"
#include "events/perfmon/intel_srf_unc_b2upi_events.h"
#include "events/perfmon/intel_srf_unc_cha_events.h"
#include "events/perfmon/intel_srf_unc_chacms_events.h"
#include "events/perfmon/intel_srf_unc_cxlcm_events.h"
#include "events/perfmon/intel_srf_unc_cxldp_events.h"
#include "events/perfmon/intel_srf_unc_iio_events.h"
#include "events/perfmon/intel_srf_unc_imc_events.h"
#include "events/perfmon/intel_srf_unc_irp_events.h"
#include "events/perfmon/intel_srf_unc_mdf_events.h"
#include "events/perfmon/intel_srf_unc_pcu_events.h"
#include "events/perfmon/intel_srf_unc_ubo_events.h"
#include "events/perfmon/intel_srf_unc_upi_events.h"

#define PERFMON_PMUS(X) \
	X(bdx, cbo, intel_bdx_unc_cbo_pe) \
	X(bdx, ha, intel_bdx_unc_ha_pe) \
	X(bdx, imc, intel_bdx_unc_imc_pe) \
	X(bdx, irp, intel_bdx_unc_irp_pe) \
	X(bdx, pcu, intel_bdx_unc_pcu_pe) \
	X(bdx, qpi, intel_bdx_unc_qpi_pe) \
	X(bdx, r2pcie, intel_bdx_unc_r2pcie_pe) \
	X(bdx, r3qpi, intel_bdx_unc_r3qpi_pe) \
	X(bdx, sbo, intel_bdx_unc_sbo_pe) \
	X(bdx, ubo, intel_bdx_unc_ubo_pe) \
	X(skx, cha, intel_skx_unc_cha_pe) \
	X(skx, iio, intel_skx_unc_iio_pe) \
	X(skx, imc, intel_skx_unc_imc_pe) \
	X(skx, irp, intel_skx_unc_irp_pe) \
	X(skx, m2m, intel_skx_unc_m2m_pe) \
	X(skx, m3upi, intel_skx_unc_m3upi_pe) \
	X(skx, pcu, intel_skx_unc_pcu_pe) \
	X(skx, ubo, intel_skx_unc_ubo_pe) \
	X(skx, upi, intel_skx_unc_upi_pe) \
	X(clx, cha, intel_clx_unc_cha_pe) \
	X(clx, iio, intel_clx_unc_iio_pe) \
	X(clx, imc, intel_clx_unc_imc_pe) \
	X(clx, irp, intel_clx_unc_irp_pe) \
	X(clx, m2m, intel_clx_unc_m2m_pe) \
	X(clx, m3upi, intel_clx_unc_m3upi_pe) \
	X(clx, pcu, intel_clx_unc_pcu_pe) \
	X(clx, ubo, intel_clx_unc_ubo_pe) \
	X(clx, upi, intel_clx_unc_upi_pe) \
	X(icx, cha, intel_icx_unc_cha_pe) \
	X(icx, iio, intel_icx_unc_iio_pe) \
	X(icx, iio_free, intel_icx_unc_iio_free_pe) \
	X(icx, imc, intel_icx_unc_imc_pe) \
	X(icx, imc_free, intel_icx_unc_imc_free_pe) \
	X(icx, irp, intel_icx_unc_irp_pe) \
	X(icx, m2m, intel_icx_unc_m2m_pe) \
	X(icx, m2pcie, intel_icx_unc_m2pcie_pe) \
	X(icx, m3upi, intel_icx_unc_m3upi_pe) \
	X(icx, pcu, intel_icx_unc_pcu_pe) \
	X(icx, ubo, intel_icx_unc_ubo_pe) \
	X(icx, upi, intel_icx_unc_upi_pe) \
	X(spr, cha, intel_spr_unc_cha_pe) \
	X(spr, cxlcm, intel_spr_unc_cxlcm_pe) \
	X(spr, cxldp, intel_spr_unc_cxldp_pe) \
	X(spr, iio, intel_spr_unc_iio_pe) \
	X(spr, iio_free, intel_spr_unc_iio_free_pe) \
	X(spr, imc, intel_spr_unc_imc_pe) \
	X(spr, irp, intel_spr_unc_irp_pe) \
	X(spr, m2hbm, intel_spr_unc_m2hbm_pe) \
	X(spr, m2m, intel_spr_unc_m2m_pe) \
	X(spr, m2pcie, intel_spr_unc_m2pcie_pe) \
	X(spr, m3upi, intel_spr_unc_m3upi_pe) \
	X(spr, mchbm, intel_spr_unc_mchbm_pe) \
	X(spr, mdf, intel_spr_unc_mdf_pe) \
	X(spr, pcu, intel_spr_unc_pcu_pe) \
	X(spr, ubo, intel_spr_unc_ubo_pe) \
	X(spr, upi, intel_spr_unc_upi_pe) \
	X(emr, cha, intel_emr_unc_cha_pe) \
	X(emr, cxlcm, intel_emr_unc_cxlcm_pe) \
	X(emr, cxldp, intel_emr_unc_cxldp_pe) \
	X(emr, iio, intel_emr_unc_iio_pe) \
	X(emr, iio_free, intel_emr_unc_iio_free_pe) \
	X(emr, imc, intel_emr_unc_imc_pe) \
	X(emr, irp, intel_emr_unc_irp_pe) \
	X(emr, m2hbm, intel_emr_unc_m2hbm_pe) \
	X(emr, m2m, intel_emr_unc_m2m_pe) \
	X(emr, m2pcie, intel_emr_unc_m2pcie_pe) \
	X(emr, m3upi, intel_emr_unc_m3upi_pe) \
	X(emr, mchbm, intel_emr_unc_mchbm_pe) \
	X(emr, mdf, intel_emr_unc_mdf_pe) \
	X(emr, pcu, intel_emr_unc_pcu_pe) \
	X(emr, ubo, intel_emr_unc_ubo_pe) \
	X(emr, upi, intel_emr_unc_upi_pe) \
	X(gnr, b2cmi, intel_gnr_unc_b2cmi_pe) \
	X(gnr, b2cxl, intel_gnr_unc_b2cxl_pe) \
	X(gnr, b2hot, intel_gnr_unc_b2hot_pe) \
	X(gnr, b2upi, intel_gnr_unc_b2upi_pe) \
	X(gnr, cha, intel_gnr_unc_cha_pe) \
	X(gnr, chacms, intel_gnr_unc_chacms_pe) \
	X(gnr, cxlcm, intel_gnr_unc_cxlcm_pe) \
	X(gnr, cxldp, intel_gnr_unc_cxldp_pe) \
	X(gnr, iio, intel_gnr_unc_iio_pe) \
	X(gnr, imc, intel_gnr_unc_imc_pe) \
	X(gnr, irp, intel_gnr_unc_irp_pe) \
	X(gnr, mdf, intel_gnr_unc_mdf_pe) \
	X(gnr, pcu, intel_gnr_unc_pcu_pe) \
	X(gnr, ubo, intel_gnr_unc_ubo_pe) \
	X(gnr, upi, intel_gnr_unc_upi_pe) \
	X(srf, b2cmi, intel_srf_unc_b2cmi_pe) \
	X(srf, b2cxl, intel_srf_unc_b2cxl_pe) \
	X(srf, b2hot, intel_srf_unc_b2hot_pe) \
	X(srf, b2upi, intel_srf_unc_b2upi_pe) \
	X(srf, cha, intel_srf_unc_cha_pe) \
	X(srf, chacms, intel_srf_unc_chacms_pe) \
	X(srf, cxlcm, intel_srf_unc_cxlcm_pe) \
	X(srf, cxldp, intel_srf_unc_cxldp_pe) \
	X(srf, iio, intel_srf_unc_iio_pe) \
	X(srf, imc, intel_srf_unc_imc_pe) \
	X(srf, irp, intel_srf_unc_irp_pe) \
	X(srf, mdf, intel_srf_unc_mdf_pe) \
	X(srf, pcu, intel_srf_unc_pcu_pe) \
	X(srf, ubo, intel_srf_unc_ubo_pe) \
	X(srf, upi, intel_srf_unc_upi_pe)

#endif
