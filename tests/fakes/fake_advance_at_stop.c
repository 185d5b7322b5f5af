/* Simulated time inside an unmodified PAPI program's interval, loaded with
 * LD_PRELOAD into a client of uncored (tests/integration/test_uncored.sh):
 * the command in UNCORE_FAKE_BEFORE_STOP ("uncore-sim advance NODE 1s") runs
 * just before the program's second SAMPLE request to the service (the first
 * is its PAPI_start's reading, the second its PAPI_stop's), so that a
 * program such as papi_command_line (libpapi linked in statically: its
 * PAPI calls cannot be interposed), whose interval the test cannot time
 * otherwise, counts exactly the simulated second the scenario defines.  A
 * third sample would add nothing: the test would see it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define UNCORED_MAGIC  0x31444355u /* service/protocol.h */
#define UNCORED_SAMPLE 4u

__attribute__((visibility("default"))) ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	static unsigned samples;
	ssize_t (*real)(int, const void *, size_t, int) =
	    (ssize_t(*)(int, const void *, size_t, int))dlsym(RTLD_NEXT, "send");
	uint32_t w[3];
	if (len >= sizeof(w)) {
		memcpy(w, buf, sizeof(w));
		const char *cmd = getenv("UNCORE_FAKE_BEFORE_STOP");
		if (w[0] == UNCORED_MAGIC && w[2] == UNCORED_SAMPLE && ++samples == 2 && cmd &&
		    *cmd && system(cmd) != 0)
			return -1;
	}
	return real(fd, buf, len, flags);
}
