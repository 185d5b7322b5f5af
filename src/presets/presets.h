/* Uncore presets: PAPI preset events (PAPI_UNC_*) that every PAPI tool can
 * name (papi_avail lists them; PAPI_add_event, PAPI_EVENTS, papi_command_line
 * count them).  Each is data: a symbol, descriptions, the native events it
 * counts and, when it is not simply their count, a formula in PAPI's postfix
 * notation over them ("N0|64|*|": 64 times event 0), which PAPI evaluates.
 * Each preset exists for the whole node and, with ":socket=N" in its name,
 * for each socket.  The PAPI front-end enters them in PAPI's preset table
 * (components/intel_uncore/intel_uncore.c, papi-patches/README.md).  Each
 * generation's presets are data of its platform object (src/platform/<gen>/). */
#ifndef UNCORE_PRESETS_PRESETS_H
#define UNCORE_PRESETS_PRESETS_H

#include <stddef.h>

#include "platform/platform.h"

#define UNCORE_PRESET_NAME_MAX 160

/* The presets of generation `p` (its object's; none or p NULL: NULL and *n = 0). */
const struct uncore_preset_def *uncore_presets(const struct uncore_platform *p, unsigned *n);

/* Preset `d` for the whole node (socket < 0) or for one socket: its symbol
 * ("PAPI_UNC_DRAM_RD_BYTES" or "PAPI_UNC_DRAM_RD_BYTES:socket=1") and its
 * event strings (each with ":socket=N" for a socket).  0, or UNCORE_ERANGE
 * when a buffer is too small. */
int uncore_preset_instance(const struct uncore_preset_def *d, int socket, char *symbol,
			   size_t symbol_len, char events[][UNCORE_PRESET_NAME_MAX],
			   unsigned *nevents);

struct uncore_machine; /* plan/machine.h */

/* Whether machine `m` has an instance of the box of every event of `d` on
 * some socket: a preset the machine cannot count (a kernel without the
 * generation's UPI PMUs) is absent, not zero.  1 or 0. */
int uncore_preset_countable(const struct uncore_preset_def *d, const struct uncore_machine *m);

#endif
