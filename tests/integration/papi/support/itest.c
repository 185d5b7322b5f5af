/* Helpers of the integration test programs (see itest.h). */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/uncore_error.h"
#include "papi.h"

/* The machines this process made, removed at its exit if the program did
 * not (an early return, exit()): nothing is left in /dev/shm.  A forked
 * child leaves its parent's alone. */
#define ITEST_MAX_MACHINES 16
static char made[ITEST_MAX_MACHINES][256];
static unsigned nmade;
static pid_t maker;

static void remove_made(void)
{
	if (getpid() != maker)
		return;
	for (unsigned i = 0; i < nmade; i++) {
		char locks[300];
		struct uncore_sim *sim;
		if (uncore_sim_open(made[i], &sim) == 0) {
			uncore_sim_destroy(sim); /* the file and its lock directory */
			continue;
		}
		snprintf(locks, sizeof(locks), "%s.locks", made[i]);
		unlink(made[i]);
		rmdir(locks);
	}
}

int itest_sim_create(const char *model, struct itest_sim *s)
{
	static unsigned serial;
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s/papi-itest-%ld-%u", dir, (long)getpid(), serial++);
	unlink(s->path);
	if (nmade < ITEST_MAX_MACHINES) {
		if (nmade == 0) {
			maker = getpid();
			atexit(remove_made);
		}
		snprintf(made[nmade++], sizeof(made[0]), "%s", s->path);
	}
	int rc = uncore_sim_create(model, s->path, &s->sim);
	if (rc == 0)
		rc = uncore_sim_topology(s->sim, &s->topo);
	if (rc < 0) {
		printf("cannot create simulated %s in %s: %s: %s\n", model, s->path,
		       uncore_strerror(rc), uncore_error_detail());
		return -1;
	}
	setenv("PAPI_INTEL_UNCORE_BACKEND", "sim", 1);
	setenv("PAPI_INTEL_UNCORE_SIM", s->path, 1);
	unsetenv("PAPI_INTEL_UNCORE_SIM_SCENARIO");
	unsetenv("PAPI_INTEL_UNCORE_SIM_LOG");
	return 0;
}

void itest_sim_destroy(struct itest_sim *s)
{
	if (s->sim)
		uncore_sim_destroy(s->sim);
	s->sim = NULL;
}

const char *itest_scenario(const char *file)
{
	static char path[1024];
	const char *srcdir = getenv("SRCDIR");
	if (srcdir && *srcdir) {
		snprintf(path, sizeof(path), "%s/src/sim/scenarios/%s", srcdir, file);
		return path;
	}
	/* This file is tests/integration/papi/support/itest.c under the source root. */
	snprintf(path, sizeof(path), "%s", __FILE__);
	char *p = strstr(path, "tests/integration/papi/support/");
	if (p)
		snprintf(p, sizeof(path) - (size_t)(p - path), "src/sim/scenarios/%s", file);
	return path;
}

int itest_load(struct itest_sim *s, const char *file)
{
	int rc = uncore_sim_load_scenario(s->sim, itest_scenario(file));
	if (rc < 0) {
		printf("cannot load %s: %s: %s\n", itest_scenario(file), uncore_strerror(rc),
		       uncore_error_detail());
		return -1;
	}
	return 0;
}

uint64_t itest_now(struct itest_sim *s)
{
	uint64_t ns = 0;
	uncore_sim_now(s->sim, &ns);
	return ns;
}

uint64_t itest_cycles(uint64_t ns, uint64_t hz)
{
	return (uint64_t)((unsigned __int128)ns * hz / 1000000000u);
}

int itest_papi_init(void)
{
	int rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT) {
		printf("PAPI_library_init: %s\n", PAPI_strerror(rc));
		return -1;
	}
	int cidx = PAPI_get_component_index("intel_uncore");
	const PAPI_component_info_t *ci = cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
	if (!ci) {
		printf("PAPI has no intel_uncore component\n");
		return -1;
	}
	if (ci->disabled) {
		printf("intel_uncore is disabled: %s\n", ci->disabled_reason);
		return -1;
	}
	return cidx;
}

