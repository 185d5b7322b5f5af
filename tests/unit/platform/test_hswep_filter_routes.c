/* The Haswell-EP filter routes (hswep_box_desc.routes)
 * checked at both ends: every field of every logical filter of the event
 * registry lands on exactly the valid bits of the registers it is routed to
 * (platform/hswep/hswep_boxes.c), and every filter register is reached.
 * Then the HA address match end to end on the simulator: an address above
 * 4 GiB programs ADDRMATCH0 and ADDRMATCH1 (HSX Tables 2-66, 2-67), as the
 * audit log shows, and counts only its own line. */
#include "common/uncore_error.h"
#include "harness.h"
#include "platform/hswep/hswep_boxes.h"
#include "sim_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const struct uncore_box_type *registry_box(const struct hswep_box_desc *d)
{
	const struct uncore_event_platform *p = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	for (unsigned b = 0; b < p->nboxes; b++)
		if (p->boxes[b]->layout == d->kind)
			return p->boxes[b];
	return NULL;
}

static uint64_t logical_fields(const struct uncore_filter_desc *f)
{
	uint64_t m = 0;
	for (const uint64_t *x = f->fields; *x; x++)
		m |= *x;
	return m;
}

TEST(every_route_joins_registry_fields_to_register_bits)
{
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
		const struct hswep_box_desc *d = hswep_box(k);
		const struct uncore_box_type *bt = registry_box(d);
		harness_row = d->name;
		CHECK(bt != NULL);
		if (!bt)
			continue;
		CHECK_EQ_INT(hswep_filter_route_count(k), bt->nfilters);
		uint32_t reached = 0;
		for (unsigned f = 0; f < bt->nfilters; f++) {
			const struct hswep_filter_route *r = hswep_filter_route(k, f);
			CHECK(r != NULL);
			if (!r)
				continue;
			uint64_t fields = logical_fields(&bt->filters[f]);
			uint64_t covered = 0;
			for (unsigned t = 0; t < r->nroutes; t++) {
				unsigned reg = r->to[t].reg, shift = r->to[t].shift,
					 bits = r->to[t].bits;
				CHECK(reg < d->num_filters);
				CHECK(bits == 32 || bits == 64);
				CHECK(shift + bits <= 64);
				if (reg >= d->num_filters || shift + bits > 64)
					continue;
				uint64_t window = bits == 64 ? ~UINT64_C(0)
							     : ((UINT64_C(1) << bits) - 1) << shift;
				covered |= window;
				/* This end: the logical bits in the window are the register's valid
				 * bits. */
				uint64_t lands = (fields & window) >> shift;
				if (lands != d->filters[reg].rules.valid)
					HARNESS_FAIL_AT("%s -> %s: fields 0x%" PRIx64
							", register valid 0x%" PRIx64,
							bt->filters[f].name, d->filters[reg].name,
							lands, d->filters[reg].rules.valid);
				reached |= 1u << reg;
			}
			/* The other end: no field of the logical filter falls outside every route.
			 */
			if (fields & ~covered)
				HARNESS_FAIL_AT("%s: fields 0x%" PRIx64 " reach no register",
						bt->filters[f].name, fields & ~covered);
		}
		/* Every register is reached, but QPI's Tx pair: the patterns go
		 * to the Rx matcher only, as Linux programs them
		 * (HARDWARE-DECISIONS.md H14). */
		uint64_t want = (UINT64_C(1) << d->num_filters) - 1;
		if (k == HSWEP_BOX_QPI)
			want = UINT64_C(1) << HSWEP_QPI_RX_MATCH0 | UINT64_C(1) << HSWEP_QPI_RX_MATCH1 |
			       UINT64_C(1) << HSWEP_QPI_RX_MASK0 | UINT64_C(1) << HSWEP_QPI_RX_MASK1;
		CHECK_EQ_U64(reached, want);
	}
	harness_row = NULL;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Line A at 4 TiB - 192 KiB + 64 and line B with the same low 32 bits below
 * 4 GiB: only the two registers together tell them apart. */
TEST(ha_address_above_4gib_programs_both_match_registers)
{
	static const char scenario[] =
	    "include hswep-shapes.scn\n"
	    "stream ha[0] ev=0x20 umask=0x04 hopc=0x02 addr=0x3ffc0000040 rate=10M/s\n"
	    "stream ha[0] ev=0x20 umask=0x04 hopc=0x02 addr=0xc0000040 rate=30M/s\n";
	struct sim_set e;
	char log_path[64];
	snprintf(log_path, sizeof(log_path), "/tmp/uncore-ha-addr-%d.jsonl", (int)getpid());
	unlink(log_path);
	CHECK_EQ_INT(sim_set_open(&e, "e5-2699v3-2s", NULL, scenario), 0);
	if (!e.set)
		return;
	const char *names[] = {
	    /* PA 0x3ffc0000040 >> 6 */
	    "hswep_unc_ha0::UNC_H_ADDR_OPC_MATCH:ADDR:addr=0xfff000001:socket=0",
	    "hswep_unc_ha0::UNC_H_ADDR_OPC_MATCH:ADDR:addr=0x3000001:socket=0",
	};
	uint64_t v[2] = {0, 0};
	for (unsigned i = 0; i < 2; i++) {
		harness_row = names[i];
		CHECK_EQ_INT(uncore_sim_set_log(e.sim, log_path), 0);
		CHECK_EQ_INT(sim_set_assign(&e, &names[i], 1), 0);
		CHECK_EQ_INT(uncore_set_start(e.set), 0);
		CHECK_EQ_INT(uncore_sim_advance(e.sim, NS_PER_S), 0);
		CHECK_EQ_INT(uncore_set_stop(e.set, &v[i]), 0);
		CHECK_EQ_INT(uncore_sim_set_log(e.sim, NULL), 0);
		char want[160];
		const char *log = slurp(log_path);
		CHECK(log != NULL);
		/* HA 0: D18:F1 (HSX Table 1-3); ADDRMATCH0 at 0x40, ADDRMATCH1 at 0x44. */
		snprintf(want, sizeof(want),
			 "\"bdf\":\"%02x:12.1\",\"offset\":\"0x40\",\"width\":4,\"value\":"
			 "\"0xc0000040\"",
			 e.topo.bus[0]);
		CHECK_CONTAINS(log ? log : "", want);
		snprintf(want, sizeof(want),
			 "\"bdf\":\"%02x:12.1\",\"offset\":\"0x44\",\"width\":4,\"value\":\"%s\"",
			 e.topo.bus[0], i == 0 ? "0x3ff" : "0x0");
		CHECK_CONTAINS(log ? log : "", want);
		unlink(log_path);
	}
	harness_row = NULL;
	CHECK_EQ_U64(v[0], 10000000);
	CHECK_EQ_U64(v[1], 30000000);
	sim_set_close(&e);
}

int main(void)
{
	RUN(every_route_joins_registry_fields_to_register_bits);
	RUN(ha_address_above_4gib_programs_both_match_registers);
	return harness_done();
}
