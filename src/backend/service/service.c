/* The service backend (service.h): one connection to uncored per process,
 * a request and its reply at a time (the hub serialises every call). */
#define _GNU_SOURCE
#include "backend/service/service.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/uncore_error.h"
#include "events/parse.h"
#include "events/registry.h"
#include "backend/service/protocol.h"
#include "backend/service/snapshot.h"

struct svc {
	struct uncore_backend base;
	int fd;
	char path[108];
	const struct uncored_snapshot *snap;
	uint32_t *index; /* per slot of the plan: where its total is */
	unsigned nslots;
	uint32_t *ids; /* the service's events of the plan */
	unsigned nids;
	uint64_t syscalls, reads;
	void *buf; /* UNCORED_MSG_MAX bytes */
	char group[UNCORED_NAME_MAX];
	/* The connection broke (the service stopped or restarted): every
	 * request fails saying so until the next program reconnects. */
	int lost;
};

static int connect_hello(struct svc *s, int first);

/* One request and its reply (len bytes into s->buf); fd: a descriptor
 * sent with it (HELLO), else NULL. */
static int call(struct svc *s, uint32_t op, uint32_t id, const char *name, size_t *len, int *fd)
{
	struct uncored_request q;
	memset(&q, 0, sizeof(q));
	q.magic = UNCORED_MAGIC;
	q.version = UNCORED_VERSION;
	q.op = op;
	q.id = id;
	if (name)
		snprintf(q.name, sizeof(q.name), "%s", name);
	if (s->lost)
		return uncore_fail(UNCORE_EIO,
				   "uncored at %s went away: the counts since are lost; the next "
				   "PAPI_start reconnects once it runs again",
				   s->path);
	s->syscalls += 2;
	if (send(s->fd, &q, sizeof(q), MSG_NOSIGNAL) != (ssize_t)sizeof(q)) {
		s->lost = 1;
		return uncore_fail(UNCORE_EIO,
				   "uncored at %s went away (%s): the counts since are lost; the "
				   "next PAPI_start reconnects once it runs again",
				   s->path, strerror(errno));
	}
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {s->buf, UNCORED_MSG_MAX};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			   .msg_controllen = sizeof(ctl)};
	ssize_t n;
	do
		n = recvmsg(s->fd, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		s->lost = 1;
		return uncore_fail(UNCORE_EIO,
				   "uncored at %s went away (%s): the counts since are lost; the "
				   "next PAPI_start reconnects once it runs again",
				   s->path, n == 0 ? "connection closed" : strerror(errno));
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int got;
			memcpy(&got, CMSG_DATA(c), sizeof(got));
			if (fd && *fd < 0)
				*fd = got;
			else
				close(got);
		}
	if (m.msg_flags & MSG_TRUNC)
		return uncore_fail(UNCORE_EIO, "uncored at %s: a reply too long", s->path);
	*len = (size_t)n;
	return uncored_reply_check(s->buf, *len, op);
}

static void drop_events(struct svc *s)
{
	size_t len;
	for (unsigned i = 0; i < s->nids && !s->lost; i++)
		if (call(s, UNCORED_REMOVE, s->ids[i], NULL, &len, NULL) < 0)
			uncore_error_clear(); /* the service frees them with the connection */
	free(s->ids);
	free(s->index);
	s->ids = NULL;
	s->index = NULL;
	s->nids = s->nslots = 0;
}

static int svc_unprogram(struct uncore_backend *b)
{
	drop_events((struct svc *)b);
	return 0;
}

