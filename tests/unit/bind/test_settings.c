/* Switch settings mean what they say (bind/settings.h): off is off, and a
 * value that is no switch is refused naming the variable and the valid
 * forms, never taken for on. */
#include "harness.h"
#include "bind/settings.h"
#include "common/uncore_error.h"

#include <stdlib.h>
#include <string.h>

TEST(switches)
{
	struct uncore_settings s;
	static const struct {
		const char *v;
		int sw;
	} rows[] = {{"1", 1},   {"on", 1},  {"YES", 1}, {"true", 1}, {"0", 0},
		    {"off", 0}, {"No", 0},  {"false", 0}, {"2", -1},  {"maybe", -1},
		    {"", -1}};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		harness_row = rows[i].v;
		CHECK_EQ_INT(uncore_settings_switch(rows[i].v), rows[i].sw);
	}
	harness_row = NULL;
	setenv("PAPI_INTEL_UNCORE_READ_FREEZE", "off", 1);
	CHECK_EQ_INT(uncore_settings_read(&s), 0);
	CHECK_EQ_INT(uncore_settings_default_on(s.read_freeze), 0);
	setenv("PAPI_INTEL_UNCORE_READ_FREEZE", "on", 1);
	CHECK_EQ_INT(uncore_settings_read(&s), 0);
	CHECK_EQ_INT(uncore_settings_default_on(s.read_freeze), 1);
	unsetenv("PAPI_INTEL_UNCORE_READ_FREEZE");
	CHECK_EQ_INT(uncore_settings_read(&s), 0);
	CHECK_EQ_INT(uncore_settings_default_on(s.read_freeze), 1);
	setenv("PAPI_INTEL_UNCORE_READ_FREEZE", "maybe\x1b", 1);
	CHECK_EQ_INT(uncore_settings_read(&s), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "PAPI_INTEL_UNCORE_READ_FREEZE=maybe\\x1b: give 1 or 0");
	unsetenv("PAPI_INTEL_UNCORE_READ_FREEZE");
	setenv("PAPI_INTEL_UNCORE_VERBOSE", "yes", 1);
	CHECK_EQ_INT(uncore_settings_read(&s), 0);
	CHECK_EQ_INT(uncore_settings_set_on(s.verbose), 1);
	setenv("PAPI_INTEL_UNCORE_VERBOSE", "off", 1);
	CHECK_EQ_INT(uncore_settings_read(&s), 0);
	CHECK_EQ_INT(uncore_settings_set_on(s.verbose), 0);
	unsetenv("PAPI_INTEL_UNCORE_VERBOSE");
}

int main(void)
{
	RUN(switches);
	return harness_done();
}
