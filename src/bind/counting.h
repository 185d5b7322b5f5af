/* An event set as the PAPI front-end counts with it (the control state of
 * components/intel_uncore): the library's set, its view of the process's
 * shared counters, its background poller and the lock that serialises
 * them, the values PAPI reads, and what has been said since its start (a
 * fault reported once, the multiplexing note, the wrap notices).  The
 * front-end gives the words to say to its `voice`: the library never
 * prints.  Each function returns 0 or the library's code for the front-end
 * to report (uncore_failure_words, then PAPI's code). */
#ifndef UNCORE_BIND_COUNTING_H
#define UNCORE_BIND_COUNTING_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "bind/component.h"
#include "eventset/eventset.h"
#include "eventset/poller.h"

/* Events in one event set: a two-socket Haswell-EP has over 300 counters. */
#define UNCORE_COUNTING_MAX_EVENTS 256

/* How the front-end says things (PAPI's error channel, and stderr with
 * PAPI_INTEL_UNCORE_VERBOSE=1): say() the words of a note; event_name()
 * the name of native code `code` (nonzero when it has none now). */
struct uncore_counting_voice {
	void (*say)(const char *words);
	int (*event_name)(uint32_t code, char *buf, size_t len);
};

struct uncore_counting {
	/* What every read tests, together (one cache line). */
	struct uncore_set *set;
	struct uncore_poller *poller; /* below, with `lock` */
	/* The set's flag that may say a read scaled a count (eventset.h): the
	 * read's one test before the multiplexing note's exact check. */
	const int *scaled_hint;
	int scaling_noted; /* the multiplexing note was said since start */
	/* The set's wrap guard notices (uncore_set_notices) and those said. */
	const unsigned *notice_hint;
	unsigned notices_said;
	/* A fault that may cost counts was reported (by the read or stop that
	 * met it) and has not cleared: later reads and stops meeting it again
	 * return their values with no error (the component's status,
	 * uncore_set_short, still says so).  Without this a persistent fault
	 * would trap the set: PAPI_stop reads first and gives up when that
	 * read fails, so the set could never be stopped or cleaned up. */
	int fault_reported;
	struct uncore_backend *view; /* the set's view of the shared counters */
	const struct uncore_counting_voice *voice;
	unsigned n;
	uint32_t codes[UNCORE_COUNTING_MAX_EVENTS];
	/* What PAPI reads (as its long long: the same 64 bits, which C lets
	 * alias): counts and metric bits alike, written once by the set. */
	uint64_t values[UNCORE_COUNTING_MAX_EVENTS];
	/* PAPI_CPU_ATTACH's CPU, or -1: kept here too, since an empty control
	 * state drops its event set (uncore_counting_drop). */
	int attach_cpu;
	/* The background poller (eventset/poller.h), when a counter of the set
	 * could wrap twice between reads; `lock` serialises it with the
	 * front-end's calls on the set. */
	pthread_mutex_t lock;
	char what[UNCORE_EVENT_MAX_LEN + 1]; /* the entry an assignment failed on */
};

/* An empty one (no set yet) that speaks through `voice`. */
void uncore_counting_init(struct uncore_counting *k, const struct uncore_counting_voice *voice);

/* Make the set, counting through a view of component `c`'s shared
 * counters, attached to attach_cpu's socket if set.  On error *what says
 * which step failed ("creating an event set", "PAPI_CPU_ATTACH"). */
int uncore_counting_open(struct uncore_counting *k, struct uncore_component *c, const char **what);

/* Free the set and its view (the poller stops first; takes k->lock). */
void uncore_counting_drop(struct uncore_counting *k);

/* Replace the set's entries by native codes[0..n) of component `c`, each
 * code's entry as resolved when the code was made.  Under k->lock.  On
 * error *what names the entry (or the step). */
int uncore_counting_assign(struct uncore_counting *k, struct uncore_component *c,
			   const uint32_t *codes, unsigned n, const char **what);

/* PAPI_CPU_ATTACH: count the socket of `cpu`.  Under k->lock. */
int uncore_counting_attach(struct uncore_counting *k, int cpu);

/* Start counting from zero; what was said is forgotten. */
int uncore_counting_start(struct uncore_counting *k);

/* Then the poller, when a counter could wrap twice between reads (`poll`:
 * PAPI_INTEL_UNCORE_POLL, uncore_poller_period); on error the set is
 * stopped again and the error's detail kept. */
int uncore_counting_poll(struct uncore_counting *k, const char *poll);

/* Final values into k->values, the notices and the multiplexing note said;
 * a fault reported once (its error), later ones not (0). */
int uncore_counting_stop(struct uncore_counting *k);

/* Zero the totals. */
int uncore_counting_reset(struct uncore_counting *k);

/* intel_uncore_notices (bind/notices.h) of this set, under k->lock. */
int uncore_counting_notices(struct uncore_counting *k, char *buf, size_t len);

/* The words of failure `rc` while doing `what`, with the error's detail. */
void uncore_failure_words(int rc, const char *what, char *buf, size_t len);

/* Out of line, for uncore_counting_read. */
int uncore_counting_read_polled(struct uncore_counting *k);
int uncore_counting_read_outcome(struct uncore_counting *k, int rc);
int uncore_counting_fault(struct uncore_counting *k, int rc);

/* PAPI_read: the values into k->values (after a sample when `sample`: the
 * final read of PAPI_stop, papi-patches 91).  The usual read (no poller,
 * the last read fine, no note due) is the set's read and one test: the
 * rest is out of line, so that this costs a few instructions per read
 * (issue 14).  0, or the first read that meets a fault its error (values
 * not to be returned); the reads after it 0 with what still counts. */
static inline int uncore_counting_read(struct uncore_counting *k, int sample)
{
	int rc = sample ? uncore_set_sample(k->set) : 0;
	if (__builtin_expect(rc < 0, 0))
		return uncore_counting_fault(k, rc);
	if (__builtin_expect(k->poller != NULL, 0))
		return uncore_counting_read_polled(k);
	rc = uncore_set_read(k->set, k->values);
	if (__builtin_expect(rc | k->fault_reported | (*k->scaled_hint & !k->scaling_noted) |
				 (*k->notice_hint != k->notices_said),
			     0))
		return uncore_counting_read_outcome(k, rc);
	return 0;
}

#endif
