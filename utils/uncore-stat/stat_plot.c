/* SVG pictures of interval runs (see stat_plot.h). */
#include "stat_plot.h"

#include "stat_units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_MAX_SERIES 256

struct point {
	double at;   /* end of the interval, seconds since the start */
	double span; /* its length in seconds */
	double v[STAT_MAX_SOCKETS];
	double total; /* the node: events and rates summed, other metrics the component's total */
};

struct series {
	char name[160];
	char units[64];
	int bytes; /* an event whose counts move bytes: values in bytes/s, drawn in
		    * the decimal prefix that fits the panel (kB/s ... TB/s) */
	unsigned npts, cap;
	struct point *pts;
};

struct stat_plot {
	char origin[256];
	char command[512];
	int simulated;
	unsigned nsockets;
	unsigned n;
	struct series *s[PLOT_MAX_SERIES];
};

/* One colour per socket, far apart for the eye and for the pixel test. */
static const char *const socket_colour[STAT_MAX_SOCKETS] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

struct stat_plot *stat_plot_new(void)
{
	return calloc(1, sizeof(struct stat_plot));
}

void stat_plot_free(struct stat_plot *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->n; i++) {
		free(p->s[i]->pts);
		free(p->s[i]);
	}
	free(p);
}

static struct series *series_get(struct stat_plot *p, const char *name, const char *units,
				 int bytes)
{
	for (unsigned i = 0; i < p->n; i++)
		if (strcmp(p->s[i]->name, name) == 0)
			return p->s[i];
	if (p->n >= PLOT_MAX_SERIES)
		return NULL;
	struct series *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->units, sizeof(s->units), "%s", units);
	s->bytes = bytes;
	p->s[p->n++] = s;
	return s;
}

/* The point of the interval ending at `at` (appended when new). */
static struct point *point_at(struct series *s, double at, double span)
{
	if (s->npts && fabs(s->pts[s->npts - 1].at - at) < 1e-9)
		return &s->pts[s->npts - 1];
	if (s->npts == s->cap) {
		unsigned cap = s->cap ? 2 * s->cap : 64;
		struct point *n = realloc(s->pts, cap * sizeof(*n));
		if (!n)
			return NULL;
		s->pts = n;
		s->cap = cap;
	}
	struct point *pt = &s->pts[s->npts++];
	pt->at = at;
	pt->span = span;
	for (unsigned k = 0; k < STAT_MAX_SOCKETS; k++)
		pt->v[k] = NAN;
	pt->total = NAN;
	return pt;
}

void stat_plot_add(struct stat_plot *p, const struct stat_report *r)
{
	if (r->final || r->seconds <= 0)
		return;
	snprintf(p->origin, sizeof(p->origin), "%s", r->origin ? r->origin : "");
	if (r->command)
		snprintf(p->command, sizeof(p->command), "%s", r->command);
	p->simulated = r->simulated;
	p->nsockets = r->nsockets < STAT_MAX_SOCKETS ? r->nsockets : STAT_MAX_SOCKETS;
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct stat_row *row = &r->rows[i];
		double per = stat_event_bytes(row->name);
		struct series *s = series_get(p, row->name, "events/s", per > 0);
		struct point *pt = s ? point_at(s, r->at, r->seconds) : NULL;
		if (per <= 0)
			per = 1;
		for (unsigned k = 0; pt && k < p->nsockets; k++)
			if (row->sockets & (1u << k))
				pt->v[k] = (double)row->count[k] * per / r->seconds;
		if (pt)
			pt->total = (double)row->total * per / r->seconds;
	}
	for (unsigned g = 0; g < r->ngroups; g++)
		for (unsigned i = 0; i < r->groups[g].n; i++) {
			const struct stat_metric_row *m = &r->mrows[r->groups[g].row[i]];
			struct series *s = series_get(p, m->name, m->units, 0);
			struct point *pt = s ? point_at(s, r->at, r->seconds) : NULL;
			for (unsigned k = 0; pt && k < p->nsockets; k++)
				pt->v[k] = m->value[k];
			if (pt)
				pt->total = m->total;
		}
}

/* Split a CSV line in place (quoted fields with doubled quotes). */
static unsigned csv_split(char *line, char **field, unsigned max)
{
	unsigned n = 0;
	char *r = line, *w = line;
	while (n < max) {
		field[n++] = w;
		if (*r == '"') {
			for (r++; *r; r++) {
				if (*r == '"' && r[1] != '"') {
					r++;
					break;
				}
				if (*r == '"')
					r++; /* a doubled quote is one quote */
				*w++ = *r;
			}
		}
		while (*r && *r != ',' && *r != '\n' && *r != '\r')
			*w++ = *r++;
		int more = *r == ',';
		*w++ = '\0';
		if (!more)
			break;
		r++;
	}
	return n;
}

