/* The scenario parser: reads the text format of SCENARIOS.md (shapes,
 * streams of sub-event occurrences with rates and attributes, free-running
 * register feeds, includes, clock mode) into a private buffer, then swaps it
 * into the shared machine under the lock.  Events are raw codes only. */
#include "sim/sim_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/text.h"
#include "common/uncore_error.h"
#include "sim/scenario_sources.h"

#define MAX_INCLUDE_DEPTH 4
#define MAX_TOKENS        40

struct parse {
	const struct sim_model *m;
	struct sim_stream *streams;
	unsigned n_streams;
	struct sim_shape *shapes;
	unsigned n_shapes;
	char name[128];
	int clock_mode; /* -1: not set */
	unsigned wall_rate;
	int64_t access_ns;
	int depth;
	const char *origin;
	unsigned line;
	int fail_depth; /* the include depth of the last syntax error */
	int from_file;  /* the text being parsed was read from a file */
};

/* A scenario error at the current line; the word quoted from the file is
 * cut and its control bytes escaped (common/text.h). */
static int syntax(struct parse *p, const char *fmt, const char *arg)
{
	char msg[1280], q[UNCORE_QUOTE_MAX * 4 + 8];
	snprintf(msg, sizeof(msg), fmt, uncore_quote(q, sizeof(q), arg, UNCORE_QUOTE_MAX));
	p->fail_depth = p->depth;
	return uncore_fail(UNCORE_ESYNTAX, "%s:%u: %s", p->origin, p->line, msg);
}

static int parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || s[0] == '-')
		return -1;
	*out = v;
	return 0;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* A decimal with optional fraction and k/M/G suffix, as an exact fraction. */
static int parse_decimal(const char *s, unsigned __int128 *num, unsigned __int128 *den)
{
	unsigned __int128 n = 0, d = 1;
	int digits = 0, frac = 0;
	for (; *s; s++) {
		if (isdigit((unsigned char)*s)) {
			if (n > ((unsigned __int128)1 << 90)) /* room for G (< 2^30) */
				return -1;
			n = n * 10 + (unsigned)(*s - '0');
			digits++;
			if (frac)
				d *= 10;
		} else if (*s == '.' && !frac) {
			frac = 1;
		} else {
			break;
		}
	}
	if (!digits)
		return -1;
	if (*s == 'k' || *s == 'K')
		n *= 1000, s++;
	else if (*s == 'M')
		n *= 1000000, s++;
	else if (*s == 'G')
		n *= 1000000000, s++;
	if (*s)
		return -1;
	*num = n;
	*den = d;
	return 0;
}

static int parse_time_ps(const char *s, uint64_t *ps)
{
	unsigned __int128 num, den;
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", s);
	size_t len = strlen(buf);
	uint64_t unit = SIM_PS_PER_NS;
	const struct {
		const char *sfx;
		uint64_t ps;
	} units[] = {{"ns", 1000}, {"us", 1000000}, {"ms", 1000000000}, {"s", SIM_PS_PER_S}};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t l = strlen(units[i].sfx);
		if (len > l && strcmp(buf + len - l, units[i].sfx) == 0 &&
		    isdigit((unsigned char)buf[len - l - 1])) {
			buf[len - l] = '\0';
			unit = units[i].ps;
			break;
		}
	}
	if (parse_decimal(buf, &num, &den))
		return -1;
	unsigned __int128 v = num * unit / den;
	if (v >= SIM_TIME_NEVER / 4)
		return -1;
	*ps = (uint64_t)v;
	return 0;
}

/* "0,2,5-7", "*" or "populated" into an instance mask. */
static int parse_set(struct parse *p, const char *s, unsigned kind, uint32_t all, uint32_t *out)
{
	if (!strcmp(s, "*")) {
		*out = all;
		return 0;
	}
	if (!strcmp(s, "populated")) {
		if (kind != HSWEP_BOX_IMC)
			return syntax(p, "\"populated\" applies to imc only", "");
		*out = p->m->populated_imc;
		return 0;
	}
	uint32_t mask = 0;
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		uint64_t lo, hi;
		if (dash) {
			*dash = '\0';
			if (parse_u64(tok, &lo) || parse_u64(dash + 1, &hi))
				return syntax(p, "bad range in \"%s\"", s);
		} else if (parse_u64(tok, &lo)) {
			return syntax(p, "bad number in \"%s\"", s);
		} else {
			hi = lo;
		}
		if (lo > hi || hi >= 32)
			return syntax(p, "range out of bounds in \"%s\"", s);
		for (uint64_t i = lo; i <= hi; i++)
			mask |= 1u << i;
	}
	*out = mask;
	return 0;
}

