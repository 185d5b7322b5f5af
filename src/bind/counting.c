/* An event set as the PAPI front-end counts with it (bind/counting.h): its
 * life (open, assign, start, stop, drop) and what a read's or a stop's
 * outcome makes the front-end say, decided here so that the front-end only
 * translates PAPI's calls. */
#include "bind/counting.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void uncore_counting_init(struct uncore_counting *k, const struct uncore_counting_voice *voice)
{
	memset(k, 0, sizeof(*k));
	pthread_mutex_init(&k->lock, NULL);
	k->attach_cpu = -1;
	k->voice = voice;
}

int uncore_counting_open(struct uncore_counting *k, struct uncore_component *c, const char **what)
{
	int rc = uncore_share_view(c->share, &k->view);
	*what = "creating an event set";
	if (rc == 0 && (rc = uncore_set_create_clocked(k->view, &c->clock, &k->set)) < 0) {
		k->view->ops->destroy(k->view);
		k->view = NULL;
	}
	if (rc < 0)
		return rc;
	k->scaled_hint = uncore_set_scaled_hint(k->set);
	k->notice_hint = uncore_set_notice_hint(k->set);
	*what = "PAPI_CPU_ATTACH";
	if (k->attach_cpu >= 0 && (rc = uncore_set_attach_cpu(k->set, k->attach_cpu)) < 0)
		return rc;
	return 0;
}

static void stop_poller(struct uncore_counting *k)
{
	if (!k->poller) /* none (PAPI_INTEL_UNCORE_POLL=off, or not needed) */
		return;
	uncore_poller_stop(k->poller);
	k->poller = NULL;
}

/* The poller stops first, not under k->lock: it takes that lock. */
void uncore_counting_drop(struct uncore_counting *k)
{
	stop_poller(k);
	pthread_mutex_lock(&k->lock);
	uncore_set_destroy(k->set);
	if (k->view)
		k->view->ops->destroy(k->view);
	k->set = NULL;
	k->scaled_hint = NULL;
	k->notice_hint = NULL;
	k->view = NULL;
	k->n = 0;
	pthread_mutex_unlock(&k->lock);
}

int uncore_counting_assign(struct uncore_counting *k, struct uncore_component *c,
			   const uint32_t *codes, unsigned n, const char **what)
{
	int rc = 0;
	if (n > UNCORE_COUNTING_MAX_EVENTS) {
		*what = "updating the event set";
		return UNCORE_ECONFLICT;
	}
	/* Each code's entry, resolved when the code was made: no name is
	 * rebuilt from a code and parsed again.  On the heap: an entry is too
	 * much for a thread's stack times UNCORE_COUNTING_MAX_EVENTS. */
	struct uncore_entry *entries = calloc(n ? n : 1, sizeof(*entries));
	if (!entries) {
		*what = "updating the event set";
		return UNCORE_ENOMEM;
	}
	*what = "looking up an event";
	for (unsigned i = 0; i < n && rc == 0; i++)
		rc = uncore_native_entry(c->native, codes[i], &entries[i]);
	if (rc == 0 && (rc = uncore_set_assign_entries(k->set, entries, n)) < 0) {
		snprintf(k->what, sizeof(k->what), "%s",
			 n ? entries[n - 1].name : "updating the event set");
		*what = k->what;
	}
	free(entries);
	if (rc < 0)
		return rc;
	memcpy(k->codes, codes, n * sizeof(*codes));
	k->n = n;
	return 0;
}

int uncore_counting_attach(struct uncore_counting *k, int cpu)
{
	int rc = uncore_set_attach_cpu(k->set, cpu);
	if (rc == 0)
		k->attach_cpu = cpu;
	return rc;
}

int uncore_counting_start(struct uncore_counting *k)
{
	stop_poller(k);
	pthread_mutex_lock(&k->lock);
	int rc = uncore_set_start(k->set);
	pthread_mutex_unlock(&k->lock);
	k->scaling_noted = 0;
	k->fault_reported = 0;
	k->notices_said = 0;
	return rc;
}

/* Nothing lost: poll when a counter could wrap twice between reads. */
int uncore_counting_poll(struct uncore_counting *k, const char *poll)
{
	uint64_t period = 0;
	int rc = uncore_poller_period(k->set, poll, &period);
	if (rc == 0 && period)
		rc = uncore_poller_start(k->set, &k->lock, period, &k->poller);
	if (rc < 0) {
		struct uncore_saved_error e;
		uncore_error_save(&e, rc);
		pthread_mutex_lock(&k->lock);
		uncore_set_stop(k->set, NULL);
		pthread_mutex_unlock(&k->lock);
		rc = uncore_error_restore(&e);
	}
	return rc;
}

