/* uncored's service logic (service/server.h, protocol.h, snapshot.h) on a
 * shared simulated node in virtual time, without sockets: a client's ADD
 * is validated as the component does and its box instances' totals are
 * published where the reply says, exactly (hswep-clocks: UCLK 2.5 GHz, so
 * 4 ms are 10,000,000 UBox cycles a socket); bad names, metrics and
 * malformed messages get error replies; a freed client leaves nothing. */
#include "harness.h"
#include "bind/component.h"
#include "service/server.h"
#include "sim/uncore_sim.h"
#include "support/tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct uncore_settings settings;
static _Alignas(uint64_t) char reply[UNCORED_MSG_MAX];

static const struct uncored_reply *ask(struct uncored_server *srv, struct uncored_client *cl,
				       uint32_t op, uint32_t id, const char *name, size_t *len,
				       int *fd)
{
	struct uncored_request q;
	memset(&q, 0, sizeof(q));
	q.magic = UNCORED_MAGIC;
	q.version = UNCORED_VERSION;
	q.op = op;
	q.id = id;
	if (name)
		snprintf(q.name, sizeof(q.name), "%s", name);
	uncored_server_handle(srv, cl, &q, sizeof(q), reply, len, fd);
	return (const struct uncored_reply *)reply;
}

/* A shared simulated node (e5-2699v3-2s, `scenario` or none) in a
 * directory of its own, and the component counting on it. */
struct node_fixture {
	const char *dir;
	struct uncore_sim *node;
	struct uncore_component *comp;
};

static int fixture_open(struct node_fixture *fx, const char *name, const char *scenario)
{
	char path[512];
	fx->dir = test_mkdtemp(name);
	if (!fx->dir)
		return -1;
	snprintf(path, sizeof(path), "%s/node", fx->dir);
	if (uncore_sim_create("e5-2699v3-2s", path, &fx->node) != 0 ||
	    (scenario && uncore_sim_load_scenario(fx->node, scenario) != 0) ||
	    uncore_settings_read(&settings) != 0)
		return -1;
	snprintf(settings.backend, sizeof(settings.backend), "sim");
	snprintf(settings.sim, sizeof(settings.sim), "%s", path);
	snprintf(settings.service, sizeof(settings.service), "none");
	settings.sim_kernel[0] = settings.sim_scenario[0] = settings.sim_log[0] = '\0';
	return uncore_component_open(&settings, &fx->comp);
}

static void fixture_close(struct node_fixture *fx)
{
	uncore_component_close(fx->comp);
	uncore_sim_destroy(fx->node);
	test_rmtree(fx->dir);
}

