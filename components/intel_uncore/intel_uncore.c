/* PAPI front-end of the intel_uncore component.  Thin by design: it turns
 * PAPI's component calls into calls of the papi-uncore library (src/, linked
 * in as one object, see Rules.intel_uncore) and maps its error codes to
 * PAPI_E*.  Every decision lives in the library, unit-tested without PAPI. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "papi_internal.h"
#include "papi_memory.h"
#include "papi_preset.h"
#include "papi_vector.h"

#include "common/uncore_error.h"
#include "common/version.h"
#include "bind/component.h"
#include "bind/notices.h"
#include "eventset/eventset.h"
#include "events/spelling.h"
#include "eventset/fork.h"
#include "eventset/native.h"
#include "eventset/poller.h"
#include "presets/presets.h"

/* Events in one event set: a two-socket Haswell-EP has over 300 counters. */
#define INTEL_UNCORE_MAX_EVENTS 256

papi_vector_t _intel_uncore_vector;

/* One per process: the backend bound to this machine and the code space.
 * PAPI_shutdown may run in one thread while others are inside PAPI (PAPI's
 * high-level API does that when a thread fails): every entry point that
 * uses `component` holds component_lock for reading, init and shutdown for
 * writing.  Event sets count through views that keep the shared counters
 * (and the backend) alive until the last set is cleaned up. */
static struct uncore_component *component;
static pthread_rwlock_t component_lock = PTHREAD_RWLOCK_INITIALIZER;
/* The environment, read once by init_component (bind/settings.h). */
static struct uncore_settings settings;
/* Serialises the description's rewrites by starts in several threads. */
static pthread_mutex_t description_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
	int unused;
} intel_uncore_context_t;

typedef struct {
	/* What every PAPI_read tests, together (one cache line). */
	struct uncore_set *set;
	struct uncore_poller *poller; /* below, with `lock` */
	/* The set's flag that may say a read scaled a count (eventset.h): the
	 * read's one test before note_scaling's exact check. */
	const int *scaled_hint;
	int scaling_noted; /* the multiplexing note was given since start */
	/* The set's wrap guard notices (uncore_set_notices) and those said. */
	const unsigned *notice_hint;
	unsigned notices_said;
	/* A fault that may cost counts was reported (by the read or stop that
	 * met it) and has not cleared: later reads and stops meeting it again
	 * return their values with PAPI_OK (the component's status,
	 * uncore_set_short, still says so).  Without this a persistent fault
	 * would trap the set: PAPI_stop reads first and gives up when that
	 * read fails, so the set could never be stopped or cleaned up. */
	int fault_reported;
	struct uncore_backend *view; /* the set's view of the shared counters */
	unsigned n;
	uint32_t codes[INTEL_UNCORE_MAX_EVENTS];
	long long values[INTEL_UNCORE_MAX_EVENTS];
	/* PAPI_CPU_ATTACH's CPU, or -1: kept here too, since an empty control
	 * state drops its event set (update_control_state). */
	int attach_cpu;
	/* The background poller (eventset/poller.h), when a counter of the set
	 * could wrap twice between PAPI_reads; `lock` serialises it with
	 * PAPI's calls on the set (poller: above). */
	pthread_mutex_t lock;
} intel_uncore_control_t;

/* The one mapping of library codes to PAPI's. */
static int to_papi(int rc)
{
	switch (rc) {
	case UNCORE_OK:
		return PAPI_OK;
	case UNCORE_ENOEVENT:
	case UNCORE_ENODEV: /* a socket or box this machine lacks */
	case UNCORE_ENOUMASK:
	case UNCORE_ENOMOD:
	case UNCORE_ESYNTAX:
		return PAPI_ENOEVNT;
	case UNCORE_EINVAL:
	case UNCORE_ERANGE:
	case UNCORE_ECOMBO:
		return PAPI_EINVAL;
	case UNCORE_ECONFLICT:
	case UNCORE_EBUSY:
		return PAPI_ECNFLCT;
	case UNCORE_EPERM:
	case UNCORE_EDENIED:
		return PAPI_EPERM;
	case UNCORE_ENOMEM:
		return PAPI_ENOMEM;
	case UNCORE_ENOSUPP:
		return PAPI_ENOSUPP;
	case UNCORE_ESTATE:
		return PAPI_EISRUN;
	default:
		return PAPI_ESYS;
	}
}

/* Report a failure through PAPI's own error channel (printed when the
 * application asked PAPI for verbose errors, PAPI_set_debug), or on stderr
 * when the user asked for it with PAPI_INTEL_UNCORE_VERBOSE=1 (PAPI's own
 * tools print only PAPI_strerror), and return its PAPI code. */
static int fail(int rc, const char *what)
{
	const char *detail = uncore_error_detail()[0] ? uncore_error_detail() : uncore_strerror(rc);
	int verbose = uncore_settings_set_on(settings.verbose);
	/* Details of event errors start with the event's name already. */
	size_t wl = strlen(what);
	const char *sep = ": ";
	if (strncmp(detail, what, wl) == 0 && detail[wl] == ':')
		what = sep = "";

	SUBDBG("intel_uncore: %s%s%s (%s)\n", what, sep, uncore_strerror(rc), detail);
	PAPIERROR("intel_uncore: %s%s%s", what, sep, detail);
	if (verbose)
		fprintf(stderr, "intel_uncore: %s%s%s\n", what, sep, detail);
	return to_papi(rc);
}

