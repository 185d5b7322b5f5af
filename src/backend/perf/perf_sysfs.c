/* Reading the perf PMU tree of sysfs (see perf_sysfs.h).  The software PMU
 * has no events/ directory; its event numbers are kernel ABI
 * (perf_event_open(2), PERF_COUNT_SW_*), listed here so that software
 * events can be named like any sysfs alias. */
#define _GNU_SOURCE
#include "backend/perf/perf_sysfs.h"

#include "common/text.h"
#include "common/uncore_error.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* perf_event_open(2): enum perf_sw_ids (dummy and bpf-output count
 * nothing; cgroup-switches needs Linux 5.13). */
static const struct {
	const char *name;
	const char *terms;
} software_events[] = {
    {"cpu-clock", "config=0"},        {"task-clock", "config=1"},
    {"page-faults", "config=2"},      {"context-switches", "config=3"},
    {"cpu-migrations", "config=4"},   {"minor-faults", "config=5"},
    {"major-faults", "config=6"},     {"alignment-faults", "config=7"},
    {"emulation-faults", "config=8"}, {"cgroup-switches", "config=11"},
};

/* PMUs whose events need more than config words (a tracepoint id, a probe
 * path, a breakpoint address) or produce trace data, not counts. */
static const struct {
	const char *name;
	const char *why;
} not_countable[] = {
    {"tracepoint", "tracepoints are named by id, not counted by config"},
    {"breakpoint", "hardware breakpoints need an address"},
    {"kprobe", "kernel probes need a probe point"},
    {"uprobe", "user probes need a probe point"},
    {"intel_pt", "a trace unit (no counts)"},
    {"intel_bts", "a trace unit (no counts)"},
};

int uncore_perf_pmu_countable(const struct uncore_perf_pmu *pmu, const char **why)
{
	for (size_t i = 0; i < sizeof(not_countable) / sizeof(not_countable[0]); i++)
		if (strcmp(pmu->name, not_countable[i].name) == 0) {
			if (why)
				*why = not_countable[i].why;
			return 0;
		}
	return 1;
}

int uncore_perf_name_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long na = strtoul(a, &ea, 10), nb = strtoul(b, &eb, 10);
			if (na != nb)
				return na < nb ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* A small sysfs file, trailing newline and spaces removed: 0 or -1. */
static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int grow(void **arr, unsigned n, unsigned *cap, size_t size)
{
	if (n < *cap)
		return 0;
	unsigned ncap = *cap ? *cap * 2 : 8;
	void *p = realloc(*arr, ncap * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

static int read_formats(const char *dir, struct uncore_perf_pmu *pmu)
{
	char path[600];
	unsigned cap = 0;
	snprintf(path, sizeof(path), "%s/format", dir);
	DIR *d = opendir(path);
	struct dirent *e;
	if (!d)
		return 0; /* no format: only aliases with raw config terms work */
	while ((e = readdir(d)) != NULL) {
		char file[900], text[160];
		struct uncore_perf_field f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
		if (read_text(file, text, sizeof(text)) < 0 ||
		    uncore_perf_field_parse(e->d_name, text, &f) < 0) {
			uncore_error_clear(); /* one bad field does not hide the others */
			continue;
		}
		if (grow((void **)&pmu->fields, pmu->nfields, &cap, sizeof(f)) < 0) {
			closedir(d);
			return UNCORE_ENOMEM;
		}
		pmu->fields[pmu->nfields++] = f;
	}
	closedir(d);
	return 0;
}

static int add_alias(struct uncore_perf_pmu *pmu, unsigned *cap, const char *name,
		     const char *terms)
{
	if (strlen(name) >= sizeof(pmu->aliases[0].name) ||
	    strlen(terms) >= sizeof(pmu->aliases[0].terms))
		return 0; /* not representable: skipped */
	if (grow((void **)&pmu->aliases, pmu->naliases, cap, sizeof(pmu->aliases[0])) < 0)
		return UNCORE_ENOMEM;
	struct uncore_perf_alias *a = &pmu->aliases[pmu->naliases++];
	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), "%s", name);
	snprintf(a->terms, sizeof(a->terms), "%s", terms);
	return 0;
}