/* A unit of a flat-PMU model ("gbsq", "cbo[0-1]"): its index in the
 * model's description. */
static int parse_flat_unit(struct parse *p, const char *tok, const char *name, const char *set,
			   unsigned *kind, uint32_t *insts)
{
	const struct sim_flat_desc *d = p->m->flat;
	char names[96] = "";
	for (unsigned u = 0; u < d->nunits; u++) {
		if (!strcmp(d->units[u].name, name)) {
			uint32_t all = (1u << d->units[u].max_instances) - 1;
			*kind = u;
			int rc = parse_set(p, set, HSWEP_BOX_KINDS, all, insts);
			if (rc)
				return rc;
			if (*insts & ~all)
				return syntax(p, "instance beyond the unit's maximum in \"%s\"", tok);
			return 0;
		}
		size_t used = strlen(names);
		snprintf(names + used, sizeof(names) - used, "%s%s", u ? " " : "", d->units[u].name);
	}
	char msg[200];
	snprintf(msg, sizeof(msg), "unknown unit \"%.40s\" on model %.32s (%.96s)", name,
		 p->m->info.name, names);
	return syntax(p, "%s", msg);
}

/* "cbo", "imc[populated]", "cbo[0-3]"; optionally ".REGISTER" after it. */
static int parse_box(struct parse *p, const char *tok, unsigned *kind, uint32_t *insts, char *reg,
		     size_t reglen)
{
	char buf[96];
	snprintf(buf, sizeof(buf), "%s", tok);
	if (reg)
		reg[0] = '\0';
	char *dot = strchr(buf, '.');
	if (dot) {
		if (!reg)
			return syntax(p, "unexpected register name in \"%s\"", tok);
		snprintf(reg, reglen, "%s", dot + 1);
		*dot = '\0';
	}
	char *br = strchr(buf, '[');
	const char *set = "*";
	if (br) {
		char *close = strchr(br, ']');
		if (!close || close[1])
			return syntax(p, "bad instance list in \"%s\"", tok);
		*close = '\0';
		*br = '\0';
		set = br + 1;
	}
	if (p->m->flat)
		return parse_flat_unit(p, tok, buf, set, kind, insts);
	const struct hswep_box_desc *d = hswep_box_by_name(buf);
	if (!d)
		return syntax(
		    p, "unknown box \"%s\" (ubox cbo sbo ha imc irp pcu qpi r2pcie r3qpi)", buf);
	*kind = d->kind;
	uint32_t all = d->max_instances >= 32 ? 0xffffffffu : (1u << d->max_instances) - 1;
	int rc = parse_set(p, set, d->kind, all, insts);
	if (rc)
		return rc;
	if (*insts & ~all)
		return syntax(p, "instance beyond the box's maximum in \"%s\"", tok);
	return 0;
}

static int parse_state(const char *v, uint8_t *out)
{
	uint64_t n;
	if (parse_u64(v, &n) == 0) {
		if (n > 0x7f)
			return -1;
		*out = (uint8_t)n;
		return 0;
	}
	/* Letters per the LLC_LOOKUP note (2.3.6): I S E M F. */
	uint8_t mask = 0;
	for (; *v; v++) {
		switch (*v) {
		case 'I':
			mask |= HSWEP_CBO_STATE_I;
			break;
		case 'S':
			mask |= HSWEP_CBO_STATE_S;
			break;
		case 'E':
			mask |= HSWEP_CBO_STATE_E;
			break;
		case 'M':
			mask |= HSWEP_CBO_STATE_M;
			break;
		case 'F':
			mask |= HSWEP_CBO_STATE_F;
			break;
		case '|':
			break;
		default:
			return -1;
		}
	}
	*out = mask;
	return mask ? 0 : -1;
}

/* Field of a key=value token list; NULL if absent. */
struct kv {
	char *key;
	char *val;
	int used;
};

static int split_kv(struct parse *p, char **tok, int ntok, struct kv *kv)
{
	for (int i = 0; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');
		kv[i].key = tok[i];
		kv[i].val = NULL;
		kv[i].used = 0;
		if (eq) {
			*eq = '\0';
			kv[i].val = eq + 1;
			if (!kv[i].val[0])
				return syntax(p, "empty value for \"%s\"", tok[i]);
		}
	}
	return 0;
}

static const char *get(struct kv *kv, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key)) {
			kv[i].used = 1;
			return kv[i].val ? kv[i].val : "";
		}
	return NULL;
}

