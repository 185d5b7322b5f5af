/* uncore_msr_table_check (platform/msr_ranges.h) is what stops a mistyped
 * platform table before it becomes an allowlist: a range without registers
 * or a name, instances that overlap because the stride is shorter than
 * the registers of one, and an MSR that two ranges list are each refused,
 * naming the platform and the range; a sound table passes. */
#include "common/uncore_error.h"
#include "harness.h"
#include "platform/msr_ranges.h"

#include <stddef.h>

#define TABLE(ranges) {"testplat", "a test platform", ranges, sizeof(ranges) / sizeof(ranges[0])}

TEST(a_sound_table_passes)
{
	static const struct uncore_msr_range r[] = {
	    {"BOX_CTL", "test", 0x700, 0x10, 1, 4, 0x3},
	    {"BOX_CTR{0-1}", "test", 0x706, 0x10, 2, 4, 0},
	};
	static const struct uncore_msr_table t = TABLE(r);
	CHECK_EQ_INT(uncore_msr_table_check(&t), 0);
	CHECK_EQ_U64(uncore_msr_table_count(&t), 12);
}

TEST(an_empty_or_unnamed_range_is_refused)
{
	static const struct uncore_msr_range empty[] = {{"CTL", "test", 0x700, 0, 0, 1, 0}};
	static const struct uncore_msr_range unnamed[] = {{NULL, "test", 0x700, 0, 1, 1, 0}};
	static const struct uncore_msr_range unsourced[] = {{"CTL", NULL, 0x700, 0, 1, 1, 0}};
	static const struct uncore_msr_range none[] = {{"CTL", "test", 0x700, 0, 1, 0, 0}};
	static const struct uncore_msr_table t1 = TABLE(empty), t2 = TABLE(unnamed),
					     t3 = TABLE(unsourced), t4 = TABLE(none);
	CHECK_EQ_INT(uncore_msr_table_check(&t1), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "testplat: range 0 (CTL) is empty or unnamed");
	CHECK_EQ_INT(uncore_msr_table_check(&t2), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "range 0 (?)");
	CHECK_EQ_INT(uncore_msr_table_check(&t3), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_msr_table_check(&t4), UNCORE_EINVAL);
	uncore_error_clear();
}

TEST(instances_closer_than_their_registers_are_refused)
{
	/* 4 registers per instance, instances 2 apart: they overlap. */
	static const struct uncore_msr_range r[] = {{"CTR{0-3}", "test", 0x700, 2, 4, 3, 0}};
	static const struct uncore_msr_table t = TABLE(r);
	CHECK_EQ_INT(uncore_msr_table_check(&t), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "CTR{0-3}: stride 0x2 is smaller than its 4 registers");
	uncore_error_clear();
}

TEST(an_msr_listed_twice_is_refused)
{
	static const struct uncore_msr_range r[] = {
	    {"FIRST", "test", 0x700, 0x10, 2, 2, 0},
	    {"SECOND", "test", 0x711, 0, 1, 1, 0}, /* the second instance's 0x711 */
	};
	static const struct uncore_msr_table t = TABLE(r);
	CHECK_EQ_INT(uncore_msr_table_check(&t), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "testplat: MSR 0x711 is listed by both");
	uncore_error_clear();
}

int main(void)
{
	RUN(a_sound_table_passes);
	RUN(an_empty_or_unnamed_range_is_refused);
	RUN(instances_closer_than_their_registers_are_refused);
	RUN(an_msr_listed_twice_is_refused);
	return harness_done();
}
