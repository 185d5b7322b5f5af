/* A name is parsed once on every path (eventset/resolve.h): resolving gives
 * the entry the parser and encoder give; a native code hands back the entry
 * resolved when it was named (or, for an enumerated code, at its first use)
 * without parsing again; an event set built, extended or attached to a CPU
 * from entries parses nothing, metrics included (their terms are built as
 * events, not as strings).  The parser's own count is the witness. */
#include "common/uncore_error.h"
#include "events/encode.h"
#include "eventset/native.h"
#include "eventset/resolve.h"
#include "harness.h"
#include "sim_set.h"

#include <string.h>

static const struct uncore_event_platform *hsx(void)
{
	return uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
}

TEST(resolving_is_parsing_and_encoding_once)
{
	const char *name = "hswep_unc_ha1::UNC_H_ADDR_OPC_MATCH:ADDR:addr=0x123456:socket=1";
	struct uncore_entry e;
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	unsigned long before = uncore_event_parse_count();
	CHECK_EQ_INT(uncore_resolve(hsx(), NULL, name, &e), 0);
	CHECK_EQ_U64(uncore_event_parse_count() - before, 1);
	CHECK_EQ_INT(e.kind, UNCORE_ENTRY_EVENT);
	CHECK_EQ_STR(e.name, name);
	CHECK_EQ_INT(uncore_event_parse(hsx(), name, &ref), 0);
	CHECK_EQ_INT(uncore_event_encode(&ref, &enc), 0);
	CHECK(memcmp(&e.ev.ref, &ref, sizeof(ref)) == 0);
	CHECK_EQ_U64(e.ev.enc.ctl, enc.ctl);
	CHECK_EQ_U64(e.ev.enc.filter[1], enc.filter[1]);

	CHECK_EQ_INT(uncore_resolve(hsx(), NULL, "hswep_metric::DRAM_BW:socket=1", &e), 0);
	CHECK_EQ_INT(e.kind, UNCORE_ENTRY_METRIC);
	CHECK_EQ_STR(e.metric.def ? e.metric.def->name : "", "DRAM_BW");
	CHECK_EQ_INT(e.metric.socket, 1);

	/* Errors are the parser's: the first place that knows the name. */
	CHECK_EQ_INT(uncore_resolve(hsx(), NULL, "hswep_unc_cbo::UNC_C_NOPE", &e), UNCORE_ENOEVENT);
	CHECK_EQ_INT(uncore_resolve(hsx(), NULL, "hswep_unc_cbo::UNC_C_LLC_LOOKUP:BOGUS", &e),
		     UNCORE_ENOUMASK);
	CHECK_EQ_INT(uncore_resolve(hsx(), NULL, "hswep_metric::NO_SUCH_METRIC", &e),
		     UNCORE_ENOEVENT);
}

TEST(native_codes_hand_back_their_entries)
{
	struct uncore_native *n;
	struct uncore_entry e, again;
	uint32_t code;
	CHECK_EQ_INT(uncore_native_create(hsx(), &n), 0);
	if (!n)
		return;
	/* A named string: resolved when named, never again. */
	const char *name = "hswep_unc_imc2::UNC_M_CAS_COUNT:RD:socket=0";
	CHECK_EQ_INT(uncore_native_code(n, name, &code), 0);
	CHECK(code & UNCORE_NATIVE_NAMED);
	unsigned long before = uncore_event_parse_count();
	CHECK_EQ_INT(uncore_native_entry(n, code, &e), 0);
	CHECK_EQ_INT(uncore_native_entry(n, code, &again), 0);
	CHECK_EQ_U64(uncore_event_parse_count() - before, 0);
	CHECK_EQ_STR(e.name, name);
	CHECK_EQ_INT(e.ev.ref.instance, 2);
	CHECK_EQ_INT(e.ev.ref.socket, 0);
	CHECK(memcmp(&e, &again, sizeof(e)) == 0);

	/* An enumerated code: resolved at its first use, then kept. */
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_imc::UNC_M_CAS_COUNT:WR", &code), 0);
	CHECK_EQ_INT(code & UNCORE_NATIVE_NAMED, 0);
	before = uncore_event_parse_count();
	CHECK_EQ_INT(uncore_native_entry(n, code, &e), 0);
	CHECK_EQ_INT(uncore_native_entry(n, code, &again), 0);
	CHECK(uncore_event_parse_count() - before <= 1);
	CHECK_EQ_STR(e.name, "hswep_unc_imc::UNC_M_CAS_COUNT:WR");
	CHECK(memcmp(&e, &again, sizeof(e)) == 0);

	/* A metric: its catalog entry, no string kept to re-read. */
	CHECK_EQ_INT(uncore_native_code(n, "hswep_metric::DRAM_BW:socket=1", &code), 0);
	CHECK_EQ_INT(uncore_native_entry(n, code, &e), 0);
	CHECK_EQ_INT(e.kind, UNCORE_ENTRY_METRIC);
	CHECK_EQ_INT(e.metric.socket, 1);

	CHECK_EQ_INT(uncore_native_entry(n, UNCORE_NATIVE_NAMED | 999, &e), UNCORE_ENOEVENT);
	uncore_native_destroy(n);
}

TEST(event_sets_take_entries_and_parse_nothing)
{
	struct sim_set s;
	CHECK_EQ_INT(sim_set_open(&s, "e5-2699v3-2s", "stream.scn", NULL), 0);
	if (!s.set)
		return;
	struct uncore_entry e[3];
	CHECK_EQ_INT(uncore_set_resolve(s.set, "hswep_unc_imc::UNC_M_CAS_COUNT:RD", &e[0]), 0);
	CHECK_EQ_INT(uncore_set_resolve(s.set, "hswep_metric::DRAM_BW", &e[1]), 0);
	CHECK_EQ_INT(uncore_set_resolve(s.set, "hswep_unc_cbo::UNC_C_CLOCKTICKS:socket=1", &e[2]),
		     0);
	unsigned long before = uncore_event_parse_count();
	struct uncore_entry raw[2] = {e[0], e[2]};
	CHECK_EQ_INT(uncore_set_assign_entries(s.set, raw, 2), 0);
	CHECK_EQ_INT(uncore_set_attach_cpu(s.set, 0), 0);
	CHECK_EQ_INT(uncore_set_attach_cpu(s.set, -1), 0);
	CHECK_EQ_U64(uncore_event_parse_count() - before, 0);
	/* A metric's terms are built as events from the catalog's formula, not
	 * as strings to parse. */
	CHECK_EQ_INT(uncore_set_assign_entries(s.set, e, 2), 0);
	unsigned idx = 0;
	CHECK_EQ_INT(uncore_set_add_entry(s.set, &e[2], &idx), 0);
	CHECK_EQ_INT(idx, 2);
	CHECK_EQ_U64(uncore_event_parse_count() - before, 0);
	CHECK_EQ_INT(uncore_set_count(s.set), 3);
	CHECK_EQ_STR(uncore_set_entry(s.set, 1)->name, "hswep_metric::DRAM_BW");
	CHECK(uncore_set_entry(s.set, 3) == NULL);
	sim_set_close(&s);
}

int main(void)
{
	RUN(resolving_is_parsing_and_encoding_once);
	RUN(native_codes_hand_back_their_entries);
	RUN(event_sets_take_entries_and_parse_nothing);
	return harness_done();
}