static int get_num(struct parse *p, struct kv *kv, int n, const char *key, uint64_t max,
		   uint64_t *out, int *have)
{
	const char *v = get(kv, n, key);
	*have = v != NULL;
	if (!v)
		return 0;
	if (parse_u64(v, out) || *out > max) {
		char msg[64];
		snprintf(msg, sizeof(msg), "bad value for %s (max 0x%llx): ", key,
			 (unsigned long long)max);
		return syntax(p, "%s", msg);
	}
	return 0;
}

static int unused(struct parse *p, struct kv *kv, int n)
{
	for (int i = 0; i < n; i++)
		if (!kv[i].used)
			return syntax(p, "unknown or misplaced key \"%s\"", kv[i].key);
	return 0;
}

/* inc= / pattern= / ratio= / rate= into a stream. */
static int parse_rate(struct parse *p, struct kv *kv, int n, uint64_t hz, struct sim_stream *st)
{
	const char *inc = get(kv, n, "inc"), *pat = get(kv, n, "pattern"),
		   *ratio = get(kv, n, "ratio"), *rate = get(kv, n, "rate");
	if (!!inc + !!pat + !!ratio + !!rate != 1)
		return syntax(p, "a stream needs exactly one of inc=, pattern=, ratio=, rate=%s",
			      "");
	st->rate_kind = SIM_RATE_PATTERN;
	if (inc) {
		uint64_t v;
		if (parse_u64(inc, &v) || v > UINT32_MAX)
			return syntax(p, "bad inc=%s", inc);
		st->pattern[0] = (uint32_t)v;
		st->pattern_len = 1;
	} else if (pat) {
		char buf[512];
		snprintf(buf, sizeof(buf), "%s", pat);
		for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			uint64_t v;
			if (st->pattern_len >= SIM_PATTERN_MAX)
				return syntax(p, "pattern longer than 32 values%s", "");
			if (parse_u64(t, &v) || v > UINT32_MAX)
				return syntax(p, "bad pattern value \"%s\"", t);
			st->pattern[st->pattern_len++] = (uint32_t)v;
		}
		if (!st->pattern_len)
			return syntax(p, "empty pattern%s", "");
	} else {
		unsigned __int128 num, den;
		if (ratio) {
			char buf[64];
			snprintf(buf, sizeof(buf), "%s", ratio);
			char *slash = strchr(buf, '/');
			uint64_t a, b;
			if (!slash)
				return syntax(p, "ratio=%s: want <n>/<cycles>", ratio);
			*slash = '\0';
			if (parse_u64(buf, &a) || parse_u64(slash + 1, &b) || !b)
				return syntax(p, "bad ratio=%s", ratio);
			num = a;
			den = b;
		} else {
			char buf[64];
			snprintf(buf, sizeof(buf), "%s", rate);
			size_t len = strlen(buf);
			if (len < 3 || strcmp(buf + len - 2, "/s"))
				return syntax(p, "rate=%s: want <number>/s", rate);
			buf[len - 2] = '\0';
			if (parse_decimal(buf, &num, &den))
				return syntax(p, "bad rate=%s", rate);
			/* At most 2^64 - 1 per second: beyond, the numbers would be
			 * rounded into another rate than the one written. */
			if (num / den > UINT64_MAX)
				return syntax(p, "rate=%s: at most 18446744073709551615/s", rate);
			den *= hz; /* occurrences per second -> per cycle */
		}
		while (num > UINT64_MAX || den > UINT64_MAX) {
			/* Keep exactness where the numbers allow; beyond 64 bits
			 * the rate is rounded to the nearest representable one. */
			num >>= 1;
			den >>= 1;
		}
		if (!den)
			return syntax(p, "rate too small%s", "");
		uint64_t g = gcd64((uint64_t)num, (uint64_t)den);
		st->rate_kind = SIM_RATE_RATIO;
		st->num = g ? (uint64_t)num / g : 0;
		st->den = g ? (uint64_t)den / g : 1;
		if (!st->num)
			st->den = 1;
	}
	for (unsigned i = 0; i < st->pattern_len; i++)
		st->pattern_sum += st->pattern[i];
	return 0;
}

static int parse_window(struct parse *p, struct kv *kv, int n, struct sim_stream *st)
{
	const char *start = get(kv, n, "start"), *stop = get(kv, n, "stop");
	st->start_ps = 0;
	st->stop_ps = SIM_TIME_NEVER;
	if (start && parse_time_ps(start, &st->start_ps))
		return syntax(p, "bad start=%s", start);
	if (stop && parse_time_ps(stop, &st->stop_ps))
		return syntax(p, "bad stop=%s", stop);
	if (st->stop_ps <= st->start_ps)
		return syntax(p, "stop= must be after start=%s", "");
	const char *sock = get(kv, n, "socket");
	uint32_t all = (1u << p->m->info.sockets) - 1;
	st->sockets = all;
	if (sock) {
		int rc = parse_set(p, sock, HSWEP_BOX_KINDS, all, &st->sockets);
		if (rc)
			return rc;
		if (st->sockets & ~all)
			return syntax(p, "socket=%s: no such socket on this model", sock);
	}
	return 0;
}