TEST(serves_exact_totals)
{
	struct node_fixture fx;
	REQUIRE(fixture_open(&fx, "service", "hswep-clocks") == 0);
	struct uncore_sim *node = fx.node;
	struct uncore_component *comp = fx.comp;
	struct uncored_snapshot *snap = calloc(1, uncored_snapshot_size());
	struct uncored_server *srv;
	struct uncored_client *cl;
	REQUIRE(snap && uncored_server_create(&(struct uncored_server_config){comp->share, comp->be, &comp->clock, comp->origin, NULL}, snap, &srv) == 0);
	REQUIRE(uncored_client_new(srv, &cl) == 0);
	size_t len;
	int fd;

	const struct uncored_reply *h = ask(srv, cl, UNCORED_HELLO, 0, NULL, &len, &fd);
	CHECK_EQ_INT(h->status, 0);
	CHECK_EQ_INT(fd, 1);
	CHECK_EQ_INT((int)len, (int)uncored_reply_size(UNCORED_HELLO, 0));
	const struct uncored_hello *hello = (const void *)(h + 1);
	CHECK_EQ_STR(hello->platform, "hswep");
	CHECK_EQ_INT((int)hello->machine.nsockets, 2);
	CHECK_CONTAINS(hello->origin, "SIMULATED");

	h = ask(srv, cl, UNCORED_ADD, 0, "hswep_unc_ubo::UNC_U_CLOCKTICKS", &len, &fd);
	CHECK_EQ_INT(h->status, 0);
	CHECK_EQ_INT((int)h->n, 2); /* one UBox per socket */
	CHECK_EQ_INT((int)len, (int)uncored_reply_size(UNCORED_ADD, 2));
	struct uncored_add_reply add;
	memcpy(&add, h + 1, len - sizeof(*h));
	uint32_t idx[2] = {add.slot[0].index, add.slot[1].index};
	CHECK(add.slot[0].socket != add.slot[1].socket);
	uint64_t before[2], after[2], t0, t1;
	uncored_snapshot_read(snap, idx, 2, before);
	uint64_t at0 = uncored_snapshot_instant(snap);
	REQUIRE(uncore_clock_now(&comp->clock, &t0) == 0);
	REQUIRE(uncore_sim_advance(node, 4000000) == 0);
	h = ask(srv, cl, UNCORED_SAMPLE, 0, NULL, &len, &fd);
	CHECK_EQ_INT(h->status, 0);
	REQUIRE(uncore_clock_now(&comp->clock, &t1) == 0);
	uncored_snapshot_read(snap, idx, 2, after);
	CHECK_EQ_U64(after[0] - before[0], 10000000);
	CHECK_EQ_U64(after[1] - before[1], 10000000);
	/* The sample's instant is when its values were read, on the node's
	 * virtual time, which moves only when the test moves it: the ADD's
	 * sample at t0, this one 4 ms later (issue 27: a client divides the
	 * counts by the time between two samples' instants). */
	CHECK_EQ_U64(at0, t0);
	CHECK_EQ_U64(uncored_snapshot_instant(snap), t1);
	CHECK_EQ_U64(t1 - t0, 4000000);

	/* Refused, with the component's reasons; the client keeps its event. */
	h = ask(srv, cl, UNCORED_ADD, 0, "hswep_unc_ubo::NO_SUCH_EVENT", &len, &fd);
	CHECK(h->status < 0);
	CHECK_CONTAINS(h->detail, "NO_SUCH_EVENT");
	h = ask(srv, cl, UNCORED_ADD, 0, "hswep_metric::DRAM_BW", &len, &fd);
	CHECK_EQ_INT(h->status, UNCORE_EINVAL);
	CHECK_CONTAINS(h->detail, "is a metric");
	h = ask(srv, cl, UNCORED_REMOVE, 99, NULL, &len, &fd);
	CHECK_EQ_INT(h->status, UNCORE_EINVAL);
	char junk[7] = "garbage";
	uncored_server_handle(srv, cl, junk, sizeof(junk), reply, &len, &fd);
	CHECK_EQ_INT(((const struct uncored_reply *)reply)->status, UNCORE_EINVAL);
	CHECK_CONTAINS(((const struct uncored_reply *)reply)->detail, "a request of 7 bytes");
	struct uncored_request bad;
	memset(&bad, 'x', sizeof(bad)); /* right size, nothing else right */
	uncored_server_handle(srv, cl, &bad, sizeof(bad), reply, &len, &fd);
	CHECK_EQ_INT(((const struct uncored_reply *)reply)->status, UNCORE_EINVAL);

	struct uncored_status st;
	uncored_server_status(srv, &st);
	CHECK_EQ_INT((int)st.clients, 1);
	CHECK_EQ_INT((int)st.events, 1);
	CHECK_EQ_INT((int)st.slots, 2);
	uncored_client_free(srv, cl); /* the connection closed */
	uncored_server_status(srv, &st);
	CHECK_EQ_INT((int)st.clients, 0);
	CHECK_EQ_INT((int)st.events, 0);

	uncored_server_destroy(srv);
	free(snap);
	fixture_close(&fx);
}

/* Each socket once within a measurement group (server.h): the group's
 * second client reads 0 and is told who counts; another user's client
 * naming the same group, and a client alone, count; when the holder goes,
 * the next ADD of the group counts. */
