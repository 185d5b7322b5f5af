/* The component seen from a PAPI program: it is compiled in; when disabled
 * it says why; when enabled (hardware, or PAPI_INTEL_UNCORE_BACKEND=sim) an
 * aggregated DRAM read event can be added by name, started, read and
 * stopped, and its event info is filled in.  On a processor without uncore
 * tables the perf backend offers the kernel's own PMUs: msr::tsc instead.  Prints PASS/FAIL lines and
 * exits non-zero on failure. */
#include <papi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok)
		failures++;
}

int main(void)
{
	int rc = PAPI_library_init(PAPI_VER_CURRENT);
	check(rc == PAPI_VER_CURRENT, "PAPI_library_init");
	if (rc != PAPI_VER_CURRENT)
		return 1;
	int cidx = PAPI_get_component_index("intel_uncore");
	check(cidx >= 0, "intel_uncore is compiled in");
	if (cidx < 0)
		return 1;
	const PAPI_component_info_t *info = PAPI_get_component_info(cidx);
	if (info->disabled) {
		printf("intel_uncore disabled: %s\n", info->disabled_reason);
		check(strlen(info->disabled_reason) > 10, "a disabled component says why");
		return failures ? 1 : 0;
	}
	const char *name = "hswep_unc_imc::UNC_M_CAS_COUNT:RD";
	const char *bad = "hswep_unc_imc::UNC_M_CAS_COUNT:NO_SUCH_UMASK";
	if (strstr(info->description, "kernel PMUs only")) {
		name = "msr::tsc";
		bad = "msr::no_such_event";
	}
	int es = PAPI_NULL;
	long long v[1] = {0};
	check(PAPI_create_eventset(&es) == PAPI_OK, "create event set");
	rc = PAPI_add_named_event(es, name);
	check(rc == PAPI_OK, name);
	if (rc == PAPI_OK) {
		check(PAPI_start(es) == PAPI_OK, "start");
		usleep(20000);
		check(PAPI_read(es, v) == PAPI_OK, "read");
		check(PAPI_stop(es, v) == PAPI_OK, "stop");
		printf("%s = %lld\n", name, v[0]);
		check(v[0] > 0, "the event counted");
	}
	int code;
	PAPI_event_info_t ei;
	check(PAPI_event_name_to_code(name, &code) == PAPI_OK &&
		      PAPI_get_event_info(code, &ei) == PAPI_OK && strstr(ei.symbol, strchr(name, ':') + 2) &&
		      ei.long_descr[0] != '\0',
	      "event info has a symbol and a description");
	check(PAPI_add_named_event(es, bad) != PAPI_OK, "an unknown event or umask is refused");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	return failures ? 1 : 0;
}