int itest_count(struct itest_sim *s, const char *const *names, int n, uint64_t ns,
		long long *values)
{
	int es = PAPI_NULL, rc = PAPI_create_eventset(&es);
	const char *step = "PAPI_create_eventset", *what = "";
	for (int i = 0; rc == PAPI_OK && i < n; i++) {
		rc = PAPI_add_named_event(es, names[i]);
		step = "PAPI_add_named_event";
		what = names[i];
	}
	if (rc == PAPI_OK) {
		step = "PAPI_start";
		rc = PAPI_start(es);
	}
	if (rc == PAPI_OK) {
		step = "uncore_sim_advance";
		rc = uncore_sim_advance(s->sim, ns) == 0 ? PAPI_OK : PAPI_ESYS;
	}
	if (rc == PAPI_OK) {
		step = "PAPI_read";
		rc = PAPI_read(es, values);
	}
	if (rc == PAPI_OK) {
		long long end[64];
		step = "PAPI_stop";
		rc = PAPI_stop(es, n <= 64 ? end : NULL);
	} else {
		PAPI_stop(es, NULL);
	}
	if (rc != PAPI_OK)
		printf("  %s %s: %s\n", step, what, PAPI_strerror(rc));
	if (es != PAPI_NULL) {
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	return rc;
}

long itest_file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

/* The text value of "key" in a flat JSON object line: a string's contents
 * or a bare number; 0 when absent. */
static int field(const char *line, const char *key, char *out, size_t len)
{
	char pat[32];
	snprintf(pat, sizeof(pat), "\"%s\":", key);
	const char *p = strstr(line, pat);
	if (!p)
		return 0;
	p += strlen(pat);
	int quoted = *p == '"';
	p += quoted;
	size_t n = 0;
	while (p[n] && p[n] != (quoted ? '"' : ',') && p[n] != '}' && n + 1 < len)
		n++;
	memcpy(out, p, n);
	out[n] = '\0';
	return 1;
}

static int parse_line(const char *line, struct itest_access *a)
{
	char v[64];
	memset(a, 0, sizeof(*a));
	snprintf(a->line, sizeof(a->line), "%s", line);
	a->line[strcspn(a->line, "\n")] = '\0';
	if (!field(line, "op", v, sizeof(v)) || (strcmp(v, "rd") && strcmp(v, "wr")))
		return -1;
	a->op = v[0] == 'w' ? 'w' : 'r';
	if (!field(line, "socket", v, sizeof(v)))
		return -1;
	a->socket = atoi(v);
	if (!field(line, "space", v, sizeof(v)))
		return -1;
	a->space = v[0] == 'm' && v[1] == 's' ? 'm' : v[0] == 'p' ? 'p' : 'x';
	if (a->space == 'p') {
		unsigned bus, dev, fn;
		if (!field(line, "bdf", v, sizeof(v)) ||
		    sscanf(v, "%x:%x.%x", &bus, &dev, &fn) != 3 ||
		    !field(line, "offset", v, sizeof(v)))
			return -1;
		a->bdf = UNCORE_BDF(bus, dev, fn);
		a->addr = strtoull(v, NULL, 0);
	} else {
		if (!field(line, "addr", v, sizeof(v)))
			return -1;
		a->addr = strtoull(v, NULL, 0);
	}
	if (field(line, "value", v, sizeof(v)))
		a->value = strtoull(v, NULL, 0);
	if (!field(line, "result", v, sizeof(v)))
		return -1;
	a->result = atoi(v);
	return 0;
}

int itest_log_read(const char *path, long *pos, struct itest_access **out, size_t *n)
{
	FILE *f = fopen(path, "r");
	*out = NULL;
	*n = 0;
	if (!f)
		return 0; /* nothing logged yet */
	if (fseek(f, *pos, SEEK_SET) != 0) {
		fclose(f);
		return -1;
	}
	size_t cap = 0;
	char line[512];
	int rc = 0;
	while (fgets(line, sizeof(line), f)) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			struct itest_access *na = realloc(*out, cap * sizeof(**out));
			if (!na) {
				rc = -1;
				break;
			}
			*out = na;
		}
		if (parse_line(line, &(*out)[*n]) != 0) {
			printf("  unparsable audit log line: %s", line);
			rc = -1;
			break;
		}
		(*n)++;
	}
	*pos = ftell(f);
	fclose(f);
	return rc;
}
