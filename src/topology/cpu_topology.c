/* CPU topology from sysfs (see cpu_topology.h).  Only the online list and
 * each online CPU's physical_package_id are read: offline CPUs may have no
 * topology directory at all, and an offline CPU cannot serve MSR reads. */
#include "topology/cpu_topology.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/uncore_error.h"

/* Read a small sysfs file into buf (NUL-terminated): 0 or a negative code. */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return uncore_fail(uncore_error_from_errno(e), "cannot open %s: %s", path,
				   strerror(e));
	}
	ssize_t n = read(fd, buf, len - 1);
	int e = errno;
	close(fd);
	if (n < 0)
		return uncore_fail(UNCORE_EIO, "cannot read %s: %s", path, strerror(e));
	buf[n] = '\0';
	return 0;
}

static int parse_uint(const char **p, unsigned *out)
{
	const char *s = *p;
	unsigned long v = 0;
	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > 1u << 24) /* no machine has 16M CPUs: a corrupt list */
			return -1;
		s++;
	}
	*p = s;
	*out = (unsigned)v;
	return 0;
}

int uncore_cpulist_parse(const char *text, int (*fn)(unsigned cpu, void *arg), void *arg)
{
	const char *p = text;
	while (*p && *p != '\n') {
		unsigned lo, hi;
		if (parse_uint(&p, &lo))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_uint(&p, &hi) || hi < lo)
				goto bad;
		}
		for (unsigned c = lo; c <= hi; c++) {
			int rc = fn(c, arg);
			if (rc)
				return rc;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	return 0;
bad:
	return uncore_fail(UNCORE_ESYNTAX, "bad CPU list \"%.60s\" near \"%.10s\"", text, p);
}

struct scan {
	const char *root;
	struct uncore_cpu_topology *t;
};

static struct uncore_socket_info *socket_slot(struct uncore_cpu_topology *t, unsigned pkg)
{
	unsigned i = 0;
	while (i < t->nsockets && t->socket[i].package_id < pkg)
		i++;
	if (i < t->nsockets && t->socket[i].package_id == pkg)
		return &t->socket[i];
	if (t->nsockets == UNCORE_MAX_SOCKETS)
		return NULL;
	memmove(&t->socket[i + 1], &t->socket[i], (t->nsockets - i) * sizeof(t->socket[0]));
	t->nsockets++;
	t->socket[i] = (struct uncore_socket_info){.package_id = pkg, .cpu = -1};
	return &t->socket[i];
}

static int add_cpu(unsigned cpu, void *arg)
{
	struct scan *s = arg;
	char path[512], buf[32];
	const char *p = buf;
	unsigned pkg;

	snprintf(path, sizeof(path), "%s/cpu%u/topology/physical_package_id", s->root, cpu);
	int rc = read_small(path, buf, sizeof(buf));
	if (rc) {
		char why[256];
		snprintf(why, sizeof(why), "%s", uncore_error_detail());
		return uncore_fail(rc, "%s: CPU %u is online but its package is unknown", why, cpu);
	}
	if (parse_uint(&p, &pkg))
		return uncore_fail(UNCORE_ESYNTAX, "%s: \"%.20s\" is not a package id", path, buf);
	struct uncore_socket_info *si = socket_slot(s->t, pkg);
	if (!si)
		return uncore_fail(UNCORE_ENOSPACE, "more than %d sockets (package id %u)",
				   UNCORE_MAX_SOCKETS, pkg);
	if (si->cpu < 0) /* the list is ascending: the first CPU seen is the lowest */
		si->cpu = (int)cpu;
	if (cpu < UNCORE_TOPOLOGY_MAX_CPUS) {
		s->t->cpu_package[cpu] = (int16_t)pkg;
		if (cpu + 1 > s->t->ncpu_ids)
			s->t->ncpu_ids = cpu + 1;
	}
	si->online_cpus++;
	s->t->online_cpus++;
	/* Physical cores: distinct core_id values (hyperthreads share one);
	 * the file is optional, `cores` stays 0 without it. */
	unsigned core;
	snprintf(path, sizeof(path), "%s/cpu%u/topology/core_id", s->root, cpu);
	p = buf;
	if (read_small(path, buf, sizeof(buf)) == 0 && parse_uint(&p, &core) == 0 && core < 256) {
		if (!(si->core_seen[core / 64] >> (core % 64) & 1))
			si->cores++;
		si->core_seen[core / 64] |= UINT64_C(1) << (core % 64);
	}
	uncore_error_clear();
	return 0;
}

