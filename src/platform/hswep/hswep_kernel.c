/* The Linux Haswell-EP uncore driver's programming rules as tables (see
 * hswep_kernel.h).  Each row is a fact of arch/x86/events/intel/uncore_snbep.c,
 * written here as data of our own. */
#include "platform/hswep/hswep_kernel.h"

#include "platform/hswep/hswep_regs.h"

#define EV_UMASK 0xffffull /* event select 7:0 and umask 15:8 */
#define EV_NID   0x40ffull /* event select and umask bit 6 (the NID qualifier) */

/* hswep_uncore_cbox_extra_regs: a control value matching `match` under
 * `mask` makes the driver program `fields`. */
static const struct {
	uint64_t match, mask;
	unsigned fields;
} cbo_extra[] = {
    {HSWEP_PMON_CTL_TID_EN, HSWEP_PMON_CTL_TID_EN, HSWEP_KFIELD_TID},
    /* LLC_LOOKUP (0x34): the state filter, for these umasks exactly. */
    {0x0334, EV_UMASK, HSWEP_KFIELD_STATE},
    {0x0534, EV_UMASK, HSWEP_KFIELD_STATE},
    {0x0934, EV_UMASK, HSWEP_KFIELD_STATE},
    {0x1134, EV_UMASK, HSWEP_KFIELD_STATE},
    {0x2134, EV_UMASK, HSWEP_KFIELD_STATE},
    {0x4134, EV_UMASK, HSWEP_KFIELD_STATE},
    /* Ring and queue events with the NID umask bit. */
    {0x4037, EV_NID, HSWEP_KFIELD_NID},
    {0x4028, EV_NID, HSWEP_KFIELD_NID},
    {0x4032, EV_NID, HSWEP_KFIELD_NID},
    {0x4029, EV_NID, HSWEP_KFIELD_NID},
    {0x4033, EV_NID, HSWEP_KFIELD_NID},
    {0x402a, EV_NID, HSWEP_KFIELD_NID},
    /* TOR_INSERTS (0x35). */
    {0x0135, EV_UMASK, HSWEP_KFIELD_OPC | HSWEP_KFIELD_LINK},
    {0x0335, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x4135, EV_UMASK, HSWEP_KFIELD_OPC | HSWEP_KFIELD_NID},
    {0x4435, EV_UMASK, HSWEP_KFIELD_NID},
    {0x4835, EV_UMASK, HSWEP_KFIELD_NID},
    {0x5035, EV_UMASK, HSWEP_KFIELD_NID},
    {0x4335, EV_UMASK, HSWEP_KFIELD_OPC | HSWEP_KFIELD_NID},
    {0x4a35, EV_UMASK, HSWEP_KFIELD_NID},
    {0x2335, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x8335, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x2135, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x8135, EV_UMASK, HSWEP_KFIELD_OPC},
    /* TOR_OCCUPANCY (0x36). */
    {0x0136, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x0336, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x4136, EV_UMASK, HSWEP_KFIELD_OPC | HSWEP_KFIELD_NID},
    {0x4436, EV_UMASK, HSWEP_KFIELD_NID},
    {0x4836, EV_UMASK, HSWEP_KFIELD_NID},
    {0x4336, EV_UMASK, HSWEP_KFIELD_OPC | HSWEP_KFIELD_NID},
    {0x4a36, EV_UMASK, HSWEP_KFIELD_NID},
    {0x2336, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x8336, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x2136, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x8136, EV_UMASK, HSWEP_KFIELD_OPC},
    {0x5036, EV_UMASK, HSWEP_KFIELD_NID},
};

unsigned hswep_kernel_cbo_fields(uint64_t ctl)
{
	unsigned fields = 0;
	for (unsigned i = 0; i < sizeof(cbo_extra) / sizeof(cbo_extra[0]); i++)
		if ((ctl & cbo_extra[i].mask) == cbo_extra[i].match)
			fields |= cbo_extra[i].fields;
	return fields;
}

