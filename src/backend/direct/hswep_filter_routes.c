/* The filter routes of the Haswell-EP boxes (see hswep_filter_routes.h).
 * Register indices refer to the box descriptors' filters[] order
 * (platform/hswep/hswep_boxes.c); logical filter numbers to the event
 * registry's order (events/registry_hswep.c).  The validator
 * (tests/unit/backend/test_hswep_filter_routes.c) checks both ends of every
 * route: each field of a logical filter lands on exactly the valid bits of
 * the registers routed, and every filter register is reached. */
#include "backend/direct/hswep_filter_routes.h"

#include <stddef.h>

/* CBo: Cn_MSR_PMON_BOX_FILTER0/1 are the registers themselves (Tables 2-18, 2-19). */
static const struct hswep_filter_route cbo_routes[] = {
    {.nroutes = 1, .to = {{.reg = 0, .shift = 0, .bits = 32}}},
    {.nroutes = 1, .to = {{.reg = 1, .shift = 0, .bits = 32}}},
};

/* HA: logical OPCODEMATCH, then the address match as one 64-bit value with
 * the physical address bits in place (events/registry_hswep.c): bits 31:6
 * go to ADDRMATCH0.lo_addr (Table 2-67) and bits 45:32 to ADDRMATCH1.hi_addr
 * 13:0 (Table 2-66), as QPI's match/mask pairs are split.  Descriptor order
 * ADDRMATCH0, ADDRMATCH1, OPCODEMATCH (Table 2-65). */
static const struct hswep_filter_route ha_routes[] = {
    {.nroutes = 1, .to = {{.reg = 2, .shift = 0, .bits = 32}}},
    {.nroutes = 2, .to = {{.reg = 0, .shift = 0, .bits = 32}, {.reg = 1, .shift = 32, .bits = 32}}},
};

/* PCU: PCU_MSR_PMON_BOX_FILTER, four frequency bands (Table 2-160). */
static const struct hswep_filter_route pcu_routes[] = {
    {.nroutes = 1, .to = {{.reg = 0, .shift = 0, .bits = 32}}},
};

/* QPI: the packet match and mask values are 64-bit logical values, bits
 * 31:0 for the *_PKT_MATCH0/MASK0 register and 63:32 for *_MATCH1/MASK1
 * (2.12, Tables 2-172 to 2-175).  They go to both the Rx and the Tx
 * matcher: an Rx event uses the Rx copy, a Tx event the Tx copy, so one
 * pattern serves either direction.  Descriptor order: RX_MATCH0, RX_MATCH1,
 * RX_MASK0, RX_MASK1, TX_MATCH0, TX_MATCH1, TX_MASK0, TX_MASK1. */
static const struct hswep_filter_route qpi_routes[] = {
    {.nroutes = 4,
     .to = {{.reg = 0, .shift = 0, .bits = 32},
	    {.reg = 1, .shift = 32, .bits = 32},
	    {.reg = 4, .shift = 0, .bits = 32},
	    {.reg = 5, .shift = 32, .bits = 32}}},
    {.nroutes = 4,
     .to = {{.reg = 2, .shift = 0, .bits = 32},
	    {.reg = 3, .shift = 32, .bits = 32},
	    {.reg = 6, .shift = 0, .bits = 32},
	    {.reg = 7, .shift = 32, .bits = 32}}},
};

static const struct {
	const struct hswep_filter_route *routes;
	unsigned count;
} routes_by_kind[HSWEP_BOX_KINDS] = {
    [HSWEP_BOX_CBO] = {cbo_routes, sizeof(cbo_routes) / sizeof(cbo_routes[0])},
    [HSWEP_BOX_HA] = {ha_routes, sizeof(ha_routes) / sizeof(ha_routes[0])},
    [HSWEP_BOX_PCU] = {pcu_routes, sizeof(pcu_routes) / sizeof(pcu_routes[0])},
    [HSWEP_BOX_QPI] = {qpi_routes, sizeof(qpi_routes) / sizeof(qpi_routes[0])},
};

const struct hswep_filter_route *hswep_filter_route(enum hswep_box_kind kind, unsigned filter)
{
	if ((unsigned)kind >= HSWEP_BOX_KINDS || filter >= routes_by_kind[kind].count)
		return NULL;
	return &routes_by_kind[kind].routes[filter];
}

unsigned hswep_filter_route_count(enum hswep_box_kind kind)
{
	return (unsigned)kind < HSWEP_BOX_KINDS ? routes_by_kind[kind].count : 0;
}