static int alias_cmp(const void *pa, const void *pb)
{
	const struct uncore_perf_alias *a = pa, *b = pb;
	return strcmp(a->name, b->name);
}

/* events/<name>.scale or .unit: the alias it qualifies, or NULL.  The
 * aliases are sorted by name. */
static struct uncore_perf_alias *qualified_alias(struct uncore_perf_pmu *pmu, const char *file,
						 char **field, size_t *len)
{
	const char *dot = strrchr(file, '.');
	struct uncore_perf_alias key;
	if (!dot || (size_t)(dot - file) >= sizeof(key.name))
		return NULL;
	memset(key.name, 0, sizeof(key.name));
	memcpy(key.name, file, (size_t)(dot - file));
	struct uncore_perf_alias *a =
	    bsearch(&key, pmu->aliases, pmu->naliases, sizeof(key), alias_cmp);
	if (!a)
		return NULL;
	if (strcmp(dot, ".scale") == 0) {
		*field = a->scale;
		*len = sizeof(a->scale);
	} else if (strcmp(dot, ".unit") == 0) {
		*field = a->unit;
		*len = sizeof(a->unit);
	} else {
		return NULL;
	}
	return a;
}

/* events/<name> holds the terms; events/<name>.scale and .unit qualify it;
 * other suffixes (.snapshot, .per-pkg) say how perf(1) shows it.  Only the
 * .scale and .unit files the listing shows are opened: start-up opens no
 * file that is not there (bench/README.md, start-up). */
static int read_events(const char *dir, struct uncore_perf_pmu *pmu)
{
	char path[600];
	unsigned cap = 0;
	int rc = 0, qualifiers = 0;
	snprintf(path, sizeof(path), "%s/events", dir);
	DIR *d = opendir(path);
	struct dirent *e;
	if (d) {
		while (rc == 0 && (e = readdir(d)) != NULL) {
			char file[900], text[192];
			if (e->d_name[0] == '.')
				continue;
			if (strchr(e->d_name, '.')) {
				qualifiers = 1;
				continue;
			}
			snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
			if (read_text(file, text, sizeof(text)) == 0)
				rc = add_alias(pmu, &cap, e->d_name, text);
		}
	}
	if (rc == 0 && pmu->type == PERF_TYPE_SOFTWARE && pmu->naliases == 0)
		for (size_t i = 0;
		     rc == 0 && i < sizeof(software_events) / sizeof(software_events[0]); i++)
			rc =
			    add_alias(pmu, &cap, software_events[i].name, software_events[i].terms);
	if (pmu->naliases > 1)
		qsort(pmu->aliases, pmu->naliases, sizeof(pmu->aliases[0]), alias_cmp);
	if (d && rc == 0 && qualifiers && pmu->naliases) {
		rewinddir(d);
		while ((e = readdir(d)) != NULL) {
			char file[900], *field;
			size_t len;
			if (e->d_name[0] == '.' || !qualified_alias(pmu, e->d_name, &field, &len))
				continue;
			snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
			if (read_text(file, field, len) < 0)
				field[0] = '\0';
		}
	}
	if (d)
		closedir(d);
	return rc;
}

