/* The measurement loop of uncore-stat (see stat_run.h). */
#define _GNU_SOURCE
#include "stat_run.h"

#include "stat_sim.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_stop;

static void on_signal(int sig)
{
	if (sig == SIGINT || sig == SIGTERM)
		got_stop = 1;
	/* SIGCHLD only has to interrupt ppoll. */
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Report times: the shared simulator instance's clock when there is one
 * (its time moves only as someone advances it), else the wall clock. */
static double report_clock(int sim_time)
{
	double s;
	if (sim_time && stat_sim_time(&s) == 0)
		return s;
	return now_s();
}

/* The component's wrap guard notices (stat_counters_notices): the last
 * one of the span since the last report, and of the run. */
struct notices {
	int seen;
	char span[300], run[300];
};

static void take_notice(const struct stat_counters *c, struct notices *nt)
{
	char buf[300];
	int n = stat_counters_notices(c, buf, sizeof(buf));
	if (n <= nt->seen)
		return;
	nt->seen = n;
	snprintf(nt->span, sizeof(nt->span), "%s", buf);
	snprintf(nt->run, sizeof(nt->run), "%s", buf);
}

/* Don't take the failure a read just added to the notices for a notice of
 * the next good read's span: it is said as its own span's fault. */
static void skip_notice(const struct stat_counters *c, struct notices *nt)
{
	nt->seen = stat_counters_notices(c, NULL, 0);
}

/* Reads that fail this many times in a row are a fault that persists
 * (issue 29): the run ends with the counts of the last good read.  Fewer
 * are transient: the intervals they end are marked and the run goes on. */
#define STAT_FAULT_LIMIT 5

static void warn_fault(double at, const char *why, const char *then)
{
	fprintf(stderr, "uncore-stat: warning: at %.3f s: %s; %s\n", at, why, then);
}

/* An interval whose read failed: its time and the fault, no rows. */
static void report_fault(struct stat_output *out, struct stat_report *rep, const char *fault,
			 double at, double seconds)
{
	struct stat_report r = *rep;
	r.nrows = 0;
	r.ngroups = 0;
	r.final = r.partial = 0;
	r.at = at;
	r.seconds = seconds;
	r.notice = NULL;
	r.fault = fault;
	stat_output_report(out, &r);
}

/* The run's final counts into `now`: 1, or 0 when they could not be had
 * (`why` says why).  With `read_first` a read comes before the stop (for
 * events it changes nothing: counts are running totals), so that a stop
 * whose own read fails loses nothing: the counts are that read's.  Metrics
 * skip it (a read switches time-multiplexed settings). */
static int final_counts(struct stat_counters *c, long long *now, int read_first,
			struct notices *nt, double at, char *why, size_t len)
{
	long long v[STAT_MAX_PAPI];
	int have = 0;
	if (read_first) {
		have = stat_counters_read(c, now, why, len) == 0;
		if (have) {
			take_notice(c, nt);
		} else {
			skip_notice(c, nt);
			warn_fault(at, why, "the stop's counts are used");
		}
	}
	if (stat_counters_stop(c, v, why, len) == 0) {
		memcpy(now, v, sizeof(v[0]) * c->npapi);
		take_notice(c, nt);
		return 1;
	}
	skip_notice(c, nt);
	if (have)
		warn_fault(at, why, "the counts are those of the read just before the stop");
	return have;
}

static void command_text(char **argv, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (unsigned i = 0; argv[i] && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", argv[i]);
}

/* Fork the command; it waits on `go` until the counters run, then execs.
 * An exec failure comes back as errno through `errfd` (closed on exec). */
static pid_t launch(char **argv, const sigset_t *orig_mask, int *go_fd, int *err_fd)
{
	int go[2], ep[2];
	if (pipe2(go, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(ep, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		char b;
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, orig_mask, NULL);
		close(go[1]);
		close(ep[0]);
		if (read(go[0], &b, 1) != 1)
			_exit(127); /* uncore-stat gave up before starting */
		execvp(argv[0], argv);
		int e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(ep[1]);
	if (pid < 0) {
		close(go[1]);
		close(ep[0]);
		return -1;
	}
	*go_fd = go[1];
	*err_fd = ep[0];
	return pid;
}

/* Wait until `deadline` (seconds on now_s; < 0: no deadline) or a signal. */
static void wait_until(double deadline, const sigset_t *orig_mask)
{
	struct timespec ts, *tp = NULL;
	if (deadline >= 0) {
		double d = deadline - now_s();
		if (d <= 0)
			return;
		ts.tv_sec = (time_t)d;
		ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
		tp = &ts;
	}
	ppoll(NULL, 0, tp, orig_mask);
}

static int exit_status_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

static sigset_t orig_mask;
static int prepared;

void stat_run_prepare(void)
{
	struct sigaction sa;
	sigset_t block;

	if (prepared)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &orig_mask);
	prepared = 1;
}

/* Metrics over spans of several reads (src/metrics/README.md, "What a read
 * returns"): a metric that is not a running sum gives, at each read, its
 * value over the interval since the previous read.  The set is read only
 * when a value is printed, except when it has time-multiplexed settings
 * (each read switches them): then every min(MS, 100) ms, and a printed
 * interval's value is the mean of its reads' values weighted by their
 * lengths.  For a rate (units "/s") that is exact: the span's total over
 * the span's time; for a ratio, latency or fraction it is exact only when
 * the span is one read.  The run's whole values come the same way. */
struct span_acc {
	double sum[STAT_MAX_METRICS][STAT_MAX_SOCKETS + 1];
	double time[STAT_MAX_METRICS][STAT_MAX_SOCKETS + 1];
	unsigned reads;
};

static int is_rate(const char *units)
{
	return strstr(units, "/s") != NULL;
}

static double *row_slot(struct stat_metric_row *r, unsigned s, unsigned nsockets)
{
	return s == nsockets ? &r->total : &r->value[s];
}

/* Add one read's interval values (rows `m` over `seconds`). */
static void span_add(struct span_acc *a, const struct stat_counters *c,
		     const struct stat_metric_row *m, double seconds)
{
	for (unsigned k = 0; k < c->nmetrics; k++)
		for (unsigned s = 0; s <= c->nsockets && s <= STAT_MAX_SOCKETS; s++) {
			double v = *row_slot((struct stat_metric_row *)&m[k], s, c->nsockets);
			if (!isnan(v)) {
				a->sum[k][s] += v * seconds;
				a->time[k][s] += seconds;
			}
		}
	a->reads++;
}

/* The span's values into rows `m` (which hold its last read's): the
 * running sums and the kernel-alias metrics are already the span's; a
 * span of one read is that read's; otherwise a rate is the weighted mean
 * and anything else NaN (ratios do not average). */
static void span_finish(const struct span_acc *a, const struct stat_counters *c,
			struct stat_metric_row *m)
{
	if (a->reads <= 1)
		return;
	for (unsigned k = 0; k < c->nmetrics; k++) {
		if (c->metric[k].km || c->metric[k].running)
			continue;
		for (unsigned s = 0; s <= c->nsockets && s <= STAT_MAX_SOCKETS; s++)
			*row_slot(&m[k], s, c->nsockets) =
			    is_rate(m[k].units) && a->time[k][s] > 0 ? a->sum[k][s] / a->time[k][s]
								     : NAN;
	}
}

int stat_run(struct stat_counters *c, const struct stat_opts *o, struct stat_output *out)
{
	static long long now[STAT_MAX_PAPI], prev[STAT_MAX_PAPI], last_now[STAT_MAX_PAPI];
	static struct stat_row rows[STAT_MAX_EVENTS];
	static struct stat_metric_row mrows[STAT_MAX_METRICS];
	static struct span_acc span, run;
	static struct notices nt;
	char command[512], why[400], fault[480] = "";
	int in_row = 0, faults = 0, ended = 0, lost = 0;
	sigset_t orig;
	pid_t pid = -1;
	int go_fd = -1, err_fd = -1, status = 0, child_done = 0;

	stat_run_prepare();
	orig = orig_mask;

	/* Metrics with time-multiplexed settings need reads in between. */
	int metrics = c->nmetrics > 0;
	unsigned nsettings = metrics ? stat_counters_settings(c) : 1;
	if (o->argv) {
		command_text(o->argv, command, sizeof(command));
		pid = launch(o->argv, &orig, &go_fd, &err_fd);
		if (pid < 0) {
			fprintf(stderr, "uncore-stat: cannot start %s: %s\n", o->argv[0],
				strerror(errno));
			sigprocmask(SIG_SETMASK, &orig, NULL);
			return 1;
		}
	}
	if (stat_counters_start(c) != 0) {
		if (pid > 0) {
			close(go_fd); /* the child exits without running the command */
			waitpid(pid, NULL, 0);
		}
		sigprocmask(SIG_SETMASK, &orig, NULL);
		return 1;
	}
	double s;
	int sim_time = o->sim && stat_sim_time(&s) == 0;
	double t0 = now_s(), r0 = report_clock(sim_time), last = r0, last_read = r0;
	if (pid > 0) {
		int e = 0;
		if (write(go_fd, "g", 1) != 1)
			e = errno;
		close(go_fd);
		if (e == 0 && read(err_fd, &e, sizeof(e)) == (ssize_t)sizeof(e) && e != 0) {
			fprintf(stderr, "uncore-stat: %s: %s\n", o->argv[0], strerror(e));
			waitpid(pid, NULL, 0);
			stat_counters_stop(c, now, why, sizeof(why));
			close(err_fd);
			sigprocmask(SIG_SETMASK, &orig, NULL);
			return e == ENOENT ? 127 : 126;
		}
		close(err_fd);
	}
	memset(prev, 0, sizeof(prev));
	memset(last_now, 0, sizeof(last_now));

	struct stat_report rep = {
	    .origin = c->origin,
	    .simulated = c->simulated,
	    .nsockets = c->nsockets,
	    .command = o->argv ? command : NULL,
	    .nrows = c->nevents,
	    .rows = rows,
	    .sim_time = sim_time,
	};
	/* Counts and amounts are running 64-bit totals: an interval is the
	 * difference of two reads, and nothing is ever reset. */
	int multiplexed = metrics && nsettings > 1;
	double interval = (double)o->interval_ms / 1000.0;
	double poll = multiplexed ? (o->interval_ms && o->interval_ms < 100 ? interval : 0.1)
				  : interval;
	double next_tick = o->interval_ms || multiplexed ? t0 + poll : -1;
	double next_print = o->interval_ms ? t0 + interval : -1;
	double end = o->seconds > 0 ? t0 + o->seconds : -1;
	memset(&span, 0, sizeof(span));
	memset(&run, 0, sizeof(run));
	rep.groups = c->group;
	rep.mrows = mrows;

	for (;;) {
		if (pid > 0) {
			pid_t w = waitpid(pid, &status, WNOHANG);
			if (w == pid || (w < 0 && errno == ECHILD)) {
				child_done = 1;
				break;
			}
		} else if (got_stop || (end >= 0 && now_s() >= end)) {
			break;
		}
		double deadline = next_tick;
		if (end >= 0 && (deadline < 0 || end < deadline))
			deadline = end;
		wait_until(deadline, &orig);
		if (next_tick >= 0 && now_s() >= next_tick) {
			double t = now_s();
			int print = next_print >= 0 && t >= next_print;
			double r = report_clock(sim_time);
			while (next_tick <= t)
				next_tick += poll;
			if (stat_counters_read(c, now, why, sizeof(why)) != 0) {
				/* A failed read: the span it ends is marked with
				 * what failed, and the counts of the next good
				 * read cover it (running totals lose nothing). */
				skip_notice(c, &nt);
				faults++;
				if (++in_row >= STAT_FAULT_LIMIT) {
					snprintf(fault, sizeof(fault),
						 "the run ended: %d reads in a row failed, the last: %s",
						 in_row, why);
					ended = 1;
					break;
				}
				warn_fault(r - r0, why,
					   print ? "this interval's counts are not known; the next "
						   "interval's cover it"
						 : "the run goes on");
				if (!print)
					continue;
				snprintf(fault, sizeof(fault), "%s; this interval's counts are not known: "
					 "the next interval's cover it", why);
				report_fault(out, &rep, fault, r - r0, r - last);
				fault[0] = '\0';
				while (next_print <= t)
					next_print += interval;
				continue;
			}
			in_row = 0;
			take_notice(c, &nt);
			/* This read's interval values (metrics), for the spans,
			 * over the time the read took with its counts. */
			double dt = stat_counters_seconds(c, now, last_now, r - last_read);
			stat_counters_metric_rows(c, now, NULL, dt, mrows);
			span_add(&span, c, mrows, dt);
			span_add(&run, c, mrows, dt);
			last_read = r;
			memcpy(last_now, now, sizeof(now[0]) * c->npapi);
			if (!print)
				continue;
			double secs = stat_counters_seconds(c, now, prev, r - last);
			stat_counters_rows(c, now, prev, rows);
			stat_counters_metric_rows(c, now, prev, secs, mrows);
			span_finish(&span, c, mrows);
			memset(&span, 0, sizeof(span));
			rep.ngroups = c->ngroups;
			rep.final = 0;
			rep.partial = 0;
			rep.at = r - r0;
			rep.seconds = secs;
			rep.notice = nt.span[0] ? nt.span : NULL;
			stat_output_report(out, &rep);
			nt.span[0] = '\0';
			memcpy(prev, now, sizeof(now[0]) * c->npapi);
			last = r;
			while (next_print <= t)
				next_print += interval;
		}
	}
	double r1 = report_clock(sim_time);
	if (!final_counts(c, now, !ended && !metrics, &nt, r1 - r0, why, sizeof(why))) {
		/* Counts lost at the end: the run's are the last good read's. */
		lost = 1;
		memcpy(now, last_now, sizeof(now[0]) * c->npapi);
		r1 = last_read;
		size_t l = strlen(fault);
		snprintf(fault + l, sizeof(fault) - l,
			 "%s%s; the counts are those of the last good read, at %.3f s",
			 l ? "; then " : "", why, last_read - r0);
	}
	if (!lost) {
		/* The stop's read closes the last interval. */
		double dt = stat_counters_seconds(c, now, last_now, r1 - last_read);
		stat_counters_metric_rows(c, now, NULL, dt, mrows);
		span_add(&span, c, mrows, dt);
		span_add(&run, c, mrows, dt);
	}
	/* The span since the last printed interval: shorter than -I (the
	 * command ended, or -t), so reported as a partial interval. */
	if (o->interval_ms && r1 > last) {
		double secs = stat_counters_seconds(c, now, prev, r1 - last);
		stat_counters_rows(c, now, prev, rows);
		stat_counters_metric_rows(c, now, prev, secs, mrows);
		span_finish(&span, c, mrows);
		rep.ngroups = c->ngroups;
		rep.final = 0;
		rep.partial = 1;
		rep.at = r1 - r0;
		rep.seconds = secs;
		rep.notice = nt.span[0] ? nt.span : NULL;
		stat_output_report(out, &rep);
	}
	/* The run's total: always printed, with the fault that cut it short. */
	double secs = stat_counters_seconds(c, now, NULL, r1 - r0);
	stat_counters_rows(c, now, NULL, rows);
	stat_counters_metric_rows(c, now, NULL, secs, mrows);
	span_finish(&run, c, mrows);
	/* Then each metric over the whole run, from its :run form. */
	int all_run = stat_counters_run_rows(c, now, mrows);
	rep.ngroups = c->ngroups;
	rep.final = 1;
	rep.partial = 0;
	rep.whole_run_note = metrics && run.reads > 1 && !all_run;
	rep.mux_settings = multiplexed ? nsettings : 0;
	rep.mux_reads = run.reads;
	rep.mux_poll_ms = poll * 1000.0;
	rep.at = r1 - r0;
	rep.seconds = secs;
	rep.notice = nt.run[0] ? nt.run : NULL;
	rep.fault = fault[0] ? fault : NULL;
	stat_output_report(out, &rep);
	if (ended || lost)
		fprintf(stderr, "uncore-stat: %s\n", fault);
	else if (faults)
		fprintf(stderr,
			"uncore-stat: warning: %d read%s failed (marked in the report); the counts "
			"are complete\n",
			faults, faults == 1 ? "" : "s");
	if (pid > 0 && !child_done)
		waitpid(pid, &status, 0); /* counting failed: still wait for the command */
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (pid > 0)
		return ended || lost ? 1 : exit_status_of(status);
	return ended || lost ? 1 : 0;
}
