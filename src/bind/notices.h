/* intel_uncore_notices: what the component has to say about an event set's
 * counts beyond their values (README "Nothing lost": a read that came later
 * than a counter can wrap in).  Defined by the PAPI component
 * (components/intel_uncore/intel_uncore.c) and exported from libpapi, for
 * tools: uncore-stat and libpapi_uncore_mpi reference it weakly
 * (`#pragma weak intel_uncore_notices`), so that they run with a libpapi
 * that lacks it. */
#ifndef UNCORE_BIND_NOTICES_H
#define UNCORE_BIND_NOTICES_H

#include <stddef.h>

/* How many reads of PAPI event set `EventSet` since its PAPI_start came
 * too late for one of its counters' wraps (0: none), the last one's words
 * in `buf` ("may have lost 25 wraps of skl_unc_imc::UNC_IMC_DRAM_DATA_READS
 * on socket 0 (...)"); -1 when it is no intel_uncore event set. */
int intel_uncore_notices(int EventSet, char *buf, size_t len);

#endif
