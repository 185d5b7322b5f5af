/* What the Xeon Scalable generations counted through the kernel's PMUs
 * (skx .. srf, src/platform/<gen>/<gen>.c) share: their presets, each
 * Intel's metric formula (the <GEN>/metrics/ files of Intel's perfmon
 * data) over the generation's generated tables.  A macro per preset, so a
 * generation's file says which events feed it and nothing else. */
#ifndef UNCORE_PLATFORM_XEON_SP_H
#define UNCORE_PLATFORM_XEON_SP_H

#include "platform/platform.h"

/* memory_bandwidth_read / _write: a * 64 (one 64-byte line per CAS). */
#define XSP_PRESET_DRAM(sym, what, rw, gen, ev)                                                      \
	{.symbol = sym,                                                                            \
	 .short_descr = "DRAM " rw " bytes",                                                         \
	 .long_descr = "Bytes " what " DRAM: 64 per CAS of every memory channel (Intel perfmon " \
		       #gen " metric memory_bandwidth_" rw ": " ev " * 64)",                         \
	 .postfix = "N0|64|*|",                                                                    \
	 .events = {#gen "_unc_imc::" ev}}

/* Granite Rapids, Sierra Forest: each channel has two command schedulers,
 * each its own CAS counter; memory_bandwidth_read = (SCH0.RD + SCH1.RD) *
 * 64.  Both are counted from their raw encodings, so a kernel whose IMC
 * aliases know scheduler 0 only still gives the whole bandwidth. */
#define XSP_PRESET_DRAM2(sym, what, rw, gen, um)                                                     \
	{.symbol = sym,                                                                            \
	 .short_descr = "DRAM " rw " bytes",                                                         \
	 .long_descr = "Bytes " what " DRAM: 64 per CAS of both command schedulers of every "     \
		       "memory channel, counted from the raw encodings (Intel perfmon " #gen         \
		       " metric memory_bandwidth_" rw ": (UNC_M_CAS_COUNT_SCH0." um                     \
		       " + UNC_M_CAS_COUNT_SCH1." um ") * 64)",                                      \
	 .postfix = "N0|N1|+|64|*|",                                                               \
	 .events = {#gen "_unc_imc::UNC_M_CAS_COUNT_SCH0:" um,                                     \
		    #gen "_unc_imc::UNC_M_CAS_COUNT_SCH1:" um}}

/* LLC misses of the socket's cores: TOR inserts of IA requests that
 * missed, in every CHA (Intel's event UNC_CHA_TOR_INSERTS.IA_MISS). */
#define XSP_PRESET_LLC(gen)                                                                        \
	{.symbol = "PAPI_UNC_LLC_MISSES",                                                          \
	 .short_descr = "LLC misses",                                                              \
	 .long_descr = "Requests of the cores that missed the LLC: TOR inserts of IA misses in "   \
		       "every CHA (Intel perfmon " #gen " event UNC_CHA_TOR_INSERTS.IA_MISS)",       \
	 .events = {#gen "_unc_cha::UNC_CHA_TOR_INSERTS:IA_MISS"}}

/* upi_data_transmit_bw: a * (64 / 9.0) (nine data flits carry a line). */
#define XSP_PRESET_UPI(gen)                                                                        \
	{.symbol = "PAPI_UNC_UPI_DATA_BYTES",                                                      \
	 .short_descr = "UPI data bytes sent",                                                     \
	 .long_descr = "Data bytes sent on every UPI link: 64 per 9 data flits (Intel perfmon "    \
		       #gen " metric upi_data_transmit_bw: UNC_UPI_TxL_FLITS.ALL_DATA * 64 / 9)",    \
	 .postfix = "N0|64|*|9|/|",                                                                \
	 .events = {#gen "_unc_upi::UNC_UPI_TxL_FLITS:ALL_DATA"}}

/* uncore_frequency: UNC_CHA_CLOCKTICKS / (CHAs x sockets): every CHA runs
 * on the uncore clock; one CHA per socket (CHA 0) counts its cycles. */
#define XSP_PRESET_CLK(gen)                                                                        \
	{.symbol = "PAPI_UNC_CLOCKTICKS",                                                          \
	 .short_descr = "Uncore clockticks",                                                       \
	 .long_descr = "Uncore (mesh) clock cycles of each socket, counted by its CHA 0 (Intel "   \
		       "perfmon " #gen " metric uncore_frequency: UNC_CHA_CLOCKTICKS per CHA)",      \
	 .events = {#gen "_unc_cha0::UNC_CHA_CLOCKTICKS"}}

/* The CAS counters of one scheduler per channel (Skylake-SP to Emerald
 * Rapids) and everything else common. */
#define XSP_PRESETS_1SCH(gen)                                                                      \
	XSP_PRESET_DRAM("PAPI_UNC_DRAM_RD_BYTES", "read from", "read", gen, "UNC_M_CAS_COUNT:RD"),         \
	    XSP_PRESET_DRAM("PAPI_UNC_DRAM_WR_BYTES", "written to", "write", gen, "UNC_M_CAS_COUNT:WR"),    \
	    XSP_PRESET_LLC(gen), XSP_PRESET_UPI(gen), XSP_PRESET_CLK(gen)

#define XSP_PRESETS_2SCH(gen)                                                                      \
	XSP_PRESET_DRAM2("PAPI_UNC_DRAM_RD_BYTES", "read from", "read", gen, "RD"),                        \
	    XSP_PRESET_DRAM2("PAPI_UNC_DRAM_WR_BYTES", "written to", "write", gen, "WR"),                   \
	    XSP_PRESET_LLC(gen), XSP_PRESET_UPI(gen), XSP_PRESET_CLK(gen)

/* A generation counted through the kernel's PMUs: its identification, its
 * tables (events/registry_xeon_sp.c), presets and simulated kernel. */
/* The first-machine checklist's facts (platform.h): the kernel's PMUs by
 * their aliases (perf backend only): channel 0's clockticks of the IMC,
 * DDR5-6400 at most, its cas_count_read; no register experiments.  The
 * simulated kernels (--sim-kernel) model them.  One object for all. */
static const struct uncore_platform_kit uncore_xeon_sp_kit = {
    UNCORE_KIT(NULL,
	       "perf",
	       UNCORE_KIT_YES,
	       "",
	       "uncore_imc_0::clockticks:socket=0",
	       "uncore_imc::cas_count_read",
	       "uncore_imc/cas_count_read/",
	       "",
	       ""),
    .dclk_mhz_max = 3300,
};

#define XSP_PLATFORM(gen, ID, ttl, mdl, shape, s0, s1)                                                   \
	extern const struct uncore_event_platform uncore_events_##gen;                             \
	const struct uncore_platform uncore_platform_##gen = {                                     \
	    .id = ID,                                                                              \
	    .name = #gen,                                                                          \
	    .title = ttl,                                                                          \
	    .family = 6,                                                                           \
	    .models = mdl,                                                                         \
	    .events = &uncore_events_##gen,                                                        \
	    .presets = presets,                                                                    \
	    .npresets = sizeof(presets) / sizeof(presets[0]),                                      \
	    .sim_kernel = shape,                                                                   \
	    .kit = &uncore_xeon_sp_kit,                                                            \
	    .stepping_min = (s0),                                                                  \
	    .stepping_max = (s1)}

#endif
