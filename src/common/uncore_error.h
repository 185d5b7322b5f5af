/* Error codes of the papi-uncore library: one table gives every code its
 * symbol and its message.  Functions return 0 or one of these negative codes;
 * a thread-local detail string carries the specifics (which event, which
 * register, what to do), set by the function that failed. */
#ifndef UNCORE_ERROR_H
#define UNCORE_ERROR_H

#include <stdarg.h>

/* X(symbol, value, message).  Values are stable: tools and tests print them. */
#define UNCORE_ERROR_TABLE(X)                                                          \
	X(UNCORE_OK, 0, "success")                                                     \
	X(UNCORE_EINVAL, -1, "invalid argument")                                       \
	X(UNCORE_ENOMEM, -2, "out of memory")                                          \
	X(UNCORE_ENOEVENT, -3, "unknown event")                                        \
	X(UNCORE_ENOUMASK, -4, "unknown unit mask")                                    \
	X(UNCORE_ENOMOD, -5, "unknown modifier")                                       \
	X(UNCORE_ERANGE, -6, "value out of range")                                     \
	X(UNCORE_ECONFLICT, -7, "events cannot be scheduled together")                 \
	X(UNCORE_EPERM, -8, "permission denied")                                       \
	X(UNCORE_ENODEV, -9, "device or register not present")                         \
	X(UNCORE_EIO, -10, "input/output error")                                       \
	X(UNCORE_EDENIED, -11, "register write refused: not in the PMON allowlist")   \
	X(UNCORE_EBUSY, -12, "uncore box in use by another process")                   \
	X(UNCORE_EFAULT, -13, "register access faulted (reserved bit or unknown register)") \
	X(UNCORE_ENOSUPP, -14, "not supported on this platform")                       \
	X(UNCORE_ESYNTAX, -15, "syntax error")                                         \
	X(UNCORE_ESTATE, -16, "operation not valid in the current state")              \
	X(UNCORE_ENOSPACE, -17, "buffer too small")                                   \
	X(UNCORE_ECOMBO, -18, "invalid combination of unit masks or modifiers")         \
	X(UNCORE_ELIMIT, -19, "system resource limit reached (open files)")

enum uncore_error {
#define UNCORE_ERROR_ENUM(sym, val, msg) sym = (val),
	UNCORE_ERROR_TABLE(UNCORE_ERROR_ENUM)
#undef UNCORE_ERROR_ENUM
};

/* The fixed message of a code; "unknown error" for anything not in the table. */
const char *uncore_strerror(int code);

/* The symbol of a code ("UNCORE_ENOEVENT"), for logs and tests. */
const char *uncore_error_name(int code);

/* Record the details of the failure about to be returned and return `code`,
 * so callers can write: return uncore_fail(UNCORE_ENOUMASK, "...%s", x); */
int uncore_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The detail text of the last failure in this thread ("" when none). */
const char *uncore_error_detail(void);

/* A failure kept across the cleanup that follows it (whose own failures
 * would overwrite the detail): save, clean up, fail with what was saved.
 *	struct uncore_saved_error e;
 *	uncore_error_save(&e, rc);
 *	undo_what_was_done();
 *	return uncore_error_restore(&e);
 */
#define UNCORE_ERROR_DETAIL_MAX 512
struct uncore_saved_error {
	int code;
	char detail[UNCORE_ERROR_DETAIL_MAX];
};
void uncore_error_save(struct uncore_saved_error *e, int code);
/* Make the saved failure the current one again: returns its code. */
int uncore_error_restore(const struct uncore_saved_error *e);

/* Forget the last detail (at the start of a public entry point). */
void uncore_error_clear(void);

/* Map a C errno value (from a device access) to our code. */
int uncore_error_from_errno(int err);

#endif
