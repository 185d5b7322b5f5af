/* PAPI front-end of the intel_uncore component.  Thin by design: it turns
 * PAPI's component calls into calls of the papi-uncore library (src/, linked
 * in as one object, see Rules.intel_uncore) and maps its error codes to
 * PAPI_E*.  Every decision lives in the library, unit-tested without PAPI. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "papi.h"
#include "papi_internal.h"
#include "papi_memory.h"
#include "papi_preset.h"
#include "papi_vector.h"

#include "common/uncore_error.h"
#include "common/version.h"
#include "bind/component.h"
#include "bind/counting.h"
#include "bind/preset_table.h"
#include "bind/notices.h"
#include "eventset/fork.h"
#include "eventset/native.h"

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

/* The control state is the library's event set as a front-end counts
 * with it (bind/counting.h). */
typedef struct uncore_counting intel_uncore_control_t;

/* The one mapping of library codes to PAPI's. */
static int to_papi(int rc)
{
	static const struct {
		int ours, papi;
	} map[] = {
	    {UNCORE_OK, PAPI_OK},          {UNCORE_ENOEVENT, PAPI_ENOEVNT},
	    {UNCORE_ENOUMASK, PAPI_ENOEVNT}, {UNCORE_ENOMOD, PAPI_ENOEVNT},
	    {UNCORE_ESYNTAX, PAPI_ENOEVNT},
	    {UNCORE_ENODEV, PAPI_ENOEVNT}, /* a socket or box this machine lacks */
	    {UNCORE_EINVAL, PAPI_EINVAL},    {UNCORE_ERANGE, PAPI_EINVAL},
	    {UNCORE_ECOMBO, PAPI_EINVAL},    {UNCORE_ECONFLICT, PAPI_ECNFLCT},
	    {UNCORE_EBUSY, PAPI_ECNFLCT},    {UNCORE_EPERM, PAPI_EPERM},
	    {UNCORE_EDENIED, PAPI_EPERM},    {UNCORE_ENOMEM, PAPI_ENOMEM},
	    {UNCORE_ENOSUPP, PAPI_ENOSUPP},  {UNCORE_ESTATE, PAPI_EISRUN},
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].ours == rc)
			return map[i].papi;
	return PAPI_ESYS;
}

/* Say `words` through PAPI's own error channel (printed when the
 * application asked PAPI for verbose errors, PAPI_set_debug), and on
 * stderr when the user asked for it with PAPI_INTEL_UNCORE_VERBOSE=1
 * (PAPI's own tools print only PAPI_strerror). */
static void say_as(const char *who, const char *words)
{
	PAPIERROR("%s%s", who, words);
	if (uncore_settings_set_on(settings.verbose))
		fprintf(stderr, "%s%s\n", who, words);
}

static void say(const char *words)
{
	say_as("intel_uncore: ", words);
}

