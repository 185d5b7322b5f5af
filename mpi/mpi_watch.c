/* The watcher thread (see mpi_watch.h). */
#define _GNU_SOURCE
#include "mpi_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_INTERVAL 10.0
#define MAX_INTERVAL     86400.0

static const int watched[] = {SIGTERM, SIGINT, SIGHUP, SIGXCPU, SIGUSR1, SIGUSR2};
#define NWATCHED ((int)(sizeof(watched) / sizeof(watched[0])))

static struct {
	int on;
	int pipe[2];
	int done[2]; /* closed by the thread when a signal's tick is done */
	pthread_t thread;
	double seconds;
	void (*tick)(int);
	struct sigaction old[NWATCHED];
	int mine[NWATCHED]; /* the handler installed for watched[i] is ours */
} w = {.pipe = {-1, -1}, .done = {-1, -1}};

/* How long the signalled thread waits for the tick (ms): long enough for
 * a part and a rebuild, short enough for a launcher's grace before SIGKILL
 * (Open MPI: 1 s), and a bound should that thread hold what the tick needs
 * (st.lock in a region, a lock of PAPI's). */
#define SIGNAL_WAIT_MS 500

/* Async-signal-safe: one byte, the signal's number (0 asks the thread to
 * stop); then the thread that took the signal waits for the tick, so that
 * a rank busy-polling in MPI leaves the CPU to it. */
static void on_signal(int signo)
{
	int saved = errno;
	unsigned char b = (unsigned char)signo;
	ssize_t k = write(w.pipe[1], &b, 1);
	(void)k; /* a full pipe already holds a wake-up */
	struct pollfd p = {.fd = w.done[0], .events = POLLIN};
	while (poll(&p, 1, SIGNAL_WAIT_MS) < 0 && errno == EINTR)
		;
	errno = saved;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The process's own dispositions back, where ours is still in place (a
 * handler the application installed after us stays). */
static void restore(void)
{
	for (int i = 0; i < NWATCHED; i++) {
		struct sigaction now;
		if (w.mine[i] && sigaction(watched[i], NULL, &now) == 0 &&
		    !(now.sa_flags & SA_SIGINFO) && now.sa_handler == on_signal)
			sigaction(watched[i], &w.old[i], NULL);
		w.mine[i] = 0;
	}
}

static void close_all(void)
{
	int *fd[] = {&w.pipe[0], &w.pipe[1], &w.done[0], &w.done[1]};
	for (int i = 0; i < 4; i++)
		if (*fd[i] >= 0) {
			close(*fd[i]);
			*fd[i] = -1;
		}
}

static void *watch(void *arg)
{
	(void)arg;
	double next = now() + w.seconds;
	for (;;) {
		int ms = -1;
		if (w.seconds > 0) {
			double left = next - now();
			ms = left <= 0 ? 0 : (int)ceil(left * 1000);
		}
		struct pollfd p = {.fd = w.pipe[0], .events = POLLIN};
		int k = poll(&p, 1, ms);
		if (k < 0 && errno == EINTR)
			continue;
		if (k == 0) {
			w.tick(0);
			next += w.seconds;
			if (next < now())
				next = now() + w.seconds; /* a tick longer than an interval */
			continue;
		}
		unsigned char b = 0;
		if (k < 0 || read(w.pipe[0], &b, 1) != 1 || b == 0)
			return NULL;
		w.tick(b);
		/* As if we had never been there: the process's own disposition,
		 * the signal sent again (pending until the handler returns). */
		restore();
		kill(getpid(), b);
		close(w.done[1]);
		w.done[1] = -1;
		return NULL;
	}
}

int umpi_watch_start(double seconds, void (*tick)(int))
{
	if (w.on || pipe2(w.pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		return -1;
	if (pipe2(w.done, O_CLOEXEC) != 0) {
		close(w.pipe[0]);
		close(w.pipe[1]);
		w.pipe[0] = w.pipe[1] = -1;
		return -1;
	}
	/* The reading end blocks in poll only; reads follow a POLLIN. */
	fcntl(w.pipe[0], F_SETFL, 0);
	w.seconds = seconds;
	w.tick = tick;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigset_t all, before;
	sigfillset(&all);
	/* The thread takes no signal: the handler runs in the application's. */
	pthread_sigmask(SIG_SETMASK, &all, &before);
	int rc = pthread_create(&w.thread, NULL, watch, NULL);
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	if (rc != 0) {
		close_all();
		return -1;
	}
	for (int i = 0; i < NWATCHED; i++) {
		sigaction(watched[i], NULL, &w.old[i]);
		/* Only a signal that would end the process: one it ignores stays
		 * ignored (nohup), one it handles is the application's (SIGUSR1
		 * may mean "checkpoint" to it, not the end). */
		w.mine[i] = !(w.old[i].sa_flags & SA_SIGINFO) && w.old[i].sa_handler == SIG_DFL &&
			    sigaction(watched[i], &sa, NULL) == 0;
	}
	w.on = 1;
	return 0;
}

void umpi_watch_stop(void)
{
	if (!w.on)
		return;
	restore();
	unsigned char b = 0;
	ssize_t k = write(w.pipe[1], &b, 1);
	(void)k;
	pthread_join(w.thread, NULL);
	close_all();
	w.on = 0;
}

double umpi_watch_interval(const char *text)
{
	if (!text || !*text)
		return DEFAULT_INTERVAL;
	if (strcmp(text, "off") == 0)
		return 0;
	char *end;
	errno = 0;
	double s = strtod(text, &end);
	/* Decimal only, as the message says (strtod also takes hex, inf, nan). */
	if (!((text[0] >= '0' && text[0] <= '9') || text[0] == '.') || strpbrk(text, "xX"))
		return -1;
	if (errno || end == text || *end || !(s > 0) || s > MAX_INTERVAL)
		return -1;
	return s;
}
