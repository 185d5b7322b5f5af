/* uncored's clients and events (server.h).  An event is an event set of
 * one counted event on a view of the component's shared counters; its box
 * instances' 64-bit totals (the view's read: the hub's totals, counted
 * since the event was first programmed) are published at indexes of the
 * snapshot reserved for it, which the ADD reply gives the client. */
#define _GNU_SOURCE
#include "service/server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/uncore_error.h"
#include "eventset/eventset.h"
#include "eventset/share.h"
#include "events/registry.h"

struct svc_event {
	uint32_t id;
	struct uncore_backend *view;
	struct uncore_set *set;
	unsigned nslots;
	uint32_t base; /* snapshot indexes base .. base + nslots - 1 */
	uint64_t *raw;
	uint32_t counting; /* sockets (bits) this client counts for its group */
};

struct uncored_client {
	struct uncored_client *next;
	struct svc_event *ev[UNCORED_CLIENT_MAX_EVENTS];
	unsigned nev;
	uint32_t next_id;
	struct uncored_peer peer;
	char group[UNCORED_NAME_MAX]; /* "" until HELLO names one: alone */
	int hello; /* its HELLO was answered: it counts among its user's clients */
};

struct uncored_server {
	struct uncored_server_config cfg;
	struct uncored_snapshot *snap;
	struct uncored_client *clients;
	uint8_t used[UNCORED_SNAPSHOT_VALUES]; /* snapshot indexes reserved */
	uint64_t samples;
	uint64_t sample_window; /* how long a sample takes unpreempted (read_sample) */
	/* read_events' lists of every event's view and raw buffer (grown,
	 * never shrunk: a sample allocates nothing once they fit). */
	struct uncore_backend **rd_views;
	uint64_t **rd_raws;
	unsigned rd_cap;
};

int uncored_server_create(const struct uncored_server_config *cfg, struct uncored_snapshot *snap,
			  struct uncored_server **out)
{
	struct uncored_server *srv = calloc(1, sizeof(*srv));
	if (!srv)
		return uncore_fail(UNCORE_ENOMEM, "uncored: out of memory");
	srv->cfg = *cfg;
	srv->snap = snap;
	uncored_snapshot_init(snap);
	*out = srv;
	return 0;
}

void uncored_server_destroy(struct uncored_server *srv)
{
	if (!srv)
		return;
	while (srv->clients)
		uncored_client_free(srv, srv->clients);
	free(srv->rd_views);
	free(srv->rd_raws);
	free(srv);
}

int uncored_client_new(struct uncored_server *srv, struct uncored_client **out)
{
	struct uncored_client *cl = calloc(1, sizeof(*cl));
	if (!cl)
		return uncore_fail(UNCORE_ENOMEM, "uncored: out of memory");
	cl->next_id = 1;
	cl->next = srv->clients;
	srv->clients = cl;
	*out = cl;
	return 0;
}

void uncored_client_set_peer(struct uncored_client *cl, const struct uncored_peer *peer)
{
	cl->peer = *peer;
	cl->peer.comm[sizeof(cl->peer.comm) - 1] = '\0';
}

/* The client of `cl`'s measurement group (same user, same key) other than
 * `cl` that counts socket s, or NULL. */
static const struct uncored_client *group_holder(const struct uncored_server *srv,
						 const struct uncored_client *cl, unsigned s)
{
	if (!cl->group[0])
		return NULL; /* alone: nobody shares its counting */
	for (const struct uncored_client *o = srv->clients; o; o = o->next) {
		if (o == cl || o->peer.uid != cl->peer.uid || strcmp(o->group, cl->group) != 0)
			continue;
		for (unsigned i = 0; i < o->nev; i++)
			if (o->ev[i]->counting & (1u << s))
				return o;
	}
	return NULL;
}

/* n consecutive free snapshot indexes, first fit: 0 and *base, or ENOSPACE. */
static int reserve(struct uncored_server *srv, unsigned n, uint32_t *base)
{
	for (uint32_t b = 0, run = 0; b < UNCORED_SNAPSHOT_VALUES; b++) {
		run = srv->used[b] ? 0 : run + 1;
		if (run == n) {
			*base = b + 1 - n;
			memset(&srv->used[*base], 1, n);
			return 0;
		}
	}
	return uncore_fail(UNCORE_ENOSPACE,
			   "uncored: the snapshot has no room for %u more totals (%u in all)", n,
			   UNCORED_SNAPSHOT_VALUES);
}

