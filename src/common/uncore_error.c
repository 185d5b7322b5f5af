/* The error table's messages, the thread-local failure detail, and the
 * errno mapping used by every device backend. */
#include "common/uncore_error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char error_detail[UNCORE_ERROR_DETAIL_MAX];

struct error_row {
	int code;
	const char *name;
	const char *message;
};

static const struct error_row error_rows[] = {
#define UNCORE_ERROR_ROW(sym, val, msg) {(val), #sym, (msg)},
	UNCORE_ERROR_TABLE(UNCORE_ERROR_ROW)
#undef UNCORE_ERROR_ROW
};

static const struct error_row *find_row(int code)
{
	for (size_t i = 0; i < sizeof(error_rows) / sizeof(error_rows[0]); i++)
		if (error_rows[i].code == code)
			return &error_rows[i];
	return NULL;
}

const char *uncore_strerror(int code)
{
	const struct error_row *row = find_row(code);
	return row ? row->message : "unknown error";
}

const char *uncore_error_name(int code)
{
	const struct error_row *row = find_row(code);
	return row ? row->name : "UNCORE_E?";
}

/* Formatted into a local buffer first: callers wrap the previous detail
 * ("what: %s", uncore_error_detail()), and vsnprintf from a buffer into
 * itself is undefined (C11 7.21.6.12) and garbles the message.  Control
 * bytes are written \xNN (issue 29): whatever a caller put in (a file's
 * line, a name from the environment), a message cannot drive the terminal
 * it is printed on.  Idempotent: a wrapped detail is not escaped twice. */
int uncore_fail(int code, const char *fmt, ...)
{
	char text[UNCORE_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	size_t o = 0;
	for (const unsigned char *c = (const unsigned char *)text;
	     *c && o + 1 < sizeof(error_detail); c++) {
		if (*c >= 0x20 && *c != 0x7f) {
			error_detail[o++] = (char)*c;
		} else if (o + 4 < sizeof(error_detail)) {
			snprintf(error_detail + o, 5, "\\x%02x", *c);
			o += 4;
		} else {
			break;
		}
	}
	error_detail[o] = '\0';
	return code;
}

const char *uncore_error_detail(void)
{
	return error_detail;
}

void uncore_error_save(struct uncore_saved_error *e, int code)
{
	e->code = code;
	snprintf(e->detail, sizeof(e->detail), "%s", error_detail);
}

int uncore_error_restore(const struct uncore_saved_error *e)
{
	return uncore_fail(e->code, "%s", e->detail);
}

void uncore_error_clear(void)
{
	error_detail[0] = '\0';
}

int uncore_error_from_errno(int err)
{
	switch (err) {
	case 0:
		return UNCORE_OK;
	case EACCES:
	case EPERM:
		return UNCORE_EPERM;
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return UNCORE_ENODEV;
	case ENOMEM:
		return UNCORE_ENOMEM;
	case EBUSY:
		return UNCORE_EBUSY;
	case EINVAL:
		return UNCORE_EINVAL;
	case EFAULT:
		return UNCORE_EFAULT;
	case EMFILE:
	case ENFILE:
		return UNCORE_ELIMIT;
	default:
		return UNCORE_EIO;
	}
}