/* The same for start, read, stop and reset: the events were checked when
 * they were added, so a device missing now has vanished (hot removal, a
 * driver unbound): a system failure, not "Event does not exist". */
static int fail_counting(int rc, const char *what)
{
	int papi = fail(rc, what);
	return rc == UNCORE_ENODEV ? PAPI_ESYS : papi;
}

/* PAPI reads the verdict from cmp_info.disabled, set by the component.
 * A program then sees only "Event does not exist" for our events (PAPI
 * skips a disabled component), so the reason, with its fix, also goes
 * through PAPI's error channel and, with PAPI_INTEL_UNCORE_VERBOSE=1, to
 * stderr: the same words papi_component_avail and uncore-stat print. */
static int disable_component(int papi_error, const char *reason)
{
	int verbose = uncore_settings_set_on(settings.verbose);
	PAPIERROR("intel_uncore is disabled: %s", reason);
	if (verbose)
		fprintf(stderr, "intel_uncore is disabled: %s\n", reason);
	uncore_field_copy(_intel_uncore_vector.cmp_info.disabled_reason,
		   sizeof(_intel_uncore_vector.cmp_info.disabled_reason), reason);
	_intel_uncore_vector.cmp_info.disabled = papi_error;
	return papi_error;
}

/* The component bound to this machine, on first use: start-up binds only
 * what PAPI asks at init (bind/component.h, uncore_component_probe), and
 * the first thread to need the events discovers them while the others
 * wait.  Then the event count becomes exact (the listing's until then), or
 * the failure becomes the disabled reason; every caller gets the failure
 * through PAPI's error channel.  With component_lock held for reading. */
static int settled; /* under description_lock; reset by init_component */

static int bound(const char *what)
{
	if (!component)
		return PAPI_ENOINIT;
	int rc = uncore_component_bind(component);
	pthread_mutex_lock(&description_lock);
	if (!settled) {
		settled = 1;
		if (rc == 0)
			_intel_uncore_vector.cmp_info.num_native_events =
			    (int)uncore_component_native_count(component);
		else
			disable_component(to_papi(rc), uncore_error_detail());
	}
	pthread_mutex_unlock(&description_lock);
	return rc < 0 ? fail(rc, what) : PAPI_OK;
}

/* Uncore presets (presets/presets.h) entered in PAPI's preset table after
 * its own, for the whole node and each socket.  PAPI frees `postfix` and
 * `name[]` at shutdown (so they come from papi_strdup); symbols and
 * descriptions live here.  Our PAPI patch makes a preset count on the
 * component of its events (papi-patches/README.md). */
#define PRESET_SLOTS 64
static int preset_first = -1;
static unsigned preset_count;
static char preset_symbol[PRESET_SLOTS][UNCORE_PRESET_NAME_MAX];
static char preset_descr[PRESET_SLOTS][PAPI_HUGE_STR_LEN];

static int define_preset(int cidx, int slot, const struct uncore_preset_def *d, int socket)
{
	char ev[UNCORE_PRESET_MAX_EVENTS][UNCORE_PRESET_NAME_MAX];
	unsigned nev, k = preset_count;
	int codes[UNCORE_PRESET_MAX_EVENTS];
	hwi_presets_t *p = &_papi_hwi_presets[slot];

	if (!uncore_preset_countable(d, &component->be->machine))
		return -1; /* no box of its events on this machine: not listed */
	if (uncore_preset_instance(d, socket, preset_symbol[k], sizeof(preset_symbol[k]), ev,
				   &nev) < 0)
		return -1;
	for (unsigned i = 0; i < nev; i++) {
		uint32_t code;
		if (uncore_native_code(component->native, ev[i], &code) < 0)
			return -1; /* not countable on this machine: not listed */
		codes[i] = _papi_hwi_native_to_eventcode(cidx, (int)code, -1, ev[i]);
		if (codes[i] < 0)
			return -1;
	}
	if (socket >= 0)
		snprintf(preset_descr[k], sizeof(preset_descr[k]), "%s; socket %d only",
			 d->long_descr, socket);
	else
		snprintf(preset_descr[k], sizeof(preset_descr[k]), "%s; every socket",
			 d->long_descr);
	memset(p, 0, sizeof(*p));
	p->symbol = preset_symbol[k];
	p->short_descr = (char *)d->short_descr;
	p->long_descr = preset_descr[k];
	p->derived_int = d->postfix ? DERIVED_POSTFIX : NOT_DERIVED;
	p->postfix = d->postfix ? papi_strdup(d->postfix) : NULL;
	p->event_type = PAPI_PRESET_BIT_MEM;
	for (unsigned i = 0; i < nev; i++) {
		p->code[i] = (unsigned)codes[i];
		p->name[i] = papi_strdup(ev[i]);
	}
	for (unsigned i = nev; i < PAPI_MAX_INFO_TERMS; i++)
		p->code[i] = (unsigned)PAPI_NULL;
	p->count = nev;
	preset_count++;
	return 0;
}

