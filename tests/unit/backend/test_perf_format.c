/* sysfs format fields: parsing the kernel's "configN:bits" strings (good
 * and bad side by side), packing values through them, split ranges, and
 * the bit gather/scatter the table packing uses. */
#include "backend/perf/perf_format.h"
#include "common/uncore_error.h"
#include "harness.h"

static const struct {
	const char *text;
	int ok;
	uint8_t config, bits;
	uint64_t mask;
} rows[] = {
    {"config:0-7", 1, 0, 8, 0xff},
    {"config:0-7\n", 1, 0, 8, 0xff},
    {"config:18", 1, 0, 1, 1ull << 18},
    {"config:0-7,21", 1, 0, 9, 0x2000ff},
    {"config1:0-5", 1, 1, 6, 0x3f},
    {"config1:52-60", 1, 1, 9, 0x1ffull << 52},
    {"config2:32-63", 1, 2, 32, 0xffffffff00000000ull},
    {"config:0-63", 1, 0, 64, ~0ull},
    {"config:8-15,32-43,45-55", 1, 0, 31, 0xff00ull | (0xfffull << 32) | (0x7ffull << 45)},
    {"config:14-51", 1, 0, 38, ((1ull << 52) - 1) & ~((1ull << 14) - 1)},
    {"config3:0-7", 0, 0, 0, 0},
    {"config:7-0", 0, 0, 0, 0},
    {"config:64", 0, 0, 0, 0},
    {"config:0-7,5", 0, 0, 0, 0},
    {"config:", 0, 0, 0, 0},
    {"config0-7", 0, 0, 0, 0},
    {"event:0-7", 0, 0, 0, 0},
    {"config:0-7 junk", 0, 0, 0, 0},
    {"", 0, 0, 0, 0},
};

TEST(format_strings_parse_or_are_refused)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct uncore_perf_field f;
		harness_row = rows[i].text;
		int rc = uncore_perf_field_parse("x", rows[i].text, &f);
		CHECK_EQ_INT(rc, rows[i].ok ? 0 : UNCORE_ESYNTAX);
		if (rc == 0) {
			CHECK_EQ_INT(f.config, rows[i].config);
			CHECK_EQ_INT(f.bits, rows[i].bits);
			CHECK_EQ_U64(uncore_perf_field_mask(&f), rows[i].mask);
		} else {
			CHECK_CONTAINS(uncore_error_detail(), "configN:bits");
		}
	}
	harness_row = NULL;
}

TEST(values_fill_ranges_low_bits_first)
{
	struct uncore_perf_field f;
	uint64_t cfg[3] = {0, 0, 0};
	CHECK_EQ_INT(uncore_perf_field_parse("event", "config:0-7,21", &f), 0);
	/* QPI's event 0x138: select 0x38 and the extension bit 21 */
	CHECK_EQ_INT(uncore_perf_field_put(&f, 0x138, cfg), 0);
	CHECK_EQ_U64(cfg[0], 0x200038);
	CHECK_EQ_U64(uncore_perf_field_get(&f, cfg), 0x138);
	CHECK_EQ_INT(uncore_perf_field_put(&f, 0x200, cfg), UNCORE_ERANGE);
	CHECK_EQ_U64(cfg[0], 0x200038); /* untouched on error */
	/* put replaces the field's bits and nothing else */
	cfg[0] |= 1ull << 40;
	CHECK_EQ_INT(uncore_perf_field_put(&f, 0x01, cfg), 0);
	CHECK_EQ_U64(cfg[0], (1ull << 40) | 0x01);

	CHECK_EQ_INT(uncore_perf_field_parse("filter_nid", "config1:32-47", &f), 0);
	CHECK_EQ_INT(uncore_perf_field_put(&f, 0xffff, cfg), 0);
	CHECK_EQ_U64(cfg[1], 0xffffull << 32);
	CHECK_EQ_U64(uncore_perf_field_max(&f), 0xffff);

	CHECK_EQ_INT(uncore_perf_field_parse("all", "config2:0-63", &f), 0);
	CHECK_EQ_INT(uncore_perf_field_put(&f, ~0ull, cfg), 0);
	CHECK_EQ_U64(cfg[2], ~0ull);
	CHECK_EQ_U64(uncore_perf_field_get(&f, cfg), ~0ull);

	char buf[64];
	CHECK_EQ_INT(uncore_perf_field_parse("umask", "config:8-15,32-43", &f), 0);
	CHECK_EQ_INT(uncore_perf_field_format(&f, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "config:8-15,32-43");
	CHECK_EQ_INT(uncore_perf_field_parse("t", "config1:5", &f), 0);
	CHECK_EQ_INT(uncore_perf_field_format(&f, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "config1:5");
	CHECK_EQ_INT(uncore_perf_field_format(&f, buf, 4), UNCORE_ENOSPACE);
}

TEST(gather_and_scatter_are_inverse)
{
	CHECK_EQ_U64(uncore_bits_gather(0x2000ff, 0x200038), 0x138);
	CHECK_EQ_U64(uncore_bits_scatter(0x2000ff, 0x138), 0x200038);
	CHECK_EQ_U64(uncore_bits_gather(0xf0f0, 0xabcd), 0xac);
	CHECK_EQ_U64(uncore_bits_scatter(0xf0f0, 0xac), 0xa0c0);
	CHECK_EQ_U64(uncore_bits_gather(~0ull, 0x1234), 0x1234);
	CHECK_EQ_U64(uncore_bits_scatter(0, ~0ull), 0);
	uint64_t mask = 0x8000000000000001ull;
	CHECK_EQ_U64(uncore_bits_scatter(mask, uncore_bits_gather(mask, ~0ull)), mask);
}

int main(void)
{
	RUN(format_strings_parse_or_are_refused);
	RUN(values_fill_ranges_low_bits_first);
	RUN(gather_and_scatter_are_inverse);
	return harness_done();
}