TEST(groups_each_socket_once)
{
	struct node_fixture fx;
	REQUIRE(fixture_open(&fx, "service-groups", "hswep-clocks") == 0);
	struct uncore_sim *node = fx.node;
	struct uncore_component *comp = fx.comp;
	struct uncored_snapshot *snap = calloc(1, uncored_snapshot_size());
	struct uncored_server *srv;
	REQUIRE(snap && uncored_server_create(&(struct uncored_server_config){comp->share, comp->be, &comp->clock, comp->origin, NULL}, snap, &srv) == 0);
	/* rank0, rank1: user 1000, group job; other: user 1001 naming job; alone: no group */
	struct uncored_client *cl[4];
	const struct uncored_peer peers[4] = {{1000, 1000, 11, "rank", 0, {0}}, {1000, 1000, 12, "rank", 0, {0}},
					      {1001, 1001, 13, "spy", 0, {0}}, {1000, 1000, 14, "stat", 0, {0}}};
	const char *group[4] = {"openmpi:7", "openmpi:7", "openmpi:7", ""};
	size_t len;
	int fd;
	uint32_t idx[4][2];
	for (int c = 0; c < 4; c++) {
		REQUIRE(uncored_client_new(srv, &cl[c]) == 0);
		uncored_client_set_peer(cl[c], &peers[c]);
		CHECK_EQ_INT(ask(srv, cl[c], UNCORED_HELLO, 0, group[c], &len, &fd)->status, 0);
		const struct uncored_reply *h =
		    ask(srv, cl[c], UNCORED_ADD, 0, "hswep_unc_ubo::UNC_U_CLOCKTICKS", &len, &fd);
		REQUIRE(h->status == 0 && h->n == 2);
		const struct uncored_add_reply *r = (const void *)(h + 1);
		idx[c][0] = r->slot[0].index;
		idx[c][1] = r->slot[1].index;
		if (c == 1) {
			CHECK_EQ_U64(idx[c][0], UNCORED_INDEX_NONE);
			CHECK_EQ_U64(idx[c][1], UNCORED_INDEX_NONE);
			CHECK_CONTAINS(h->detail, "socket 0 counted by PID 11 (rank) of measurement "
						  "group openmpi:7, reads 0 here; socket 1");
		} else {
			CHECK(idx[c][0] != UNCORED_INDEX_NONE && idx[c][1] != UNCORED_INDEX_NONE);
			CHECK_EQ_STR(h->detail, "");
		}
	}
	uint64_t before[4][2], after[4][2];
	for (int c = 0; c < 4; c++)
		uncored_snapshot_read(snap, idx[c], 2, before[c]);
	REQUIRE(uncore_sim_advance(node, 4000000) == 0);
	CHECK_EQ_INT(ask(srv, cl[0], UNCORED_SAMPLE, 0, NULL, &len, &fd)->status, 0);
	for (int c = 0; c < 4; c++) {
		uncored_snapshot_read(snap, idx[c], 2, after[c]);
		uint64_t want = c == 1 ? 0 : 10000000;
		CHECK_EQ_U64(after[c][0] - before[c][0], want);
		CHECK_EQ_U64(after[c][1] - before[c][1], want);
	}
	/* The holder gone, the group's next ADD counts. */
	uncored_client_free(srv, cl[0]);
	const struct uncored_reply *h =
	    ask(srv, cl[1], UNCORED_ADD, 0, "hswep_unc_pcu::UNC_P_CLOCKTICKS", &len, &fd);
	CHECK_EQ_INT(h->status, 0);
	CHECK(((const struct uncored_add_reply *)(h + 1))->slot[0].index != UNCORED_INDEX_NONE);
	uncored_server_destroy(srv);
	free(snap);
	fixture_close(&fx);
}

/* The policy through the service (service/policy.h): user 1000's PCU
 * request refused with the policy's reason, its thread filter refused by
 * default (root's alone) and root's allowed, its 3rd event over the
 * policy's limit; a second client of user 1000 refused at HELLO. */