static int parse_attrs(struct parse *p, struct kv *kv, int n, struct sim_attrs *a)
{
	uint64_t v;
	int have, rc;
	const char *state = get(kv, n, "state");
	if (state) {
		if (parse_state(state, &a->state))
			return syntax(p, "bad state=%s (a 7-bit mask or letters of IESMF)", state);
		a->have |= SIM_ATTR_STATE;
	}
#define NUM_ATTR(key, max, field, flag)                                                            \
	if ((rc = get_num(p, kv, n, key, max, &v, &have)) != 0)                                    \
		return rc;                                                                         \
	if (have) {                                                                                \
		a->field = (__typeof__(a->field))v;                                                \
		a->have |= flag;                                                                   \
	}
	NUM_ATTR("opc", 0x1ff, opc, SIM_ATTR_OPC)
	NUM_ATTR("nid", 15, nid, SIM_ATTR_NID)
	NUM_ATTR("tid", 0x3f, tid, SIM_ATTR_TID)
	NUM_ATTR("nc", 1, nc, SIM_ATTR_NC)
	NUM_ATTR("isoc", 1, isoc, SIM_ATTR_ISOC)
	NUM_ATTR("addr", HSWEP_FIELD(45, 0), addr, SIM_ATTR_ADDR)
	NUM_ATTR("hopc", 0x3f, hopc, SIM_ATTR_HOPC)
	NUM_ATTR("freq", 0xff, freq, SIM_ATTR_FREQ)
#undef NUM_ATTR
	/* QPI packet fields, placed where MATCH0/MATCH1 hold them. */
	static const struct {
		const char *key;
		uint64_t max;
		int word;
		unsigned shift;
	} pkt[] = {
	    {"mc", 0xf, 0, HSWEP_QPI_PKT0_MC_SHIFT},
	    {"popc", 0xf, 0, HSWEP_QPI_PKT0_OPC_SHIFT},
	    {"dnid", 0x1f, 0, HSWEP_QPI_PKT0_DNID_SHIFT},
	    {"vnw", 0x3, 0, HSWEP_QPI_PKT0_VNW_SHIFT},
	    {"rds", 0xf, 1, HSWEP_QPI_PKT1_RDS_SHIFT},
	};
	for (size_t i = 0; i < sizeof(pkt) / sizeof(pkt[0]); i++) {
		if ((rc = get_num(p, kv, n, pkt[i].key, pkt[i].max, &v, &have)) != 0)
			return rc;
		if (have) {
			if (pkt[i].word)
				a->pkt1 |= (uint32_t)(v << pkt[i].shift);
			else
				a->pkt0 |= (uint32_t)(v << pkt[i].shift);
			a->have |= SIM_ATTR_PKT;
		}
	}
	if ((rc = get_num(p, kv, n, "rnid", 0x1f, &v, &have)) != 0)
		return rc;
	if (have) {
		a->pkt1 |= (uint32_t)(v & HSWEP_QPI_PKT1_RNID_3_0);
		if (v & 0x10)
			a->pkt0 |= (uint32_t)HSWEP_QPI_PKT0_RNID_4;
		a->have |= SIM_ATTR_PKT;
	}
	const char *dir = get(kv, n, "dir");
	if (dir) {
		if (strcmp(dir, "rx") && strcmp(dir, "tx"))
			return syntax(p, "dir=%s: rx or tx", dir);
		a->dir = !strcmp(dir, "tx") ? SIM_DIR_TX : SIM_DIR_RX;
		a->have |= SIM_ATTR_PKT;
	}
	return 0;
}

static int add_stream(struct parse *p, const struct sim_stream *st)
{
	if (p->n_streams >= SIM_MAX_STREAMS)
		return syntax(p, "more than %s streams", "512");
	p->streams[p->n_streams++] = *st;
	return 0;
}

/* A stream of a flat-PMU unit: ev= and umask= for PERFEVTSEL units,
 * match= (the occurrence's attributes as an event-mask image) for EMON
 * units; no Haswell-EP filter attributes. */
