/* The natural unit of an event's count, for the plot (stat_plot.h): how
 * many bytes one count moves, when the event counts data transfers.  The
 * facts come from the presets (a PAPI_UNC_*_BYTES preset is one event times
 * its bytes per count, e.g. "N0|64|*|" for a DRAM CAS: HSX 2.6.6) and, for
 * names the presets do not spell (other unit masks of CAS_COUNT, the
 * kernel's cas_count_read alias, Intel's dotted names), from a short table
 * of event names whose every count is one 64-byte cache line. */
#ifndef UNCORE_STAT_UNITS_H
#define UNCORE_STAT_UNITS_H

/* Bytes per count of the event `name` as uncore-stat reports it (any
 * ":socket=N" qualifier ignored); 0 when its count is not bytes-based. */
double stat_event_bytes(const char *name);

#endif
