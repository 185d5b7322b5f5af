/* uncored: one privileged process per node owns the uncore and serves any
 * number of unprivileged clients (the component's service backend) over a
 * Unix socket; totals are published in a read-only shared-memory snapshot
 * (src/service/).  This file is the daemon's shell: options, the listening
 * socket, the poll loop; the service itself is src/service/server.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bind/component.h"
#include "bind/settings.h"
#include "common/uncore_error.h"
#include "common/version.h"
#include "service/policy.h"
#include "service/prometheus.h"
#include "prom_http.h"
#include "service/server.h"

#define MAX_CLIENTS 1024

static volatile sig_atomic_t stop;

static uint64_t mono_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: uncored [--sim [MODEL]] [--sim-scenario S] [--sim-kernel K] [--socket PATH]\n"
		   "               [--policy FILE] [--prometheus ADDR:PORT]\n"
		   "       uncored --check-policy FILE\n"
		   "       uncored --status [--socket PATH]\n"
		   "  Owns the uncore PMU of this node and serves unprivileged PAPI programs\n"
		   "  (PAPI_INTEL_UNCORE_BACKEND=service, or auto when the socket exists).\n"
		   "  --sim [MODEL]       the simulator (a model name or a shared instance path;\n"
		   "                      default e5-2699v3-2s), instead of the machine's uncore\n"
		   "  --sim-scenario S    the simulator's scenario\n"
		   "  --sim-kernel K      the simulator behind a simulated kernel (perf)\n"
		   "  --socket PATH       where clients connect (default %s)\n"
		   "  --policy FILE       who may count what, and limits (uncored(8) POLICY);\n"
		   "                      default: every user any table event, raw encodings\n"
		   "                      and core or thread filters root's alone\n"
		   "  --check-policy FILE parse FILE, say whether it is valid, and exit\n"
		   "  --prometheus A:P    serve GET /metrics at IPv4 address A, port P (the\n"
		   "                      presets as counters, MEM/LLC/UPI/IO groups as gauges)\n"
		   "  --status            ask the running service what it counts\n",
		UNCORED_DEFAULT_SOCKET);
}

/* The listening socket: its directory made, a stale socket (nobody
 * listening) replaced, and every user allowed to connect (what each may
 * count is the service's to decide). */
static int listen_at(const char *path)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	char dir[sizeof(a.sun_path)];
	if (strlen(path) >= sizeof(a.sun_path)) {
		fprintf(stderr, "uncored: socket path too long: %s\n", path);
		return -1;
	}
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	snprintf(dir, sizeof(dir), "%s", path);
	if (mkdir(dirname(dir), 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "uncored: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	int probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (probe >= 0 && connect(probe, (struct sockaddr *)&a, sizeof(a)) == 0) {
		fprintf(stderr, "uncored: another uncored serves %s already\n", path);
		close(probe);
		return -1;
	}
	if (probe >= 0)
		close(probe);
	unlink(path);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || chmod(path, 0666) != 0 ||
	    listen(fd, 64) != 0) {
		fprintf(stderr, "uncored: cannot listen at %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The snapshot: a memfd the service writes, and a read-only descriptor of
 * it (a new open file description through /proc, O_RDONLY) for clients,
 * who can then map it only for reading. */
static int make_snapshot(struct uncored_snapshot **snap, int *ro)
{
	char path[64];
	int fd = memfd_create("uncored-snapshot", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)uncored_snapshot_size()) != 0) {
		fprintf(stderr, "uncored: cannot make the snapshot: %s\n", strerror(errno));
		return -1;
	}
	void *p = mmap(NULL, uncored_snapshot_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	*ro = open(path, O_RDONLY | O_CLOEXEC);
	close(fd);
	if (p == MAP_FAILED || *ro < 0) {
		fprintf(stderr, "uncored: cannot map the snapshot: %s\n", strerror(errno));
		return -1;
	}
	*snap = p;
	return 0;
}

/* Who connected: the kernel's credentials of the peer and its command. */
static void peer_of(int fd, struct uncored_peer *p)
{
	struct ucred cr;
	socklen_t l = sizeof(cr);
	memset(p, 0, sizeof(*p));
	p->uid = p->gid = UINT32_MAX; /* unknown: nobody's rights */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l) == 0) {
		p->uid = cr.uid;
		p->gid = cr.gid;
		p->pid = cr.pid;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)p->pid);
	FILE *f = p->pid > 0 ? fopen(path, "re") : NULL;
	if (f) {
		if (fgets(p->comm, sizeof(p->comm), f))
			p->comm[strcspn(p->comm, "\n")] = '\0';
		fclose(f);
	}
	if (!p->comm[0])
		snprintf(p->comm, sizeof(p->comm), "?");
	/* Its user's supplementary groups (the policy's group: rules), as the
	 * group database says: the kernel tells a peer's primary group only. */
	char buf[4096];
	struct passwd pw, *pp = NULL;
	if (p->uid != UINT32_MAX && getpwuid_r(p->uid, &pw, buf, sizeof(buf), &pp) == 0 && pp) {
		gid_t g[UNCORED_PEER_MAX_GROUPS];
		int ng = UNCORED_PEER_MAX_GROUPS;
		if (getgrouplist(pp->pw_name, p->gid, g, &ng) < 0)
			ng = UNCORED_PEER_MAX_GROUPS; /* more: the first ones */
		for (int i = 0; i < ng && i < UNCORED_PEER_MAX_GROUPS; i++)
			p->groups[p->ngroups++] = g[i];
	}
}

