/* Native event codes and names as PAPI tools see them.  Each box type is
 * listed once ("hswep_unc_imc::UNC_M_CAS_COUNT": the sum over every IMC
 * channel of every socket), never once per instance; under an event come
 * its unit masks, then its modifiers and the :socket/:box qualifiers, as
 * "umasks" PAPI's enumeration shows.  Any other valid string (an instance
 * name, several umasks, modifier values) gets a code from a per-process
 * table when it is first named.
 *
 * Metrics (metrics/metrics.h) follow the events: "hswep_unc_imc::MEM_BW_READS",
 * "hswep_metric::DRAM_BW", each with its :socket= (and :box=) qualifiers;
 * their values are doubles (fp64).  Events a backend offers beyond the
 * tables (the perf backend's kernel PMUs, "msr::tsc") come last, from its
 * event source.
 *
 * Code layout (component-local, below 2^28):
 *   enumerated:  (box + 1) << 20 | event << 8 | sub          sub 0: the event itself,
 *                                                            1..: umask, modifier, qualifier
 *   metric:      UNCORE_NATIVE_METRIC | index << 8 | sub     sub 0: the metric, 1..: qualifiers
 *   kernel:      UNCORE_NATIVE_KERNEL | index in the event source
 *   named:       UNCORE_NATIVE_NAMED | index in the table */
#ifndef UNCORE_EVENTSET_NATIVE_H
#define UNCORE_EVENTSET_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#include "events/registry.h"

#define UNCORE_NATIVE_NAMED  0x08000000u
#define UNCORE_NATIVE_METRIC 0x04000000u
#define UNCORE_NATIVE_KERNEL 0x02000000u /* above the enumerated codes' box field */

struct uncore_event_source;

enum uncore_native_enum {
	UNCORE_ENUM_FIRST,  /* the first event */
	UNCORE_ENUM_EVENTS, /* the next event after `code` */
	UNCORE_ENUM_UMASKS, /* the next umask/modifier of the event of `code` */
};

/* What kind of entry a code is. */
enum uncore_native_kind {
	UNCORE_NATIVE_EVENT,
	UNCORE_NATIVE_UMASK,
	UNCORE_NATIVE_MODIFIER,
	UNCORE_NATIVE_QUALIFIER,
	UNCORE_NATIVE_STRING, /* a named string */
};

struct uncore_native_info {
	enum uncore_native_kind kind;
	char name[256];
	char desc[1024];
	char units[64]; /* a metric's units, "" for counts */
	int fp64;       /* the value is a double (a metric) */
	int int64;      /* the value is a metric's integer form (":int"), a signed integer */
	/* 1: a running sum since start or reset (counts, a metric that is an
	 * amount, a rate's ":amount" form); 0: a metric's value over the
	 * interval since the previous read (src/metrics/README.md). */
	int running_sum;
	/* 1: a metric's ":run" form, its value over the whole time since
	 * start or reset (not a running sum: PAPI's absolute, since start). */
	int since_start;
};

struct uncore_native;

/* The code space of platform `plat`. */
int uncore_native_create(const struct uncore_event_platform *plat, struct uncore_native **out);
void uncore_native_destroy(struct uncore_native *n);

/* Add the events of a backend's event source (NULL: none) after the
 * table's; `src` must outlive `n`.  0 or UNCORE_ENOMEM. */
int uncore_native_set_source(struct uncore_native *n, struct uncore_event_source *src);

/* List the event source's events only: where none of the tables' boxes can
 * count (a virtual machine, a kernel without the uncore driver), a listing
 * of them would offer what cannot be counted here (PAPI's tools list what
 * can).  Their names still resolve, so adding one says why it cannot
 * count. */
void uncore_native_list_kernel_only(struct uncore_native *n);

/* Enumeration: 0 and the next code, or UNCORE_ENOEVENT at the end. */
int uncore_native_enum(const struct uncore_native *n, uint32_t *code, enum uncore_native_enum how);

/* Name and description of a code. */
int uncore_native_info(const struct uncore_native *n, uint32_t code,
		       struct uncore_native_info *out);

/* The code of a name: the enumerated code when the name is an enumerated
 * entry, otherwise (after checking it parses) a named code.  A listed
 * "PMU::EVENT" that needs a unit mask or modifier to be counted still gets
 * its enumerated code (for descriptions; counting it fails with the
 * reason).  Errors as uncore_event_parse. */
int uncore_native_code(struct uncore_native *n, const char *name, uint32_t *code);
/* The same for a name already in our spelling (uncore_event_spelling's
 * output, as the component's name-to-code has it): not spelled again. */
int uncore_native_code_spelled(struct uncore_native *n, const char *name, uint32_t *code);

/* The entry of a code (eventset/resolve.h), for an event set: a named
 * code's entry was resolved when it was named, an enumerated code's is
 * resolved at its first use and kept.  Thread-safe. */
struct uncore_entry;
int uncore_native_entry(struct uncore_native *n, uint32_t code, struct uncore_entry *out);

/* The event string a code stands for (what the event set is given). */
int uncore_native_event_string(const struct uncore_native *n, uint32_t code, char *buf, size_t len);

/* The PMU names this code space answers to: every box-type name
 * ("hswep_unc_imc") and every instance name ("hswep_unc_imc3"); PAPI routes
 * "pmu::event" names by them.  The strings live as long as `n`. */
const char *const *uncore_native_pmu_names(const struct uncore_native *n, unsigned *count);

/* Total enumerated events and metrics (not umasks), for the component's
 * num_native_events. */
unsigned uncore_native_count(const struct uncore_native *n);

#endif