static void define_presets(int cidx)
{
	unsigned n;
	/* Presets come with tables, and tables bind at start-up. */
	const struct uncore_preset_def *defs =
	    component->be && component->be->machine.plat
		? uncore_presets(component->be->machine.plat->platform, &n)
		: NULL;
	int slot = 0;
	if (!defs)
		return;
	/* After PAPI's own presets: its enumeration stops at the first
	 * unnamed slot. */
	while (slot < PAPI_MAX_PRESET_EVENTS && _papi_hwi_presets[slot].symbol)
		slot++;
	preset_first = slot;
	preset_count = 0;
	/* Node presets first, then per socket: PAPI's table has room for
	 * about 20 after its own (PAPI_MAX_PRESET_EVENTS), so on a machine
	 * with many sockets the last per-socket ones are left out. */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < n; i++)
			for (int s = pass ? 0 : -1;
			     s < (pass ? (int)component->be->machine.nsockets : 0); s++) {
				if (slot >= PAPI_MAX_PRESET_EVENTS || preset_count >= PRESET_SLOTS)
					break;
				if (define_preset(cidx, slot, &defs[i], s) == 0)
					slot++;
			}
	_intel_uncore_vector.cmp_info.num_preset_events = (int)preset_count;
}

/* PAPI_shutdown has freed each preset's postfix and names already. */
static void forget_presets(void)
{
	for (unsigned k = 0; preset_first >= 0 && k < preset_count; k++)
		memset(&_papi_hwi_presets[preset_first + (int)k], 0, sizeof(hwi_presets_t));
	preset_first = -1;
	preset_count = 0;
}

/* The processor as PAPI identified it before initialising components
 * (/proc/cpuinfo): CPUID again would cost a trap per leaf in a virtual
 * machine.  NULL when PAPI could not say. */
static const struct uncore_cpu_id *papi_cpu(struct uncore_cpu_id *id)
{
	const PAPI_hw_info_t *hw = &_papi_hwi_system_info.hw_info;
	size_t vl = strlen(hw->vendor_string);
	if (vl == 0 || vl >= sizeof(id->vendor) || hw->cpuid_family <= 0 || hw->cpuid_model < 0)
		return NULL;
	memset(id, 0, sizeof(*id));
	memcpy(id->vendor, hw->vendor_string, vl);
	id->family = (unsigned)hw->cpuid_family;
	id->model = (unsigned)hw->cpuid_model;
	id->stepping = hw->cpuid_stepping > 0 ? (unsigned)hw->cpuid_stepping : 0;
	id->hypervisor = hw->virtualized != 0;
	snprintf(id->brand, sizeof(id->brand), "%.63s", hw->model_string);
	return id;
}

static int _intel_uncore_init_component(int cidx)
{
	int rc;
	struct uncore_cpu_id cpu;

	_intel_uncore_vector.cmp_info.CmpIdx = cidx;
	uncore_error_clear();
	uncore_fork_init(); /* before PAPI's API gate registers its fork handlers */
	pthread_rwlock_wrlock(&component_lock);
	rc = uncore_settings_read(&settings);
	if (rc == 0)
		rc = uncore_component_probe(&settings, papi_cpu(&cpu), &component);
	pthread_rwlock_unlock(&component_lock);
	if (rc < 0)
		return disable_component(PAPI_ENOSUPP, uncore_error_detail());
	settled = 0;
	_intel_uncore_vector.cmp_info.num_native_events =
	    (int)uncore_component_native_count(component);
	/* PAPI routes "pmu::event" names to the components listing the PMU.
	 * It keeps PAPI_PMU_MAX names; ours come types and families first, and
	 * our PAPI patch routes a family's numbered instances by it
	 * (papi-patches/README.md), so no name is lost past the limit. */
	unsigned npmu;
	const char *const *pmus = uncore_component_pmu_names(component, &npmu);
	for (unsigned i = 0; i < npmu && i < PAPI_PMU_MAX; i++)
		_intel_uncore_vector.cmp_info.pmu_names[i] = (char *)pmus[i];
	char description[512];
	snprintf(description, sizeof(description), "Intel uncore, %s backend: %s",
		 uncore_backend_name(component->kind), component->origin);
	uncore_description_fit(_intel_uncore_vector.cmp_info.description,
			       sizeof(_intel_uncore_vector.cmp_info.description), description);
	if (uncore_settings_set_on(settings.verbose) && strlen(description) >= PAPI_MAX_STR_LEN)
		fprintf(stderr, "intel_uncore: %s\n", description); /* the whole of it */
	_intel_uncore_vector.cmp_info.disabled = PAPI_OK;
	define_presets(cidx);
	return PAPI_OK;
}

static int _intel_uncore_shutdown_component(void)
{
	pthread_rwlock_wrlock(&component_lock);
	for (unsigned i = 0; i < PAPI_PMU_MAX; i++)
		_intel_uncore_vector.cmp_info.pmu_names[i] = NULL;
	forget_presets();
	uncore_component_close(component);
	component = NULL;
	pthread_rwlock_unlock(&component_lock);
	return PAPI_OK;
}

static int _intel_uncore_init_thread(hwd_context_t *ctx)
{
	(void)ctx;
	return PAPI_OK;
}

static int _intel_uncore_shutdown_thread(hwd_context_t *ctx)
{
	(void)ctx;
	return PAPI_OK;
}

/* The set and its view of the shared counters; with component_lock held. */
static int new_set(intel_uncore_control_t *c)
{
	int rc = bound("creating an event set");
	if (rc != PAPI_OK)
		return rc;
	rc = uncore_share_view(component->share, &c->view);
	if (rc == 0 && (rc = uncore_set_create(c->view, &c->set)) < 0) {
		c->view->ops->destroy(c->view);
		c->view = NULL;
	}
	if (rc < 0)
		return fail(rc, "creating an event set");
	uncore_set_clock(c->set, &component->clock);
	c->scaled_hint = uncore_set_scaled_hint(c->set);
	c->notice_hint = uncore_set_notice_hint(c->set);
	if (c->attach_cpu >= 0 && (rc = uncore_set_attach_cpu(c->set, c->attach_cpu)) < 0)
		return fail(rc, "PAPI_CPU_ATTACH");
	return PAPI_OK;
}

