/* Command-line parsing of uncore-stat (see stat_opts.h). */
#include "stat_opts.h"

#include "common/uncore_error.h"
#include "events/spelling.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void stat_usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: uncore-stat {-e EVENT[,EVENT...] | -g GROUP}... [options] [--] [CMD "
	    "[ARGS...]]\n"
	    "Count Intel uncore events through PAPI (component intel_uncore) while CMD runs,\n"
	    "or for -t SECONDS, or until Ctrl-C; print them per socket and in total.\n"
	    "\n"
	    "  -e, --events LIST     events, comma-separated; repeatable (papi_native_avail lists\n"
	    "                        them: hswep_unc_imc::UNC_M_CAS_COUNT:RD).  An event without\n"
	    "                        :socket= or :cpu= is shown per socket and in total\n"
	    "  -t, --time SECONDS    without CMD: measure this long (default: until SIGINT)\n"
	    "  -I, --interval MS     also print the counts of every MS milliseconds\n"
	    "      --csv             CSV, one value a row: kind,time_s,seconds,type,group,name,\n"
	    "                        socket,value,units,simulated,partial\n"
	    "      --json            one JSON object per report (JSON lines)\n"
	    "  -o, --output FILE     write the report to FILE ('-': stdout; default stderr)\n"
	    "      --no-per-socket   count each event as given, without per-socket columns\n"
	    "      --explain         print, per event, the box instances, counters, register\n"
	    "                        addresses and values each backend would program; count "
	    "nothing\n"
	    "      --sim             use the uncore simulator (PAPI_INTEL_UNCORE_BACKEND=sim)\n"
	    "      --sim-model M     simulator model (uncore-sim models) or shared instance path\n"
	    "      --sim-scenario S  scenario: a built-in name (stream, llc, qpi-remote, idle,\n"
	    "                        pcie-io, boxes, demo-stream), a file, or none\n"
	    "                        (default: demo-stream, STREAM-like traffic in real time)\n"
	    "      --sim-kernel K    a simulated kernel: perf (Haswell-EP through perf_event), or\n"
	    "                        a processor without our tables by the shape of its kernel\n"
	    "                        PMUs: spr (Sapphire Rapids), skx (Skylake-SP), icx\n"
	    "                        (Ice Lake-SP), gnr (Granite Rapids), emr (Emerald\n"
	    "                        Rapids), srf (Sierra Forest), gnr-old (Granite Rapids\n"
	    "                        on a kernel without the per-scheduler IMC events)\n"
	    "  -g, --group GROUP     a metric group (MEM, LLC, ...; any case), repeatable: each\n"
	    "                        metric per socket and node total, with units; -g list\n"
	    "                        shows the groups\n"

	    "      --plot FILE.svg   with -I: draw every event and metric per socket over\n"
	    "                        time (SVG, any browser); the report is printed as usual\n"
	    "      --plot-from CSV   with --plot: draw a CSV saved by -I --csv; count nothing\n"
	    "      --list-events     the component's event names, one a line (completion)\n"
	    "      --list-masks EVENT  EVENT's unit masks and qualifiers, one a line (completion)\n"
	    "      --version         the papi-uncore release\n"
	    "  -h, --help            this text\n"
	    "\n"
	    "Exit status: CMD's status (128+N if killed by signal N), 0 without CMD,\n"
	    "1 if counting failed, 2 for usage errors (bad options or events), 126/127 if\n"
	    "CMD cannot be run.\n");
}

static int usage_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int usage_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int add_event(struct stat_opts *o, const char *ev, char *err, size_t errlen)
{
	char spelled[1024];
	if (uncore_event_spelling(ev, spelled, sizeof(spelled)) < 0)
		return usage_error(err, errlen, "%s", uncore_error_detail());
	if (o->nevents >= STAT_MAX_EVENTS)
		return usage_error(err, errlen, "more than %d events", STAT_MAX_EVENTS);
	if (!(o->event_buf[o->nbufs] = strdup(spelled)))
		return usage_error(err, errlen, "out of memory");
	o->events[o->nevents++] = o->event_buf[o->nbufs++];
	return 0;
}

/* Split one -e argument at its commas into events, each in our spelling
 * (events/spelling.h): a comma inside perf's PMU/a=1,b=2/ or between raw
 * fields (uncore_upi::event=0x2,umask=0xf) stays inside its event. */
static int add_events(struct stat_opts *o, const char *arg, char *err, size_t errlen)
{
	size_t n = strlen(arg);
	char *ev = malloc(n + 1);
	if (!ev)
		return usage_error(err, errlen, "out of memory");
	size_t len = 0;
	int rc = 0;
	for (const char *p = arg;; p++) {
		while (*p == ' ')
			p++;
		size_t plen = strcspn(p, ",");
		char piece[plen + 1];
		memcpy(piece, p, plen);
		piece[plen] = '\0';
		if (len && uncore_event_list_continues(ev, piece)) {
			ev[len++] = ',';
		} else if (len) {
			if ((rc = add_event(o, ev, err, errlen)) < 0)
				break;
			len = 0;
		}
		memcpy(ev + len, piece, plen + 1);
		len += plen;
		p += plen;
		if (!*p) {
			if (len)
				rc = add_event(o, ev, err, errlen);
			break;
		}
	}
	free(ev);
	return rc;
}

static int parse_positive(const char *s, double *v)
{
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(x) || x <= 0)
		return -1;
	*v = x;
	return 0;
}

