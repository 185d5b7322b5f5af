/* May this process count a whole CPU?  Asked at start-up so that the
 * component can say why not before anything is added, without opening an
 * event: an open and close on a CPU it does not run on costs two
 * cross-CPU calls (some 50 us in a virtual machine), paid by every program
 * that initialises PAPI.  The opens at programming time still report
 * whatever else the kernel refuses (perf_open_error). */
#include "backend/perf/perf.h"

#include "common/uncore_error.h"

#include <limits.h>
#include <stdio.h>

int uncore_perf_permission(struct uncore_perf_sys *sys, const char *paranoid_path)
{
	if (!sys)
		sys = uncore_perf_sys_real();
	if (!sys->may_count_cpu)
		return 0;
	const char *path = paranoid_path ? paranoid_path : UNCORE_PERF_PARANOID_PATH;
	if (sys->may_count_cpu(sys, path))
		return 0;
	return uncore_perf_denied(NULL, "the kernel's PMUs", path);
}

int uncore_perf_denied(const char *what, const char *counting, const char *paranoid_path)
{
	const char *path = paranoid_path ? paranoid_path : UNCORE_PERF_PARANOID_PATH;
	int level = uncore_perf_paranoid_level(path);
	char is[64];
	if (level == INT_MIN)
		snprintf(is, sizeof(is), "could not be read");
	else
		snprintf(is, sizeof(is), "is %d", level);
	return uncore_fail(
	    UNCORE_EPERM,
	    "%s%spermission denied: counting %s for a whole CPU needs "
	    "kernel.perf_event_paranoid <= 0 (%s %s) or the CAP_PERFMON capability "
	    "(CAP_SYS_ADMIN before Linux 5.8). Fix: as root run "
	    "'sysctl -w kernel.perf_event_paranoid=0', or give the program CAP_PERFMON "
	    "('setcap cap_perfmon+ep <program>'), or run it as root",
	    what ? what : "", what ? ": " : "", counting, path, is);
}
