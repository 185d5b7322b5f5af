/* Names of the native code space that PAPI's tools look up: a listed
 * "PMU::EVENT" has its enumerated code even when counting it needs a unit
 * mask or modifier (papi_native_avail -e describes it; adding it fails with
 * the reason), while misspelt names keep their errors. */
#include "backend/backend.h"
#include "common/uncore_error.h"
#include "eventset/native.h"
#include "eventset/resolve.h"
#include "events/parse.h"
#include "harness.h"

#include <stdio.h>
#include <string.h>

static struct uncore_native *n;

TEST(listed_event_needing_a_modifier_has_its_code)
{
	uint32_t code = 0, first = 0;
	struct uncore_native_info info;
	const char *name = "hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES";
	CHECK_EQ_INT(uncore_native_code(n, name, &code), 0);
	CHECK_EQ_INT(code & UNCORE_NATIVE_NAMED, 0);
	CHECK_EQ_INT(uncore_native_info(n, code, &info), 0);
	CHECK_EQ_STR(info.name, name);
	CHECK_EQ_INT(info.kind, UNCORE_NATIVE_EVENT);
	/* The same code the enumeration gives, in any case. */
	CHECK_EQ_INT(uncore_native_code(n, "HSWEP_UNC_PCU::unc_p_freq_band0_cycles", &first), 0);
	CHECK_EQ_U64(first, code);
	/* Counting it is still refused, with the reason. */
	struct uncore_event_ref ref;
	CHECK_EQ_INT(
	    uncore_event_parse(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), name, &ref),
	    UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "ff");
	/* With the modifier it is an event string of its own. */
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=20", &code),
		     0);
	CHECK(code & UNCORE_NATIVE_NAMED);
}

TEST(wrong_names_keep_their_errors)
{
	uint32_t code;
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_pcu::UNC_P_NO_SUCH", &code), UNCORE_ENOEVENT);
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:BOGUS", &code),
		     UNCORE_ENOUMASK);
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_nobox::UNC_P_FREQ_BAND0_CYCLES", &code),
		     UNCORE_ENOEVENT);
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=300", &code),
		     UNCORE_ERANGE);
	/* An event of another box type under this PMU. */
	CHECK_EQ_INT(uncore_native_code(n, "hswep_unc_pcu::UNC_M_CAS_COUNT", &code),
		     UNCORE_ENOEVENT);
}

/* Every umask, modifier and qualifier entry keeps its own description
 * after "masks:" whole, however long its event's description is (PAPI's
 * tools print only that part on the entry's line). */
TEST(every_entry_keeps_its_description)
{
	uint32_t code;
	unsigned entries = 0, bad = 0;
	CHECK_EQ_INT(uncore_native_enum(n, &code, UNCORE_ENUM_FIRST), 0);
	do {
		uint32_t sub = code;
		while (uncore_native_enum(n, &sub, UNCORE_ENUM_UMASKS) == 0) {
			struct uncore_native_info info;
			CHECK_EQ_INT(uncore_native_info(n, sub, &info), 0);
			const char *m = strstr(info.desc, " masks:");
			entries++;
			/* A umask's text is the table's; the others end in a range
			 * or a default, in parentheses. */
			int whole = m && m[7] != '\0';
			if (whole && info.kind == UNCORE_NATIVE_UMASK) {
				/* Code layout of native.h: (box + 1) << 20 | event << 8 | sub. */
				const struct uncore_event_platform *plat =
				    uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
				const struct uncore_box_type *bt =
				    plat->boxes[((sub >> 20) & 0x7f) - 1];
				struct uncore_umask_info ui;
				whole = uncore_box_umask_info(bt, (sub >> 8) & 0xfff,
							      (sub & 0xff) - 1, &ui) == 0 &&
					ui.desc && strncmp(m + 7, ui.desc, strlen(ui.desc)) == 0;
			} else if (whole) {
				whole = m[strlen(m) - 1] == ')';
			}
			if (!whole) {
				if (bad++ < 3)
					HARNESS_FAIL_AT("%s: description \"%.60s...\" (%zu bytes)",
							info.name, m ? m : "(no masks:)",
							strlen(info.desc));
			}
		}
	} while (uncore_native_enum(n, &code, UNCORE_ENUM_EVENTS) == 0);
	CHECK(entries > 2000);
	CHECK_EQ_INT(bad, 0);
}

/* Codes that name nothing (a tool's stale or made-up code, PAPI passing a
 * code of another component's range): every call refuses them with
 * UNCORE_ENOEVENT, naming the code, and enumeration from them ends; the
 * codes of native.h's layout, each one past what exists. */
