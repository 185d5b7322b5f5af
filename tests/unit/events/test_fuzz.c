/* Randomized robustness: tens of thousands of event strings, built from the
 * tables (valid and nearly valid) and mutated (characters inserted, removed,
 * replaced; pieces repeated; random bytes), parsed against the fixture, the
 * Haswell-EP and no platform.  Nothing may crash (run under ASan+UBSan by
 * `make check-sanitize`); every failure returns a known code with a message
 * and leaves the output untouched; every success encodes, and its canonical
 * string parses back to the same encoding.  Deterministic: FUZZ_SEED and
 * FUZZ_N override the seed and the number of strings. */
#include "../../harness.h"
#include "common/uncore_error.h"
#include "events/encode.h"
#include "events/parse.h"

#include "fixture_platform.h"

#include <stdlib.h>

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: small, deterministic, good enough to pick cases */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static unsigned pick(unsigned n)
{
	return n ? (unsigned)(rnd() % n) : 0;
}

struct sbuf {
	char s[1400];
	size_t n;
};

static void put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (b->n < sizeof(b->s)) {
		int k = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
		if (k > 0)
			b->n =
			    b->n + (size_t)k < sizeof(b->s) ? b->n + (size_t)k : sizeof(b->s) - 1;
	}
	va_end(ap);
}

/* A string built from a table: mostly valid, sometimes slightly off. */
static void from_table(const struct uncore_event_platform *plat, struct sbuf *b)
{
	const struct uncore_box_type *box = plat->boxes[pick(plat->nboxes)];
	if (!box->nevents)
		return;
	const intel_x86_entry_t *e = &box->events[pick(box->nevents)];
	b->n = 0;
	b->s[0] = '\0';
	switch (pick(4)) {
	case 0:
		put(b, "%s::", box->name);
		break;
	case 1:
		put(b, "%s%u::", box->name, pick(box->ninstances + 2));
		break;
	case 2:
		break; /* no PMU */
	default:
		put(b, "%s::", box->name);
		break;
	}
	put(b, "%s", e->name);
	int tidy = pick(2); /* half the strings: at most one umask, values in range */
	unsigned nu = tidy ? pick(2) : pick(4);
	for (unsigned i = 0; i < nu && e->numasks; i++)
		put(b, ":%s", e->umasks[pick(e->numasks)].uname);
	unsigned nm = tidy ? 0 : pick(3);
	for (unsigned i = 0; i < nm && box->nmods; i++) {
		const struct uncore_mod_desc *d = &box->mods[pick(box->nmods)];
		switch (pick(5)) {
		case 0:
			put(b, ":%s", d->name);
			break;
		case 1:
			put(b, ":%s=%llu", d->name, (unsigned long long)(d->max + pick(3)));
			break;
		case 2:
			put(b, ":%s=0x%llx", d->name,
			    (unsigned long long)pick((unsigned)d->max + 1));
			break;
		default:
			put(b, ":%s=%llu", d->name, (unsigned long long)(d->min + pick(4)));
			break;
		}
	}
	static const char *const quals[] = {"socket", "box", "cpu"};
	if (pick(4) == 0)
		put(b, ":%s=%u", quals[pick(3)], pick(40));
}

static void mutate(struct sbuf *b)
{
	static const char alphabet[] = ":=:x0x19_AZaz::-+ \t\xff\x80,.";
	unsigned edits = 1 + pick(4);
	for (unsigned k = 0; k < edits; k++) {
		size_t n = strlen(b->s);
		size_t at = n ? pick((unsigned)n + 1) : 0;
		switch (pick(6)) {
		case 0: /* insert */
			if (n + 2 < sizeof(b->s)) {
				memmove(b->s + at + 1, b->s + at, n - at + 1);
				b->s[at] = alphabet[pick(sizeof(alphabet) - 1)];
			}
			break;
		case 1: /* delete */
			if (at < n)
				memmove(b->s + at, b->s + at + 1, n - at);
			break;
		case 2: /* replace */
			if (at < n)
				b->s[at] = (char)(1 + pick(255));
			break;
		case 3: /* truncate */
			b->s[at] = '\0';
			break;
		case 4: /* repeat the piece [at, at+len) right after itself */
			if (n && n * 2 + 1 < sizeof(b->s)) {
				size_t len = pick((unsigned)(n - at) + 1);
				memmove(b->s + at + len, b->s + at, n - at + 1);
			}
			break;
		default: /* flip case */
			if (at < n && b->s[at] >= 'a' && b->s[at] <= 'z')
				b->s[at] = (char)(b->s[at] - 32);
			break;
		}
	}
}

static void random_bytes(struct sbuf *b)
{
	size_t n = pick(80);
	for (size_t i = 0; i < n; i++)
		b->s[i] = (char)(1 + pick(255));
	b->s[n] = '\0';
}

static int known_parse_error(int rc)
{
	return rc == UNCORE_ESYNTAX || rc == UNCORE_ENOEVENT || rc == UNCORE_ENOUMASK ||
	       rc == UNCORE_ENOMOD || rc == UNCORE_ERANGE || rc == UNCORE_ECOMBO ||
	       rc == UNCORE_EINVAL;
}