static int read_pmu(const char *root, const char *name, struct uncore_perf_pmu *pmu)
{
	char dir[400], file[600], text[64];
	memset(pmu, 0, sizeof(*pmu));
	if (strlen(name) >= sizeof(pmu->name))
		return 1;
	snprintf(pmu->name, sizeof(pmu->name), "%s", name);
	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	snprintf(file, sizeof(file), "%s/type", dir);
	char *end;
	if (read_text(file, text, sizeof(text)) < 0)
		return 1; /* not a PMU directory */
	unsigned long type = strtoul(text, &end, 10);
	if (end == text || *end || type > UINT32_MAX)
		return 1;
	pmu->type = (uint32_t)type;
	snprintf(file, sizeof(file), "%s/cpumask", dir);
	if (read_text(file, pmu->cpumask, sizeof(pmu->cpumask)) == 0) {
		pmu->has_cpumask = 1;
	} else {
		snprintf(file, sizeof(file), "%s/cpus", dir);
		pmu->has_cpumask = read_text(file, pmu->cpumask, sizeof(pmu->cpumask)) == 0;
		if (!pmu->has_cpumask)
			pmu->cpumask[0] = '\0';
	}
	int rc = read_formats(dir, pmu);
	if (rc == 0)
		rc = read_events(dir, pmu);
	return rc;
}

static void free_pmu(struct uncore_perf_pmu *pmu)
{
	free(pmu->fields);
	free(pmu->aliases);
	pmu->fields = NULL;
	pmu->aliases = NULL;
}

static int pmu_cmp(const void *pa, const void *pb)
{
	const struct uncore_perf_pmu *a = pa, *b = pb;
	return uncore_perf_name_cmp(a->name, b->name);
}

/* Call fn(name, arg) for each entry of directory `path` but the dot files,
 * until it returns non-zero (then that).  getdents64(2) into a buffer on
 * the stack: unlike opendir, no 32 KB allocation and no fstat, which
 * start-up would pay for each directory it lists.  1 (errno set) when
 * `path` cannot be opened as a directory; fn returns 0 or a negative code. */
static int each_entry(const char *path, int (*fn)(const char *name, void *arg), void *arg)
{
	_Alignas(struct dirent64) char buf[4096];
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	int rc = 0;
	ssize_t n;
	while (rc == 0 && (n = getdents64(fd, buf, sizeof(buf))) > 0)
		for (ssize_t at = 0; rc == 0 && at < n;) {
			const struct dirent64 *e = (const struct dirent64 *)(buf + at);
			at += e->d_reclen;
			if (e->d_name[0] != '.')
				rc = fn(e->d_name, arg);
		}
	close(fd);
	return rc;
}

/* An alias file of events/ (not its .scale, .unit... qualifiers). */
static int count_alias(const char *name, void *arg)
{
	struct uncore_perf_pmu *pmu = arg;
	pmu->naliases += !strchr(name, '.');
	return 0;
}

/* The listing of one PMU for start-up (uncore_perf_sysfs_list): its name
 * and how many aliases its events/ directory lists, without opening a file.
 * The software PMU, which has no events/, is known by its name: the kernel
 * registers PERF_TYPE_SOFTWARE as "software" and under no other name
 * (kernel/events/core.c, perf_event_init); its events are the kernel ABI's
 * list above.  PMUs no config word counts are not looked into. */
static int list_pmu(const char *root, const char *name, struct uncore_perf_pmu *pmu)
{
	char dir[600];
	memset(pmu, 0, sizeof(*pmu));
	if (strlen(name) >= sizeof(pmu->name))
		return 1;
	snprintf(pmu->name, sizeof(pmu->name), "%s", name);
	if (!uncore_perf_pmu_countable(pmu, NULL))
		return 0;
	snprintf(dir, sizeof(dir), "%s/%s/events", root, name);
	if (each_entry(dir, count_alias, pmu) == 0)
		return 0;
	if (strcmp(name, "software") == 0) {
		pmu->type = PERF_TYPE_SOFTWARE;
		pmu->naliases = sizeof(software_events) / sizeof(software_events[0]);
	}
	return 0;
}

struct root_scan {
	struct uncore_perf_sysfs *s;
	unsigned cap;
	int list_only;
};

