/* Name lists for error messages ("valid: RD, WR, ..."), bounded by the
 * caller's buffer so a long table never truncates a message mid-name. */
#include "events/table.h"

#include <stdio.h>
#include <string.h>

void name_list_init(struct name_list *l, char *buf, size_t len)
{
	l->buf = buf;
	l->len = len;
	l->used = 0;
	l->full = 0;
	if (len)
		buf[0] = '\0';
}

void name_list_add(struct name_list *l, const char *name)
{
	static const char more[] = ", ...";
	if (l->full || l->len == 0)
		return;
	const char *sep = l->used ? ", " : "";
	size_t need = strlen(sep) + strlen(name);
	/* Keep room for the ", ..." that says the list goes on. */
	if (l->used + need + sizeof(more) > l->len) {
		if (l->used + sizeof(more) <= l->len)
			snprintf(l->buf + l->used, l->len - l->used, "%s", l->used ? more : "...");
		l->full = 1;
		return;
	}
	snprintf(l->buf + l->used, l->len - l->used, "%s%s", sep, name);
	l->used += need;
}