static int send_reply(int fd, const void *buf, size_t len, int with_fd)
{
	struct iovec iov = {(void *)buf, len};
	char ctl[CMSG_SPACE(sizeof(int))];
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	if (with_fd >= 0) {
		memset(ctl, 0, sizeof(ctl));
		m.msg_control = ctl;
		m.msg_controllen = sizeof(ctl);
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &with_fd, sizeof(int));
	}
	/* Non-blocking: a client that does not take its replies is dropped,
	 * never waited for (one slow client delays nobody). */
	return sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT) == (ssize_t)len ? 0 : -1;
}

/* uncored --status: ask the service how many clients, events and box
 * instances it counts (tests, administrators). */
static int status(const char *path)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	struct uncored_request q = {.magic = UNCORED_MAGIC, .version = UNCORED_VERSION,
				    .op = UNCORED_STATUS};
	char buf[sizeof(struct uncored_reply) + sizeof(struct uncored_status)];
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	ssize_t n = -1;
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    send(fd, &q, sizeof(q), MSG_NOSIGNAL) == (ssize_t)sizeof(q))
		n = recv(fd, buf, sizeof(buf), 0);
	if (fd >= 0)
		close(fd);
	if (n < 0 || uncored_reply_check(buf, (size_t)n, UNCORED_STATUS) < 0) {
		fprintf(stderr, "uncored: no answer from %s: %s\n", path,
			n < 0 ? strerror(errno) : uncore_error_detail());
		return 1;
	}
	struct uncored_status st;
	memcpy(&st, buf + sizeof(struct uncored_reply), sizeof(st));
	printf("clients %u events %u slots %u samples %llu\n", st.clients, st.events, st.slots,
	       (unsigned long long)st.samples);
	return 0;
}

