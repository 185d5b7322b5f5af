/* intel_uncore_notices: what the component has to say about an event set's
 * counts beyond their values (README "Nothing lost": a read that came later
 * than a counter can wrap in, a read that failed).  Defined by the PAPI component
 * (components/intel_uncore/intel_uncore.c) and exported from libpapi, for
 * tools: uncore-stat and libpapi_uncore_mpi reference it weakly
 * (`#pragma weak intel_uncore_notices`), so that they run with a libpapi
 * that lacks it. */
#ifndef UNCORE_BIND_NOTICES_H
#define UNCORE_BIND_NOTICES_H

#include <stddef.h>

/* How many reads of PAPI event set `EventSet` since its PAPI_start came
 * too late for one of its counters' wraps, or failed (0: none), the last
 * one's words in `buf` ("may have lost 25 wraps of
 * skl_unc_imc::UNC_IMC_DRAM_DATA_READS on socket 0 (...)", "a read failed:
 * <what failed, naming the register>", "the stop failed: ..."); -1 when it
 * is no intel_uncore event set.  A failed PAPI_read or PAPI_stop has just
 * added its notice: a tool names the register from it. */
int intel_uncore_notices(int EventSet, char *buf, size_t len);

/* The words a failure's notice starts with: a tool tells a failed read from
 * a wraps notice by them.  A failed read is reported by PAPI_read's error
 * once; later reads that fail the same way return PAPI_OK with the last
 * values read of the counters that failed (components/intel_uncore
 * README), so a tool that must know checks the notices after each read. */
#include "common/notice_words.h" /* INTEL_UNCORE_NOTICE_READ_FAILED, _STOP_FAILED */

#endif
