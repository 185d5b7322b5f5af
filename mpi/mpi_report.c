/* The job report (see mpi_report.h): records parsed into nodes, sockets and
 * regions, then JSON and CSV. */
#include "mpi_report.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_NODES    256
#define MAX_SOCKETS  2048
#define MAX_REGIONS  4096
#define MAX_FIELDS   10
#define MAX_PROBLEMS 64

struct value {
	char kind; /* 'c', 'm', 'e', or 0: none */
	uint64_t count;
	double metric;
	char text[160]; /* error */
	char units[24];
};

struct sock {
	int node, socket, rank;
	double seconds;
	struct value v[UMPI_MAX_EVENTS];
};

struct region {
	int node, socket, rank;
	char name[64];
	unsigned long calls;
	struct value v[UMPI_MAX_EVENTS];
};

struct report {
	char node[MAX_NODES][64];
	int nnodes;
	int *node_of_rank;
	struct sock *s;
	int ns;
	struct region *r;
	int nr;
	struct problem {
		int node, rank;
		const char *text; /* in the records */
	} p[MAX_PROBLEMS];
	int np;
	/* Per rank, from its X record: 'r' running, 'e' ended, 'f' finished,
	 * 0 no word; and the record's text. */
	struct rank_state {
		char state;
		char text[96];
	} *rs;
	char origin[256]; /* the first O record's */
};

/* A rank whose counts do not reach the job's end: no X record saying it
 * ended or finished. */
static int missing(const struct report *rep, int rank)
{
	return rep->rs[rank].state != 'e' && rep->rs[rank].state != 'f';
}

static int complete(const struct report *rep, int nranks)
{
	for (int r = 0; r < nranks; r++)
		if (missing(rep, r))
			return 0;
	return 1;
}

static int node_index(struct report *rep, const char *name)
{
	for (int i = 0; i < rep->nnodes; i++)
		if (strcmp(rep->node[i], name) == 0)
			return i;
	if (rep->nnodes == MAX_NODES)
		return -1;
	snprintf(rep->node[rep->nnodes], sizeof(rep->node[0]), "%s", name);
	return rep->nnodes++;
}

static struct sock *find_sock(struct report *rep, int node, int socket)
{
	for (int i = 0; i < rep->ns; i++)
		if (rep->s[i].node == node && rep->s[i].socket == socket)
			return &rep->s[i];
	return NULL;
}

static void set_value(struct value *v, const char *kind, const char *val, const char *units)
{
	v->kind = kind[0];
	if (v->kind == 'c')
		v->count = strtoull(val, NULL, 10);
	else if (v->kind == 'm')
		v->metric = strtod(val, NULL);
	else
		snprintf(v->text, sizeof(v->text), "%s", val);
	snprintf(v->units, sizeof(v->units), "%s", units ? units : "");
}