static int add_pmu(const char *name, void *arg)
{
	struct root_scan *rs = arg;
	struct uncore_perf_sysfs *s = rs->s;
	if (grow((void **)&s->pmus, s->npmus, &rs->cap, sizeof(s->pmus[0])) < 0)
		return UNCORE_ENOMEM;
	int r = rs->list_only ? list_pmu(s->root, name, &s->pmus[s->npmus])
			      : read_pmu(s->root, name, &s->pmus[s->npmus]);
	if (r == 0)
		s->npmus++;
	else
		free_pmu(&s->pmus[s->npmus]);
	return r < 0 ? r : 0;
}

static int read_root(const char *root, int list_only, struct uncore_perf_sysfs **out)
{
	struct root_scan rs = {.list_only = list_only};
	if (!root)
		root = UNCORE_PERF_PMU_ROOT;
	rs.s = calloc(1, sizeof(*rs.s));
	if (!rs.s)
		return uncore_fail(UNCORE_ENOMEM, "out of memory reading %s", root);
	snprintf(rs.s->root, sizeof(rs.s->root), "%s", root);
	int rc = each_entry(root, add_pmu, &rs);
	if (rc == 1) {
		int err = errno;
		uncore_perf_sysfs_free(rs.s);
		return uncore_fail(UNCORE_ENODEV,
				   "cannot read %s: %s (a kernel without perf_event support, or "
				   "sysfs not mounted)",
				   root, strerror(err));
	}
	if (rc < 0) {
		uncore_perf_sysfs_free(rs.s);
		return uncore_fail(UNCORE_ENOMEM, "out of memory reading the PMUs of %s", root);
	}
	if (rs.s->npmus > 1)
		qsort(rs.s->pmus, rs.s->npmus, sizeof(rs.s->pmus[0]), pmu_cmp);
	*out = rs.s;
	return 0;
}

int uncore_perf_sysfs_read(const char *root, struct uncore_perf_sysfs **out)
{
	return read_root(root, 0, out);
}

int uncore_perf_sysfs_list(const char *root, struct uncore_perf_sysfs **out)
{
	int rc = read_root(root, 1, out);
	if (rc == 0)
		(*out)->listed_only = 1;
	return rc;
}

void uncore_perf_sysfs_free(struct uncore_perf_sysfs *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->npmus; i++)
		free_pmu(&s->pmus[i]);
	free(s->pmus);
	free(s);
}

const struct uncore_perf_pmu *uncore_perf_sysfs_find(const struct uncore_perf_sysfs *s,
						     const char *name)
{
	for (unsigned i = 0; s && name && i < s->npmus; i++)
		if (strcmp(s->pmus[i].name, name) == 0)
			return &s->pmus[i];
	return NULL;
}

const struct uncore_perf_field *uncore_perf_pmu_field(const struct uncore_perf_pmu *pmu,
						      const char *name)
{
	for (unsigned i = 0; pmu && name && i < pmu->nfields; i++)
		if (strcmp(pmu->fields[i].name, name) == 0)
			return &pmu->fields[i];
	return NULL;
}

const struct uncore_perf_alias *uncore_perf_pmu_alias(const struct uncore_perf_pmu *pmu,
						      const char *name)
{
	for (unsigned i = 0; pmu && name && i < pmu->naliases; i++)
		if (strcasecmp(pmu->aliases[i].name, name) == 0)
			return &pmu->aliases[i];
	return NULL;
}

static int field_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct uncore_perf_field *)a)->name,
		      ((const struct uncore_perf_field *)b)->name);
}

void uncore_perf_pmu_field_list(const struct uncore_perf_pmu *pmu, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	struct uncore_perf_field sorted[64];
	unsigned n = pmu->nfields < 64 ? pmu->nfields : 64;
	if (n) /* a PMU without format files has no fields array at all */
		memcpy(sorted, pmu->fields, n * sizeof(sorted[0]));
	qsort(sorted, n, sizeof(sorted[0]), field_name_cmp);
	for (unsigned i = 0; i < n && used < len; i++) {
		int k = snprintf(buf + used, len - used, "%s%s", i ? "," : "", sorted[i].name);
		if (k < 0 || (size_t)k >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)k;
	}
	if (n == 0)
		snprintf(buf, len, "none (raw config=, config1=, config2= only)");
}

