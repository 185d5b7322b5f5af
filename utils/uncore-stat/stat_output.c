/* Text, CSV and JSON-lines reports (see stat_output.h). */
#include "stat_output.h"
#include "stat_plot.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

int stat_output_open(struct stat_output *out, enum stat_format format, const char *path)
{
	memset(out, 0, sizeof(*out));
	out->format = format;
	if (!path) {
		out->f = stderr;
	} else if (strcmp(path, "-") == 0) {
		out->f = stdout;
	} else {
		out->f = fopen(path, "w");
		if (!out->f) {
			fprintf(stderr, "uncore-stat: %s: %s\n", path, strerror(errno));
			return -1;
		}
		out->own = 1;
	}
	return 0;
}

void stat_output_close(struct stat_output *out)
{
	if (out->own && out->f)
		fclose(out->f);
	else if (out->f)
		fflush(out->f);
	out->f = NULL;
}

/* 1234567 -> "1,234,567" */
static const char *grouped(uint64_t v, char *buf, size_t len)
{
	char digits[32];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v);
	size_t o = 0;
	for (int i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

static size_t name_width(const struct stat_report *r)
{
	size_t w = 5;
	for (unsigned i = 0; i < r->nrows; i++)
		if (strlen(r->rows[i].name) > w)
			w = strlen(r->rows[i].name);
	return w;
}

static void text_header(struct stat_output *out, const struct stat_report *r)
{
	fprintf(out->f, "# uncore-stat: %s\n", r->origin);
	if (r->simulated)
		fprintf(out->f,
			"# SIMULATED: these counts come from the uncore simulator, not from "
			"hardware\n");
}

static void text_columns(struct stat_output *out, const struct stat_report *r, size_t w,
			 const char *lead)
{
	fprintf(out->f, "%s%-*s", lead, (int)w, "event");
	for (unsigned s = 0; s < r->nsockets; s++) {
		char h[24];
		snprintf(h, sizeof(h), "socket %u", s);
		fprintf(out->f, "  %15s", h);
	}
	fprintf(out->f, "  %17s  %15s\n", "total", "total/s");
}

static void text_row(struct stat_output *out, const struct stat_report *r,
		     const struct stat_row *row, size_t w, const char *lead)
{
	char buf[40];
	fprintf(out->f, "%s%-*s", lead, (int)w, row->name);
	for (unsigned s = 0; s < r->nsockets; s++)
		fprintf(out->f, "  %15s",
			row->sockets & (1u << s) ? grouped(row->count[s], buf, sizeof(buf)) : "-");
	fprintf(out->f, "  %17s", grouped(row->total, buf, sizeof(buf)));
	double rate = r->seconds > 0 ? (double)row->total / r->seconds : 0;
	fprintf(out->f, "  %15s\n", grouped((uint64_t)(rate + 0.5), buf, sizeof(buf)));
}

static void text_report(struct stat_output *out, const struct stat_report *r)
{
	size_t w = name_width(r);
	if (!out->header_done) {
		text_header(out, r);
		if (!r->final)
			text_columns(out, r, w, "#      time  ");
		out->header_done = 1;
	}
	if (!r->final) {
		char lead[32];
		snprintf(lead, sizeof(lead), "%12.3f%s ", r->at, r->partial ? "*" : " ");
		for (unsigned i = 0; i < r->nrows; i++)
			text_row(out, r, &r->rows[i], w, lead);
		return;
	}
	if (r->command)
		fprintf(out->f, "\n Uncore counts for '%s'%s:\n\n", r->command,
			r->simulated ? " (SIMULATED)" : "");
	else
		fprintf(out->f, "\n Uncore counts%s:\n\n", r->simulated ? " (SIMULATED)" : "");
	text_columns(out, r, w, "");
	for (unsigned i = 0; i < r->nrows; i++)
		text_row(out, r, &r->rows[i], w, "");
	if (out->partial_seen)
		fprintf(out->f,
			"\n * partial interval: the last %.6f s, shorter than -I (the run "
			"ended); its counts are of that span only\n",
			out->partial_seconds);
	fprintf(out->f, "\n %.6f seconds elapsed%s\n", r->seconds,
		r->sim_time    ? " on the simulator's clock (SIMULATED uncore)"
		: r->simulated ? " (SIMULATED uncore)"
			       : "");
}

/* CSV: a field with a comma or a quote is quoted, quotes doubled. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* One CSV schema for events and metrics, one value a row:
 * kind,time_s,seconds,type,group,name,socket,value,units,simulated,partial */
static void csv_header(struct stat_output *out, const struct stat_report *r)
{
	if (out->header_done)
		return;
	fprintf(out->f, "# %s\n# times in seconds on the %s clock\n", r->origin,
		r->sim_time ? "simulator's" : "wall");
	fprintf(out->f, "kind,time_s,seconds,type,group,name,socket,value,units,simulated,"
			"partial\n");
	out->header_done = 1;
}

static void csv_lead(struct stat_output *out, const struct stat_report *r, const char *type,
		     const char *group, const char *name)
{
	fprintf(out->f, "%s,%.6f,%.6f,%s,", r->final ? "total" : "interval", r->at, r->seconds,
		type);
	csv_field(out->f, group);
	fputc(',', out->f);
	csv_field(out->f, name);
}

static void csv_report(struct stat_output *out, const struct stat_report *r)
{
	csv_header(out, r);
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct stat_row *row = &r->rows[i];
		for (unsigned s = 0; s <= r->nsockets; s++) {
			int is_total = s == r->nsockets;
			if (!is_total && !(row->sockets & (1u << s)))
				continue;
			csv_lead(out, r, "event", "", row->name);
			if (is_total)
				fprintf(out->f, ",all,%" PRIu64, row->total);
			else
				fprintf(out->f, ",%u,%" PRIu64, s, row->count[s]);
			fprintf(out->f, ",count,%d,%d\n", r->simulated, r->partial);
		}
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Every JSON line starts alike, events or a metric group: one parser reads
 * both (README: "One JSON shape"). */
static void json_head(FILE *f, const struct stat_report *r)
{
	fprintf(f, "\"kind\":\"%s\",\"simulated\":%s,\"origin\":", r->final ? "total" : "interval",
		r->simulated ? "true" : "false");
	json_string(f, r->origin);
	fprintf(f, ",\"command\":");
	if (r->command)
		json_string(f, r->command);
	else
		fputs("null", f);
	fprintf(f, ",\"time_s\":%.6f,\"seconds\":%.6f,\"partial\":%s,\"clock\":\"%s\",\"nsockets\":%u",
		r->at, r->seconds, r->partial ? "true" : "false", r->sim_time ? "simulated" : "wall",
		r->nsockets);
	if (r->notice && *r->notice) {
		fprintf(f, ",\"notice\":");
		json_string(f, r->notice);
	}
	if (r->fault && *r->fault) {
		fprintf(f, ",\"fault\":");
		json_string(f, r->fault);
	}
}

static void json_report(struct stat_output *out, const struct stat_report *r)
{
	FILE *f = out->f;
	fputc('{', f);
	json_head(f, r);
	fprintf(f, ",\"events\":[");
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct stat_row *row = &r->rows[i];
		fprintf(f, "%s{\"name\":", i ? "," : "");
		json_string(f, row->name);
		/* The metrics' shape: units, a value per socket (null where the
		 * event does not count), the node's total. */
		fprintf(f, ",\"units\":\"count\",\"sockets\":[");
		for (unsigned s = 0; s < r->nsockets; s++) {
			if (s)
				fputc(',', f);
			if (row->sockets & (1u << s))
				fprintf(f, "%" PRIu64, row->count[s]);
			else
				fputs("null", f);
		}
		fprintf(f, "],\"total\":%" PRIu64 "}", row->total);
	}
	fprintf(f, "]}\n");
	out->header_done = 1;
}

/* Metric groups. */

/* %.6g, NaN as "nan" (printf may print "-nan"). */
static const char *metric_text(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "nan");
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

static size_t metric_width(const struct stat_report *r)
{
	size_t w = 6;
	for (unsigned g = 0; g < r->ngroups; g++)
		for (unsigned i = 0; i < r->groups[g].n; i++) {
			size_t n = strlen(r->mrows[r->groups[g].row[i]].name);
			w = n > w ? n : w;
		}
	return w;
}

static void text_metric_columns(struct stat_output *out, const struct stat_report *r, size_t w,
				const char *lead)
{
	fprintf(out->f, "%s%-*s  %-10s", lead, (int)w, "metric", "units");
	for (unsigned s = 0; s < r->nsockets; s++) {
		char h[24];
		snprintf(h, sizeof(h), "socket %u", s);
		fprintf(out->f, "  %12s", h);
	}
	fprintf(out->f, "  %12s\n", "total");
}

static void text_metric_row(struct stat_output *out, const struct stat_report *r,
			    const struct stat_metric_row *m, size_t w, const char *lead)
{
	char buf[40];
	fprintf(out->f, "%s%-*s  %-10s", lead, (int)w, m->name, m->units);
	for (unsigned s = 0; s < r->nsockets; s++)
		fprintf(out->f, "  %12s", metric_text(m->value[s], buf, sizeof(buf)));
	fprintf(out->f, "  %12s\n", metric_text(m->total, buf, sizeof(buf)));
}

static void text_metrics(struct stat_output *out, const struct stat_report *r)
{
	size_t w = metric_width(r);
	if (!r->final) {
		char lead[32];
		if (!out->metric_header_done) {
			text_metric_columns(out, r, w, "#      time  ");
			out->metric_header_done = 1;
		}
		snprintf(lead, sizeof(lead), "%12.3f%s ", r->at, r->partial ? "*" : " ");
		for (unsigned g = 0; g < r->ngroups; g++)
			for (unsigned i = 0; i < r->groups[g].n; i++)
				text_metric_row(out, r, &r->mrows[r->groups[g].row[i]], w, lead);
		return;
	}
	if (out->partial_seen && !r->nrows)
		fprintf(out->f,
			"\n * partial interval: the last %.6f s, shorter than -I (the run "
			"ended); its values are of that span only\n",
			out->partial_seconds);
	for (unsigned g = 0; g < r->ngroups; g++) {
		fprintf(out->f, "\n %s: %s%s, over %.6f s:\n\n", r->groups[g].name,
			r->groups[g].title, r->simulated ? " (SIMULATED)" : "", r->seconds);
		text_metric_columns(out, r, w, "");
		for (unsigned i = 0; i < r->groups[g].n; i++)
			text_metric_row(out, r, &r->mrows[r->groups[g].row[i]], w, "");
	}
	if (r->mux_settings > 1 && r->mux_reads >= r->mux_settings)
		fprintf(out->f,
			"\n multiplexed: the metrics' terms took %u settings in turn, switched at "
			"each of the run's %u reads (every %.0f ms); each term is scaled by the time "
			"its setting counted, whole-run values from the counts since start "
			"(uncore-stat --explain says which metrics)\n",
			r->mux_settings, r->mux_reads, r->mux_poll_ms);
	else if (r->mux_settings > 1)
		fprintf(out->f,
			"\n multiplexed: the metrics' terms take %u settings in turn, switched at "
			"each read (every %.0f ms); this run was read %u time%s, so the terms of some "
			"settings were never counted (nan): run a command that lasts at least "
			"%u reads, or fewer groups at once (uncore-stat --explain)\n",
			r->mux_settings, r->mux_poll_ms, r->mux_reads, r->mux_reads == 1 ? "" : "s",
			r->mux_settings);
	if (r->whole_run_note)
		fprintf(
		    out->f,
		    "\n whole run from the -I intervals: rates (.../s) are the run's total over "
		    "its time; ratios, latencies and fractions have no whole-run value here "
		    "(nan): run without -I for them\n");
}

/* Metric rows in the one schema (csv_report), per socket and "all". */
static void csv_metrics(struct stat_output *out, const struct stat_report *r)
{
	char buf[40];
	csv_header(out, r);
	for (unsigned g = 0; g < r->ngroups; g++)
		for (unsigned i = 0; i < r->groups[g].n; i++) {
			const struct stat_metric_row *m = &r->mrows[r->groups[g].row[i]];
			for (unsigned s = 0; s <= r->nsockets; s++) {
				int is_total = s == r->nsockets;
				csv_lead(out, r, "metric", r->groups[g].name, m->name);
				if (is_total)
					fprintf(out->f, ",all,%s,",
						metric_text(m->total, buf, sizeof(buf)));
				else
					fprintf(out->f, ",%u,%s,", s,
						metric_text(m->value[s], buf, sizeof(buf)));
				csv_field(out->f, m->units);
				fprintf(out->f, ",%d,%d\n", r->simulated, r->partial);
			}
		}
}

/* JSON has no NaN: null. */
static void json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

static void json_metrics(struct stat_output *out, const struct stat_report *r)
{
	FILE *f = out->f;
	for (unsigned g = 0; g < r->ngroups; g++) {
		fputc('{', f);
		json_head(f, r);
		fprintf(f, ",\"group\":");
		json_string(f, r->groups[g].name);
		fprintf(f, ",\"metrics\":[");
		for (unsigned i = 0; i < r->groups[g].n; i++) {
			const struct stat_metric_row *m = &r->mrows[r->groups[g].row[i]];
			fprintf(f, "%s{\"name\":", i ? "," : "");
			json_string(f, m->name);
			fprintf(f, ",\"units\":");
			json_string(f, m->units);
			fprintf(f, ",\"sockets\":[");
			for (unsigned s = 0; s < r->nsockets; s++) {
				if (s)
					fputc(',', f);
				json_number(f, m->value[s]);
			}
			fprintf(f, "],\"total\":");
			json_number(f, m->total);
			fputc('}', f);
		}
		fprintf(f, "]}\n");
	}
	out->header_done = 1;
}

/* The span's notice (a read too late for a counter's wraps) or fault (its
 * counts unknown): a row of its own in text and CSV; JSON carries it in
 * every line of the span (json_head). */
static void say_notice(struct stat_output *out, const struct stat_report *r, const char *type,
		       const char *mark, const char *text)
{
	if (out->format == STAT_CSV) {
		csv_header(out, r);
		csv_lead(out, r, type, "", text);
		fprintf(out->f, ",,,,%d,%d\n", r->simulated, r->partial);
	} else if (out->format == STAT_TEXT) {
		if (r->final)
			fprintf(out->f, "\n %s %s\n", mark, text);
		else
			fprintf(out->f, "%12.3f%s %s %s\n", r->at, r->partial ? "*" : " ", mark, text);
	}
}

void stat_output_report(struct stat_output *out, const struct stat_report *r)
{
	if (r->partial) {
		out->partial_seen = 1;
		out->partial_seconds = r->seconds;
	}
	if (r->nrows || !r->ngroups) {
		switch (out->format) {
		case STAT_CSV:
			csv_report(out, r);
			break;
		case STAT_JSON:
			json_report(out, r);
			break;
		default:
			text_report(out, r);
			break;
		}
	} else if (out->format == STAT_TEXT && !out->header_done) {
		text_header(out, r);
		out->header_done = 1;
	}
	if (r->ngroups) {
		switch (out->format) {
		case STAT_CSV:
			csv_metrics(out, r);
			break;
		case STAT_JSON:
			json_metrics(out, r);
			break;
		default:
			text_metrics(out, r);
			break;
		}
	}
	if (r->notice && *r->notice)
		say_notice(out, r, "notice", "!", r->notice);
	if (r->fault && *r->fault)
		say_notice(out, r, "fault", "!!", r->fault);
	fflush(out->f);
	if (out->plot)
		stat_plot_add(out->plot, r);
}