TEST(codes_that_name_nothing_are_refused)
{
	uint32_t first = 0;
	REQUIRE(uncore_native_enum(n, &first, UNCORE_ENUM_FIRST) == 0);
	const uint32_t none[] = {
	    UNCORE_NATIVE_NAMED | 0xfffff,           /* no such named string */
	    UNCORE_NATIVE_METRIC | 0xffff00,         /* no such metric (no metrics here) */
	    UNCORE_NATIVE_KERNEL | 0xfffff,          /* no event source */
	    (uint32_t)0x7f << 20 | 0 << 8,           /* no box 126 */
	    (first & 0xfff00000u) | 0xfff << 8,      /* no event 0xfff in the first box */
	    first | 0xff,                            /* no entry 255 under the first event */
	};
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		char row[16], want[64], buf[256];
		snprintf(row, sizeof(row), "0x%x", none[i]);
		harness_row = row;
		struct uncore_native_info info;
		uncore_error_clear();
		CHECK_EQ_INT(uncore_native_info(n, none[i], &info), UNCORE_ENOEVENT);
		snprintf(want, sizeof(want), "no native event with code 0x%x", none[i]);
		CHECK_CONTAINS(uncore_error_detail(), want);
		CHECK(uncore_native_event_string(n, none[i], buf, sizeof(buf)) < 0);
		struct uncore_entry entry;
		CHECK(uncore_native_entry(n, none[i], &entry) < 0);
		uint32_t c = none[i];
		CHECK(uncore_native_enum(n, &c, UNCORE_ENUM_UMASKS) < 0);
	}
	harness_row = NULL;
	/* A name longer than a buffer is refused, not cut. */
	char tiny[8];
	CHECK_EQ_INT(uncore_native_event_string(n, first, tiny, sizeof(tiny)), UNCORE_ENOSPACE);
	uncore_error_clear();
}

/* An event source that names none of its own PMUs and counts how often a
 * name is put to it: once per resolution (eventset/resolve.c asks the
 * source first). */
struct counting_source {
	struct uncore_event_source base;
	unsigned parses;
};

static int counting_parse(struct uncore_event_source *src, const char *name,
			  struct uncore_sched_event *out)
{
	(void)name;
	(void)out;
	((struct counting_source *)src)->parses++;
	return 1;
}

static unsigned counting_count(const struct uncore_event_source *src)
{
	(void)src;
	return 0;
}

static int counting_entry(const struct uncore_event_source *src, unsigned i, char *name,
			  size_t nlen, char *desc, size_t dlen)
{
	(void)src;
	(void)i;
	(void)name;
	(void)nlen;
	(void)desc;
	(void)dlen;
	return UNCORE_ENOEVENT;
}

static const char *const *counting_pmus(const struct uncore_event_source *src, unsigned *count,
					unsigned *nprimary)
{
	(void)src;
	*count = *nprimary = 0;
	return NULL;
}

static const struct uncore_event_source_ops counting_ops = {
    .parse = counting_parse,
    .count = counting_count,
    .entry = counting_entry,
    .pmu_names = counting_pmus,
};

/* A listed name (an event with its umask, a metric) is resolved once:
 * its code keeps the entry, which the event set then takes (issue 25:
 * the code was turned back into its name and resolved again).  A named
 * string too; another spelling of a listed name is resolved again for
 * its entry, which is the listed name's. */
TEST(a_listed_name_is_resolved_once)
{
	struct counting_source cs = {.base = {.ops = &counting_ops}};
	struct uncore_native *m;
	static const char *const names[] = {"hswep_unc_imc::UNC_M_CAS_COUNT:RD",
					    "hswep_metric::DRAM_BW",
					    "hswep_unc_imc::UNC_M_CAS_COUNT:RD:socket=1"};
	CHECK_EQ_INT(uncore_native_create(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), &m), 0);
	CHECK_EQ_INT(uncore_native_set_source(m, &cs.base), 0);
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		uint32_t code = 0;
		struct uncore_entry e;
		harness_row = names[i];
		cs.parses = 0;
		CHECK_EQ_INT(uncore_native_code(m, names[i], &code), 0);
		CHECK_EQ_INT(uncore_native_entry(m, code, &e), 0);
		CHECK_EQ_INT(uncore_native_entry(m, code, &e), 0);
		CHECK_EQ_INT(cs.parses, 1);
		CHECK_EQ_STR(e.name, names[i]);
	}
	harness_row = NULL;
	/* The same code in another case: its entry is the listed name's. */
	uint32_t code = 0, listed = 0;
	struct uncore_entry e;
	CHECK_EQ_INT(uncore_native_code(m, "hswep_unc_imc::UNC_M_CAS_COUNT:RD", &listed), 0);
	CHECK_EQ_INT(uncore_native_code(m, "HSWEP_UNC_IMC::unc_m_cas_count:rd", &code), 0);
	CHECK_EQ_U64(code, listed);
	CHECK_EQ_INT(uncore_native_entry(m, code, &e), 0);
	CHECK_EQ_STR(e.name, "hswep_unc_imc::UNC_M_CAS_COUNT:RD");
	uncore_native_destroy(m);
}

int main(void)
{
	if (uncore_native_create(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), &n) != 0) {
		printf("FAIL native_create: %s\n", uncore_error_detail());
		return 1;
	}
	RUN(listed_event_needing_a_modifier_has_its_code);
	RUN(wrong_names_keep_their_errors);
	RUN(every_entry_keeps_its_description);
	RUN(codes_that_name_nothing_are_refused);
	RUN(a_listed_name_is_resolved_once);
	uncore_native_destroy(n);
	return harness_done();
}