static int number(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end != s && *end == '\0' && errno == 0 ? 0 : -1;
}

int stat_plot_read_csv(struct stat_plot *p, FILE *f, char *err, size_t len)
{
	char line[4096], *fl[16];
	unsigned lineno = 0, rows = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#') {
			if (!p->origin[0] && strncmp(line, "# times", 7) != 0) {
				line[strcspn(line, "\r\n")] = '\0';
				snprintf(p->origin, sizeof(p->origin), "%.255s", line + 2);
				p->simulated |= strstr(line, "SIMULATED") != NULL;
			}
			continue;
		}
		/* kind,time_s,seconds,type,group,name,socket,value,units,simulated,partial */
		unsigned n = csv_split(line, fl, sizeof(fl) / sizeof(fl[0]));
		double at, span, v;
		unsigned sock;
		if (strcmp(fl[0], "kind") == 0 || strcmp(fl[0], "total") == 0)
			continue; /* the header; the run's total is not a point in time */
		if (strcmp(fl[0], "interval") != 0 || n < 11 || number(fl[1], &at) < 0 ||
		    number(fl[2], &span) < 0 || span <= 0 ||
		    (strcmp(fl[3], "event") != 0 && strcmp(fl[3], "metric") != 0)) {
			snprintf(err, len,
				 "line %u: not a row of uncore-stat -I --csv (kind,time_s,seconds,"
				 "type,group,name,socket,value,units,simulated,partial)",
				 lineno);
			return -1;
		}
		p->simulated |= strcmp(fl[9], "1") == 0;
		int all = strcmp(fl[6], "all") == 0;
		if (!all && (sscanf(fl[6], "%u", &sock) != 1 || sock >= STAT_MAX_SOCKETS))
			continue;
		if (!all && sock + 1 > p->nsockets)
			p->nsockets = sock + 1;
		int event = strcmp(fl[3], "event") == 0;
		double per = event ? stat_event_bytes(fl[5]) : 0;
		struct series *s = series_get(p, fl[5], event ? "events/s" : fl[8], per > 0);
		struct point *pt = s ? point_at(s, at, span) : NULL;
		if (!pt) {
			snprintf(err, len, "out of memory");
			return -1;
		}
		if (number(fl[7], &v) < 0)
			v = NAN;
		if (per > 0)
			v *= per;
		if (all)
			pt->total = event ? v / span : v;
		else
			pt->v[sock] = event ? v / span : v;
		rows++;
	}
	if (rows == 0) {
		snprintf(err, len, "no interval rows: save the run with -I MS --csv");
		return -1;
	}
	return 0;
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
}

/* A round tick step near range/5: 1, 2 or 5 times a power of ten. */
static double tick_step(double range)
{
	double raw = range / 5, mag = pow(10, floor(log10(raw)));
	double r = raw / mag;
	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

/* A tick label: 1.6 G rather than 1.6e+09 (k, M, G, T: powers of 10^3),
 * in the prefix of the panel's largest value `top`. */
static void tick_label(char *buf, size_t len, double v, double step, double top)
{
	static const char prefix[] = " kMGT";
	double scale = 1;
	unsigned p = 0;
	if (fabs(v) < step / 1e6)
		v = 0;
	while (p + 1 < sizeof(prefix) - 1 && fabs(top) >= 1000 * scale) {
		scale *= 1000;
		p++;
	}
	if (p == 0)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "%.4g %c", v / scale, prefix[p]);
}

/* The node's line: dark, thin, drawn over the sockets'. */
static const char NODE_COLOUR[] = "#222222";

enum { WIDTH = 960, HEAD = 96, PANEL = 230, LEFT = 96, RIGHT = 24, TOP = 34, BOTTOM = 42 };

struct frame {
	double x0, x1, y0, y1; /* pixel box */
	double tmax, vmin, vmax; /* vmin, vmax in the panel's unit */
	double div;              /* a value over div is in the panel's unit */
};

static double px(const struct frame *fr, double t)
{
	return fr->x0 + (fr->x1 - fr->x0) * t / fr->tmax;
}

/* y of a value already in the panel's unit. */
static double py_unit(const struct frame *fr, double v)
{
	return fr->y1 - (fr->y1 - fr->y0) * (v - fr->vmin) / (fr->vmax - fr->vmin);
}