static int svc_program(struct uncore_backend *b, const struct uncore_plan *plan)
{
	struct svc *s = (struct svc *)b;
	drop_events(s);
	/* A service restarted since: a new connection, the same machine. */
	if (s->lost) {
		int rc = connect_hello(s, 0);
		if (rc < 0)
			return rc;
	}
	s->ids = calloc(plan->nevents ? plan->nevents : 1, sizeof(*s->ids));
	s->index = malloc((plan->nslots ? plan->nslots : 1) * sizeof(*s->index));
	if (!s->ids || !s->index) {
		drop_events(s);
		return uncore_fail(UNCORE_ENOMEM, "service backend: out of memory");
	}
	for (unsigned k = 0; k < plan->nslots; k++)
		s->index[k] = UINT32_MAX; /* reads 0 until an event claims it */
	s->nslots = plan->nslots;
	for (unsigned e = 0; e < plan->nevents; e++) {
		char name[UNCORED_NAME_MAX];
		size_t len;
		const struct uncore_sched_event *ev = &plan->ev[e];
		int rc = ev->ref.box ? uncore_event_format(&ev->ref, name, sizeof(name))
				     : uncore_fail(UNCORE_ENOSUPP,
						   "%s: uncored counts the tables' events, not the "
						   "kernel's own PMUs",
						   ev->name ? ev->name : "event");
		if (rc == 0)
			rc = call(s, UNCORED_ADD, 0, name, &len, NULL);
		if (rc < 0) {
			struct uncore_saved_error err;
			uncore_error_save(&err, rc);
			drop_events(s);
			return uncore_error_restore(&err);
		}
		const struct uncored_reply *h = s->buf;
		const struct uncored_add_reply *r = (const void *)(h + 1);
		s->ids[s->nids++] = r->id;
		/* Each slot of the event takes the total of the same box
		 * instance on the service's side. */
		for (unsigned j = 0; j < plan->count[e]; j++) {
			unsigned k = plan->slot_index[plan->first[e] + j];
			const struct uncore_slot *sl = &plan->slots[k];
			for (unsigned i = 0; i < h->n; i++)
				if (r->slot[i].socket == sl->socket && r->slot[i].box == sl->box &&
				    r->slot[i].instance == sl->instance && s->index[k] == UINT32_MAX)
					s->index[k] = r->slot[i].index;
		}
	}
	return 0;
}

static int svc_start(struct uncore_backend *b)
{
	(void)b; /* the service counts already: totals are read as differences */
	return 0;
}

static int svc_stop(struct uncore_backend *b)
{
	(void)b;
	return 0;
}

/* A fresh sample into the snapshot: one round trip (an interval's start
 * and end, backend.h). */
static int svc_sample(struct uncore_backend *b)
{
	struct svc *s = (struct svc *)b;
	size_t len;
	return call(s, UNCORED_SAMPLE, 0, NULL, &len, NULL);
}

/* The totals of the plan's slots out of the snapshot as of the service's
 * last sample (at most UNCORED_SAMPLE_PERIOD_MS old while it runs): a few
 * loads, no system call.  A service that stopped has said so in the
 * snapshot; one killed is noticed at the next sample (start, stop). */
static int svc_read(struct uncore_backend *b, uint64_t *raw)
{
	struct svc *s = (struct svc *)b;
	s->reads++;
	b->read_scaled = 0;
	if (__builtin_expect(s->lost || __atomic_load_n(&s->snap->closed, __ATOMIC_ACQUIRE), 0)) {
		s->lost = 1;
		for (unsigned k = 0; k < s->nslots; k++)
			raw[k] = UNCORE_RAW_UNREAD;
		return uncore_fail(UNCORE_EIO,
				   "uncored at %s went away: the counts since are lost; the next "
				   "PAPI_start reconnects once it runs again",
				   s->path);
	}
	uncored_snapshot_read(s->snap, s->index, s->nslots, raw);
	return 0;
}

int uncore_service_now(void *ctx, uint64_t *ns)
{
	const struct svc *s = ctx;
	*ns = uncored_snapshot_instant(s->snap);
	return 0;
}

static void svc_destroy(struct uncore_backend *b)
{
	struct svc *s = (struct svc *)b;
	if (!s)
		return;
	free(s->ids);
	free(s->index);
	if (s->snap)
		munmap((void *)s->snap, uncored_snapshot_size());
	if (s->fd >= 0)
		close(s->fd); /* the service frees this process's events */
	free(s->buf);
	free(s);
}

static int svc_stats(struct uncore_backend *b, struct uncore_backend_stats *out)
{
	struct svc *s = (struct svc *)b;
	memset(out, 0, sizeof(*out));
	out->reads = s->reads;
	out->syscalls = s->syscalls;
	return 0;
}

static const struct uncore_backend_ops svc_ops = {
    .name = "service",
    .program = svc_program,
    .start = svc_start,
    .stop = svc_stop,
    .read = svc_read,
    .unprogram = svc_unprogram,
    .destroy = svc_destroy,
    .stats = svc_stats,
    .sample = svc_sample,
};