static int apply_override(struct uncore_cpu_topology *t, const char *root, const int *cpus,
			  size_t n)
{
	if (n != t->nsockets)
		return uncore_fail(UNCORE_EINVAL,
				   "CPU override lists %zu CPUs but the machine has %u sockets: "
				   "give one online CPU per socket, in package order",
				   n, t->nsockets);
	for (size_t i = 0; i < n; i++) {
		char path[512], buf[32];
		const char *p = buf;
		unsigned pkg;
		if (cpus[i] < 0)
			return uncore_fail(UNCORE_EINVAL, "CPU override %d is negative", cpus[i]);
		snprintf(path, sizeof(path), "%s/cpu%d/topology/physical_package_id", root,
			 cpus[i]);
		if (read_small(path, buf, sizeof(buf)) || parse_uint(&p, &pkg))
			return uncore_fail(UNCORE_EINVAL,
					   "CPU override %d: no such online CPU (%s)", cpus[i],
					   path);
		if (pkg != t->socket[i].package_id)
			return uncore_fail(UNCORE_EINVAL,
					   "CPU override %d is in package %u, but position %zu of "
					   "the list is package %u",
					   cpus[i], pkg, i, t->socket[i].package_id);
		t->socket[i].cpu = cpus[i];
	}
	return 0;
}

/* An override CPU must also be in the online list. */
struct online_check {
	int cpu;
	int found;
};

static int find_cpu(unsigned cpu, void *arg)
{
	struct online_check *c = arg;
	if ((int)cpu == c->cpu)
		c->found = 1;
	return 0;
}

int uncore_topology_read(const char *root, const int *override, size_t noverride,
			 struct uncore_cpu_topology *out)
{
	char path[512], online[4096];
	struct uncore_cpu_topology t;
	struct scan s = {.root = root ? root : UNCORE_SYSFS_CPU_ROOT, .t = &t};

	memset(&t, 0, sizeof(t));
	for (unsigned c = 0; c < UNCORE_TOPOLOGY_MAX_CPUS; c++)
		t.cpu_package[c] = -1;
	snprintf(path, sizeof(path), "%s/online", s.root);
	int rc = read_small(path, online, sizeof(online));
	if (rc)
		return rc;
	rc = uncore_cpulist_parse(online, add_cpu, &s);
	if (rc)
		return rc;
	if (t.nsockets == 0)
		return uncore_fail(UNCORE_ENODEV, "%s lists no online CPU", path);
	if (override && noverride) {
		for (size_t i = 0; i < noverride; i++) {
			struct online_check c = {.cpu = override[i]};
			uncore_cpulist_parse(online, find_cpu, &c);
			if (!c.found)
				return uncore_fail(UNCORE_EINVAL,
						   "CPU override %d is not online (online: %.40s)",
						   override[i], online);
		}
		rc = apply_override(&t, s.root, override, noverride);
		if (rc)
			return rc;
	}
	*out = t;
	return 0;
}

int uncore_topology_cpu_of(const struct uncore_cpu_topology *t, unsigned package_id)
{
	for (unsigned i = 0; i < t->nsockets; i++)
		if (t->socket[i].package_id == package_id)
			return t->socket[i].cpu;
	return -1;
}

size_t uncore_topology_cpu_map(const struct uncore_cpu_topology *t, int *map, size_t nmap)
{
	size_t need = t->nsockets ? t->socket[t->nsockets - 1].package_id + 1u : 0;
	for (size_t p = 0; p < nmap; p++)
		map[p] = -1;
	for (unsigned i = 0; i < t->nsockets; i++)
		if (t->socket[i].package_id < nmap)
			map[t->socket[i].package_id] = t->socket[i].cpu;
	return need;
}

int uncore_topology_parse_override(const char *text, int *cpus, size_t max, size_t *n)
{
	const char *p = text;
	size_t k = 0;
	while (*p) {
		unsigned v;
		while (*p == ' ')
			p++;
		if (parse_uint(&p, &v))
			return uncore_fail(
			    UNCORE_ESYNTAX,
			    "bad CPU override \"%.60s\": want CPUs like \"0,18\", one "
			    "per socket in package order",
			    text);
		if (k == max)
			return uncore_fail(UNCORE_ENOSPACE,
					   "CPU override \"%.60s\" lists more than %zu CPUs", text,
					   max);
		cpus[k++] = (int)v;
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
		else if (*p)
			return uncore_fail(UNCORE_ESYNTAX,
					   "bad CPU override \"%.60s\" near \"%.10s\"", text, p);
	}
	*n = k;
	return 0;
}
