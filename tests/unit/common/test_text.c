/* Numbers and quoted input (common/text.h): decimal or 0x hex, never octal,
 * no sign, junk or overflow; quotes cut and escaped. */
#include "harness.h"
#include "common/text.h"

#include <string.h>

TEST(numbers_as_the_messages_say)
{
	static const struct {
		const char *in;
		int rc;
		uint64_t v;
	} rows[] = {
	    {"17", 0, 17},
	    {"017", 0, 17}, /* decimal: libpfm4 would read 15 */
	    {"08", 0, 8},
	    {"0x11", 0, 17},
	    {"0X1f", 0, 31},
	    {"0", 0, 0},
	    {"18446744073709551615", 0, UINT64_MAX},
	    {"0xffffffffffffffff", 0, UINT64_MAX},
	    {"18446744073709551616", -1, 0},
	    {"0x10000000000000000", -1, 0},
	    {"", -1, 0},
	    {"0x", -1, 0},
	    {"0x0x1", -1, 0},
	    {"-1", -1, 0},
	    {"+1", -1, 0},
	    {" 1", -1, 0},
	    {"1 ", -1, 0},
	    {"1f", -1, 0},
	    {"0b1", -1, 0},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t v = 0;
		harness_row = rows[i].in;
		CHECK_EQ_INT(uncore_parse_u64(rows[i].in, &v), rows[i].rc);
		if (rows[i].rc == 0)
			CHECK_EQ_U64(v, rows[i].v);
	}
	harness_row = NULL;
}

TEST(quotes_are_cut_and_escaped)
{
	char q[64];
	CHECK_EQ_STR(uncore_quote(q, sizeof(q), "plain", 40), "plain");
	CHECK_EQ_STR(uncore_quote(q, sizeof(q), "a\x1b[31mb\n", 40), "a\\x1b[31mb\\x0a");
	CHECK_EQ_STR(uncore_quote(q, sizeof(q), "back\\slash", 40), "back\\\\slash");
	CHECK_EQ_STR(uncore_quote(q, sizeof(q), "\xff", 40), "\\xff");
	CHECK_EQ_STR(uncore_quote(q, sizeof(q), "abcdefghij", 4), "abcd...");
	char longer[300];
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	uncore_quote(q, sizeof(q), longer, 1000);
	CHECK(strlen(q) < sizeof(q));
	CHECK(strcmp(q + strlen(q) - 3, "...") == 0);
	memset(longer, 0x07, sizeof(longer) - 1); /* every byte escaped: 4 each */
	uncore_quote(q, sizeof(q), longer, 1000);
	CHECK(strlen(q) < sizeof(q));
	CHECK(strchr(q, 0x07) == NULL);
}

int main(void)
{
	RUN(numbers_as_the_messages_say);
	RUN(quotes_are_cut_and_escaped);
	return harness_done();
}