static void event_free(struct uncored_server *srv, struct svc_event *e)
{
	if (!e)
		return;
	if (e->set) {
		if (uncore_set_running(e->set) && uncore_set_stop(e->set, NULL) < 0)
			uncore_error_clear();
		uncore_set_destroy(e->set);
	}
	if (e->view)
		e->view->ops->destroy(e->view);
	if (e->nslots)
		memset(&srv->used[e->base], 0, e->nslots);
	free(e->raw);
	free(e);
}

void uncored_client_free(struct uncored_server *srv, struct uncored_client *cl)
{
	for (struct uncored_client **p = &srv->clients; *p; p = &(*p)->next)
		if (*p == cl) {
			*p = cl->next;
			break;
		}
	for (unsigned i = 0; i < cl->nev; i++)
		event_free(srv, cl->ev[i]);
	free(cl);
}

static struct uncored_who who_of(const struct uncored_client *cl, uint32_t *gids)
{
	unsigned n = 0;
	gids[n++] = cl->peer.gid;
	for (unsigned i = 0; i < cl->peer.ngroups && i < UNCORED_PEER_MAX_GROUPS; i++)
		gids[n++] = cl->peer.groups[i];
	return (struct uncored_who){cl->peer.uid, n, gids};
}

/* Whether a kernel format field's name is a thread-id filter's
 * ("filter_tid", "tid_en": uncore_snbep.c's names). */
static int tid_field(const char *perf)
{
	return perf && strstr(perf, "tid") != NULL;
}

/* What the policy decides on (policy.h): the event's box kind, the
 * modifiers it is given, and whether it is a raw encoding (raw fields
 * event=..., or a kernel PMU's own event) or singles out one core or
 * thread (a modifier or a set filter field the kernel calls a TID filter:
 * HSX uncore 2.3.4 Cn_MSR_PMON_BOX_FILTER0, SKX CHA FILTER0). */
static int policy_allows(const struct uncored_server *srv, const struct uncored_client *cl,
			 const struct uncore_entry *en)
{
	const struct uncore_box_type *box = en->ev.ref.box;
	const char *mods[UNCORE_EVENT_MAX_MODS];
	uint8_t thread[UNCORE_EVENT_MAX_MODS] = {0};
	struct uncored_what w = {box ? box->kind : "kernel", 0, mods, 0, thread};
	const char *raw = strcasestr(en->name, "event=");
	if (en->from_source || !box ||
	    (raw && raw > en->name && strchr(":/,", raw[-1])))
		w.sensitive |= UNCORED_QUAL_RAW;
	for (unsigned i = 0; box && i < en->ev.ref.nmods && i < UNCORE_EVENT_MAX_MODS; i++) {
		const struct uncore_mod_desc *m = &box->mods[en->ev.ref.mods[i].mod];
		mods[w.nmods] = m->name;
		thread[w.nmods++] = tid_field(m->perf) || tid_field(m->perf_also);
		if (thread[w.nmods - 1])
			w.sensitive |= UNCORED_QUAL_THREAD;
	}
	for (unsigned n = 0; box && n < box->nfilters && n < UNCORE_MAX_FILTERS; n++) {
		const struct uncore_filter_desc *f = &box->filters[n];
		for (unsigned k = 0; f->fields[k]; k++)
			if (f->perf && tid_field(f->perf[k]) &&
			    (en->ev.enc.filter_mask[n] & en->ev.enc.filter[n] & f->fields[k]))
				w.sensitive |= UNCORED_QUAL_THREAD;
	}
	uint32_t gids[UNCORED_PEER_MAX_GROUPS + 1];
	const struct uncored_who who = who_of(cl, gids);
	return uncored_policy_check(srv->cfg.policy, &who, &w);
}

/* Validate `name` as the component does and count it: the event and its
 * slots into `r`. */