static int do_flat_stream(struct parse *p, char **tok, int ntok, struct sim_stream *st)
{
	const struct sim_flat_unit *x = &p->m->flat->units[st->kind];
	struct kv kv[MAX_TOKENS];
	int n = ntok - 2, rc, have;
	uint64_t v;
	st->clock = x->clock;
	if ((rc = split_kv(p, tok + 2, n, kv)) != 0)
		return rc;
	switch (x->input) {
	case SIM_FLAT_EVSEL:
		if ((rc = get_num(p, kv, n, "ev", 0xff, &v, &have)) != 0)
			return rc;
		if (!have)
			return syntax(p, "stream without ev=%s", "");
		st->ev = (uint8_t)v;
		if ((rc = get_num(p, kv, n, "umask", 0xff, &v, &have)) != 0)
			return rc;
		st->umask = (uint8_t)(have ? v : 0);
		break;
	case SIM_FLAT_ATTRS:
		if ((rc = get_num(p, kv, n, "match", 0x7ffffff, &v, &have)) != 0)
			return rc;
		if (!have)
			return syntax(p, "an EMON stream needs match=<attributes> (%s)",
				      "the event-mask image of the occurrence");
		st->match = (uint32_t)v;
		break;
	default:
		return syntax(p, "unit \"%s\" counts by itself: no streams (clocks count "
				 "cycles; free-running registers take `free`)",
			      x->name);
	}
	if ((rc = parse_rate(p, kv, n, p->m->clock_hz[st->clock], st)) != 0 ||
	    (rc = parse_window(p, kv, n, st)) != 0 || (rc = unused(p, kv, n)) != 0)
		return rc;
	return add_stream(p, st);
}

static int do_stream(struct parse *p, char **tok, int ntok)
{
	if (ntok < 2)
		return syntax(p, "stream <box>[<instances>] ev=<code> ...%s", "");
	struct sim_stream st = {.line = (uint16_t)p->line, .target = SIM_TARGET_EVENT};
	unsigned kind;
	int rc = parse_box(p, tok[1], &kind, &st.insts, NULL, 0);
	if (rc)
		return rc;
	st.kind = (uint8_t)kind;
	if (p->m->flat)
		return do_flat_stream(p, tok, ntok, &st);
	const struct hswep_box_desc *d = hswep_box(kind);
	st.clock = d->clock;
	struct kv kv[MAX_TOKENS];
	int n = ntok - 2;
	if ((rc = split_kv(p, tok + 2, n, kv)) != 0)
		return rc;
	uint64_t v;
	int have;
	if ((rc = get_num(p, kv, n, "ev", 0xff, &v, &have)) != 0)
		return rc;
	if (!have)
		return syntax(p, "stream without ev=%s", "");
	st.ev = (uint8_t)v;
	if ((rc = get_num(p, kv, n, "ext", 1, &v, &have)) != 0)
		return rc;
	st.ext = (uint8_t)(have ? v : 0);
	if ((rc = get_num(p, kv, n, "umask", 0xff, &v, &have)) != 0)
		return rc;
	st.umask = (uint8_t)(have ? v : 0);
	if ((rc = get_num(p, kv, n, "occ", 3, &v, &have)) != 0)
		return rc;
	st.occ = (uint8_t)(have ? v : 0);
	if ((rc = parse_rate(p, kv, n, p->m->clock_hz[st.clock], &st)) != 0 ||
	    (rc = parse_window(p, kv, n, &st)) != 0 ||
	    (rc = parse_attrs(p, kv, n, &st.attrs)) != 0 || (rc = unused(p, kv, n)) != 0)
		return rc;
	return add_stream(p, &st);
}

static int do_free(struct parse *p, char **tok, int ntok)
{
	if (ntok < 2)
		return syntax(p, "free <box>[<instances>].<REGISTER> <rate>%s", "");
	struct sim_stream st = {.line = (uint16_t)p->line, .target = SIM_TARGET_EXTRA};
	unsigned kind;
	char reg[48];
	int rc = parse_box(p, tok[1], &kind, &st.insts, reg, sizeof(reg));
	if (rc)
		return rc;
	if (p->m->flat) {
		const struct sim_flat_unit *x = &p->m->flat->units[kind];
		unsigned e = 0;
		while (x->input == SIM_FLAT_FREE && e < x->counters &&
		       strcasecmp(x->free_names[e], reg))
			e++;
		if (x->input != SIM_FLAT_FREE || e == x->counters)
			return syntax(p, "\"%s\" is not a free-running register of that unit", reg);
		st.kind = (uint8_t)kind;
		st.extra = (uint8_t)e;
		st.clock = x->clock;
		struct kv kv[MAX_TOKENS];
		int n = ntok - 2;
		if ((rc = split_kv(p, tok + 2, n, kv)) != 0 ||
		    (rc = parse_rate(p, kv, n, p->m->clock_hz[st.clock], &st)) != 0 ||
		    (rc = parse_window(p, kv, n, &st)) != 0 || (rc = unused(p, kv, n)) != 0)
			return rc;
		return add_stream(p, &st);
	}
	const struct hswep_box_desc *d = hswep_box(kind);
	unsigned e;
	for (e = 0; e < d->num_extras; e++)
		if (!strcasecmp(d->extras[e].name, reg) &&
		    d->extras[e].kind == HSWEP_EXTRA_FREE_RUNNING)
			break;
	if (e == d->num_extras)
		return syntax(p, "\"%s\" is not a free-running register of that box", reg);
	st.kind = (uint8_t)kind;
	st.extra = (uint8_t)e;
	st.clock = d->extras[e].clock;
	struct kv kv[MAX_TOKENS];
	int n = ntok - 2;
	if ((rc = split_kv(p, tok + 2, n, kv)) != 0 ||
	    (rc = parse_rate(p, kv, n, p->m->clock_hz[st.clock], &st)) != 0 ||
	    (rc = parse_window(p, kv, n, &st)) != 0 || (rc = unused(p, kv, n)) != 0)
		return rc;
	return add_stream(p, &st);
}