TEST(policy_refuses)
{
	struct node_fixture fx;
	REQUIRE(fixture_open(&fx, "service-policy", NULL) == 0);
	struct uncore_component *comp = fx.comp;
	static const char text[] = "deny * pcu reason power readings are for administrators\n"
				   "limit user:1000 events 2\nlimit user:1000 clients 1\n";
	struct uncored_policy *pol;
	REQUIRE(uncored_policy_parse(text, sizeof(text) - 1, "site.pol", &pol) == 0);
	struct uncored_snapshot *snap = calloc(1, uncored_snapshot_size());
	struct uncored_server *srv;
	REQUIRE(snap && uncored_server_create(&(struct uncored_server_config){comp->share, comp->be, &comp->clock, comp->origin, pol}, snap, &srv) == 0);
	struct uncored_client *user, *user2, *root;
	const struct uncored_peer pu = {1000, 1000, 21, "job", 0, {0}}, pr = {0, 0, 22, "admin", 0, {0}};
	REQUIRE(uncored_client_new(srv, &user) == 0 && uncored_client_new(srv, &root) == 0);
	uncored_client_set_peer(user, &pu);
	uncored_client_set_peer(root, &pr);
	size_t len;
	int fd;
	CHECK_EQ_INT(ask(srv, user, UNCORED_HELLO, 0, "", &len, &fd)->status, 0);
	const struct uncored_reply *h =
	    ask(srv, user, UNCORED_ADD, 0, "hswep_unc_pcu::UNC_P_CLOCKTICKS", &len, &fd);
	CHECK_EQ_INT(h->status, UNCORE_EPERM);
	CHECK_EQ_STR(h->detail, "uncored policy (site.pol line 1): power readings are for administrators");
	h = ask(srv, user, UNCORED_ADD, 0, "hswep_unc_cbo::UNC_C_RXR_INSERTS:IRQ:tf=1", &len, &fd);
	CHECK_EQ_INT(h->status, UNCORE_EPERM);
	CHECK_CONTAINS(h->detail, "core or thread filters are root's alone");
	h = ask(srv, user, UNCORED_ADD, 0, "hswep_unc_imc::event=0x4:umask=0x3", &len, &fd);
	CHECK_EQ_INT(h->status, UNCORE_EPERM);
	CHECK_CONTAINS(h->detail, "raw encodings are root's alone");
	CHECK_EQ_INT(ask(srv, root, UNCORED_ADD, 0, "hswep_unc_cbo::UNC_C_RXR_INSERTS:IRQ:tf=1", &len, &fd)->status, 0);
	CHECK_EQ_INT(ask(srv, root, UNCORED_ADD, 0, "hswep_unc_pcu::UNC_P_CLOCKTICKS", &len, &fd)->status, 0);
	CHECK_EQ_INT(ask(srv, user, UNCORED_ADD, 0, "hswep_unc_ubo::UNC_U_CLOCKTICKS", &len, &fd)->status, 0);
	CHECK_EQ_INT(ask(srv, user, UNCORED_ADD, 0, "hswep_unc_imc::UNC_M_CAS_COUNT:RD", &len, &fd)->status, 0);
	h = ask(srv, user, UNCORED_ADD, 0, "hswep_unc_imc::UNC_M_CAS_COUNT:WR", &len, &fd);
	CHECK_EQ_INT(h->status, UNCORE_ENOSPACE);
	CHECK_CONTAINS(h->detail, "(site.pol line 2): a client of user 1000 counts at most 2 events");
	REQUIRE(uncored_client_new(srv, &user2) == 0);
	uncored_client_set_peer(user2, &pu);
	h = ask(srv, user2, UNCORED_HELLO, 0, "", &len, &fd);
	CHECK_EQ_INT(h->status, UNCORE_ELIMIT);
	CHECK_CONTAINS(h->detail, "(site.pol line 3): user 1000 holds at most 1 clients");
	struct uncored_status st;
	uncored_server_status(srv, &st);
	CHECK_EQ_INT((int)st.events, 4); /* nothing refused was kept */
	uncored_server_destroy(srv);
	uncored_policy_free(pol);
	free(snap);
	fixture_close(&fx);
}

TEST(request_checks)
{
	struct uncored_request q, out;
	memset(&q, 0, sizeof(q));
	q.magic = UNCORED_MAGIC;
	q.version = UNCORED_VERSION;
	q.op = UNCORED_SAMPLE;
	CHECK_EQ_INT(uncored_request_check(&q, sizeof(q), &out), 0);
	CHECK_EQ_INT(uncored_request_check(&q, sizeof(q) - 1, &out), UNCORE_EINVAL);
	q.op = 77;
	CHECK_EQ_INT(uncored_request_check(&q, sizeof(q), &out), UNCORE_EINVAL);
	CHECK_CONTAINS(uncore_error_detail(), "unknown operation 77");
	q.op = UNCORED_ADD;
	memset(q.name, 'a', sizeof(q.name)); /* no terminating NUL */
	CHECK_EQ_INT(uncored_request_check(&q, sizeof(q), &out), UNCORE_EINVAL);
	q.version = 9;
	CHECK_EQ_INT(uncored_request_check(&q, sizeof(q), &out), UNCORE_EINVAL);
}

TEST(snapshot_sequence)
{
	struct uncored_snapshot *s = calloc(1, uncored_snapshot_size());
	REQUIRE(s != NULL);
	uncored_snapshot_init(s);
	uint32_t idx[3] = {0, 5, UNCORED_SNAPSHOT_VALUES + 1};
	uint64_t v[3];
	uncored_snapshot_begin(s);
	CHECK(s->seq & 1); /* a reader waits while odd */
	uncored_snapshot_set(s, 5, 42);
	uncored_snapshot_set(s, UNCORED_SNAPSHOT_VALUES, 1); /* past the end: ignored */
	uncored_snapshot_end(s, 123456789);
	CHECK_EQ_U64(uncored_snapshot_read(s, idx, 3, v), 1);
	CHECK_EQ_U64(uncored_snapshot_instant(s), 123456789);
	CHECK_EQ_U64(v[0], 0);
	CHECK_EQ_U64(v[1], 42);
	CHECK_EQ_U64(v[2], 0);
	free(s);
}

