/*
 * libpfm4_client_check.c: checks the client-uncore PMUs (Skylake client, Nehalem
 * guide events, Xeon 7100/7400 L3) through a libpfm4 built with our tables:
 * each PMU is registered, lists its events and passes pfm_pmu_validate(), and
 * every row of the golden files encodes as the row says.  Built and run by
 * test_libpfm4_client.sh with LIBPFM_ENCODE_INACTIVE=1; prints PASS/FAIL lines.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

/* the enable bit is not part of a golden control value (Nehalem / Skylake EN, bit 22) */
#define GOLDEN_EN_BIT (1ULL << 22)

static int failures;

static const struct {
	const char *name;
	int min_events;
} client_pmus[] = {
	{ "skl_unc_cbo0", 2 }, { "skl_unc_cbo1", 2 }, { "skl_unc_cbo2", 2 }, { "skl_unc_cbo3", 2 },
	{ "skl_unc_arb", 3 }, { "skl_unc_clock", 1 }, { "skl_unc_imc", 5 },
	{ "nhm_unc_guide", 34 },
	{ "x7100_unc_gbsq", 2 }, { "x7100_unc_gsnpq", 1 }, { "x7100_unc_fsb", 21 },
	{ "x7400_unc_gbsq", 2 }, { "x7400_unc_gsnpq", 1 }, { "x7400_unc_fsb", 21 },
};

static const struct {
	const char *name;
	int code;
} errors[] = {
	{ "PFM_ERR_NOTSUPP", PFM_ERR_NOTSUPP }, { "PFM_ERR_INVAL", PFM_ERR_INVAL },
	{ "PFM_ERR_NOINIT", PFM_ERR_NOINIT }, { "PFM_ERR_NOTFOUND", PFM_ERR_NOTFOUND },
	{ "PFM_ERR_FEATCOMB", PFM_ERR_FEATCOMB }, { "PFM_ERR_UMASK", PFM_ERR_UMASK },
	{ "PFM_ERR_NOMEM", PFM_ERR_NOMEM }, { "PFM_ERR_ATTR", PFM_ERR_ATTR },
	{ "PFM_ERR_ATTR_VAL", PFM_ERR_ATTR_VAL }, { "PFM_ERR_ATTR_SET", PFM_ERR_ATTR_SET },
	{ "PFM_ERR_TOOMANY", PFM_ERR_TOOMANY }, { "PFM_ERR_TOOSMALL", PFM_ERR_TOOSMALL },
};

static void
result(int ok, const char *fmt, const char *a, const char *b)
{
	printf("%s ", ok ? "PASS" : "FAIL");
	printf(fmt, a, b);
	printf("\n");
	if (!ok)
		failures++;
}

static int
find_pmu(const char *name, pfm_pmu_info_t *info)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		memset(info, 0, sizeof(*info));
		info->size = sizeof(*info);
		if (pfm_get_pmu_info(p, info) == PFM_SUCCESS && info->name && !strcmp(info->name, name))
			return 1;
	}
	return 0;
}

static void
check_pmus(void)
{
	char msg[160];
	size_t i;

	for (i = 0; i < sizeof(client_pmus) / sizeof(client_pmus[0]); i++) {
		pfm_pmu_info_t info;
		pfm_event_info_t ev;
		int idx, n = 0, ret;

		if (!find_pmu(client_pmus[i].name, &info)) {
			result(0, "pmu %s%s: not registered in this libpfm4", client_pmus[i].name, "");
			continue;
		}
		for (idx = info.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			memset(&ev, 0, sizeof(ev));
			ev.size = sizeof(ev);
			if (pfm_get_event_info(idx, PFM_OS_NONE, &ev) == PFM_SUCCESS && ev.pmu == info.pmu)
				n++;
		}
		snprintf(msg, sizeof(msg), ": %d events listed (table has %d, want >= %d)", n, info.nevents,
			 client_pmus[i].min_events);
		result(n == info.nevents && n >= client_pmus[i].min_events, "list %s%s", info.name, msg);
		ret = pfm_pmu_validate(info.pmu, stdout);
		result(ret == PFM_SUCCESS, "validate %s%s", info.name, ret == PFM_SUCCESS ? "" : ": see above");
	}
}