static int get_enable(struct parse *p, struct kv *kv, int n, const char *key, uint16_t *out)
{
	const char *v = get(kv, n, key);
	uint64_t x;
	if (!v)
		return 0;
	if (!strcmp(v, "always")) {
		*out = SIM_FILTER_ALWAYS;
		return 0;
	}
	if (parse_u64(v, &x) || x > 0xff)
		return syntax(p, "bad filter enable mask \"%s\" (umask bits or always)", v);
	*out = (uint16_t)x;
	return 0;
}

static int do_shape(struct parse *p, char **tok, int ntok)
{
	if (ntok < 2)
		return syntax(p, "shape <box> ev=<code> ...%s", "");
	if (p->m->flat)
		return syntax(p, "shape: only Haswell-EP models have box filters (model %s)",
			      p->m->info.name);
	const struct hswep_box_desc *d = hswep_box_by_name(tok[1]);
	if (!d)
		return syntax(p, "unknown box \"%s\"", tok[1]);
	struct sim_shape sh = {.kind = d->kind, .band = -1};
	struct kv kv[MAX_TOKENS];
	int n = ntok - 2, rc, have;
	uint64_t v;
	if ((rc = split_kv(p, tok + 2, n, kv)) != 0)
		return rc;
	if ((rc = get_num(p, kv, n, "ev", 0xff, &v, &have)) != 0)
		return rc;
	if (!have)
		return syntax(p, "shape without ev=%s", "");
	sh.ev = (uint8_t)v;
#define U8(key, field, max)                                                                        \
	if ((rc = get_num(p, kv, n, key, max, &v, &have)) != 0)                                    \
		return rc;                                                                         \
	if (have)                                                                                  \
		sh.field = (uint8_t)v;
	U8("ext", ext, 1)
	U8("qual", qual, 0xff)
	U8("req", req, 0xff)
	U8("flt", flt, 0xff)
	U8("ctrs", ctrs, 0xf)
#undef U8
	if ((rc = get_num(p, kv, n, "band", 3, &v, &have)) != 0)
		return rc;
	if (have)
		sh.band = (int8_t)v;
	if (get(kv, n, "mirror0"))
		sh.mirror0 = 1;
	if ((rc = get_enable(p, kv, n, "state", &sh.f_state)) ||
	    (rc = get_enable(p, kv, n, "opc", &sh.f_opc)) ||
	    (rc = get_enable(p, kv, n, "nid", &sh.f_nid)) ||
	    (rc = get_enable(p, kv, n, "addr", &sh.f_addr)) ||
	    (rc = get_enable(p, kv, n, "hopc", &sh.f_hopc)) ||
	    (rc = get_enable(p, kv, n, "pkt", &sh.f_pkt)) || (rc = unused(p, kv, n)))
		return rc;
	/* A later shape for the same event replaces the earlier one. */
	for (unsigned i = 0; i < p->n_shapes; i++)
		if (p->shapes[i].kind == sh.kind && p->shapes[i].ev == sh.ev &&
		    p->shapes[i].ext == sh.ext) {
			p->shapes[i] = sh;
			return 0;
		}
	if (p->n_shapes >= SIM_MAX_SHAPES)
		return syntax(p, "more than %s shapes", "256");
	p->shapes[p->n_shapes++] = sh;
	return 0;
}

static int parse_text(struct parse *p, const char *text, const char *origin, const char *base_dir);

const char *sim_scenario_builtin(const char *name)
{
	size_t n = strlen(name);
	if (n > 4 && strcmp(name + n - 4, ".scn") == 0)
		n -= 4;
	for (const struct uncore_sim_scenario_source *s = uncore_sim_scenario_sources; s->file; s++)
		if (strncmp(s->file, name, n) == 0 && strcmp(s->file + n, ".scn") == 0)
			return s->text;
	return NULL;
}

