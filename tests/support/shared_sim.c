/* A shared simulated machine in a temporary directory (shared_sim.h). */
#include "shared_sim.h"

#include "tmpdir.h"

#include <stdio.h>

const char *test_shared_sim(const char *tag, const char *model, char *path, size_t len,
			    struct uncore_sim **sim)
{
	const char *dir = test_mkdtemp(tag);
	*sim = NULL;
	if (!dir || (size_t)snprintf(path, len, "%s/machine", dir) >= len)
		return NULL;
	if (uncore_sim_create(model, path, sim) < 0) {
		fprintf(stderr, "cannot create a %s machine in %s\n", model, dir);
		test_rmtree(dir);
		return NULL;
	}
	return dir;
}