static struct {
	int ok, failed;
} tally;

static void check_string(const struct uncore_event_platform *plat, const char *s)
{
	struct uncore_event_ref ref, again;
	struct uncore_encoding a, b;
	memset(&ref, 0xa5, sizeof(ref));
	struct uncore_event_ref sentinel = ref;
	harness_row = s;
	int rc = uncore_event_parse(plat, s, &ref);
	if (rc) {
		tally.failed++;
		if (!known_parse_error(rc))
			HARNESS_FAIL_AT("unexpected code %d", rc);
		if (!uncore_error_detail()[0])
			HARNESS_FAIL_AT("%s without a message", uncore_error_name(rc));
		if (memcmp(&ref, &sentinel, sizeof(ref)) != 0)
			HARNESS_FAIL_AT("output written on failure");
		return;
	}
	tally.ok++;
	if (uncore_event_encode(&ref, &a) != 0) {
		HARNESS_FAIL_AT("parsed but does not encode: %s", uncore_error_detail());
		return;
	}
	char canon[600];
	if (uncore_event_format(&ref, canon, sizeof(canon)) != 0) {
		HARNESS_FAIL_AT("does not format: %s", uncore_error_detail());
		return;
	}
	if (uncore_event_parse(plat ? plat : fixture_platform(), canon, &again) != 0 &&
	    uncore_event_parse(NULL, canon, &again) != 0) {
		HARNESS_FAIL_AT("canonical '%s' does not parse: %s", canon, uncore_error_detail());
		return;
	}
	if (uncore_event_encode(&again, &b) != 0 || a.ctl != b.ctl || a.counters != b.counters ||
	    memcmp(a.filter, b.filter, sizeof(a.filter)) != 0 || again.instance != ref.instance)
		HARNESS_FAIL_AT("canonical '%s' encodes differently", canon);
}

/* Encode must reject references no parse produces, not crash on them. */
static void check_garbage_ref(const struct uncore_event_platform *plat)
{
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
	memset(&ref, 0, sizeof(ref));
	ref.box = plat->boxes[pick(plat->nboxes)];
	ref.event = pick(ref.box->nevents + 3);
	ref.numasks = pick(UNCORE_EVENT_MAX_UMASKS + 3);
	for (unsigned i = 0; i < UNCORE_EVENT_MAX_UMASKS; i++)
		ref.umasks[i] = (uint16_t)pick(40);
	ref.nmods = pick(UNCORE_EVENT_MAX_MODS + 3);
	for (unsigned i = 0; i < UNCORE_EVENT_MAX_MODS; i++) {
		ref.mods[i].mod = (uint8_t)pick(12);
		ref.mods[i].value = rnd() >> pick(64);
	}
	harness_row = "garbage reference";
	int rc = uncore_event_encode(&ref, &enc);
	if (rc && !known_parse_error(rc))
		HARNESS_FAIL_AT("unexpected code %d", rc);
	char buf[300];
	uncore_event_format(&ref, buf, sizeof(buf));
}

TEST(random_event_strings)
{
	const char *seed_env = getenv("FUZZ_SEED"), *n_env = getenv("FUZZ_N");
	uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : 0x5eed1234abcdULL;
	unsigned n = n_env ? (unsigned)strtoul(n_env, NULL, 0) : 100000;
	rng_state = seed ? seed : 1;
	fprintf(stderr, "  seed 0x%llx, %u strings\n", (unsigned long long)seed, n);

	/* Strings come from the fixture and every built-in platform; each is
	 * parsed against one of them or none (NULL). */
	const struct uncore_event_platform *plats[24];
	unsigned nplat = 0;
	plats[nplat++] = fixture_platform();
	for (unsigned p = 0; uncore_event_platform_at(p) && nplat < 23; p++)
		plats[nplat++] = uncore_event_platform_at(p);
	plats[nplat] = NULL;
	struct sbuf b;
	for (unsigned i = 0; i < n && !harness_case_failed; i++) {
		const struct uncore_event_platform *src = plats[pick(nplat)];
		b.n = 0;
		b.s[0] = '\0';
		unsigned kind = pick(10);
		if (kind < 4) {
			from_table(src, &b);
		} else if (kind < 9) {
			from_table(src, &b);
			mutate(&b);
		} else {
			random_bytes(&b);
		}
		/* Half against its own platform: with many platforms, a
		 * random one would reject nearly everything. */
		check_string(pick(2) ? src : plats[pick(nplat + 1)], b.s);
		if (i % 8 == 0)
			check_garbage_ref(src);
	}
	fprintf(stderr, "  %d parsed, %d rejected\n", tally.ok, tally.failed);
	/* The generator must produce both kinds, or the test proves little. */
	CHECK(tally.ok > (int)n / 20);
	CHECK(tally.failed > (int)n / 5);
}

int main(void)
{
	RUN(random_event_strings);
	return harness_done();
}
