/* Names of the native code space that PAPI's tools look up: a listed
 * "PMU::EVENT" has its enumerated code even when counting it needs a unit
 * mask or modifier (papi_native_avail -e describes it; adding it fails with
 * the reason), while misspelt names keep their errors. */
#include "common/uncore_error.h"
#include "eventset/native.h"
#include "events/parse.h"
#include "harness.h"

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

int main(void)
{
	if (uncore_native_create(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), &n) != 0) {
		printf("FAIL native_create: %s\n", uncore_error_detail());
		return 1;
	}
	RUN(listed_event_needing_a_modifier_has_its_code);
	RUN(wrong_names_keep_their_errors);
	RUN(every_entry_keeps_its_description);
	uncore_native_destroy(n);
	return harness_done();
}