static int split(char *line, char **f)
{
	int n = 0;
	f[n++] = line;
	for (char *p = line; *p && n < MAX_FIELDS; p++)
		if (*p == '\t') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

static void parse(struct report *rep, int nranks, char *records)
{
	char *save = NULL, *f[MAX_FIELDS];
	for (char *line = strtok_r(records, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int n = split(line, f);
		int node = n > 1 ? node_index(rep, f[1]) : -1;
		if (node < 0)
			continue;
		if (f[0][0] == 'N' && n >= 3) {
			int rank = atoi(f[2]);
			if (rank >= 0 && rank < nranks)
				rep->node_of_rank[rank] = node;
		} else if (f[0][0] == 'S' && n >= 5 && rep->ns < MAX_SOCKETS) {
			struct sock *s = &rep->s[rep->ns++];
			s->node = node;
			s->socket = atoi(f[2]);
			s->rank = atoi(f[3]);
			s->seconds = strtod(f[4], NULL);
		} else if (f[0][0] == 'V' && n >= 7) {
			struct sock *s = find_sock(rep, node, atoi(f[2]));
			unsigned e = (unsigned)atoi(f[3]);
			if (s && e < UMPI_MAX_EVENTS)
				set_value(&s->v[e], f[4], f[5], f[6]);
		} else if (f[0][0] == 'R' && n >= 9) {
			int socket = atoi(f[2]);
			unsigned e = (unsigned)atoi(f[6]);
			struct region *r = NULL;
			for (int i = 0; i < rep->nr; i++)
				if (rep->r[i].node == node && rep->r[i].socket == socket &&
				    strcmp(rep->r[i].name, f[4]) == 0)
					r = &rep->r[i];
			if (!r && rep->nr < MAX_REGIONS) {
				r = &rep->r[rep->nr++];
				r->node = node;
				r->socket = socket;
				r->rank = atoi(f[3]);
				snprintf(r->name, sizeof(r->name), "%s", f[4]);
				r->calls = strtoul(f[5], NULL, 10);
			}
			if (r && e < UMPI_MAX_EVENTS)
				set_value(&r->v[e], f[7], f[8], "");
		} else if (f[0][0] == 'X' && n >= 4) {
			int rank = atoi(f[2]);
			if (rank >= 0 && rank < nranks) {
				rep->rs[rank].state = f[3][0];
				snprintf(rep->rs[rank].text, sizeof(rep->rs[rank].text), "%s",
					 n >= 5 ? f[4] : "");
			}
		} else if (f[0][0] == 'O' && n >= 4 && !rep->origin[0]) {
			snprintf(rep->origin, sizeof(rep->origin), "%s", f[3]);
		} else if (f[0][0] == 'P' && n >= 4 && rep->np < MAX_PROBLEMS) {
			struct problem *pr = &rep->p[rep->np++];
			pr->node = node;
			pr->rank = atoi(f[2]);
			pr->text = f[3];
		}
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_value(FILE *f, const struct value *v)
{
	if (v->kind == 'c')
		fprintf(f, "%llu", (unsigned long long)v->count);
	else if (v->kind == 'm' && isfinite(v->metric))
		fprintf(f, "%.9g", v->metric);
	else
		fputs("null", f); /* JSON has no NaN: a metric with no data (0/0) */
}

/* Sockets of every node added up: counts and rates (units ".../s") sum; other
 * metrics (ratios, latencies, frequencies) are the mean over the sockets. */
static void total_of(const struct report *rep, unsigned e, struct value *t)
{
	int n = 0;
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < rep->ns; i++) {
		const struct value *v = &rep->s[i].v[e];
		if (v->kind == 'c') {
			t->kind = 'c';
			t->count += v->count;
		} else if (v->kind == 'm') {
			t->kind = 'm';
			t->metric += v->metric;
			snprintf(t->units, sizeof(t->units), "%s", v->units);
			n++;
		}
	}
	if (t->kind == 'm' && n && !strstr(t->units, "/s"))
		t->metric /= n;
}

static void json_values(FILE *f, const struct umpi_events *ev, const struct value *v)
{
	fputc('{', f);
	for (unsigned e = 0; e < ev->n; e++) {
		fputs(e ? ", " : "", f);
		json_string(f, ev->name[e]);
		fputs(": ", f);
		json_value(f, &v[e]);
	}
	fputc('}', f);
}

/* The ranks and sockets whose counts do not reach the job's end: the
 * ranks with what they last said, the sockets with the seconds they were
 * counted. */
static void json_missing(FILE *f, const struct report *rep, int nranks)
{
	fprintf(f, "{\"ranks\": [");
	for (int r = 0, k = 0; r < nranks; r++) {
		if (!missing(rep, r))
			continue;
		fprintf(f, "%s\n    {\"rank\": %d, \"node\": ", k++ ? "," : "", r);
		if (rep->node_of_rank[r] >= 0)
			json_string(f, rep->node[rep->node_of_rank[r]]);
		else
			fputs("null", f);
		fputs(", \"last\": ", f);
		json_string(f, rep->rs[r].state == 'r' ? rep->rs[r].text : "no record");
		fputc('}', f);
	}
	fprintf(f, "],\n    \"sockets\": [");
	for (int i = 0, k = 0; i < rep->ns; i++) {
		const struct sock *s = &rep->s[i];
		if (s->rank < 0 || s->rank >= nranks || !missing(rep, s->rank))
			continue;
		fprintf(f, "%s\n    {\"node\": ", k++ ? "," : "");
		json_string(f, rep->node[s->node]);
		fprintf(f, ", \"socket\": %d, \"rank\": %d, \"seconds\": %.9g}", s->socket, s->rank,
			s->seconds);
	}
	fputs("]}", f);
}

static void write_json(FILE *f, const struct report *rep, const struct umpi_events *ev,
		       const char *origin, int nranks)
{
	fprintf(f, "{\n  \"tool\": \"libpapi_uncore_mpi\",\n  \"origin\": ");
	json_string(f, origin);
	fprintf(f, ",\n  \"ranks\": %d,\n  \"complete\": %s,\n  \"missing\": ", nranks,
		complete(rep, nranks) ? "true" : "false");
	json_missing(f, rep, nranks);
	fprintf(f, ",\n  \"events\": [");
	for (unsigned e = 0; e < ev->n; e++) {
		fputs(e ? ", " : "", f);
		json_string(f, ev->name[e]);
	}
	fprintf(f, "],\n  \"nodes\": [");
	for (int n = 0; n < rep->nnodes; n++) {
		fprintf(f, "%s\n    {\"node\": ", n ? "," : "");
		json_string(f, rep->node[n]);
		fprintf(f, ", \"ranks\": [");
		for (int r = 0, k = 0; r < nranks; r++)
			if (rep->node_of_rank[r] == n)
				fprintf(f, "%s%d", k++ ? ", " : "", r);
		fprintf(f, "], \"sockets\": [");
		for (int i = 0, k = 0; i < rep->ns; i++) {
			const struct sock *s = &rep->s[i];
			if (s->node != n)
				continue;
			fprintf(f,
				"%s\n      {\"socket\": %d, \"rank\": %d, \"seconds\": %.9g, "
				"\"values\": ",
				k++ ? "," : "", s->socket, s->rank, s->seconds);
			json_values(f, ev, s->v);
			int errors = 0;
			for (unsigned e = 0; e < ev->n; e++)
				if (s->v[e].kind == 'e') {
					fprintf(f, "%s", errors++ ? ", " : ", \"errors\": {");
					json_string(f, ev->name[e]);
					fputs(": ", f);
					json_string(f, s->v[e].text);
				}
			fprintf(f, "%s}", errors ? "}" : "");
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ],\n  \"total\": {");
	for (unsigned e = 0; e < ev->n; e++) {
		struct value t;
		total_of(rep, e, &t);
		fprintf(f, "%s\n    ", e ? "," : "");
		json_string(f, ev->name[e]);
		fputs(": ", f);
		json_value(f, &t);
	}
	fprintf(f, "\n  },\n  \"regions\": [");
	for (int i = 0; i < rep->nr; i++) {
		const struct region *r = &rep->r[i];
		fprintf(f, "%s\n    {\"region\": ", i ? "," : "");
		json_string(f, r->name);
		fprintf(f, ", \"node\": ");
		json_string(f, rep->node[r->node]);
		fprintf(f,
			", \"socket\": %d, \"rank\": %d, \"calls\": %lu, \"values\": ", r->socket,
			r->rank, r->calls);
		json_values(f, ev, r->v);
		fputc('}', f);
	}
	fprintf(f, "\n  ],\n  \"problems\": [");
	for (int i = 0; i < rep->np; i++) {
		fprintf(f, "%s\n    {\"node\": ", i ? "," : "");
		json_string(f, rep->node[rep->p[i].node]);
		fprintf(f, ", \"rank\": %d, \"problem\": ", rep->p[i].rank);
		json_string(f, rep->p[i].text);
		fputc('}', f);
	}
	fprintf(f, "\n  ]\n}\n");
}

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

static void csv_value(FILE *f, const struct value *v)
{
	if (v->kind == 'c')
		fprintf(f, "%llu", (unsigned long long)v->count);
	else if (v->kind == 'm')
		fprintf(f, "%.9g", v->metric);
}

static void write_csv(FILE *f, const struct report *rep, const struct umpi_events *ev, int nranks)
{
	fprintf(f, "scope,node,socket,rank,region,event,value,units\n");
	for (int i = 0; i < rep->ns; i++) {
		const struct sock *s = &rep->s[i];
		for (unsigned e = 0; e < ev->n; e++) {
			fprintf(f, "socket,");
			csv_field(f, rep->node[s->node]);
			fprintf(f, ",%d,%d,,", s->socket, s->rank);
			csv_field(f, ev->name[e]);
			fputc(',', f);
			csv_value(f, &s->v[e]);
			fputc(',', f);
			csv_field(f, s->v[e].units);
			fputc('\n', f);
		}
	}
	for (unsigned e = 0; e < ev->n; e++) {
		struct value t;
		total_of(rep, e, &t);
		fprintf(f, "total,,,,,");
		csv_field(f, ev->name[e]);
		fputc(',', f);
		csv_value(f, &t);
		fputc(',', f);
		csv_field(f, t.units);
		fputc('\n', f);
	}
	for (int i = 0; i < rep->ns; i++) {
		const struct sock *s = &rep->s[i];
		if (s->rank < 0 || s->rank >= nranks || !missing(rep, s->rank))
			continue;
		fprintf(f, "missing,");
		csv_field(f, rep->node[s->node]);
		fprintf(f, ",%d,%d,,,,\n", s->socket, s->rank);
	}
	for (int r = 0; r < nranks; r++)
		if (missing(rep, r)) {
			fprintf(f, "missing,");
			if (rep->node_of_rank[r] >= 0)
				csv_field(f, rep->node[rep->node_of_rank[r]]);
			fprintf(f, ",,%d,,,,\n", r);
		}
	for (int i = 0; i < rep->nr; i++) {
		const struct region *r = &rep->r[i];
		for (unsigned e = 0; e < ev->n; e++) {
			fprintf(f, "region,");
			csv_field(f, rep->node[r->node]);
			fprintf(f, ",%d,%d,", r->socket, r->rank);
			csv_field(f, r->name);
			fputc(',', f);
			csv_field(f, ev->name[e]);
			fputc(',', f);
			csv_value(f, &r->v[e]);
			fputs(",\n", f);
		}
	}
}

static int write_file(const char *path, const struct report *rep, const struct umpi_events *ev,
		      const char *origin, int nranks, int csv, char *err, size_t len)
{
	/* Whole or not at all: ranks rebuild it while others may read it. */
	char tmp[4300];
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, len, "cannot write the report %s: %s", path, strerror(errno));
		return -1;
	}
	if (csv)
		write_csv(f, rep, ev, nranks);
	else
		write_json(f, rep, ev, origin && *origin ? origin : rep->origin, nranks);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		snprintf(err, len, "cannot write the report %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int umpi_report_write(const char *path, const struct umpi_events *ev, const char *origin,
		      int nranks, const char *records, char *err, size_t len)
{
	struct report *rep = calloc(1, sizeof(*rep));
	char *copy = strdup(records ? records : "");
	char csv[4200];
	int rc = -1;
	if (rep) {
		rep->node_of_rank = malloc((size_t)(nranks > 0 ? nranks : 1) * sizeof(int));
		rep->s = calloc(MAX_SOCKETS, sizeof(*rep->s));
		rep->r = calloc(MAX_REGIONS, sizeof(*rep->r));
		rep->rs = calloc((size_t)(nranks > 0 ? nranks : 1), sizeof(*rep->rs));
	}
	if (!rep || !copy || !rep->node_of_rank || !rep->s || !rep->r || !rep->rs) {
		snprintf(err, len, "out of memory for the report");
		goto out;
	}
	for (int r = 0; r < nranks; r++)
		rep->node_of_rank[r] = -1;
	parse(rep, nranks, copy);
	size_t pl = strlen(path);
	if (pl > 5 && strcmp(path + pl - 5, ".json") == 0)
		snprintf(csv, sizeof(csv), "%.*s.csv", (int)(pl - 5), path);
	else
		snprintf(csv, sizeof(csv), "%s.csv", path);
	rc = write_file(path, rep, ev, origin, nranks, 0, err, len);
	if (rc == 0)
		rc = write_file(csv, rep, ev, origin, nranks, 1, err, len);
out:
	if (rep) {
		free(rep->node_of_rank);
		free(rep->s);
		free(rep->r);
		free(rep->rs);
	}
	free(rep);
	free(copy);
	return rc;
}
