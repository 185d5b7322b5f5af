/* Checks the Haswell-EP PMUs of a libpfm4 built with libpfm4-events/ applied
 * (the staged one): each PMU lists the number of events its table has and
 * passes libpfm4's own table validation; every row of a golden file
 * (event | ctl | filter0 | filter1 | result) encodes as the row says.
 * Run with LIBPFM_ENCODE_INACTIVE=1 (no Haswell-EP needed).
 *   libpfm4_hswep_check GOLDEN [PMU=NEVENTS ...]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

static int passed, failed;

static void result(int ok, const char *fmt, const char *what, const char *detail)
{
	printf("%s ", ok ? "PASS" : "FAIL");
	printf(fmt, what, detail);
	putchar('\n');
	if (ok)
		passed++;
	else
		failed++;
}

static const char *err_name(int ret)
{
	switch (ret) {
	case PFM_SUCCESS:
		return "OK";
	case PFM_ERR_NOTFOUND:
		return "ERR_NOTFOUND";
	case PFM_ERR_UMASK:
		return "ERR_UMASK";
	case PFM_ERR_ATTR:
		return "ERR_ATTR";
	case PFM_ERR_ATTR_VAL:
		return "ERR_ATTR_VAL";
	case PFM_ERR_FEATCOMB:
		return "ERR_FEATCOMB";
	default:
		return pfm_strerror(ret);
	}
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* One golden row; the encoding's register values printed as the file does. */
static void check_row(char *line, int lineno)
{
	char *f[5], *p = line, got[3][24], detail[512];
	pfm_pmu_encode_arg_t arg;
	int i, ret, ok;

	for (i = 0; i < 5; i++) {
		char *bar = strchr(p, '|');

		if (i < 4 && !bar) {
			snprintf(detail, sizeof(detail), "line %d has fewer than 5 fields", lineno);
			result(0, "golden %s: %s", "row", detail);
			return;
		}
		if (bar)
			*bar = '\0';
		f[i] = trim(p);
		p = bar ? bar + 1 : p + strlen(p);
	}
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(f[0], PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	for (i = 0; i < 3; i++)
		snprintf(got[i], sizeof(got[i]), "-");
	if (ret == PFM_SUCCESS) {
		for (i = 0; i < 3 && i < arg.count; i++)
			snprintf(got[i], sizeof(got[i]), "0x%" PRIx64, arg.codes[i]);
		free(arg.codes);
	}
	ok = strcmp(err_name(ret), f[4]) == 0;
	for (i = 0; ok && i < 3; i++) {
		if (strcmp(f[i + 1], "-") == 0 || strcmp(got[i], "-") == 0)
			ok = strcmp(f[i + 1], got[i]) == 0;
		else
			ok = strtoull(f[i + 1], NULL, 16) == strtoull(got[i], NULL, 16);
	}
	snprintf(detail, sizeof(detail), "(line %d) got %s | %s | %s | %s, want %s | %s | %s | %s",
		 lineno, got[0], got[1], got[2], err_name(ret), f[1], f[2], f[3], f[4]);
	result(ok, "golden %s %s", f[0], ok ? "" : detail);
}

static int check_pmus(int argc, char **argv)
{
	pfm_pmu_info_t info;
	pfm_pmu_t pmu;
	int i, seen = 0;
	char detail[256];

	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		int want, found = 0;

		if (!eq)
			continue;
		*eq = '\0';
		want = atoi(eq + 1);
		for (pmu = PFM_PMU_NONE; pmu < PFM_PMU_MAX; pmu++) {
			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (pfm_get_pmu_info(pmu, &info) != PFM_SUCCESS || !info.name ||
			    strcmp(info.name, argv[i]) != 0)
				continue;
			found = 1;
			seen++;
			snprintf(detail, sizeof(detail), "%d events listed, table has %d",
				 info.nevents, want);
			result(info.nevents == want, "%s: %s", argv[i], detail);
			result(pfm_pmu_validate(pmu, stdout) == PFM_SUCCESS, "%s: %s", argv[i],
			       "passes libpfm4's table validation");
		}
		if (!found)
			result(0, "%s: %s", argv[i], "not a PMU of this libpfm4");
	}
	return seen;
}

int main(int argc, char **argv)
{
	char line[1024];
	FILE *g;
	int lineno = 0, ret;

	if (argc < 2) {
		fprintf(stderr, "usage: %s GOLDEN [PMU=NEVENTS ...]\n", argv[0]);
		return 2;
	}
	ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		printf("FAIL pfm_initialize: %s\n", pfm_strerror(ret));
		return 1;
	}
	check_pmus(argc, argv);
	g = fopen(argv[1], "r");
	if (!g) {
		printf("FAIL cannot open golden file %s\n", argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), g)) {
		char *s = trim(line);

		lineno++;
		if (*s == '\0' || *s == '#')
			continue;
		check_row(s, lineno);
	}
	fclose(g);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