static int add_event(struct uncored_server *srv, struct uncored_client *cl, const char *name,
		     struct uncored_add_reply *r, uint32_t *nslots, char *note, size_t nlen)
{
	struct svc_event *e;
	unsigned idx;
	uint32_t gids[UNCORED_PEER_MAX_GROUPS + 1];
	const struct uncored_who who = who_of(cl, gids);
	unsigned line;
	uint32_t most = uncored_policy_limit(srv->cfg.policy, &who, UNCORED_LIMIT_EVENTS, &line);
	if (cl->nev >= most)
		return uncore_fail(UNCORE_ENOSPACE,
				   "uncored policy (%s line %u): a client of user %u counts at most "
				   "%u events",
				   uncored_policy_origin(srv->cfg.policy), line, cl->peer.uid, most);
	if (cl->nev == UNCORED_CLIENT_MAX_EVENTS)
		return uncore_fail(UNCORE_ENOSPACE, "uncored: a client counts at most %u events",
				   UNCORED_CLIENT_MAX_EVENTS);
	if (!(e = calloc(1, sizeof(*e))))
		return uncore_fail(UNCORE_ENOMEM, "uncored: out of memory");
	struct uncore_entry en;
	int rc = uncore_share_view(srv->cfg.share, &e->view);
	if (rc == 0)
		rc = uncore_set_create_clocked(e->view, srv->cfg.clock, &e->set);
	if (rc == 0)
		rc = uncore_set_resolve(e->set, name, &en);
	/* The policy decides before anything is programmed. */
	if (rc == 0 && en.kind == UNCORE_ENTRY_EVENT)
		rc = policy_allows(srv, cl, &en);
	if (rc == 0)
		rc = uncore_set_add_entry(e->set, &en, &idx);
	if (rc == 0 && uncore_set_entry(e->set, 0)->kind != UNCORE_ENTRY_EVENT)
		rc = uncore_fail(UNCORE_EINVAL,
				 "uncored: %s is a metric; ask for the events it is computed from",
				 name);
	if (rc == 0)
		rc = uncore_set_start(e->set);
	const struct uncore_plan *p = rc == 0 ? uncore_set_plan(e->set) : NULL;
	if (rc == 0 && (!p || p->nslots == 0 || p->nslots > UNCORED_EVENT_MAX_SLOTS))
		rc = uncore_fail(UNCORE_ENOSUPP, "uncored: %s counts on %u box instances (1 to %u)",
				 name, p ? p->nslots : 0, UNCORED_EVENT_MAX_SLOTS);
	if (rc == 0)
		rc = reserve(srv, p->nslots, &e->base);
	if (rc == 0) {
		e->nslots = p->nslots;
		e->raw = calloc(p->nslots, sizeof(*e->raw));
		if (!e->raw)
			rc = uncore_fail(UNCORE_ENOMEM, "uncored: out of memory");
	}
	if (rc < 0) {
		struct uncore_saved_error err;
		uncore_error_save(&err, rc);
		event_free(srv, e);
		return uncore_error_restore(&err);
	}
	/* Each socket once within the group: where another client of it
	 * counts already, this event's slots read 0. */
	const struct uncored_client *held[UNCORE_MACHINE_MAX_SOCKETS] = {0};
	size_t used = 0;
	for (unsigned k = 0; k < p->nslots; k++) {
		unsigned s = p->slots[k].socket;
		if (s >= UNCORE_MACHINE_MAX_SOCKETS || held[s] || (e->counting & (1u << s)))
			continue;
		if (!(held[s] = group_holder(srv, cl, s)))
			e->counting |= 1u << s;
		else if (used < nlen)
			used += (size_t)snprintf(note + used, nlen - used,
						 "%ssocket %u counted by PID %d (%s) of measurement "
						 "group %s, reads 0 here",
						 used ? "; " : "", s, (int)held[s]->peer.pid,
						 held[s]->peer.comm, cl->group);
	}
	e->id = cl->next_id++;
	cl->ev[cl->nev++] = e;
	r->id = e->id;
	for (unsigned k = 0; k < p->nslots; k++) {
		unsigned s = p->slots[k].socket;
		int zero = s < UNCORE_MACHINE_MAX_SOCKETS && held[s];
		r->slot[k] = (struct uncored_slot){p->slots[k].socket, p->slots[k].box,
						   p->slots[k].instance,
						   zero ? UNCORED_INDEX_NONE : e->base + k};
	}
	*nslots = p->nslots;
	return 0;
}

static int remove_event(struct uncored_server *srv, struct uncored_client *cl, uint32_t id)
{
	for (unsigned i = 0; i < cl->nev; i++)
		if (cl->ev[i]->id == id) {
			event_free(srv, cl->ev[i]);
			cl->ev[i] = cl->ev[--cl->nev];
			return 0;
		}
	return uncore_fail(UNCORE_EINVAL, "uncored: no event %u of this client", id);
}