/* The service's clock, with readings the test scripts while `nscript`
 * is left (else the node's). */
static struct {
	const struct uncore_clock *node;
	const uint64_t *script;
	unsigned nscript;
} scripted;

static int scripted_now(void *ctx, uint64_t *ns)
{
	(void)ctx;
	if (scripted.nscript) {
		scripted.nscript--;
		*ns = *scripted.script++;
		return 0;
	}
	return uncore_clock_now(scripted.node, ns);
}

/* A SAMPLE with the service's clock reading `script` (n readings, `left`
 * of them unread after it): the instant published in `snap`. */
static uint64_t scripted_sample(struct uncored_server *srv, struct uncored_client *cl,
				const struct uncored_snapshot *snap, const uint64_t *script,
				unsigned n, unsigned left)
{
	size_t len;
	int fd;
	scripted.script = script;
	scripted.nscript = n;
	CHECK_EQ_INT(ask(srv, cl, UNCORED_SAMPLE, 0, NULL, &len, &fd)->status, 0);
	CHECK_EQ_INT((int)scripted.nscript, (int)left);
	return uncored_snapshot_instant(snap);
}

/* A sample's instant is the middle of its reads, clocked just before and
 * after them; a sample that took over 50 us and four times the shortest
 * one (the service preempted half-way: its events read far apart) is made
 * again, and the instant published is the last attempt's (issue 27). */
TEST(a_preempted_sample_is_made_again)
{
	struct node_fixture fx;
	REQUIRE(fixture_open(&fx, "service-again", "hswep-clocks") == 0);
	scripted.node = &fx.comp->clock;
	scripted.nscript = 0;
	struct uncore_clock clock = {scripted_now, NULL, 0};
	struct uncored_snapshot *snap = calloc(1, uncored_snapshot_size());
	struct uncored_server *srv;
	struct uncored_client *cl;
	REQUIRE(snap && uncored_server_create(&(struct uncored_server_config){fx.comp->share, fx.comp->be, &clock, fx.comp->origin, NULL}, snap, &srv) == 0);
	REQUIRE(uncored_client_new(srv, &cl) == 0);
	size_t len;
	int fd;
	const struct uncored_reply *h = ask(srv, cl, UNCORED_HELLO, 0, NULL, &len, &fd);
	CHECK_EQ_INT(h->status, 0);
	h = ask(srv, cl, UNCORED_ADD, 0, "hswep_unc_ubo::UNC_U_CLOCKTICKS", &len, &fd);
	CHECK_EQ_INT(h->status, 0);
	/* Unpreempted: 10 us (the shortest now). */
	static const uint64_t quick[] = {5000000000, 5000010000};
	CHECK_EQ_U64(scripted_sample(srv, cl, snap, quick, 2, 0), 5000005000);
	/* 1 ms (preempted): made again, 12 us; its middle published. */
	static const uint64_t preempted[] = {6000000000, 6001000000, 6002000000, 6002012000};
	CHECK_EQ_U64(scripted_sample(srv, cl, snap, preempted, 4, 0), 6002006000);
	/* 40 us: under 50 us, kept as it is (two scripted readings left). */
	static const uint64_t slower[] = {7000000000, 7000040000, 1, 1};
	CHECK_EQ_U64(scripted_sample(srv, cl, snap, slower, 4, 2), 7000020000);
	scripted.nscript = 0;
	uncored_client_free(srv, cl);
	uncored_server_destroy(srv);
	free(snap);
	fixture_close(&fx);
}

/* How often the register read most in `log` since byte `from` was read:
 * the lines with "op":"rd", counted by everything after the op (the
 * register; the value read differs, so it is cut off at ,"value"). */