static int _intel_uncore_init_control_state(hwd_control_state_t *ctl)
{
	intel_uncore_control_t *c = (intel_uncore_control_t *)ctl;
	int ret;

	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	c->attach_cpu = -1;
	pthread_rwlock_rdlock(&component_lock);
	ret = new_set(c);
	pthread_rwlock_unlock(&component_lock);
	return ret;
}

static void stop_poller(intel_uncore_control_t *c)
{
	uncore_poller_stop(c->poller);
	c->poller = NULL;
}

/* Free the control state's event set and view.  The poller stops first,
 * not under c->lock: it takes that lock. */
static void drop_set(intel_uncore_control_t *c)
{
	stop_poller(c);
	pthread_mutex_lock(&c->lock);
	uncore_set_destroy(c->set);
	if (c->view)
		c->view->ops->destroy(c->view);
	c->set = NULL;
	c->scaled_hint = NULL;
	c->notice_hint = NULL;
	c->view = NULL;
	c->n = 0;
	pthread_mutex_unlock(&c->lock);
}

static int _intel_uncore_cleanup_eventset(hwd_control_state_t *ctl)
{
	drop_set((intel_uncore_control_t *)ctl);
	/* c->lock is not destroyed: PAPI calls update_control_state (no
	 * events) on this control state right after, and then frees it without
	 * telling the component.  A default mutex holds no resource. */
	return PAPI_OK;
}

static int update_locked(intel_uncore_control_t *c, NativeInfo_t *native, int count);

static int _intel_uncore_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native,
					      int count, hwd_context_t *ctx)
{
	intel_uncore_control_t *c = (intel_uncore_control_t *)ctl;
	int ret;

	(void)ctx;
	if (count > INTEL_UNCORE_MAX_EVENTS)
		return PAPI_ECNFLCT;
	/* An empty control state owns no memory: PAPI frees it right after a
	 * call with no events (PAPI_cleanup_eventset, and PAPI_destroy_eventset
	 * of a set whose add failed, never call cleanup_eventset before that).
	 * A set kept or made here was lost, 856 bytes each time; the next add
	 * makes a new one. */
	if (count == 0) {
		drop_set(c);
		return PAPI_OK;
	}
	pthread_rwlock_rdlock(&component_lock);
	pthread_mutex_lock(&c->lock);
	ret = update_locked(c, native, count);
	pthread_mutex_unlock(&c->lock);
	pthread_rwlock_unlock(&component_lock);
	return ret;
}

static int update_locked(intel_uncore_control_t *c, NativeInfo_t *native, int count)
{
	int rc, ret = PAPI_OK;

	if (!c->set && (ret = new_set(c)) != PAPI_OK)
		return ret;
	if (!component)
		return PAPI_ENOINIT;
	/* Each code's entry, resolved when the code was made: no name is
	 * rebuilt from a code and parsed again.  On the heap: an entry is too
	 * much for a thread's stack times INTEL_UNCORE_MAX_EVENTS. */
	struct uncore_entry *entries = malloc((count ? (size_t)count : 1) * sizeof(*entries));
	if (!entries)
		return PAPI_ENOMEM;
	for (int i = 0; i < count && ret == PAPI_OK; i++) {
		rc = uncore_native_entry(component->native, (uint32_t)native[i].ni_event,
					 &entries[i]);
		if (rc < 0)
			ret = fail(rc, "looking up an event");
	}
	if (ret == PAPI_OK &&
	    (rc = uncore_set_assign_entries(c->set, entries, (unsigned)count)) < 0)
		ret = fail(rc, count ? entries[count - 1].name : "updating the event set");
	free(entries);
	if (ret != PAPI_OK)
		return ret;
	for (int i = 0; i < count; i++) {
		native[i].ni_position = i;
		c->codes[i] = (uint32_t)native[i].ni_event;
	}
	c->n = (unsigned)count;
	return PAPI_OK;
}

/* One process per socket counts (README "MPI jobs and threads"): when
 * another process holds a socket, this one's events read 0 there.  Said in
 * the component's description (what papi_component_avail and
 * PAPI_get_component_info show), through PAPI's error channel and, with
 * PAPI_INTEL_UNCORE_VERBOSE=1, on stderr. */
static void note_holders(void)
{
	char holders[600], description[1400];
	int elsewhere = 0;
	pthread_rwlock_rdlock(&component_lock);
	if (!component || uncore_share_holders(component->share, holders, sizeof(holders)) < 0) {
		pthread_rwlock_unlock(&component_lock);
		uncore_error_clear();
		return;
	}
	elsewhere = holders[0] != '\0';
	snprintf(description, sizeof(description), "Intel uncore, %s backend: %s%s",
		 uncore_backend_name(component->kind), holders, holders[0] ? "; " : "");
	/* Several threads start sets at once: one writes the description at a
	 * time, and only when it changes (readers of PAPI_get_component_info
	 * see it change only when a socket's holder does). */
	pthread_mutex_lock(&description_lock);
	char *field = _intel_uncore_vector.cmp_info.description;
	char fitted[sizeof(_intel_uncore_vector.cmp_info.description)];
	uncore_description_fit_tail(fitted, sizeof(fitted), description, component->origin);
	if (strcmp(field, fitted) != 0)
		uncore_field_copy(field, sizeof(fitted), fitted);
	pthread_mutex_unlock(&description_lock);
	pthread_rwlock_unlock(&component_lock);
	if (!elsewhere)
		return;
	int verbose = uncore_settings_set_on(settings.verbose);
	PAPIERROR("intel_uncore: one process counts per socket: %s", holders);
	if (verbose)
		fprintf(stderr, "intel_uncore: one process counts per socket: %s\n", holders);
}