int main(int argc, char **argv)
{
	static struct uncore_settings settings;
	const char *sock = UNCORED_DEFAULT_SOCKET, *model = NULL, *scenario = NULL,
		   *kernel = NULL;
	const char *policy_file = NULL, *prom_spec = NULL;
	struct uncored_policy *policy = NULL;
	int sim = 0, ask_status = 0, check_only = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--sim") == 0) {
			sim = 1;
			if (i + 1 < argc && argv[i + 1][0] != '-')
				model = argv[++i];
		} else if (strcmp(argv[i], "--sim-scenario") == 0 && i + 1 < argc)
			scenario = argv[++i];
		else if (strcmp(argv[i], "--sim-kernel") == 0 && i + 1 < argc)
			kernel = argv[++i];
		else if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc)
			sock = argv[++i];
		else if (strcmp(argv[i], "--policy") == 0 && i + 1 < argc)
			policy_file = argv[++i];
		else if (strcmp(argv[i], "--prometheus") == 0 && i + 1 < argc)
			prom_spec = argv[++i];
		else if (strcmp(argv[i], "--check-policy") == 0 && i + 1 < argc) {
			policy_file = argv[++i];
			check_only = 1;
		}
		else if (strcmp(argv[i], "--status") == 0)
			ask_status = 1;
		else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("uncored (papi-uncore) %s\n", PAPI_UNCORE_VERSION);
			return 0;
		} else {
			fprintf(stderr, "uncored: unknown option %s\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (ask_status)
		return status(sock);
	if (policy_file && uncored_policy_load(policy_file, &policy) < 0) {
		fprintf(stderr, "uncored: %s\n", uncore_error_detail());
		return 2;
	}
	if (check_only) {
		printf("uncored: policy %s is valid\n", policy_file);
		uncored_policy_free(policy);
		return 0;
	}
	if (uncore_settings_read(&settings) < 0) {
		fprintf(stderr, "uncored: %s\n", uncore_error_detail());
		return 1;
	}
	/* The service owns the uncore itself: never a client of another. */
	snprintf(settings.service, sizeof(settings.service), "none");
	if (strcasecmp(settings.backend, "service") == 0)
		settings.backend[0] = '\0';
	if (sim) {
		snprintf(settings.backend, sizeof(settings.backend), "sim");
		if (model)
			snprintf(settings.sim, sizeof(settings.sim), "%s", model);
		if (scenario)
			snprintf(settings.sim_scenario, sizeof(settings.sim_scenario), "%s", scenario);
		if (kernel)
			snprintf(settings.sim_kernel, sizeof(settings.sim_kernel), "%s", kernel);
	}
	struct uncore_component *comp;
	if (uncore_component_open(&settings, &comp) < 0) {
		fprintf(stderr, "uncored: %s\n", uncore_error_detail());
		return 1;
	}
	/* The Prometheus endpoint: its own event sets on the same counters,
	 * counting before the socket exists (a client or a test that sees it
	 * sees them counting). */
	struct uncored_prom *prom = NULL;
	int pfd_http = -1;
	if (prom_spec) {
		char host[256] = "localhost";
		gethostname(host, sizeof(host) - 1);
		if ((pfd_http = prom_http_listen(prom_spec)) < 0 ||
		    uncored_prom_create(comp->share, comp->be, &comp->clock, host,
					strstr(comp->origin, "SIMULATED") != NULL, &prom) < 0) {
			if (pfd_http >= 0)
				fprintf(stderr, "uncored: --prometheus: %s\n", uncore_error_detail());
			uncore_component_close(comp);
			return 1;
		}
	}
	struct uncored_snapshot *snap;
	struct uncored_server *srv;
	int ro = -1, lfd;
	if (make_snapshot(&snap, &ro) < 0 || uncored_server_create(&(struct uncored_server_config){comp->share, comp->be, &comp->clock, comp->origin, policy}, snap, &srv) < 0 ||
	    (lfd = listen_at(sock)) < 0) {
		uncore_component_close(comp);
		return 1;
	}
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "uncored: serving %s: %s; %s%s\n", sock, comp->origin,
		policy_file ? "policy " : "the default policy (no --policy)",
		policy_file ? policy_file : "");

	/* pfd[0]: the socket, pfd[1]: the Prometheus endpoint (or none:
	 * poll skips a negative descriptor), then the clients. */
	static struct pollfd pfd[MAX_CLIENTS + 2];
	static struct uncored_client *cl[MAX_CLIENTS + 2];
	static char msg[sizeof(struct uncored_request) + 1];
	static _Alignas(uint64_t) char reply[UNCORED_MSG_MAX];
	nfds_t n = 2;
	uint64_t last_samples = 0, last_ms = mono_ms();
	pfd[0] = (struct pollfd){.fd = lfd, .events = POLLIN};
	pfd[1] = (struct pollfd){.fd = pfd_http, .events = POLLIN};
	while (!stop) {
		/* A sample at least every UNCORED_SAMPLE_PERIOD_MS while anything
		 * is counted (how old a client's plain read may be), and often
		 * enough that no counter wraps unseen (backend.h); a client's
		 * SAMPLE or ADD counts as one. */
		uint64_t ns = uncored_server_poll_ns(srv), now = mono_ms();
		struct uncored_status st;
		uncored_server_status(srv, &st);
		if (st.samples != last_samples) {
			last_samples = st.samples;
			last_ms = now;
		}
		int timeout = -1;
		if (ns != UINT64_MAX) {
			uint64_t period = ns / 2000000 < UNCORED_SAMPLE_PERIOD_MS ? ns / 2000000
										 : UNCORED_SAMPLE_PERIOD_MS;
			if (now - last_ms >= period) {
				if (uncored_server_sample(srv) < 0)
					uncore_error_clear();
				continue;
			}
			timeout = (int)(period - (now - last_ms));
		}
		int k = poll(pfd, n, timeout);
		if (k < 0 && errno != EINTR)
			break;
		if (k == 0)
			continue;
		if (k > 0 && (pfd[0].revents & POLLIN)) {
			int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
			if (c >= 0 && (n == MAX_CLIENTS + 2 || uncored_client_new(srv, &cl[n]) < 0)) {
				close(c); /* full: the client's connect gets an error reply */
				uncore_error_clear();
			} else if (c >= 0) {
				struct uncored_peer peer;
				peer_of(c, &peer);
				uncored_client_set_peer(cl[n], &peer);
				pfd[n++] = (struct pollfd){.fd = c, .events = POLLIN};
			}
		}
		if (k > 0 && (pfd[1].revents & POLLIN))
			prom_http_serve(pfd_http, prom);
		for (nfds_t i = 2; k > 0 && i < n; i++) {
			if (!pfd[i].revents)
				continue;
			ssize_t len = (pfd[i].revents & POLLIN)
					  ? recv(pfd[i].fd, msg, sizeof(msg), MSG_DONTWAIT | MSG_TRUNC)
					  : 0;
			if (len < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			size_t rlen;
			int with_snapshot, gone = len <= 0;
			if (!gone) {
				uncored_server_handle(srv, cl[i], msg, (size_t)len, reply, &rlen,
						      &with_snapshot);
				gone = send_reply(pfd[i].fd, reply, rlen, with_snapshot ? ro : -1) < 0;
			}
			if (gone) { /* exited, killed, or not reading: free what it held */
				uncored_client_free(srv, cl[i]);
				close(pfd[i].fd);
				pfd[i] = pfd[n - 1];
				cl[i] = cl[n - 1];
				n--;
				i--;
			}
		}
	}
	/* Clients' plain reads see it without a system call. */
	__atomic_store_n(&snap->closed, 1, __ATOMIC_RELEASE);
	for (nfds_t i = 2; i < n; i++)
		close(pfd[i].fd);
	uncored_prom_destroy(prom);
	if (pfd_http >= 0)
		close(pfd_http);
	uncored_server_destroy(srv);
	uncored_policy_free(policy);
	uncore_component_close(comp);
	close(lfd);
	unlink(sock);
	fprintf(stderr, "uncored: stopped\n");
	return 0;
}