/* y of a value as recorded. */
static double py(const struct frame *fr, double v)
{
	return py_unit(fr, v / fr->div);
}

/* Sockets often run the same traffic: lower sockets are drawn wider, under
 * the higher ones, so every socket's colour stays visible on a shared line. */
static unsigned line_width(unsigned k, unsigned nsockets)
{
	return 3 + 3 * (nsockets - 1 - k);
}

/* One socket's values as steps: each interval a flat line over its span.
 * The points [from, to) are drawn with one path. */
static void steps(FILE *f, const struct frame *fr, const struct series *s, unsigned k,
		  unsigned nsockets, unsigned from, unsigned to, const char *extra)
{
	int pen = 0, node = k == STAT_MAX_SOCKETS; /* the node's total */
	fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%u\"%s d=\"",
		node ? NODE_COLOUR : socket_colour[k], node ? 2 : line_width(k, nsockets), extra);
	for (unsigned i = from; i < to; i++) {
		const struct point *pt = &s->pts[i];
		double v = node ? pt->total : pt->v[k];
		if (!isfinite(v)) {
			pen = 0;
			continue;
		}
		double y = py(fr, v);
		if (!pen)
			fprintf(f, "M%.1f %.1f", px(fr, pt->at - pt->span), y);
		else
			fprintf(f, "V%.1f", y);
		fprintf(f, "H%.1f", px(fr, pt->at));
		pen = 1;
	}
	fprintf(f, "\"/>\n");
}

static void panel(FILE *f, const struct stat_plot *p, const struct series *s, double top,
		  double tmax, double interval_s)
{
	struct frame fr = {.x0 = LEFT,
			   .x1 = WIDTH - RIGHT,
			   .y0 = top + TOP,
			   .y1 = top + PANEL - BOTTOM,
			   .tmax = tmax,
			   .div = 1};
	double lo = INFINITY, hi = -INFINITY;
	for (unsigned i = 0; i < s->npts; i++) {
		for (unsigned k = 0; k < p->nsockets; k++)
			if (isfinite(s->pts[i].v[k])) {
				lo = fmin(lo, s->pts[i].v[k]);
				hi = fmax(hi, s->pts[i].v[k]);
			}
		if (isfinite(s->pts[i].total)) {
			lo = fmin(lo, s->pts[i].total);
			hi = fmax(hi, s->pts[i].total);
		}
	}
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	}
	lo = fmin(lo, 0);
	/* Bytes in the decimal prefix of the panel's largest value (GB = 10^9
	 * bytes, as everywhere in this project), so ticks read 1.6 GB/s. */
	static const char *const byte_units[] = {"bytes/s", "kB/s", "MB/s", "GB/s", "TB/s"};
	const char *units = s->units[0] ? s->units : "value";
	if (s->bytes) {
		unsigned u = 0;
		while (u + 1 < sizeof(byte_units) / sizeof(byte_units[0]) &&
		       fmax(fabs(lo), fabs(hi)) >= 1000 * fr.div) {
			fr.div *= 1000;
			u++;
		}
		units = byte_units[u];
		lo /= fr.div;
		hi /= fr.div;
	}
	if (hi <= lo)
		hi = lo + 1;
	double step = tick_step(hi - lo);
	fr.vmin = floor(lo / step) * step;
	fr.vmax = ceil(hi * 1.05 / step) * step;

	fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"15\" font-weight=\"bold\">", LEFT,
		top + 20);
	xml_text(f, s->name);
	fprintf(f, " <tspan font-weight=\"normal\" fill=\"#444\">[");
	xml_text(f, units);
	fprintf(f, "]</tspan></text>\n");
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#888\"/>\n",
		fr.x0, fr.y0, fr.x1 - fr.x0, fr.y1 - fr.y0);
	for (double v = fr.vmin; v <= fr.vmax + step / 2; v += step) {
		double y = py_unit(&fr, v);
		char label[32];
		tick_label(label, sizeof(label), v, step, fmax(fabs(fr.vmin), fabs(fr.vmax)));
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
			"text-anchor=\"end\">%s</text>\n",
			fr.x0, y, fr.x1, y, fr.x0 - 6, y + 4, label);
	}
	double tstep = tick_step(tmax);
	for (double t = 0; t <= tmax + tstep / 1e6; t += tstep)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
			"text-anchor=\"middle\">%.4g</text>\n",
			px(&fr, t), fr.y1 + 16, t);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">time "
		"(s)</text>\n",
		(fr.x0 + fr.x1) / 2, fr.y1 + 34);

	/* A last interval clearly shorter than the others: dashed, labelled,
	 * so its value is not taken for a dip. */
	unsigned n = s->npts;
	int short_last = n > 1 && s->pts[n - 1].span < 0.75 * interval_s;
	/* The node's line where it differs from a socket's: two sockets or more. */
	unsigned counted = 0;
	for (unsigned k = 0; k < p->nsockets; k++)
		for (unsigned i = 0; i < n; i++)
			if (isfinite(s->pts[i].v[k])) {
				counted++;
				break;
			}
	for (unsigned k = 0; k <= p->nsockets; k++) {
		unsigned line = k == p->nsockets ? STAT_MAX_SOCKETS : k; /* the node last, on top */
		if (line == STAT_MAX_SOCKETS && counted < 2)
			break;
		steps(f, &fr, s, line, p->nsockets, 0, short_last ? n - 1 : n, "");
		if (short_last)
			steps(f, &fr, s, line, p->nsockets, n - 1, n,
			      " stroke-dasharray=\"6 4\" opacity=\"0.8\"");
	}
	if (short_last)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" "
			"fill=\"#444\">last interval short (%.0f ms of %.0f), dashed</text>\n",
			fr.x1 - 4, fr.y0 + 14, s->pts[n - 1].span * 1000, interval_s * 1000);
}