/* Uncore counters raise no interrupt a thread could be sampled on, and a
 * software emulation would read the counters from a signal handler, maybe
 * while the same thread holds the read path's locks.  So PAPI_overflow (and
 * PAPI_profil, HPCToolkit's sampling) is refused with a reason rather than
 * accepted and never fired: hardware_intr is set so that PAPI asks us, and
 * no_software_overflow so that it asks us for PAPI_OVERFLOW_FORCE_SW too. */
static int _intel_uncore_set_overflow(EventSetInfo_t *esi, int index, int threshold)
{
	(void)esi;
	(void)index;
	if (threshold == 0)
		return PAPI_OK; /* switching overflow off */
	return fail(uncore_fail(UNCORE_ENOSUPP,
				"uncore counters deliver no overflow interrupt: they cannot be "
				"sampled (PAPI_overflow, PAPI_profil, hpcrun); read them with "
				"PAPI_read, or per socket for an MPI job with libpapi_uncore_mpi"),
		    "PAPI_overflow");
}

static int _intel_uncore_start(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	intel_uncore_control_t *c = (intel_uncore_control_t *)ctl;
	int rc;
	uint64_t period = 0;
	(void)ctx;
	if (!c->set)
		return PAPI_EINVAL; /* no events (PAPI refuses to start those first) */
	stop_poller(c);
	pthread_mutex_lock(&c->lock);
	rc = uncore_set_start(c->set);
	pthread_mutex_unlock(&c->lock);
	c->scaling_noted = 0;
	c->fault_reported = 0;
	c->notices_said = 0;
	if (rc < 0)
		return fail_counting(rc, "starting");
	note_holders();
	/* Nothing lost: poll when a counter could wrap twice between reads
	 * (PAPI_INTEL_UNCORE_POLL=auto|off|<ms>). */
	rc = uncore_poller_period(c->set, settings.poll, &period);
	if (rc == 0 && period)
		rc = uncore_poller_start(c->set, &c->lock, period, &c->poller);
	if (rc < 0) {
		int err = fail(rc, "starting the poller");
		pthread_mutex_lock(&c->lock);
		uncore_set_stop(c->set, NULL);
		pthread_mutex_unlock(&c->lock);
		return err;
	}
	return PAPI_OK;
}

/* The perf backend scales a count when the kernel multiplexed its group
 * (time_running < time_enabled).  PAPI has no field for that, so say it
 * through PAPI's error channel and, with PAPI_INTEL_UNCORE_VERBOSE=1, on
 * stderr: once per start, naming the least-counted event. */