/* Connect and say HELLO: the snapshot mapped; first: the machine taken
 * from the service, else checked to be the one counted so far. */
static int connect_hello(struct svc *s, int first)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	const char *path = s->path;
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	if (s->fd >= 0)
		close(s->fd);
	s->syscalls += 2;
	s->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		int e = errno;
		return uncore_fail(e == EACCES || e == EPERM ? UNCORE_EPERM : UNCORE_ENODEV,
				   "no uncored at %s (%s): start it (uncored --sim, or the uncored "
				   "systemd unit) or set PAPI_INTEL_UNCORE_SERVICE to its socket",
				   path, strerror(e));
	}
	s->lost = 0;
	size_t len;
	int fd = -1;
	int rc = call(s, UNCORED_HELLO, 0, s->group, &len, &fd);
	const struct uncored_hello *hello = (const void *)((const struct uncored_reply *)s->buf + 1);
	const struct uncored_snapshot *snap = NULL;
	if (rc == 0 && fd < 0)
		rc = uncore_fail(UNCORE_EIO, "uncored at %s sent no snapshot", path);
	if (rc == 0) {
		void *p = mmap(NULL, uncored_snapshot_size(), PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			rc = uncore_fail(UNCORE_EIO, "cannot map uncored's snapshot: %s",
					 strerror(errno));
		else
			snap = p;
	}
	if (fd >= 0)
		close(fd);
	if (rc == 0 && (snap->magic != UNCORED_SNAPSHOT_MAGIC ||
			snap->nvalues != UNCORED_SNAPSHOT_VALUES))
		rc = uncore_fail(UNCORE_EIO, "uncored at %s: a snapshot of another version", path);
	char platform[sizeof(hello->platform) + 1] = "";
	if (rc == 0) {
		memcpy(platform, hello->platform, sizeof(hello->platform));
		if (first) {
			s->base.machine = hello->machine;
			s->base.machine.plat = uncore_event_platform_by_name(platform);
			if (!s->base.machine.plat)
				rc = uncore_fail(UNCORE_ENOSUPP,
						 "uncored at %s counts a %s uncore, which this "
						 "library has no tables for",
						 path, platform);
		} else if (!s->base.machine.plat || strcmp(platform, s->base.machine.plat->name) != 0 ||
			   hello->machine.nsockets != s->base.machine.nsockets)
			rc = uncore_fail(UNCORE_EIO,
					 "uncored at %s restarted counting another machine (%s, %u "
					 "sockets): restart the program",
					 path, platform, hello->machine.nsockets);
	}
	if (rc < 0) {
		if (snap)
			munmap((void *)snap, uncored_snapshot_size());
		s->lost = 1;
		return rc;
	}
	if (s->snap)
		munmap((void *)s->snap, uncored_snapshot_size());
	s->snap = snap;
	if (first) {
		char o[sizeof(hello->origin) + 1];
		memcpy(o, hello->origin, sizeof(hello->origin));
		o[sizeof(hello->origin)] = '\0';
		snprintf(s->base.machine.origin, sizeof(s->base.machine.origin), "%.150s", o);
	}
	return 0;
}

int uncore_service_open(const char *path, const char *group, struct uncore_backend **out,
			char *origin, size_t olen)
{
	struct sockaddr_un addr;
	if (strlen(path) >= sizeof(addr.sun_path))
		return uncore_fail(UNCORE_EINVAL, "uncored socket path too long: %s", path);
	struct svc *s = calloc(1, sizeof(*s));
	if (!s || !(s->buf = malloc(UNCORED_MSG_MAX))) {
		if (s)
			free(s);
		return uncore_fail(UNCORE_ENOMEM, "service backend: out of memory");
	}
	s->base.ops = &svc_ops;
	s->base.value_bits = 64;
	s->fd = -1;
	snprintf(s->path, sizeof(s->path), "%s", path);
	snprintf(s->group, sizeof(s->group), "%s", group ? group : "");
	int rc = connect_hello(s, 1);
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		svc_destroy(&s->base);
		return uncore_error_restore(&err);
	}
	/* How old a plain read may be, said before what may be cut. */
	snprintf(origin, olen, "uncored at %s (reads <= %u ms old): %s", path,
		 UNCORED_SAMPLE_PERIOD_MS, s->base.machine.origin);
	*out = &s->base;
	return 0;
}