enum {
	OPT_CSV = 256,
	OPT_JSON,
	OPT_SIM,
	OPT_SIM_MODEL,
	OPT_SIM_SCENARIO,
	OPT_SIM_KERNEL,
	OPT_EXPLAIN,
	OPT_NO_EXPAND,
	OPT_PLOT,
	OPT_PLOT_FROM,
	OPT_VERSION,
	OPT_LIST_EVENTS,
	OPT_LIST_MASKS,
};

int stat_opts_parse(int argc, char **argv, struct stat_opts *o, char *err, size_t errlen)
{
	static const struct option longopts[] = {
	    {"events", required_argument, NULL, 'e'},
	    {"group", required_argument, NULL, 'g'},
	    {"time", required_argument, NULL, 't'},
	    {"interval", required_argument, NULL, 'I'},
	    {"output", required_argument, NULL, 'o'},
	    {"help", no_argument, NULL, 'h'},
	    {"csv", no_argument, NULL, OPT_CSV},
	    {"json", no_argument, NULL, OPT_JSON},
	    {"sim", no_argument, NULL, OPT_SIM},
	    {"sim-model", required_argument, NULL, OPT_SIM_MODEL},
	    {"sim-scenario", required_argument, NULL, OPT_SIM_SCENARIO},
	    {"sim-kernel", required_argument, NULL, OPT_SIM_KERNEL},
	    {"explain", no_argument, NULL, OPT_EXPLAIN},
	    {"no-per-socket", no_argument, NULL, OPT_NO_EXPAND},
	    {"plot", required_argument, NULL, OPT_PLOT},
	    {"plot-from", required_argument, NULL, OPT_PLOT_FROM},
	    {"version", no_argument, NULL, OPT_VERSION},
	    {"list-events", no_argument, NULL, OPT_LIST_EVENTS},
	    {"list-masks", required_argument, NULL, OPT_LIST_MASKS},
	    {NULL, 0, NULL, 0},
	};
	double v;
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	/* '+': stop at the command's name, so its own options stay its own. */
	while ((c = getopt_long(argc, argv, "+:e:g:t:I:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (add_events(o, optarg, err, errlen) < 0)
				return -1;
			break;
		case 'g':
			if (o->ngroups >= sizeof(o->groups) / sizeof(o->groups[0]))
				return usage_error(err, errlen, "too many -g options");
			o->groups[o->ngroups++] = optarg;
			break;
		case 't':
			if (parse_positive(optarg, &v) < 0)
				return usage_error(err, errlen,
						   "-t wants a positive number of seconds, "
						   "not '%s'",
						   optarg);
			o->seconds = v;
			break;
		case 'I':
			if (parse_positive(optarg, &v) < 0 || v < 10 || v > 86400000)
				return usage_error(err, errlen,
						   "-I wants milliseconds from 10 to "
						   "86400000, not '%s'",
						   optarg);
			o->interval_ms = (long)v;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			return 1;
		case OPT_CSV:
			o->format = STAT_CSV;
			break;
		case OPT_JSON:
			o->format = STAT_JSON;
			break;
		case OPT_SIM:
			o->sim = 1;
			break;
		case OPT_SIM_MODEL:
			o->sim_model = optarg;
			break;
		case OPT_SIM_KERNEL:
			o->sim_kernel = optarg;
			break;
		case OPT_SIM_SCENARIO:
			o->sim_scenario = optarg;
			break;
		case OPT_EXPLAIN:
			o->explain = 1;
			break;
		case OPT_NO_EXPAND:
			o->no_expand = 1;
			break;
		case OPT_PLOT:
			o->plot = optarg;
			break;
		case OPT_PLOT_FROM:
			o->plot_from = optarg;
			break;
		case OPT_VERSION:
			o->version = 1;
			return 1;
		case OPT_LIST_EVENTS:
			o->list_events = 1;
			break;
		case OPT_LIST_MASKS:
			o->list_events = 1;
			o->list_masks = optarg;
			break;
		case ':':
			return usage_error(err, errlen, "option %s needs a value",
					   argv[optind - 1]);
		default:
			return usage_error(err, errlen, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->argv = &argv[optind];
	if (o->list_events)
		return 0;
	if (o->plot_from) {
		if (!o->plot)
			return usage_error(
			    err, errlen,
			    "--plot-from FILE.csv needs --plot FILE.svg (where to draw)");
		return 0;
	}
	if (o->plot && !o->interval_ms)
		return usage_error(err, errlen,
				   "--plot draws intervals: give -I MS (--plot run.svg -I 100)");
	if (o->nevents == 0 && o->ngroups == 0)
		return usage_error(err, errlen,
				   "no events: name them with -e EVENT[,EVENT...] "
				   "(papi_native_avail lists them) or -g GROUP (-g list)");
	if ((o->sim_model || o->sim_scenario || o->sim_kernel) && !o->sim)
		return usage_error(err, errlen,
				   "--sim-model, --sim-scenario and --sim-kernel need --sim");
	if (o->argv && o->seconds > 0)
		return usage_error(err, errlen,
				   "-t measures an interval without a command; "
				   "with a command, the command's run is measured");
	return 0;
}

void stat_opts_free(struct stat_opts *o)
{
	for (unsigned i = 0; i < o->nbufs; i++)
		free(o->event_buf[i]);
	o->nbufs = 0;
	o->nevents = 0;
}