static unsigned most_reads_of_one_register(const char *log, long from, unsigned *lines)
{
	FILE *f = fopen(log, "r");
	static char seen[4096][512];
	static unsigned count[4096];
	unsigned n = 0, most = 0;
	char line[512];
	*lines = 0;
	if (!f || fseek(f, from, SEEK_SET) != 0) {
		if (f)
			fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "\"op\":\"rd\""))
			continue;
		char *v = strstr(line, ",\"value\"");
		if (v)
			*v = '\0';
		(*lines)++;
		unsigned i = 0;
		while (i < n && strcmp(seen[i], line) != 0)
			i++;
		if (i == n) {
			if (n == 4096)
				break;
			snprintf(seen[n], sizeof(seen[n]), "%s", line);
			count[n++] = 0;
		}
		if (++count[i] > most)
			most = count[i];
	}
	fclose(f);
	return most;
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = -1;
	if (f && fseek(f, 0, SEEK_END) == 0)
		n = ftell(f);
	if (f)
		fclose(f);
	return n;
}

/* A sample reads the counters once for all its events, whoever holds
 * them: every register once, and two clients' totals of the same event
 * equal though each register access takes 1 us of the node's time (read
 * once a view, the second client's totals came later). */
TEST(a_sample_reads_the_counters_once)
{
	struct node_fixture fx;
	REQUIRE(fixture_open(&fx, "service-once", "hswep-clocks") == 0);
	struct uncore_component *comp = fx.comp;
	struct uncored_snapshot *snap = calloc(1, uncored_snapshot_size());
	struct uncored_server *srv;
	struct uncored_client *a, *b;
	REQUIRE(snap && uncored_server_create(&(struct uncored_server_config){comp->share, comp->be, &comp->clock, comp->origin, NULL}, snap, &srv) == 0);
	REQUIRE(uncored_client_new(srv, &a) == 0 && uncored_client_new(srv, &b) == 0);
	size_t len;
	int fd;
	CHECK_EQ_INT(ask(srv, a, UNCORED_HELLO, 0, NULL, &len, &fd)->status, 0);
	CHECK_EQ_INT(ask(srv, b, UNCORED_HELLO, 0, NULL, &len, &fd)->status, 0);
	struct uncored_add_reply add;
	const struct uncored_reply *h =
	    ask(srv, a, UNCORED_ADD, 0, "hswep_unc_ubo::UNC_U_CLOCKTICKS", &len, &fd);
	REQUIRE(h->status == 0 && h->n == 2);
	memcpy(&add, h + 1, len - sizeof(*h));
	uint32_t idx[4] = {add.slot[0].index, add.slot[1].index};
	h = ask(srv, b, UNCORED_ADD, 0, "hswep_unc_ubo::UNC_U_CLOCKTICKS", &len, &fd);
	REQUIRE(h->status == 0 && h->n == 2);
	memcpy(&add, h + 1, len - sizeof(*h));
	idx[2] = add.slot[0].index;
	idx[3] = add.slot[1].index;
	h = ask(srv, a, UNCORED_ADD, 0, "hswep_unc_cbo::UNC_C_CLOCKTICKS", &len, &fd);
	REQUIRE(h->status == 0 && h->n == 36); /* 18 CBos a socket */

	char log[600];
	snprintf(log, sizeof(log), "%s/access.log", fx.dir);
	REQUIRE(uncore_sim_set_log(fx.node, log) == 0);
	REQUIRE(uncore_sim_set_access_ns(fx.node, 1000) == 0);
	REQUIRE(uncore_sim_advance(fx.node, 4000000) == 0);
	long from = file_size(log);
	REQUIRE(from >= 0);
	CHECK_EQ_INT(ask(srv, b, UNCORED_SAMPLE, 0, NULL, &len, &fd)->status, 0);
	unsigned lines;
	CHECK_EQ_INT((int)most_reads_of_one_register(log, from, &lines), 1);
	CHECK(lines >= 38); /* the UBoxes' and the CBos' counters at least */
	uint64_t v[4];
	uncored_snapshot_read(snap, idx, 4, v);
	CHECK(v[0] > 10000000);
	CHECK_EQ_U64(v[2], v[0]);
	CHECK_EQ_U64(v[3], v[1]);
	REQUIRE(uncore_sim_set_access_ns(fx.node, 0) == 0);
	REQUIRE(uncore_sim_set_log(fx.node, NULL) == 0);
	uncored_client_free(srv, a);
	uncored_client_free(srv, b);
	uncored_server_destroy(srv);
	free(snap);
	fixture_close(&fx);
}

int main(void)
{
	RUN(request_checks);
	RUN(snapshot_sequence);
	RUN(serves_exact_totals);
	RUN(groups_each_socket_once);
	RUN(policy_refuses);
	RUN(a_preempted_sample_is_made_again);
	RUN(a_sample_reads_the_counters_once);
	return harness_done();
}