/* The perf backend scales a count when the kernel multiplexed its group
 * (time_running < time_enabled).  PAPI has no field for that, so it is
 * said: once per start, naming the least-counted event. */
static void note_scaling(struct uncore_counting *k)
{
	struct uncore_event_status st;
	double least = 1.0;
	int which = -1;
	if (k->scaling_noted || !uncore_set_any_scaled(k->set))
		return; /* the usual case costs one pass over the counters */
	for (unsigned i = 0; i < k->n; i++)
		if (uncore_set_event_status(k->set, i, &st) == 0 && st.scaled && st.time_enabled &&
		    (double)st.time_running / (double)st.time_enabled < least) {
			least = (double)st.time_running / (double)st.time_enabled;
			which = (int)i;
		}
	if (which < 0)
		return;
	char name[1024], words[1200];
	if (k->voice->event_name(k->codes[which], name, sizeof(name)) != 0)
		snprintf(name, sizeof(name), "event %d", which);
	snprintf(words, sizeof(words),
		 "%s counted %.1f%% of the time (the kernel multiplexed it); its value is scaled "
		 "by time_enabled/time_running",
		 name, 100.0 * least);
	k->voice->say(words);
	k->scaling_noted = 1;
}

/* A read (the caller's, the poller's, the stop's) came too late for a
 * counter's wraps (README "Nothing lost"): the values are returned all the
 * same, and the set's notice is said, once per notice; tools ask
 * intel_uncore_notices.  Under k->lock, or with no poller. */
static void say_notices(struct uncore_counting *k)
{
	const char *last;
	unsigned n = uncore_set_notices(k->set, &last);
	if (n == k->notices_said)
		return;
	k->notices_said = n;
	k->voice->say(last);
}

int uncore_counting_notices(struct uncore_counting *k, char *buf, size_t len)
{
	const char *last = "";
	pthread_mutex_lock(&k->lock);
	int n = k->set ? (int)uncore_set_notices(k->set, &last) : 0;
	if (buf && len)
		snprintf(buf, len, "%s", last);
	pthread_mutex_unlock(&k->lock);
	return n;
}

int uncore_counting_stop(struct uncore_counting *k)
{
	stop_poller(k);
	if (!k->set)
		return 0;
	pthread_mutex_lock(&k->lock);
	int rc = uncore_set_stop(k->set, k->values);
	say_notices(k);
	pthread_mutex_unlock(&k->lock);
	if (rc < 0 && !k->fault_reported) {
		k->fault_reported = 1;
		return rc;
	}
	note_scaling(k);
	return 0;
}

/* A read's multiplexing note, when one may be due: one load in the usual
 * case; note_scaling checks exactly. */
static void note_scaling_if_due(struct uncore_counting *k, int rc)
{
	if (rc == 0 && !k->scaling_noted && *k->scaled_hint)
		note_scaling(k);
}

/* A read's result: a failure reported once, the end of a reported one. */
int uncore_counting_fault(struct uncore_counting *k, int rc)
{
	if (rc < 0 && !k->fault_reported) {
		k->fault_reported = 1;
		return rc;
	}
	if (rc == 0)
		k->fault_reported = 0; /* a new fault is news again */
	return 0;
}

/* A read while the background poller runs: under the lock that serialises
 * the front-end's calls with it (the poller is started and stopped by the
 * calls of this set's own thread: start, stop, cleanup). */
__attribute__((noinline)) int uncore_counting_read_polled(struct uncore_counting *k)
{
	pthread_mutex_lock(&k->lock);
	int rc = uncore_set_read(k->set, k->values);
	note_scaling_if_due(k, rc); /* under the lock: the poller reads the set */
	say_notices(k);
	pthread_mutex_unlock(&k->lock);
	return uncore_counting_fault(k, rc);
}

/* A read's outcome beyond the usual one, out of line. */
__attribute__((noinline)) int uncore_counting_read_outcome(struct uncore_counting *k, int rc)
{
	note_scaling_if_due(k, rc);
	say_notices(k);
	return uncore_counting_fault(k, rc);
}

int uncore_counting_reset(struct uncore_counting *k)
{
	if (!k->set)
		return 0;
	pthread_mutex_lock(&k->lock);
	int rc = k->set ? uncore_set_reset(k->set) : UNCORE_ESTATE;
	pthread_mutex_unlock(&k->lock);
	return rc;
}

void uncore_failure_words(int rc, const char *what, char *buf, size_t len)
{
	const char *detail = uncore_error_detail()[0] ? uncore_error_detail() : uncore_strerror(rc);
	/* Details of event errors start with the event's name already. */
	size_t wl = strlen(what);
	const char *sep = ": ";
	if (strncmp(detail, what, wl) == 0 && detail[wl] == ':')
		what = sep = "";
	snprintf(buf, len, "%s%s%s", what, sep, detail);
}
