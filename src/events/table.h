/* Internal helpers of the events library over the libpfm4-format table rows:
 * typed access to a box's events and umasks, register-field arithmetic, and
 * the declarations of the built-in platforms (registry_<generation>.c). */
#ifndef UNCORE_EVENTS_TABLE_H
#define UNCORE_EVENTS_TABLE_H

#include "events/pfm_compat.h"
#include "events/registry.h"

#include <stddef.h>
#include <stdint.h>

static inline const intel_x86_entry_t *box_event(const struct uncore_box_type *box, unsigned ev)
{
	return ev < box->nevents ? &box->events[ev] : &box->supplement[ev - box->nevents];
}

static inline const intel_x86_umask_t *box_umask(const struct uncore_box_type *box, unsigned ev,
						 unsigned um)
{
	return &box_event(box, ev)->umasks[um];
}

static inline unsigned umask_group(const intel_x86_umask_t *u)
{
	return u->grpid & 0xff;
}

/* With INTEL_X86_GRP_REQ, grpid bits 15:8 name the group that must be used too. */
static inline unsigned umask_required_group(const intel_x86_umask_t *u)
{
	return (u->grpid >> 8) & 0xff;
}

/* Position of the lowest set bit of a field mask (mask != 0). */
static inline unsigned field_shift(uint64_t mask)
{
	return (unsigned)__builtin_ctzll(mask);
}

/* Value placed into a field: shifted and masked. */
static inline uint64_t field_put(uint64_t mask, uint64_t value)
{
	return mask ? (value << field_shift(mask)) & mask : 0;
}

static inline uint64_t field_get(uint64_t mask, uint64_t reg)
{
	return mask ? (reg & mask) >> field_shift(mask) : 0;
}

/* Largest value a field holds. */
static inline uint64_t field_max(uint64_t mask)
{
	return mask ? mask >> field_shift(mask) : 0;
}

/* A comma-separated list of names in a fixed buffer, for error messages:
 * names that do not fit are replaced by a final ", ...". */
struct name_list {
	char *buf;
	size_t len, used;
	int full;
};
void name_list_init(struct name_list *l, char *buf, size_t len);
void name_list_add(struct name_list *l, const char *name);

/* The built-in platforms. */
extern const struct uncore_event_platform uncore_events_hswep;
extern const struct uncore_event_platform uncore_events_skl;
extern const struct uncore_event_platform uncore_events_nhm;
extern const struct uncore_event_platform uncore_events_x7400;
extern const struct uncore_event_platform uncore_events_x7100;

#endif
