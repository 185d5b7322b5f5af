/* Temporary directories and files for unit tests: fake sysfs and /dev trees
 * are built under a fresh directory that is removed at the end. */
#ifndef UNCORE_TEST_TMPDIR_H
#define UNCORE_TEST_TMPDIR_H

#include <stddef.h>

/* A fresh directory $TMPDIR/uncore-<tag>-XXXXXX, /tmp without TMPDIR
 * (static storage; NULL on failure, with the reason printed: a caller
 * fails its test case, never returns as if it had passed). */
const char *test_mkdtemp(const char *tag);

/* Write `text` to root/rel, creating the directories on the way: 0 or -1. */
int test_put(const char *root, const char *rel, const char *text);

/* Remove a directory tree (what test_mkdtemp made): 0 or -1. */
int test_rmtree(const char *path);

#endif