static int parse_included(struct parse *p, const char *text, const char *origin,
			  const char *base_dir)
{
	const char *saved_origin = p->origin;
	unsigned saved_line = p->line;
	p->depth++;
	int rc = parse_text(p, text, origin, base_dir);
	p->depth--;
	p->origin = saved_origin;
	p->line = saved_line;
	return rc;
}

static int do_include(struct parse *p, const char *file, const char *base_dir)
{
	if (p->depth >= MAX_INCLUDE_DEPTH)
		return syntax(p, "includes nested too deeply at \"%s\"", file);
	if (!base_dir) {
		/* A built-in scenario includes built-in scenarios. */
		const char *text = sim_scenario_builtin(file);
		if (!text)
			return syntax(p, "no built-in scenario \"%s\" to include", file);
		return parse_included(p, text, file, NULL);
	}
	char path[1024];
	if (file[0] == '/')
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", base_dir, file);
	FILE *f = fopen(path, "r");
	if (!f)
		return syntax(p, "cannot open include \"%s\"", path);
	char *buf = malloc(1u << 20);
	size_t len = buf ? fread(buf, 1, (1u << 20) - 1, f) : 0;
	fclose(f);
	if (!buf)
		return uncore_fail(UNCORE_ENOMEM, "out of memory reading %s", path);
	buf[len] = '\0';
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	int was = p->from_file;
	p->from_file = 1;
	int rc = parse_included(p, buf, path, dir);
	p->from_file = was;
	free(buf);
	return rc;
}

static int do_line(struct parse *p, char *line, const char *base_dir)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	char *tok[MAX_TOKENS];
	int ntok = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t;
	     t = strtok_r(NULL, " \t\r", &save)) {
		if (ntok >= MAX_TOKENS)
			return syntax(p, "too many words on one line%s", "");
		tok[ntok++] = t;
	}
	if (!ntok)
		return 0;
	if (!strcmp(tok[0], "stream"))
		return do_stream(p, tok, ntok);
	if (!strcmp(tok[0], "free"))
		return do_free(p, tok, ntok);
	if (!strcmp(tok[0], "shape"))
		return do_shape(p, tok, ntok);
	if (!strcmp(tok[0], "include") && ntok == 2)
		return do_include(p, tok[1], base_dir);
	if (!strcmp(tok[0], "name") && ntok == 2) {
		if (p->depth == 0)
			snprintf(p->name, sizeof(p->name), "%s", tok[1]);
		return 0;
	}
	if (!strcmp(tok[0], "clock") && (ntok == 2 || ntok == 3)) {
		p->wall_rate = 1;
		if (!strcmp(tok[1], "virtual") && ntok == 2)
			p->clock_mode = UNCORE_SIM_CLOCK_VIRTUAL;
		else if (!strcmp(tok[1], "wall"))
			p->clock_mode = UNCORE_SIM_CLOCK_WALL;
		else
			return syntax(p, "clock %s: virtual or wall [x<rate>]", tok[1]);
		if (ntok == 3) {
			uint64_t v;
			if (tok[2][0] != 'x' || parse_u64(tok[2] + 1, &v) || v < 1 ||
			    v > UNCORE_SIM_MAX_WALL_RATE)
				return syntax(p, "clock wall %s: x<rate>, a rate of 1 to 1000000", tok[2]);
			p->wall_rate = (unsigned)v;
		}
		return 0;
	}
	if (!strcmp(tok[0], "access_ns") && ntok == 2) {
		uint64_t v;
		if (parse_u64(tok[1], &v) || v > UINT64_C(100000000000)) /* 100 s */
			return syntax(p, "bad access_ns %s", tok[1]);
		p->access_ns = (int64_t)v;
		return 0;
	}
	return syntax(
	    p, "unknown statement \"%s\" (name, include, clock, access_ns, shape, stream, free)",
	    tok[0]);
}

static int parse_text(struct parse *p, const char *text, const char *origin, const char *base_dir)
{
	p->origin = origin;
	p->line = 0;
	const char *s = text;
	int statements = 0;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char line[1024];
		p->line++;
		int rc = len >= sizeof(line) ? syntax(p, "line longer than %s characters", "1023")
					     : 0;
		if (rc == 0) {
			memcpy(line, s, len);
			line[len] = '\0';
			size_t lead = strspn(line, " \t\r");
			int content = line[lead] && line[lead] != '#';
			rc = do_line(p, line, base_dir);
			statements += content && rc == 0;
		}
		/* A file read from disk whose first statement is none (an
		 * include of /etc/shadow, say): not a scenario, and not a word of
		 * it in the message (a privileged tool may read a user's file). */
		if (rc && p->from_file && statements == 0 && p->fail_depth == p->depth)
			return uncore_fail(UNCORE_ESYNTAX, "not a scenario file: %s", origin);
		if (rc)
			return rc;
		s += len + (nl ? 1 : 0);
	}
	return 0;
}

