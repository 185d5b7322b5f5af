/* The component's description fitted to PAPI's fixed field (see
 * description.h). */
#include "bind/description.h"

#include <stdio.h>
#include <string.h>

void uncore_description_fit(char *dst, size_t len, const char *full)
{
	char buf[1400];
	if (len < 8)
		return;
	snprintf(buf, sizeof(buf), "%s", full);
	while (strlen(buf) >= len) {
		char *close = strrchr(buf, ')');
		if (!close)
			break;
		size_t open = (size_t)(close - buf);
		int depth = 0;
		for (;; open--) {
			depth += buf[open] == ')' ? 1 : buf[open] == '(' ? -1 : 0;
			if (depth == 0 || open == 0)
				break;
		}
		if (depth != 0)
			break;
		if (open > 0 && buf[open - 1] == ' ')
			open--;
		memmove(buf + open, close + 1, strlen(close + 1) + 1);
	}
	if (strlen(buf) >= len) {
		size_t cut = len - 4;
		while (cut > 0 && !(buf[cut] == ';' || buf[cut] == ',' || buf[cut] == ' '))
			cut--;
		snprintf(buf + cut, sizeof(buf) - cut, "...");
	}
	snprintf(dst, len, "%s", buf);
}


/* `in` without its " [...]" notes, into out (1400 bytes). */
static void drop_notes(char *out, const char *in)
{
	size_t o = 0;
	for (const char *p = in; *p && o < 1399;) {
		const char *close = p[0] == ' ' && p[1] == '[' ? strchr(p, ']') : NULL;
		if (close)
			p = close + 1;
		else
			out[o++] = *p++;
	}
	out[o] = '\0';
}

void uncore_description_fit_tail(char *dst, size_t len, const char *head, const char *tail)
{
	char full[1400], short_head[1400];
	size_t used = strlen(head);
	if (len >= 8 && used + 16 >= len) {
		drop_notes(short_head, head);
		head = short_head;
		used = strlen(head);
	}
	if (len >= 8 && used + 16 < len) {
		snprintf(dst, len, "%s", head);
		uncore_description_fit(dst + used, len - used, tail);
		return;
	}
	snprintf(full, sizeof(full), "%s%s", head, tail);
	uncore_description_fit(dst, len, full);
}

void uncore_field_copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (len == 0)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* papi_native_avail (PAPI 7.0) folds one entry's description into 66-column
 * lines in a buffer it grows 1 KB at a time, and overruns the heap when a
 * single entry takes more than that: about 730 characters.  Long event and
 * umask descriptions of the manuals are cut (marked "...") to stay clear of
 * it; the part before "masks:" of a umask entry is not shown there. */
#define TOOL_DESC_MAX 700

static size_t cut(char *dst, size_t room, const char *src, size_t max)
{
	size_t n = strlen(src);
	if (n > max)
		n = max;
	if (n >= room)
		n = room ? room - 1 : 0;
	memcpy(dst, src, n);
	if (n < strlen(src) && n >= 3)
		memcpy(dst + n - 3, "...", 3);
	dst[n] = '\0';
	return n;
}

void uncore_tool_descr_copy(char *dst, size_t len, const char *desc)
{
	const char *masks = strstr(desc, " masks:");
	if (!masks) {
		cut(dst, len, desc, TOOL_DESC_MAX);
		return;
	}
	/* "event masks:entry": the entry's part whole up to the limit, the
	 * event's part with what room is left. */
	const char *entry = masks + 7;
	size_t el = strlen(entry) < TOOL_DESC_MAX ? strlen(entry) : TOOL_DESC_MAX;
	size_t ev = (size_t)(masks - desc);
	if (len < el + 8)
		ev = 0;
	else if (ev > len - el - 8)
		ev = len - el - 8;
	memcpy(dst, desc, ev);
	memcpy(dst + ev, " masks:", 7);
	cut(dst + ev + 7, len - ev - 7, entry, TOOL_DESC_MAX);
}