/* Decimal, or hex with 0x, as the messages say (common/text.h). */
static int parse_value(const char *s, uint64_t *out)
{
	return uncore_parse_u64(s, out);
}

int uncore_perf_pmu_add_terms(const struct uncore_perf_pmu *pmu, const char *terms,
			      uint64_t cfg[UNCORE_PERF_NCONFIG])
{
	char buf[256], q[UNCORE_QUOTE_MAX * 4 + 8], q2[UNCORE_QUOTE_MAX * 4 + 8];
	/* Fields given so far and their values: the same field twice must
	 * agree (perf(1) would OR them: event=0x4,event=0x5 is no event). */
	const char *seen[32];
	uint64_t seen_v[32];
	unsigned nseen = 0;
	if (snprintf(buf, sizeof(buf), "%s", terms) >= (int)sizeof(buf))
		return uncore_fail(UNCORE_ESYNTAX, "%s: terms \"%s\" too long", pmu->name,
				   uncore_quote(q, sizeof(q), terms, 40));
	/* Split by hand: strtok would skip empty terms (",," or a trailing ,). */
	for (char *t = buf, *next; t; t = next) {
		next = strchr(t, ',');
		if (next)
			*next++ = '\0';
		char *val = strchr(t, '=');
		uint64_t v = 1;
		if (val) {
			*val++ = '\0';
			if (parse_value(val, &v) < 0)
				return uncore_fail(
				    UNCORE_ESYNTAX,
				    "%s: %s=%s: the value must be a number (decimal, or hex "
				    "with 0x)",
				    pmu->name, uncore_quote(q, sizeof(q), t, UNCORE_QUOTE_MAX),
				    uncore_quote(q2, sizeof(q2), val, UNCORE_QUOTE_MAX));
		}
		if (*t == '\0')
			return uncore_fail(UNCORE_ESYNTAX, "%s: empty term in \"%s\"", pmu->name,
					   uncore_quote(q, sizeof(q), terms, UNCORE_QUOTE_MAX));
		unsigned k = 0;
		while (k < nseen && strcmp(seen[k], t) != 0)
			k++;
		if (k < nseen && seen_v[k] != v)
			return uncore_fail(UNCORE_ECOMBO,
					   "%s: %s given twice with different values (0x%llx, 0x%llx)",
					   pmu->name, uncore_quote(q, sizeof(q), t, UNCORE_QUOTE_MAX),
					   (unsigned long long)seen_v[k], (unsigned long long)v);
		if (k == nseen && nseen < 32) {
			seen[nseen] = t;
			seen_v[nseen++] = v;
		}
		if (strcmp(t, "config") == 0 || strcmp(t, "config1") == 0 ||
		    strcmp(t, "config2") == 0) {
			cfg[t[6] ? t[6] - '0' : 0] |= v;
			continue;
		}
		const struct uncore_perf_field *f = uncore_perf_pmu_field(pmu, t);
		if (!f) {
			char list[300];
			uncore_perf_pmu_field_list(pmu, list, sizeof(list));
			return uncore_fail(UNCORE_ENOMOD,
					   "%s has no format field '%s'; its fields: %s", pmu->name,
					   uncore_quote(q, sizeof(q), t, UNCORE_QUOTE_MAX), list);
		}
		if (uncore_perf_field_put(f, v, cfg) < 0) {
			char fmt[80];
			uncore_perf_field_format(f, fmt, sizeof(fmt));
			return uncore_fail(UNCORE_ERANGE,
					   "%s: %s=0x%llx does not fit %s (%s, at most 0x%llx)",
					   pmu->name, t, (unsigned long long)v, f->name, fmt,
					   (unsigned long long)uncore_perf_field_max(f));
		}
	}
	return 0;
}