void hswep_kernel_cbo_filter_masks(unsigned fields, uint64_t *filter0, uint64_t *filter1)
{
	uint64_t f0 = 0, f1 = 0;
	if (fields & HSWEP_KFIELD_TID)
		f0 |= HSWEP_CBO_FILTER0_TID;
	if (fields & HSWEP_KFIELD_LINK)
		f0 |= HSWEP_FIELD(9, 6);
	if (fields & HSWEP_KFIELD_STATE)
		f0 |= HSWEP_CBO_FILTER0_STATE;
	if (fields & HSWEP_KFIELD_NID)
		f1 |= HSWEP_CBO_FILTER1_NID;
	if (fields & HSWEP_KFIELD_OPC)
		f1 |= HSWEP_CBO_FILTER1_OPC | HSWEP_BIT(29) | HSWEP_CBO_FILTER1_NC |
		      HSWEP_CBO_FILTER1_ISOC;
	*filter0 = f0;
	*filter1 = f1;
}

int hswep_kernel_pcu_band(uint64_t ctl, uint64_t filter, unsigned *band, uint8_t *value)
{
	unsigned ev = (unsigned)(ctl & HSWEP_PMON_CTL_EV_SEL);
	if (ctl & HSWEP_PMON_CTL_EV_SEL_EXT || ev < 0x0b || ev > 0x0e)
		return 0;
	unsigned n = ev - 0x0b;
	uint64_t kept = filter & (UINT64_C(0xff) << n); /* hswep_pcu_hw_config */
	*band = n;
	*value = (uint8_t)(kept >> (8 * n)); /* snbep_pcu_get_constraint's band */
	return 1;
}

int hswep_kernel_qpi_matches(uint64_t ctl, unsigned port)
{
	return (ctl & HSWEP_PMON_CTL_EV_SEL) == 0x38 && port < 2;
}

/* UNCORE_EVENT_CONSTRAINT rows: event select -> allowed counters. */
struct constraint {
	uint8_t event, counters;
};

static const struct constraint cbo_constraints[] = {
    {0x01, 0x1}, {0x09, 0x1}, {0x11, 0x1}, {0x36, 0x1}, {0x38, 0x3}, {0x3b, 0x1}, {0x3e, 0x1},
};

static const struct constraint r2pcie_constraints[] = {
    {0x10, 0x3}, {0x11, 0x3}, {0x13, 0x1}, {0x23, 0x1}, {0x24, 0x1}, {0x25, 0x1},
    {0x26, 0x3}, {0x27, 0x1}, {0x28, 0x3}, {0x29, 0x3}, {0x2a, 0x1}, {0x2b, 0x3},
    {0x2c, 0x3}, {0x2d, 0x3}, {0x32, 0x3}, {0x33, 0x3}, {0x34, 0x3}, {0x35, 0x3},
};

static const struct constraint r3qpi_constraints[] = {
    {0x01, 0x3}, {0x07, 0x7}, {0x08, 0x7}, {0x09, 0x7}, {0x0a, 0x7}, {0x0e, 0x7}, {0x10, 0x3},
    {0x11, 0x3}, {0x12, 0x3}, {0x13, 0x1}, {0x14, 0x3}, {0x15, 0x3}, {0x1f, 0x3}, {0x20, 0x3},
    {0x21, 0x3}, {0x22, 0x3}, {0x23, 0x3}, {0x25, 0x3}, {0x26, 0x3}, {0x28, 0x3}, {0x29, 0x3},
    {0x2c, 0x3}, {0x2d, 0x3}, {0x2e, 0x3}, {0x2f, 0x3}, {0x31, 0x3}, {0x32, 0x3}, {0x33, 0x3},
    {0x34, 0x3}, {0x36, 0x3}, {0x37, 0x3}, {0x38, 0x3}, {0x39, 0x3},
};

unsigned hswep_kernel_counter_mask(enum hswep_box_kind kind, uint64_t ctl, unsigned ncounters)
{
	const struct constraint *t = NULL;
	unsigned n = 0;
	unsigned all = ncounters >= 32 ? ~0u : (1u << ncounters) - 1u;
	switch (kind) {
	case HSWEP_BOX_CBO:
		t = cbo_constraints;
		n = sizeof(cbo_constraints) / sizeof(cbo_constraints[0]);
		break;
	case HSWEP_BOX_R2PCIE:
		t = r2pcie_constraints;
		n = sizeof(r2pcie_constraints) / sizeof(r2pcie_constraints[0]);
		break;
	case HSWEP_BOX_R3QPI:
		t = r3qpi_constraints;
		n = sizeof(r3qpi_constraints) / sizeof(r3qpi_constraints[0]);
		break;
	default:
		return all;
	}
	for (unsigned i = 0; i < n; i++)
		if (t[i].event == (ctl & HSWEP_PMON_CTL_EV_SEL))
			return t[i].counters & all;
	return all;
}