static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int
error_code(const char *name, int *code)
{
	size_t i;

	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (!strcmp(errors[i].name, name)) {
			*code = errors[i].code;
			return 1;
		}
	return 0;
}

/* expected register value or '-' (no such register); returns 0 on a malformed cell */
static int
parse_value(const char *cell, int *present, uint64_t *val)
{
	char *end;

	*present = strcmp(cell, "-") != 0;
	if (!*present)
		return 1;
	*val = strtoull(cell, &end, 16);
	return *end == '\0';
}

static void
check_row(const char *where, char *line)
{
	char *cell[5], *p = line, msg[512];
	uint64_t codes[4] = { 0 }, want[3] = { 0 };
	int present[3], i, n = 0, ret, want_err = 0;
	pfm_pmu_encode_arg_t arg;

	while (n < 5 && (cell[n] = strsep(&p, "|")) != NULL) {
		cell[n] = trim(cell[n]);
		n++;
	}
	if (n != 5 || p) {
		result(0, "%s: malformed golden row%s", where, "");
		return;
	}
	for (i = 0; i < 3; i++)
		if (!parse_value(cell[1 + i], &present[i], &want[i])) {
			result(0, "%s: malformed value in golden row%s", where, "");
			return;
		}
	if (strcmp(cell[4], "OK") && !error_code(cell[4], &want_err)) {
		result(0, "%s: unknown expected error %s", where, cell[4]);
		return;
	}

	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.codes = codes;
	arg.count = 4;
	ret = pfm_get_os_event_encoding(cell[0], PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);

	if (want_err) {
		snprintf(msg, sizeof(msg), "%s: want %s, got %s (%d)", cell[0], cell[4],
			 ret ? pfm_strerror(ret) : "success", ret);
		result(ret == want_err, "%s %s", where, msg);
		return;
	}
	if (ret != PFM_SUCCESS) {
		snprintf(msg, sizeof(msg), "%s: want success, got %s", cell[0], pfm_strerror(ret));
		result(0, "%s %s", where, msg);
		return;
	}
	{
		uint64_t ctl = codes[0] & ~GOLDEN_EN_BIT;
		int ok = present[0] && ctl == want[0];

		ok = ok && (present[1] ? arg.count >= 2 && codes[1] == want[1] : arg.count < 2);
		ok = ok && (present[2] ? arg.count >= 3 && codes[2] == want[2] : arg.count < 3);
		snprintf(msg, sizeof(msg), "%s: control 0x%" PRIx64 " (want %s), %d codes, filter0 0x%" PRIx64
			 " (want %s), filter1 0x%" PRIx64 " (want %s)", cell[0], ctl, cell[1], arg.count,
			 codes[1], cell[2], codes[2], cell[3]);
		result(ok, "%s %s", where, msg);
	}
	free(arg.fstr);
}

static void
check_golden(const char *path)
{
	char line[1024], where[256];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	FILE *fp = fopen(path, "r");
	int no = 0, rows = 0;

	if (!fp) {
		result(0, "golden %s: cannot open%s", path, "");
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *t = trim(line);

		no++;
		if (!*t || *t == '#')
			continue;
		snprintf(where, sizeof(where), "golden %s:%d", base, no);
		check_row(where, t);
		rows++;
	}
	fclose(fp);
	result(rows > 0, "golden %s%s: has rows", base, "");
}

int
main(int argc, char **argv)
{
	int i, ret;

	ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		printf("FAIL pfm_initialize: %s\n", pfm_strerror(ret));
		return 1;
	}
	check_pmus();
	for (i = 1; i < argc; i++)
		check_golden(argv[i]);
	printf("%d failed\n", failures);
	return failures ? 1 : 0;
}