/* Room in read_events' lists for n events: 0, or -1 when it cannot grow
 * (no error set: the events are then read one at a time). */
static int read_lists_fit(struct uncored_server *srv, unsigned n)
{
	if (n <= srv->rd_cap)
		return 0;
	struct uncore_backend **v = realloc(srv->rd_views, n * sizeof(*v));
	if (v)
		srv->rd_views = v;
	uint64_t **r = v ? realloc(srv->rd_raws, n * sizeof(*r)) : NULL;
	if (!r)
		return -1;
	srv->rd_raws = r;
	srv->rd_cap = n;
	return 0;
}

/* Every event's read into its raw buffer: 0 or the first error (a failed
 * read still gives what it could read, backend.h).  One reading of the
 * counters for all of them (uncore_share_read_views): their values are of
 * one instant, the sample's, and a sample costs one read of the registers
 * however many events the clients hold (one per event before). */
static int read_events(struct uncored_server *srv)
{
	unsigned n = 0;
	for (struct uncored_client *cl = srv->clients; cl; cl = cl->next)
		n += cl->nev;
	if (n && read_lists_fit(srv, n) == 0) {
		unsigned k = 0;
		for (struct uncored_client *cl = srv->clients; cl; cl = cl->next)
			for (unsigned i = 0; i < cl->nev; i++, k++) {
				srv->rd_views[k] = cl->ev[i]->view;
				srv->rd_raws[k] = cl->ev[i]->raw;
			}
		return uncore_share_read_views(srv->rd_views, srv->rd_raws, n);
	}
	int first_rc = 0;
	for (struct uncored_client *cl = srv->clients; cl; cl = cl->next)
		for (unsigned i = 0; i < cl->nev; i++) {
			int rc = cl->ev[i]->view->ops->read(cl->ev[i]->view, cl->ev[i]->raw);
			if (rc < 0 && first_rc == 0)
				first_rc = rc;
		}
	return first_rc;
}

/* A sample's reads, clocked on the service's clock (its component's:
 * CLOCK_MONOTONIC, or the simulated node's time) just before and just
 * after them; its instant, published with its values, is the middle
 * (*instant; the previous sample's when the clock fails: its clients'
 * metrics then see no time pass, never time without its counts).  The
 * events are read one after the other, so a sample preempted half-way
 * would put its instant far from some of its values: it is made again,
 * SAMPLE_AGAIN times at most, by the rule of an event set's own reads
 * (eventset/clock.h, uncore_read_preempted; the first sample, with no
 * shortest one yet, is made twice when it is that long). */
#define SAMPLE_AGAIN 8

static int read_sample(struct uncored_server *srv, uint64_t *instant)
{
	uint64_t b = 0, a = 0, best = srv->sample_window;
	int rc = 0, timed = 0;
	for (int again = 0; again <= SAMPLE_AGAIN; again++) {
		timed = uncore_clock_now(srv->cfg.clock, &b) == 0;
		rc = read_events(srv);
		timed = timed && uncore_clock_now(srv->cfg.clock, &a) == 0 && a >= b;
		if (!timed || rc < 0)
			break;
		uint64_t d = a - b;
		if (!uncore_read_preempted(d, best))
			break;
		if (!best || d < best)
			best = d;
	}
	if (!timed) {
		*instant = srv->snap->sample_ns;
		return rc;
	}
	uncore_read_window_note(&srv->sample_window, a - b);
	*instant = b + (a - b) / 2;
	return rc;
}

int uncored_server_sample(struct uncored_server *srv)
{
	uint64_t instant;
	int first_rc = read_sample(srv, &instant);
	/* Published at once: readers wait only while the values are copied. */
	uncored_snapshot_begin(srv->snap);
	for (struct uncored_client *cl = srv->clients; cl; cl = cl->next)
		for (unsigned i = 0; i < cl->nev; i++) {
			const struct svc_event *e = cl->ev[i];
			for (unsigned k = 0; k < e->nslots; k++)
				if (e->raw[k] != UNCORE_RAW_UNREAD)
					uncored_snapshot_set(srv->snap, e->base + k, e->raw[k]);
		}
	uncored_snapshot_end(srv->snap, instant);
	srv->samples++;
	return first_rc;
}