int stat_plot_write(const struct stat_plot *p, const char *path, double interval_s, char *err,
		    size_t len)
{
	double tmax = 0, longest = 0;
	unsigned used = 0;
	for (unsigned i = 0; i < p->n; i++)
		if (p->s[i]->npts) {
			used++;
			for (unsigned j = 0; j < p->s[i]->npts; j++) {
				tmax = fmax(tmax, p->s[i]->pts[j].at);
				longest = fmax(longest, p->s[i]->pts[j].span);
			}
		}
	if (!used || tmax <= 0) {
		snprintf(err, len,
			 "nothing to plot: no interval was measured (a run shorter than -I?)");
		return -1;
	}
	if (interval_s <= 0)
		interval_s = longest;
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, len, "cannot write the plot %s: %s", path, strerror(errno));
		return -1;
	}
	int height = HEAD + (int)used * PANEL;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		WIDTH, height, WIDTH, height);
	fprintf(f, "<text x=\"16\" y=\"26\" font-size=\"18\" font-weight=\"bold\">uncore-stat");
	if (p->command[0]) {
		fprintf(f, ": ");
		xml_text(f, p->command);
	}
	fprintf(f, "</text>\n<text x=\"16\" y=\"48\" font-size=\"12\" fill=\"#333\">");
	xml_text(f, p->origin[0] ? p->origin : "Intel uncore");
	fprintf(f, "</text>\n");
	if (p->simulated)
		fprintf(f,
			"<text x=\"%d\" y=\"26\" font-size=\"18\" font-weight=\"bold\" "
			"fill=\"#b00\" text-anchor=\"end\">SIMULATED</text>\n",
			WIDTH - RIGHT);
	for (unsigned k = 0; k < p->nsockets; k++) {
		double x = 16 + 120.0 * k;
		fprintf(f,
			"<line x1=\"%.0f\" y1=\"72\" x2=\"%.0f\" y2=\"72\" stroke=\"%s\" "
			"stroke-width=\"%u\"/><text x=\"%.0f\" y=\"77\" font-size=\"13\">socket "
			"%u</text>\n",
			x, x + 28, socket_colour[k], line_width(k, p->nsockets), x + 34, k);
	}
	fprintf(f,
		"<line x1=\"%.0f\" y1=\"72\" x2=\"%.0f\" y2=\"72\" stroke=\"%s\" "
		"stroke-width=\"2\"/><text x=\"%.0f\" y=\"77\" font-size=\"13\">node</text>\n",
		16 + 120.0 * p->nsockets, 16 + 120.0 * p->nsockets + 28, NODE_COLOUR,
		16 + 120.0 * p->nsockets + 34);
	fprintf(f,
		"<text x=\"%d\" y=\"77\" font-size=\"12\" fill=\"#444\" text-anchor=\"end\">every "
		"%.0f ms; events per second, or in bytes/s where a count moves bytes "
		"(k, M, G: 10^3, 10^6, 10^9)</text>\n",
		WIDTH - RIGHT, interval_s * 1000);
	unsigned row = 0;
	for (unsigned i = 0; i < p->n; i++)
		if (p->s[i]->npts)
			panel(f, p, p->s[i], HEAD + (double)row++ * PANEL, tmax, interval_s);
	fprintf(f, "</svg>\n");
	if (fclose(f) != 0) {
		snprintf(err, len, "cannot write the plot %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