/* A failure, said, and its PAPI code. */
static int fail(int rc, const char *what)
{
	char words[2048];
	uncore_failure_words(rc, what, words, sizeof(words));
	SUBDBG("intel_uncore: %s (%s)\n", words, uncore_strerror(rc));
	say(words);
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

/* An event's name for a note, under component_lock. */
static int event_name(uint32_t code, char *buf, size_t len)
{
	pthread_rwlock_rdlock(&component_lock);
	int rc = !component || uncore_native_event_string(component->native, code, buf, len) < 0;
	pthread_rwlock_unlock(&component_lock);
	return rc;
}

static const struct uncore_counting_voice voice = {.say = say, .event_name = event_name};

/* PAPI reads the verdict from cmp_info.disabled, set by the component.
 * A program then sees only "Event does not exist" for our events (PAPI
 * skips a disabled component), so the reason, with its fix, is also said:
 * the same words papi_component_avail and uncore-stat print. */
static int disable_component(int papi_error, const char *reason)
{
	say_as("intel_uncore is disabled: ", reason);
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
/* Set once the binding succeeded and settled, reset by init_component (with
 * component_lock held for writing): every later call of PAPI's (name to code,
 * info, update, each event set's creation) then skips the bind's mutex and
 * call, which only returns its saved result again. */
static int bound_ok;
/* What the description says of the sockets' holders (note_holders): under
 * description_lock; set by init_component. */
static struct uncore_described described;

static int bound(const char *what)
{
	if (!component)
		return PAPI_ENOINIT;
	if (__atomic_load_n(&bound_ok, __ATOMIC_ACQUIRE))
		return PAPI_OK;
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
	if (rc == 0)
		__atomic_store_n(&bound_ok, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&description_lock);
	return rc < 0 ? fail(rc, what) : PAPI_OK;
}

/* Uncore presets (bind/preset_table.h) entered in PAPI's preset table
 * after its own.  PAPI frees `postfix` and `name[]` at shutdown (so they
 * come from papi_strdup); symbols and descriptions live in `presets`.  Our
 * PAPI patch makes a preset count on the component of its events
 * (papi-patches/README.md). */
static struct uncore_preset_table presets;
static int preset_first = -1;
static unsigned preset_count;

static int define_preset(int cidx, int slot, const struct uncore_preset_instance *d)
{
	int codes[UNCORE_PRESET_MAX_EVENTS];
	hwi_presets_t *p = &_papi_hwi_presets[slot];
	for (unsigned i = 0; i < d->nev; i++)
		if ((codes[i] = _papi_hwi_native_to_eventcode(cidx, (int)d->codes[i], -1,
							      d->events[i])) < 0)
			return -1;
	memset(p, 0, sizeof(*p));
	p->symbol = (char *)d->symbol;
	p->short_descr = (char *)d->short_descr;
	p->long_descr = (char *)d->descr;
	p->derived_int = d->postfix ? DERIVED_POSTFIX : NOT_DERIVED;
	p->postfix = d->postfix ? papi_strdup(d->postfix) : NULL;
	p->event_type = PAPI_PRESET_BIT_MEM;
	for (unsigned i = 0; i < d->nev; i++) {
		p->code[i] = (unsigned)codes[i];
		p->name[i] = papi_strdup(d->events[i]);
	}
	for (unsigned i = d->nev; i < PAPI_MAX_INFO_TERMS; i++)
		p->code[i] = (unsigned)PAPI_NULL;
	p->count = d->nev;
	return 0;
}

static void define_presets(int cidx)
{
	int slot = 0;
	uncore_preset_table_build(component, &presets);
	/* After PAPI's own presets: its enumeration stops at the first
	 * unnamed slot.  PAPI's table has room for about 20 after its own
	 * (PAPI_MAX_PRESET_EVENTS): the last per-socket ones may be left out. */
	while (slot < PAPI_MAX_PRESET_EVENTS && _papi_hwi_presets[slot].symbol)
		slot++;
	preset_first = slot;
	preset_count = 0;
	for (unsigned i = 0; i < presets.n && slot < PAPI_MAX_PRESET_EVENTS; i++)
		if (define_preset(cidx, slot, &presets.preset[i]) == 0) {
			slot++;
			preset_count++;
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
	bound_ok = 0;
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
	uncore_component_describe(component, description, sizeof(description));
	/* As a start with no socket held elsewhere describes it
	 * (note_holders): that start then has nothing to write. */
	uncore_component_describe_fitted(component, "", _intel_uncore_vector.cmp_info.description,
					 sizeof(_intel_uncore_vector.cmp_info.description));
	described = (struct uncore_described){.valid = 1};
	snprintf(described.origin, sizeof(described.origin), "%s", component->origin);
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
	bound_ok = 0;
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
	const char *what;
	int rc = bound("creating an event set");
	if (rc != PAPI_OK)
		return rc;
	rc = uncore_counting_open(c, component, &what);
	return rc < 0 ? fail(rc, what) : PAPI_OK;
}

static int _intel_uncore_init_control_state(hwd_control_state_t *ctl)
{
	intel_uncore_control_t *c = (intel_uncore_control_t *)ctl;
	uncore_counting_init(c, &voice);
	pthread_rwlock_rdlock(&component_lock);
	int ret = new_set(c);
	pthread_rwlock_unlock(&component_lock);
	return ret;
}

static int _intel_uncore_cleanup_eventset(hwd_control_state_t *ctl)
{
	uncore_counting_drop((intel_uncore_control_t *)ctl);
	/* c->lock is not destroyed: PAPI calls update_control_state (no
	 * events) on this control state right after, and then frees it without
	 * telling the component.  A default mutex holds no resource. */
	return PAPI_OK;
}

static int update_locked(intel_uncore_control_t *c, NativeInfo_t *native, int count)
{
	uint32_t codes[UNCORE_COUNTING_MAX_EVENTS];
	const char *what;
	int ret = PAPI_OK;
	if (!c->set && (ret = new_set(c)) != PAPI_OK)
		return ret;
	if (!component)
		return PAPI_ENOINIT;
	for (int i = 0; i < count; i++)
		codes[i] = (uint32_t)native[i].ni_event;
	int rc = uncore_counting_assign(c, component, codes, (unsigned)count, &what);
	if (rc < 0)
		return fail(rc, what);
	for (int i = 0; i < count; i++)
		native[i].ni_position = i;
	return PAPI_OK;
}

static int _intel_uncore_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native,
					      int count, hwd_context_t *ctx)
{
	intel_uncore_control_t *c = (intel_uncore_control_t *)ctl;
	int ret;

	(void)ctx;
	if (count > UNCORE_COUNTING_MAX_EVENTS)
		return PAPI_ECNFLCT;
	/* An empty control state owns no memory: PAPI frees it right after a
	 * call with no events (PAPI_cleanup_eventset, and PAPI_destroy_eventset
	 * of a set whose add failed, never call cleanup_eventset before that).
	 * A set kept or made here was lost, 856 bytes each time; the next add
	 * makes a new one. */
	if (count == 0) {
		uncore_counting_drop(c);
		return PAPI_OK;
	}
	pthread_rwlock_rdlock(&component_lock);
	pthread_mutex_lock(&c->lock);
	ret = update_locked(c, native, count);
	pthread_mutex_unlock(&c->lock);
	pthread_rwlock_unlock(&component_lock);
	return ret;
}

/* One process per socket counts (README "MPI jobs and threads"): when
 * another process holds a socket, this one's events read 0 there.  Said in
 * the component's description (what papi_component_avail and
 * PAPI_get_component_info show), and through say(). */
static void note_holders(void)
{
	char holders[600], fitted[sizeof(_intel_uncore_vector.cmp_info.description)];
	pthread_rwlock_rdlock(&component_lock);
	/* Several threads start sets at once: one describes at a time, and
	 * writes the description only when it changes (readers of
	 * PAPI_get_component_info see it change only when a socket's holder
	 * does). */
	pthread_mutex_lock(&description_lock);
	int elsewhere = component ? uncore_component_holders(component, fitted, sizeof(fitted),
							     holders, sizeof(holders), &described)
				  : -1;
	char *field = _intel_uncore_vector.cmp_info.description;
	if ((elsewhere == 0 || elsewhere == 1) && strcmp(field, fitted) != 0)
		uncore_field_copy(field, sizeof(fitted), fitted);
	pthread_mutex_unlock(&description_lock);
	pthread_rwlock_unlock(&component_lock);
	if (elsewhere < 0) {
		uncore_error_clear();
		return;
	}
	if (elsewhere == 1) {
		char words[700];
		snprintf(words, sizeof(words), "one process counts per socket: %s", holders);
		say(words);
	}
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
	(void)ctx;
	if (!c->set)
		return PAPI_EINVAL; /* no events (PAPI refuses to start those first) */
	int rc = uncore_counting_start(c);
	if (rc < 0)
		return fail_counting(rc, "starting");
	note_holders();
	/* Nothing lost: PAPI_INTEL_UNCORE_POLL=auto|off|<ms>. */
	rc = uncore_counting_poll(c, settings.poll);
	return rc < 0 ? fail(rc, "starting the poller") : PAPI_OK;
}

__attribute__((visibility("default"))) int intel_uncore_notices(int EventSet, char *buf,
								 size_t len)
{
	EventSetInfo_t *esi = _papi_hwi_lookup_EventSet(EventSet);
	if (!esi || esi->CmpIdx != _intel_uncore_vector.cmp_info.CmpIdx || !esi->ctl_state)
		return -1;
	return uncore_counting_notices((intel_uncore_control_t *)esi->ctl_state, buf, len);
}

static int _intel_uncore_stop(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	(void)ctx;
	int rc = uncore_counting_stop((intel_uncore_control_t *)ctl);
	return rc < 0 ? fail_counting(rc, "stopping") : PAPI_OK;
}

/* PAPI_read: the usual read costs the set's read and one test
 * (uncore_counting_read). */
static int _intel_uncore_read(hwd_context_t *ctx, hwd_control_state_t *ctl, long long **events,
			      int flags)
{
	intel_uncore_control_t *c = (intel_uncore_control_t *)ctl;
	(void)ctx;
	if (__builtin_expect(!c->set, 0))
		return PAPI_EINVAL;
	int rc = uncore_counting_read(c, flags & PAPI_STOP_READ); /* papi-patches 91 */
	if (__builtin_expect(rc < 0, 0))
		return fail_counting(rc, "reading");
	/* The values are written once, straight into the array PAPI reads
	 * (long long and uint64_t: the same 64 bits, the signed and unsigned
	 * types of one another, which C lets alias). */
	*events = (long long *)c->values;
	return PAPI_OK;
}

static int _intel_uncore_reset(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	(void)ctx;
	int rc = uncore_counting_reset((intel_uncore_control_t *)ctl);
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
		rc = ret == PAPI_OK ? uncore_counting_attach(c, (int)option->cpu.cpu_num) : 0;
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

static int _intel_uncore_ntv_name_to_code(const char *given, unsigned int *code)
{
	char name[UNCORE_EVENT_MAX_LEN + 1];
	const char *what = given;
	uint32_t c;
	int ret = PAPI_OK;
	pthread_rwlock_rdlock(&component_lock);
	int rc = uncore_component_spell(component, given, name, sizeof(name));
	if (rc == 0 && (ret = bound(what = name)) == PAPI_OK)
		rc = uncore_component_code(component, name, &c);
	pthread_rwlock_unlock(&component_lock);
	if (ret != PAPI_OK || rc == UNCORE_NAME_NOT_OURS)
		return ret != PAPI_OK ? ret : PAPI_ENOEVNT;
	if (rc < 0)
		return fail(rc, what);
	*code = c;
	return PAPI_OK;
}

/* Event `code`, with component_lock held for reading. */
static int info_of(unsigned int code, const char *what, struct uncore_native_info *info)
{
	return bound(what) == PAPI_OK && uncore_native_info(component->native, code, info) == 0
		   ? PAPI_OK
		   : PAPI_ENOEVNT;
}

static int _intel_uncore_ntv_code_to_name(unsigned int code, char *name, int len)
{
	struct uncore_native_info info;
	pthread_rwlock_rdlock(&component_lock);
	int ret = info_of(code, "naming an event", &info);
	if (ret == PAPI_OK)
		uncore_field_copy(name, (size_t)len, info.name);
	pthread_rwlock_unlock(&component_lock);
	return ret;
}

static int _intel_uncore_ntv_code_to_descr(unsigned int code, char *descr, int len)
{
	struct uncore_native_info info;
	pthread_rwlock_rdlock(&component_lock);
	int ret = info_of(code, "naming an event", &info);
	if (ret == PAPI_OK)
		uncore_tool_descr_copy(descr, (size_t)len, info.desc);
	pthread_rwlock_unlock(&component_lock);
	return ret;
}

static int _intel_uncore_ntv_code_to_info(unsigned int code, PAPI_event_info_t *info)
{
	struct uncore_native_info ni;
	pthread_rwlock_rdlock(&component_lock);
	if (info_of(code, "describing an event", &ni) != PAPI_OK) {
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
	    .num_cntrs = UNCORE_COUNTING_MAX_EVENTS,
	    .num_mpx_cntrs = UNCORE_COUNTING_MAX_EVENTS,
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