static void note_scaling(intel_uncore_control_t *c)
{
	struct uncore_event_status st;
	double least = 1.0;
	int which = -1;
	if (c->scaling_noted || !uncore_set_any_scaled(c->set))
		return; /* the usual case costs one pass over the counters */
	for (unsigned i = 0; i < c->n; i++)
		if (uncore_set_event_status(c->set, i, &st) == 0 && st.scaled && st.time_enabled &&
		    (double)st.time_running / (double)st.time_enabled < least) {
			least = (double)st.time_running / (double)st.time_enabled;
			which = (int)i;
		}
	if (which < 0)
		return;
	char name[PAPI_HUGE_STR_LEN];
	pthread_rwlock_rdlock(&component_lock);
	if (!component ||
	    uncore_native_event_string(component->native, c->codes[which], name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "event %d", which);
	pthread_rwlock_unlock(&component_lock);
	int verbose = uncore_settings_set_on(settings.verbose);
	PAPIERROR(
	    "intel_uncore: %s counted %.1f%% of the time (the kernel multiplexed it); its value "
	    "is scaled by time_enabled/time_running",
	    name, 100.0 * least);
	if (verbose)
		fprintf(
		    stderr,
		    "intel_uncore: %s counted %.1f%% of the time (the kernel multiplexed it); its "
		    "value is scaled by time_enabled/time_running\n",
		    name, 100.0 * least);
	c->scaling_noted = 1;
}

/* A read (the caller's, the poller's, the stop's) came too late for a
 * counter's wraps (README "Nothing lost"): the values are returned all the
 * same, and the set's notice is said through PAPI's error channel (and
 * stderr with PAPI_INTEL_UNCORE_VERBOSE=1), once per notice; tools ask
 * intel_uncore_notices.  Under c->lock, or with no poller. */
static void say_notices(intel_uncore_control_t *c)
{
	const char *last;
	unsigned n = uncore_set_notices(c->set, &last);
	if (n == c->notices_said)
		return;
	c->notices_said = n;
	PAPIERROR("intel_uncore: %s", last);
	if (uncore_settings_set_on(settings.verbose))
		fprintf(stderr, "intel_uncore: %s\n", last);
}

__attribute__((visibility("default"))) int intel_uncore_notices(int EventSet, char *buf,
								 size_t len)
{
	EventSetInfo_t *esi = _papi_hwi_lookup_EventSet(EventSet);
	const char *last = "";
	int n = -1;
	if (!esi || esi->CmpIdx != _intel_uncore_vector.cmp_info.CmpIdx || !esi->ctl_state)
		return -1;
	intel_uncore_control_t *c = (intel_uncore_control_t *)esi->ctl_state;
	pthread_mutex_lock(&c->lock);
	n = c->set ? (int)uncore_set_notices(c->set, &last) : 0;
	if (buf && len)
		snprintf(buf, len, "%s", last);
	pthread_mutex_unlock(&c->lock);
	return n;
}

/* Counts and metric bits alike: the values are copied bit for bit. */
static int copy_values(intel_uncore_control_t *c, const uint64_t *v)
{
	for (unsigned i = 0; i < c->n; i++)
		c->values[i] = (long long)v[i];
	return PAPI_OK;
}

static int _intel_uncore_stop(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	intel_uncore_control_t *c = (intel_uncore_control_t *)ctl;
	uint64_t v[INTEL_UNCORE_MAX_EVENTS];
	int rc;
	(void)ctx;
	stop_poller(c);
	if (!c->set)
		return PAPI_OK;
	pthread_mutex_lock(&c->lock);
	rc = uncore_set_stop(c->set, v);
	say_notices(c);
	pthread_mutex_unlock(&c->lock);
	if (rc < 0 && !c->fault_reported) {
		c->fault_reported = 1;
		int err = fail_counting(rc, "stopping");
		copy_values(c, v);
		return err;
	}
	note_scaling(c);
	return copy_values(c, v);
}

/* A read's scaling note, when one may be due: one load in the usual
 * case; note_scaling checks exactly. */
static void note_scaling_if_due(intel_uncore_control_t *c, int rc)
{
	if (rc == 0 && !c->scaling_noted && *c->scaled_hint)
		note_scaling(c);
}

/* A read's result: a failure reported once, the end of a reported one. */
static int read_result(intel_uncore_control_t *c, int rc, long long **events)
{
	if (rc < 0 && !c->fault_reported) {
		c->fault_reported = 1;
		return fail_counting(rc, "reading");
	}
	if (rc == 0)
		c->fault_reported = 0; /* a new fault is news again */
	*events = c->values;
	return PAPI_OK;
}

/* A read while the background poller runs: under the lock that serialises
 * PAPI's calls with it (the poller is started and stopped by the calls of
 * this control state's own thread: start, stop, cleanup). */
static __attribute__((noinline)) int read_polled(intel_uncore_control_t *c, long long **events)
{
	pthread_mutex_lock(&c->lock);
	int rc = uncore_set_read(c->set, (uint64_t *)c->values);
	note_scaling_if_due(c, rc); /* under the lock: the poller reads the set */
	say_notices(c);
	pthread_mutex_unlock(&c->lock);
	return read_result(c, rc, events);
}

/* A read's outcome beyond the usual one, out of line. */
static __attribute__((noinline)) int read_outcome(intel_uncore_control_t *c, int rc,
						  long long **events)
{
	note_scaling_if_due(c, rc);
	say_notices(c);
	return read_result(c, rc, events);
}

/* The usual read (no poller, the last read fine, no scaling note due) is
 * the set's read and one test: the rest is out of line, so that this
 * frame costs a few instructions per PAPI_read (issue 14). */
static int _intel_uncore_read(hwd_context_t *ctx, hwd_control_state_t *ctl, long long **events,
			      int flags)
{
	intel_uncore_control_t *c = (intel_uncore_control_t *)ctl;
	(void)ctx;
	if (__builtin_expect(!c->set, 0))
		return PAPI_EINVAL;
	int rc = flags & PAPI_STOP_READ ? uncore_set_sample(c->set) : 0; /* papi-patches 91 */
	if (__builtin_expect(rc < 0, 0))
		return read_result(c, rc, events);
	if (__builtin_expect(c->poller != NULL, 0))
		return read_polled(c, events);
	/* The values are written once, straight into the array PAPI reads
	 * (long long and uint64_t: the same 64 bits, the signed and unsigned
	 * types of one another, which C lets alias). */
	rc = uncore_set_read(c->set, (uint64_t *)c->values);
	if (__builtin_expect(rc | c->fault_reported | (*c->scaled_hint & !c->scaling_noted) |
				 (*c->notice_hint != c->notices_said),
			     0))
		return read_outcome(c, rc, events);
	*events = c->values;
	return PAPI_OK;
}

static int _intel_uncore_reset(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	intel_uncore_control_t *c = (intel_uncore_control_t *)ctl;
	int rc;
	(void)ctx;
	if (!c->set)
		return PAPI_OK;
	pthread_mutex_lock(&c->lock);
	rc = c->set ? uncore_set_reset(c->set) : UNCORE_ESTATE;
	pthread_mutex_unlock(&c->lock);
	return rc < 0 ? fail_counting(rc, "resetting") : PAPI_OK;
}

/* PAPI_CPU_ATTACH (cmp_info.cpu): uncore counters belong to a socket, so a
 * set attached to a CPU counts that CPU's socket, as ":cpu=N" does (see
 * uncore_set_attach_cpu).  Other options concern per-thread counting and
 * are accepted as they change nothing for socket-wide counters. */
static int _intel_uncore_ctl(hwd_context_t *ctx, int code, _papi_int_option_t *option)
{
	(void)ctx;
	if (code == PAPI_CPU_ATTACH) {
		intel_uncore_control_t *c = (intel_uncore_control_t *)option->cpu.ESI->ctl_state;
		int rc, ret = PAPI_OK;
		pthread_rwlock_rdlock(&component_lock);
		pthread_mutex_lock(&c->lock);
		if (!c->set)
			ret = new_set(c);
		rc = ret == PAPI_OK ? uncore_set_attach_cpu(c->set, (int)option->cpu.cpu_num) : 0;
		if (ret == PAPI_OK && rc == 0)
			c->attach_cpu = (int)option->cpu.cpu_num;
		pthread_mutex_unlock(&c->lock);
		pthread_rwlock_unlock(&component_lock);
		if (ret != PAPI_OK)
			return ret;
		return rc < 0 ? fail(rc, "PAPI_CPU_ATTACH") : PAPI_OK;
	}
	return PAPI_OK;
}

/* Uncore counters count for the whole socket, whatever the domain. */
static int _intel_uncore_set_domain(hwd_control_state_t *ctl, int domain)
{
	(void)ctl;
	return domain & PAPI_DOM_ALL ? PAPI_OK : PAPI_EINVAL;
}

static int _intel_uncore_ntv_enum_events(unsigned int *code, int modifier)
{
	uint32_t c = *code;
	enum uncore_native_enum how;
	switch (modifier) {
	case PAPI_ENUM_FIRST:
		how = UNCORE_ENUM_FIRST;
		break;
	case PAPI_ENUM_EVENTS:
		how = UNCORE_ENUM_EVENTS;
		break;
	case PAPI_NTV_ENUM_UMASKS:
		how = UNCORE_ENUM_UMASKS;
		break;
	default:
		return PAPI_EINVAL;
	}
	pthread_rwlock_rdlock(&component_lock);
	int rc = bound("listing the events") == PAPI_OK
		     ? uncore_native_enum(component->native, &c, how)
		     : UNCORE_ESTATE;
	pthread_rwlock_unlock(&component_lock);
	if (rc < 0)
		return PAPI_ENOEVNT;
	*code = c;
	return PAPI_OK;
}

/* Whether `pmu` (len bytes) is one of our PMU names or a numbered instance
 * of one (the routing rule of our PAPI patch, papi-patches/README.md). */
static int is_our_pmu(const char *pmu, size_t len)
{
	unsigned npmu;
	const char *const *pmus = uncore_component_pmu_names(component, &npmu);
	for (unsigned i = 0; i < npmu; i++) {
		size_t n = strlen(pmus[i]);
		if (n > len || strncmp(pmu, pmus[i], n) != 0)
			continue;
		size_t k = n;
		if (k < len && pmu[k] == '_' && k + 1 < len)
			k++;
		while (k < len && pmu[k] >= '0' && pmu[k] <= '9')
			k++;
		if (k == len && (n == len || pmu[len - 1] != '_'))
			return 1;
	}
	return 0;
}

static int _intel_uncore_ntv_name_to_code(const char *given, unsigned int *code)
{
	uint32_t c;
	/* perf's and Intel's spellings in ours: the PMU is found as in ours. */
	char name[UNCORE_EVENT_MAX_LEN + 1];
	int spelt = uncore_event_spelling(given, name, sizeof(name));
	pthread_rwlock_rdlock(&component_lock);
	if (spelt < 0) { /* refused (perf's /u): explained for our PMUs only */
		int ours = component && is_our_pmu(given, strcspn(given, "/"));
		pthread_rwlock_unlock(&component_lock);
		return ours && spelt != UNCORE_ENOSPACE ? fail(spelt, given) : PAPI_ENOEVNT;
	}
	/* PAPI asks every component about names with no PMU or another
	 * component's PMU (PAPI_TOT_INS, cycles, perf::...).  Before the first
	 * use those need no discovery: with kernel PMUs only, every name of
	 * ours is PMU::EVENT with one of the PMU names start-up announced. */
	const char *pmu_end = strstr(name, "::");
	if (component && component->deferred &&
	    (!pmu_end || !is_our_pmu(name, (size_t)(pmu_end - name)))) {
		pthread_rwlock_unlock(&component_lock);
		return PAPI_ENOEVNT;
	}
	int ret = bound(name);
	int rc = ret == PAPI_OK ? uncore_native_code(component->native, name, &c) : UNCORE_OK;
	pthread_rwlock_unlock(&component_lock);
	if (ret != PAPI_OK)
		return ret;
	if (rc < 0) {
		/* PAPI offers names without a PMU, or of PMUs we do not have, to
		 * every component: those are not ours, and saying so would flood
		 * every tool that looks a name up (papi_native_avail --check). */
		const char *sep = strstr(name, "::");
		if (rc == UNCORE_ENOEVENT && (!sep || !is_our_pmu(name, (size_t)(sep - name))))
			return PAPI_ENOEVNT;
		return fail(rc, name);
	}
	*code = c;
	return PAPI_OK;
}

static int _intel_uncore_ntv_code_to_name(unsigned int code, char *name, int len)
{
	struct uncore_native_info info;
	int ret = PAPI_ENOEVNT;
	pthread_rwlock_rdlock(&component_lock);
	if (bound("naming an event") == PAPI_OK &&
	    uncore_native_info(component->native, code, &info) == 0) {
		uncore_field_copy(name, (size_t)len, info.name);
		ret = PAPI_OK;
	}
	pthread_rwlock_unlock(&component_lock);
	return ret;
}

static int _intel_uncore_ntv_code_to_descr(unsigned int code, char *descr, int len)
{
	struct uncore_native_info info;
	int ret = PAPI_ENOEVNT;
	pthread_rwlock_rdlock(&component_lock);
	if (bound("naming an event") == PAPI_OK &&
	    uncore_native_info(component->native, code, &info) == 0) {
		uncore_tool_descr_copy(descr, (size_t)len, info.desc);
		ret = PAPI_OK;
	}
	pthread_rwlock_unlock(&component_lock);
	return ret;
}

static int _intel_uncore_ntv_code_to_info(unsigned int code, PAPI_event_info_t *info)
{
	struct uncore_native_info ni;
	pthread_rwlock_rdlock(&component_lock);
	if (bound("describing an event") != PAPI_OK ||
	    uncore_native_info(component->native, code, &ni) < 0) {
		pthread_rwlock_unlock(&component_lock);
		return PAPI_ENOEVNT;
	}
	uncore_field_copy(info->symbol, sizeof(info->symbol), ni.name);
	uncore_tool_descr_copy(info->long_descr, sizeof(info->long_descr), ni.desc);
	uncore_field_copy(info->short_descr, sizeof(info->short_descr), ni.desc);
	uncore_field_copy(info->units, sizeof(info->units), ni.units);
	/* Metrics are doubles: their bits travel in PAPI's long long values,
	 * as PAPI_DATATYPE_FP64 events of other components do. */
	info->data_type = ni.fp64    ? PAPI_DATATYPE_FP64
			  : ni.int64 ? PAPI_DATATYPE_INT64
				     : PAPI_DATATYPE_UINT64;
	/* src/metrics/README.md, "What a read returns": counts and amounts
	 * are running sums since start; every other metric's value covers the
	 * interval since the previous read, which PAPI calls absolute and
	 * since-last (its high-level API, patched, reads those as instants);
	 * a ":run" form covers the time since start (absolute, since start). */
	int since_last = (ni.fp64 || ni.int64) && !ni.running_sum;
	info->value_type = since_last ? PAPI_VALUETYPE_ABSOLUTE : PAPI_VALUETYPE_RUNNING_SUM;
	info->timescope = since_last && !ni.since_start ? PAPI_TIMESCOPE_SINCE_LAST
							: PAPI_TIMESCOPE_SINCE_START;
	info->location = PAPI_LOCATION_UNCORE;
	info->component_index = _intel_uncore_vector.cmp_info.CmpIdx;
	pthread_rwlock_unlock(&component_lock);
	return PAPI_OK;
}

papi_vector_t _intel_uncore_vector = {
    .cmp_info =
	{
	    .name = "intel_uncore",
	    .short_name = "intel_uncore",
	    .description = "Intel uncore counters (Haswell-EP, Skylake, Nehalem, Xeon 7400), "
			   "socket- and box-aware",
	    .version = PAPI_UNCORE_VERSION, /* the release every tool reports */
	    .support_version = "n/a",
	    .kernel_version = "n/a",
	    .num_cntrs = INTEL_UNCORE_MAX_EVENTS,
	    .num_mpx_cntrs = INTEL_UNCORE_MAX_EVENTS,
	    .default_domain = PAPI_DOM_ALL,
	    .available_domains = PAPI_DOM_ALL,
	    .default_granularity = PAPI_GRN_SYS,
	    .available_granularities = PAPI_GRN_SYS,
	    .hardware_intr_sig = PAPI_INT_SIGNAL,
	    .hardware_intr = 1, /* so that PAPI_overflow asks set_overflow */
	    /* and with PAPI_OVERFLOW_FORCE_SW too (papi-patches/60-...) */
	    .no_software_overflow = 1,
	    .cpu = 1, /* PAPI_CPU_ATTACH selects the CPU's socket */
	},
    .size =
	{
	    .context = sizeof(intel_uncore_context_t),
	    .control_state = sizeof(intel_uncore_control_t),
	    .reg_value = 1,
	    .reg_alloc = 1,
	},
    .init_component = _intel_uncore_init_component,
    .shutdown_component = _intel_uncore_shutdown_component,
    .init_thread = _intel_uncore_init_thread,
    .shutdown_thread = _intel_uncore_shutdown_thread,
    .init_control_state = _intel_uncore_init_control_state,
    .set_overflow = _intel_uncore_set_overflow,
    .update_control_state = _intel_uncore_update_control_state,
    .cleanup_eventset = _intel_uncore_cleanup_eventset,
    .start = _intel_uncore_start,
    .stop = _intel_uncore_stop,
    .read = _intel_uncore_read,
    .reset = _intel_uncore_reset,
    .ctl = _intel_uncore_ctl,
    .set_domain = _intel_uncore_set_domain,
    .ntv_enum_events = _intel_uncore_ntv_enum_events,
    .ntv_name_to_code = _intel_uncore_ntv_name_to_code,
    .ntv_code_to_name = _intel_uncore_ntv_code_to_name,
    .ntv_code_to_descr = _intel_uncore_ntv_code_to_descr,
    .ntv_code_to_info = _intel_uncore_ntv_code_to_info,
};
