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