/* A counter sums at most SIM_MAX_INPUTS streams: refuse a scenario that
 * feeds more to one event of one box instance than that. */
static int check_inputs(struct parse *p)
{
	for (unsigned i = 0; i < p->n_streams; i++) {
		const struct sim_stream *a = &p->streams[i];
		unsigned group = 0;
		for (unsigned j = 0; j < p->n_streams; j++) {
			const struct sim_stream *b = &p->streams[j];
			group += b->target == a->target && b->kind == a->kind && b->ev == a->ev &&
				 b->ext == a->ext && b->extra == a->extra;
		}
		if (group <= SIM_MAX_INPUTS)
			continue;
		for (unsigned s = 0; s < SIM_MAX_SOCKETS; s++)
			for (unsigned inst = 0; inst < 32; inst++) {
				if (!(a->sockets >> s & 1) || !(a->insts >> inst & 1))
					continue;
				unsigned n = 0;
				for (unsigned j = 0; j < p->n_streams; j++) {
					const struct sim_stream *b = &p->streams[j];
					n += b->target == a->target && b->kind == a->kind &&
					     b->ev == a->ev && b->ext == a->ext &&
					     b->extra == a->extra && (b->sockets >> s & 1) &&
					     (b->insts >> inst & 1);
				}
				if (n > SIM_MAX_INPUTS) {
					p->line = a->line;
					return syntax(
					    p, "more than %s streams feed one event of one box",
					    "64");
				}
			}
	}
	return 0;
}

int sim_scenario_load(struct uncore_sim *sim, const char *text, const char *origin,
		      const char *base_dir, int from_file)
{
	struct parse p = {
	    .m = sim->model, .clock_mode = -1, .access_ns = -1, .from_file = from_file};
	p.streams = calloc(SIM_MAX_STREAMS, sizeof(*p.streams));
	p.shapes = calloc(SIM_MAX_SHAPES, sizeof(*p.shapes));
	if (!p.streams || !p.shapes) {
		free(p.streams);
		free(p.shapes);
		return uncore_fail(UNCORE_ENOMEM, "out of memory parsing a scenario");
	}
	const char *base = strrchr(origin, '/');
	snprintf(p.name, sizeof(p.name), "%s", base ? base + 1 : origin);
	char *dot = strrchr(p.name, '.');
	if (dot && !strcmp(dot, ".scn"))
		*dot = '\0';
	int rc = parse_text(&p, text, origin, base_dir);
	if (rc == 0)
		rc = check_inputs(&p);
	if (rc == 0 && (rc = sim_lock(sim)) == 0) {
		struct sim_shared *sh = sim->sh;
		/* Every box to now first: the old streams count until now. */
		sim_sync_all(sh, sim->model);
		/* The scenario's times start now; counts so far stay. */
		for (unsigned i = 0; i < p.n_streams; i++) {
			struct sim_stream *st = &p.streams[i];
			uint64_t hz = sim->model->clock_hz[st->clock];
			st->start_ps += sh->now_ps;
			if (st->stop_ps != SIM_TIME_NEVER)
				st->stop_ps += sh->now_ps;
			st->start_cycle = sim_cycles(st->start_ps, hz);
			st->stop_cycle = st->stop_ps == SIM_TIME_NEVER
					     ? UINT64_MAX
					     : sim_cycles(st->stop_ps, hz);
		}
		memcpy(sh->streams, p.streams, p.n_streams * sizeof(*p.streams));
		sh->n_streams = p.n_streams;
		memcpy(sh->shapes, p.shapes, p.n_shapes * sizeof(*p.shapes));
		sh->n_shapes = p.n_shapes;
		snprintf(sh->scenario, sizeof(sh->scenario), "%s", p.name);
		sh->gen++;
		sh->gen_ps = sh->now_ps;
		if (p.access_ns >= 0)
			sh->access_ps = (uint64_t)p.access_ns * SIM_PS_PER_NS;
		sim_unlock(sim);
		if (p.clock_mode >= 0)
			rc = uncore_sim_set_clock_rate(sim, (enum uncore_sim_clock_mode)p.clock_mode,
						       p.wall_rate ? p.wall_rate : 1);
	}
	free(p.streams);
	free(p.shapes);
	return rc;
}
