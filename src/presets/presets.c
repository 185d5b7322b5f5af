/* The uncore presets of each platform (presets.h).  Formulas are the
 * manuals' byte conversions: a CAS moves one 64-byte line (HSX 2.6.6,
 * MEM_BW_READS = CAS_COUNT.RD * 64); a QPI data flit carries 8 bytes
 * (HSX 2.9.5, QPI_DATA_BW = TxL_FLITS_G0.DATA * 8). */
#include "presets/presets.h"

#include "common/uncore_error.h"

#include <stdio.h>

/* clang-format off */
static const struct uncore_preset_def hswep_presets[] = {
	{.symbol = "PAPI_UNC_DRAM_RD_BYTES",
	 .short_descr = "DRAM read bytes",
	 .long_descr = "Bytes read from DRAM: 64 per CAS read of every memory channel (HSX 2.6.6 MEM_BW_READS)",
	 .postfix = "N0|64|*|",
	 .events = {"hswep_unc_imc::UNC_M_CAS_COUNT:RD"}},
	{.symbol = "PAPI_UNC_DRAM_WR_BYTES",
	 .short_descr = "DRAM write bytes",
	 .long_descr = "Bytes written to DRAM: 64 per CAS write of every memory channel (HSX 2.6.6 MEM_BW_WRITES)",
	 .postfix = "N0|64|*|",
	 .events = {"hswep_unc_imc::UNC_M_CAS_COUNT:WR"}},
	{.symbol = "PAPI_UNC_LLC_MISSES",
	 .short_descr = "LLC lookups that miss",
	 .long_descr = "LLC lookups of any request that found the line invalid, i.e. missed, in every CBo (HSX 2.3.6 LLC_LOOKUP, state I)",
	 .events = {"hswep_unc_cbo::UNC_C_LLC_LOOKUP:ANY:STATE_I"}},
	{.symbol = "PAPI_UNC_QPI_DATA_BYTES",
	 .short_descr = "QPI data bytes sent",
	 .long_descr = "Data bytes sent on every QPI link: 8 per data flit (HSX 2.9.5 QPI_DATA_BW)",
	 .postfix = "N0|8|*|",
	 .events = {"hswep_unc_qpi::UNC_Q_TXL_FLITS_G0:DATA"}},
	{.symbol = "PAPI_UNC_CLOCKTICKS",
	 .short_descr = "Uncore clockticks",
	 .long_descr = "Uncore clock (UCLK) cycles, the UBox fixed counter of each socket (HSX 2.2)",
	 .events = {"hswep_unc_ubo::UNC_U_CLOCKTICKS"}},
};
/* clang-format on */

const struct uncore_preset_def *uncore_presets(enum uncore_platform_id id, unsigned *n)
{
	if (id == UNCORE_PLATFORM_HSWEP) {
		*n = sizeof(hswep_presets) / sizeof(hswep_presets[0]);
		return hswep_presets;
	}
	*n = 0;
	return NULL;
}

int uncore_preset_instance(const struct uncore_preset_def *d, int socket, char *symbol,
			   size_t symbol_len, char events[][UNCORE_PRESET_NAME_MAX],
			   unsigned *nevents)
{
	char suffix[32] = "";
	unsigned k = 0;
	int w;
	if (socket >= 0)
		snprintf(suffix, sizeof(suffix), ":socket=%d", socket);
	w = snprintf(symbol, symbol_len, "%s%s", d->symbol, suffix);
	if (w < 0 || (size_t)w >= symbol_len)
		return uncore_fail(UNCORE_ERANGE, "preset name %s%s is too long", d->symbol,
				   suffix);
	for (; k < UNCORE_PRESET_MAX_EVENTS && d->events[k]; k++) {
		w = snprintf(events[k], UNCORE_PRESET_NAME_MAX, "%s%s", d->events[k], suffix);
		if (w < 0 || w >= UNCORE_PRESET_NAME_MAX)
			return uncore_fail(UNCORE_ERANGE, "event %s%s of %s is too long",
					   d->events[k], suffix, d->symbol);
	}
	*nevents = k;
	return 0;
}