uint64_t uncored_server_poll_ns(const struct uncored_server *srv)
{
	uint64_t best = UINT64_MAX, ns;
	for (const struct uncored_client *cl = srv->clients; cl; cl = cl->next)
		for (unsigned i = 0; i < cl->nev; i++)
			if (uncore_set_max_read_interval(cl->ev[i]->set, &ns) == 0 && ns < best)
				best = ns;
	uncore_error_clear();
	return best;
}

void uncored_server_status(const struct uncored_server *srv, struct uncored_status *out)
{
	memset(out, 0, sizeof(*out));
	for (const struct uncored_client *cl = srv->clients; cl; cl = cl->next) {
		out->clients++;
		out->events += cl->nev;
		for (unsigned i = 0; i < cl->nev; i++)
			out->slots += cl->ev[i]->nslots;
	}
	out->samples = srv->samples;
}

/* The policy's limit of clients of cl's user (the others connected). */
static int clients_allowed(const struct uncored_server *srv, const struct uncored_client *cl)
{
	uint32_t gids[UNCORED_PEER_MAX_GROUPS + 1];
	const struct uncored_who who = who_of(cl, gids);
	unsigned line, others = 0;
	uint32_t most = uncored_policy_limit(srv->cfg.policy, &who, UNCORED_LIMIT_CLIENTS, &line);
	for (const struct uncored_client *o = srv->clients; o; o = o->next)
		if (o != cl && o->hello && o->peer.uid == cl->peer.uid)
			others++;
	if (others >= most)
		return uncore_fail(UNCORE_ELIMIT,
				   "uncored policy (%s line %u): user %u holds at most %u clients "
				   "(connections) at once",
				   uncored_policy_origin(srv->cfg.policy), line, cl->peer.uid, most);
	return 0;
}

void uncored_server_handle(struct uncored_server *srv, struct uncored_client *cl, const void *msg,
			   size_t len, void *reply, size_t *rlen, int *send_snapshot)
{
	struct uncored_request q;
	struct uncored_reply *h = reply;
	void *payload = (char *)reply + sizeof(*h);
	uint32_t n = 0;
	char note[UNCORED_DETAIL_MAX] = "";
	int rc;
	uncore_error_clear();
	*send_snapshot = 0;
	memset(h, 0, sizeof(*h));
	rc = uncored_request_check(msg, len, &q);
	h->op = rc == 0 ? q.op : 0;
	if (rc == 0) {
		switch (q.op) {
		case UNCORED_HELLO: {
			struct uncored_hello *hello = payload;
			if ((rc = clients_allowed(srv, cl)) < 0)
				break;
			cl->hello = 1;
			snprintf(cl->group, sizeof(cl->group), "%s", q.name);
			const struct uncore_backend *be = srv->cfg.be;
			memset(hello, 0, sizeof(*hello));
			snprintf(hello->platform, sizeof(hello->platform), "%s", be->machine.plat->name);
			snprintf(hello->origin, sizeof(hello->origin), "%s", srv->cfg.origin);
			hello->snapshot_values = UNCORED_SNAPSHOT_VALUES;
			hello->machine = be->machine;
			hello->machine.plat = NULL;
			*send_snapshot = 1;
			break;
		}
		case UNCORED_ADD:
			rc = add_event(srv, cl, q.name, payload, &n, note, sizeof(note));
			/* Its totals published at once; a read's fault is the
			 * next SAMPLE's to report. */
			if (rc == 0 && uncored_server_sample(srv) < 0)
				uncore_error_clear();
			break;
		case UNCORED_REMOVE: rc = remove_event(srv, cl, q.id); break;
		case UNCORED_SAMPLE: rc = uncored_server_sample(srv); break;
		case UNCORED_STATUS: uncored_server_status(srv, payload); break;
		}
	}
	h->magic = UNCORED_MAGIC;
	h->status = rc;
	h->n = rc == 0 ? n : 0;
	if (rc < 0) {
		snprintf(h->detail, sizeof(h->detail), "%s",
			 uncore_error_detail()[0] ? uncore_error_detail() : uncore_strerror(rc));
		*rlen = sizeof(*h);
	} else {
		snprintf(h->detail, sizeof(h->detail), "%s", note);
		*rlen = uncored_reply_size(h->op, n);
	}
	uncore_error_clear();
}
