/* The compiled metric set's private representation (struct uncore_mset: its
 * metrics, their counted terms and the events that count them), the data
 * the three steps of compilation share: name resolution (compile.c, which
 * calls the other two), translation of one counted event into an event of
 * our tables (translate.h) and the measurement plan (measure.h).  Owned by
 * no step: each includes it, and only compile.c includes the others. */
#ifndef UNCORE_METRICS_MSET_H
#define UNCORE_METRICS_MSET_H

#include "metrics/compile.h"

#include "events/encode.h"
#include "metrics/expr.h"

#include <stdint.h>

#define MAX_DEPTH   8  /* metrics referring to metrics */
#define MAX_WITHS   32 /* assignments in scope */
#define MAX_CLASSES 16

struct variant {
	char event[UNCORE_EVENT_MAX_LEN];
	char label[UNCORE_EVENT_MAX_LEN + 192];
	struct uncore_event_ref ref;
	struct uncore_encoding enc;
};

struct term {
	unsigned box;   /* index in plat->boxes */
	int socket;     /* scope: the metric's :socket=, or UNCORE_ALL */
	int instance;   /* scope: the metric's :box= for its own box, or UNCORE_ALL */
	int per_socket; /* variants differ by socket (my_node) */
	int cls;        /* class among the terms of its box type */
	struct variant v[UNCORE_MACHINE_MAX_SOCKETS];
};

struct mmetric {
	const struct uncore_metric_catalog *cat;
	const struct uncore_metric_def *def;
	int socket, instance;
	struct mx_node *root;
	struct mx_prog *prog; /* root compiled (mx_compile), or NULL: mx_eval */
	enum uncore_metric_method method;
	char method_text[1024];
};

struct uncore_mset {
	struct mx_arena *arena;
	const struct uncore_machine *m;
	const struct uncore_sched_event *raw;
	unsigned nraw;
	unsigned nmetrics;
	struct mmetric *metrics;
	unsigned nterms, capterms;
	struct term **terms;
	unsigned nev, capev;
	struct uncore_sched_event *ev;
	struct uncore_metric_evinfo *evinfo;
	unsigned nclasses[UNCORE_MAX_BOX_TYPES];
	int spread[UNCORE_MAX_BOX_TYPES];
};

struct with_ref {
	const struct mx_assign *a;
	unsigned *used;
};

struct rctx {
	struct uncore_mset *ms;
	struct mmetric *mm; /* the metric being resolved */
	const char *box;    /* default box kind for names without BOX: */
	const char *what;   /* for messages */
	struct with_ref withs[MAX_WITHS];
	unsigned nwith;
	int depth;
};

/* Filter settings a term needs, in the box's filter value layout. */
struct req {
	uint64_t mask[UNCORE_MAX_FILTERS];
	uint64_t value[UNCORE_MAX_FILTERS];
	uint64_t raw_ok[UNCORE_MAX_FILTERS];
};

static inline unsigned ctz64(uint64_t v)
{
	return v ? (unsigned)__builtin_ctzll(v) : 0;
}

static inline int box_index(const struct uncore_machine *m, const struct uncore_box_type *bt)
{
	return uncore_machine_box_index(m, bt);
}

/* Sockets a scope covers. */
static inline uint32_t socket_mask(const struct uncore_machine *m, int socket)
{
	if (socket != UNCORE_ALL)
		return 1u << socket;
	return m->nsockets >= 32 ? ~0u : (1u << m->nsockets) - 1;
}

static inline unsigned popcount32(uint32_t v)
{
	return (unsigned)__builtin_popcount(v);
}

#endif
