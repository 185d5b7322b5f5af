/* The error table: every code has a distinct message and symbol, and the
 * detail text reaches the caller. */
#include "harness.h"
#include "common/uncore_error.h"

#include <errno.h>
#include <string.h>

TEST(every_code_has_message_and_name)
{
#define CHECK_ROW(sym, val, msg)                                                    \
	CHECK_EQ_STR(uncore_strerror(sym), msg);                                    \
	CHECK_EQ_STR(uncore_error_name(sym), #sym);
	UNCORE_ERROR_TABLE(CHECK_ROW)
#undef CHECK_ROW
	CHECK_EQ_STR(uncore_strerror(-9999), "unknown error");
}

TEST(fail_sets_detail_and_returns_code)
{
	uncore_error_clear();
	CHECK_EQ_STR(uncore_error_detail(), "");
	int rc = uncore_fail(UNCORE_ENOUMASK, "umask %s of %s", "RDX", "UNC_M_CAS_COUNT");
	CHECK_EQ_INT(rc, UNCORE_ENOUMASK);
	CHECK_EQ_STR(uncore_error_detail(), "umask RDX of UNC_M_CAS_COUNT");
}

/* The idiom of every layer that adds context to a lower layer's detail. */
TEST(fail_may_wrap_the_previous_detail)
{
	uncore_fail(UNCORE_ENODEV, "no device 0000:7f:14.0");
	int rc = uncore_fail(UNCORE_EIO, "iMC channel 0: %s (socket %d)", uncore_error_detail(), 1);
	CHECK_EQ_INT(rc, UNCORE_EIO);
	CHECK_EQ_STR(uncore_error_detail(), "iMC channel 0: no device 0000:7f:14.0 (socket 1)");
	/* Twice more: each wrap sees the whole previous text. */
	uncore_fail(UNCORE_EIO, "%s; %s", uncore_error_detail(), uncore_error_detail());
	CHECK_EQ_STR(uncore_error_detail(), "iMC channel 0: no device 0000:7f:14.0 (socket 1); "
					    "iMC channel 0: no device 0000:7f:14.0 (socket 1)");
}

/* Control bytes from whatever a caller formats in are escaped (issue 29),
 * once: a wrapped detail keeps its escapes as they are. */
TEST(fail_escapes_control_bytes)
{
	uncore_fail(UNCORE_ESYNTAX, "line 3: '%s'", "a\x1b[31mred\n\x7f");
	CHECK_EQ_STR(uncore_error_detail(), "line 3: 'a\\x1b[31mred\\x0a\\x7f'");
	uncore_fail(UNCORE_ESYNTAX, "scenario x: %s", uncore_error_detail());
	CHECK_EQ_STR(uncore_error_detail(), "scenario x: line 3: 'a\\x1b[31mred\\x0a\\x7f'");
	char many[600];
	memset(many, '\x01', sizeof(many) - 1);
	many[sizeof(many) - 1] = '\0';
	uncore_fail(UNCORE_ESYNTAX, "%s", many);
	CHECK(strlen(uncore_error_detail()) < UNCORE_ERROR_DETAIL_MAX);
	CHECK_EQ_INT(strlen(uncore_error_detail()) % 4, 0); /* no escape cut in half */
}

TEST(errno_mapping)
{
	CHECK_EQ_INT(uncore_error_from_errno(EACCES), UNCORE_EPERM);
	CHECK_EQ_INT(uncore_error_from_errno(EPERM), UNCORE_EPERM);
	CHECK_EQ_INT(uncore_error_from_errno(ENOENT), UNCORE_ENODEV);
	CHECK_EQ_INT(uncore_error_from_errno(EBUSY), UNCORE_EBUSY);
	CHECK_EQ_INT(uncore_error_from_errno(EIO), UNCORE_EIO);
	/* Every errno a device open, read or allocation gives in practice. */
	CHECK_EQ_INT(uncore_error_from_errno(0), UNCORE_OK);
	CHECK_EQ_INT(uncore_error_from_errno(ENODEV), UNCORE_ENODEV);
	CHECK_EQ_INT(uncore_error_from_errno(ENXIO), UNCORE_ENODEV);
	CHECK_EQ_INT(uncore_error_from_errno(ENOMEM), UNCORE_ENOMEM);
	CHECK_EQ_INT(uncore_error_from_errno(EINVAL), UNCORE_EINVAL);
	CHECK_EQ_INT(uncore_error_from_errno(EFAULT), UNCORE_EFAULT);
	CHECK_EQ_INT(uncore_error_from_errno(EMFILE), UNCORE_ELIMIT);
	CHECK_EQ_INT(uncore_error_from_errno(ENFILE), UNCORE_ELIMIT);
	CHECK_EQ_INT(uncore_error_from_errno(ENOSPC), UNCORE_EIO); /* anything else */
}

int main(void)
{
	RUN(every_code_has_message_and_name);
	RUN(fail_sets_detail_and_returns_code);
	RUN(fail_may_wrap_the_previous_detail);
	RUN(fail_escapes_control_bytes);
	RUN(errno_mapping);
	return harness_done();
}
