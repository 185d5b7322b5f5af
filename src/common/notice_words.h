/* The words a notice of a failure starts with (bind/notices.h,
 * intel_uncore_notices): the event-set layer writes them, tools tell a
 * failed read from a wraps notice by them. */
#ifndef UNCORE_COMMON_NOTICE_WORDS_H
#define UNCORE_COMMON_NOTICE_WORDS_H

#define INTEL_UNCORE_NOTICE_READ_FAILED "a read failed: "
#define INTEL_UNCORE_NOTICE_STOP_FAILED "the stop failed: "

#endif
