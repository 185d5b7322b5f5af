/* Temporary directories for unit tests (see tmpdir.h). */
#define _GNU_SOURCE
#include "tmpdir.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *test_mkdtemp(const char *tag)
{
	static char dirs[8][256];
	static unsigned next;
	char *d = dirs[next++ % 8];
	const char *base = getenv("TMPDIR");
	snprintf(d, sizeof(dirs[0]), "%s/uncore-%s-XXXXXX", base && *base ? base : "/tmp", tag);
	if (!mkdtemp(d)) {
		perror(d);
		return NULL;
	}
	return d;
}

int test_put(const char *root, const char *rel, const char *text)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return -1;
	}
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int test_rmtree(const char *path)
{
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
