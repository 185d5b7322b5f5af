/* A line of an msr-safe allowlist as uncore-msr-allowlist -m merges it
 * (access/allowlist_text.h): numbers within their widths, never saturated,
 * and no word of the line in the error. */
#include "harness.h"
#include "access/allowlist_text.h"
#include "common/uncore_error.h"

#include <string.h>

TEST(lines)
{
	static const struct {
		const char *line;
		int rc;
		uint32_t msr;
		uint64_t mask;
	} rows[] = {
	    {"0x00000C00 0x0000000000000000\n", 1, 0xc00, 0},
	    {"0x700 0xFFFFFFFFFFFFFFFF # UBox\n", 1, 0x700, UINT64_MAX},
	    {"  c00\tffff\n", 1, 0xc00, 0xffff},
	    {"0x0000000000000700 0x1\n", 1, 0x700, 1}, /* leading zeros are no width */
	    {"# a comment\n", 0, 0, 0},
	    {"\n", 0, 0, 0},
	    {"", 0, 0, 0},
	    /* 69 bits: refused, not saturated to all ones */
	    {"0x700 0x1FFFFFFFFFFFFFFFFF\n", UNCORE_ESYNTAX, 0, 0},
	    {"0x100000000 0x1\n", UNCORE_ESYNTAX, 0, 0},
	    {"0x700\n", UNCORE_ESYNTAX, 0, 0},
	    {"0x700 0x1 0x2\n", UNCORE_ESYNTAX, 0, 0},
	    {"0x700 -1\n", UNCORE_ESYNTAX, 0, 0},
	    {"root:x:0:0:root:/root:/bin/bash\n", UNCORE_ESYNTAX, 0, 0},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t msr = 0;
		uint64_t mask = 0;
		harness_row = rows[i].line;
		uncore_error_clear();
		CHECK_EQ_INT(uncore_allowlist_line(rows[i].line, &msr, &mask), rows[i].rc);
		if (rows[i].rc == 1) {
			CHECK_EQ_U64(msr, rows[i].msr);
			CHECK_EQ_U64(mask, rows[i].mask);
		}
		if (rows[i].rc < 0) {
			CHECK(uncore_error_detail()[0] != '\0');
			CHECK(strstr(uncore_error_detail(), "root") == NULL);
		}
	}
	harness_row = NULL;
}

int main(void)
{
	RUN(lines);
	return harness_done();
}
