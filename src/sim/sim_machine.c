/* A simulated machine's lifetime and control: the shared-memory file, the
 * process-shared robust mutex (taken in sim_lock.c), reset values of the
 * registers, a follower made of a shared machine (its time: sim_follow.c),
 * and the public entry points that change time, logging, faults and the
 * scenario (the clock's mode: sim_clock.c). */
#define _GNU_SOURCE
#include "sim/sim_internal.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/uncore_error.h"
#include "sim/scenario_sources.h"

/* Hardware reset values: everything 0 (HSX PMON "HW Reset Val" columns)
 * except GLOBAL_CONFIG.num_c (Table 2-4: the number of CBos, 18 on the full
 * die) and QPI_RATE_STATUS (Table 2-177). */
void sim_reset_registers(struct sim_shared *sh, const struct sim_model *m)
{
	if (m->flat)
		sim_flat_reset(sh, m);
	for (unsigned s = 0; s < SIM_MAX_SOCKETS; s++) {
		struct sim_socket *sock = &sh->sock[s];
		memset(sock, 0, sizeof(*sock));
		if (s >= m->info.sockets)
			continue;
		sock->t_ps = sh->now_ps;
		sock->lazy = 0; /* decided when the clock mode is (sim_lazy_update) */
		if (m->flat)
			continue; /* flat PMUs: sim_flat_reset */
		sock->global_config = (uint64_t)__builtin_popcount(m->present[HSWEP_BOX_CBO]);
		for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++) {
			const struct hswep_box_desc *d = hswep_box(k);
			for (unsigned i = 0; i < d->max_instances; i++) {
				struct sim_box *b = &sock->box[k][i];
				if (!(m->present[k] & (1u << i)))
					continue;
				for (unsigned r = 0; r < HSWEP_FN_ROLES; r++) {
					const struct hswep_pci_fn *fn = d->pci_fn[r];
					b->fn_present[r] =
					    fn && !sim_model_hidden(m, fn[i].dev, fn[i].fn);
				}
				b->present =
				    d->space == UNCORE_SPACE_MSR || b->fn_present[HSWEP_FN_PMON];
				if (k == HSWEP_BOX_QPI)
					b->extra[HSWEP_QPI_RATE_STATUS] =
					    m->qpi_rate & HSWEP_QPI_RATE_STATUS_RATE;
			}
		}
	}
}

static int map_shared(int fd, size_t len, struct sim_shared **out)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | (fd < 0 ? MAP_ANONYMOUS : 0),
		       fd, 0);
	if (p == MAP_FAILED)
		return uncore_fail(UNCORE_ENOMEM, "cannot map %zu bytes of simulator state: %s",
				   len, strerror(errno));
	*out = p;
	return 0;
}

static struct uncore_sim *new_handle(void)
{
	struct uncore_sim *sim = calloc(1, sizeof(*sim));
	if (sim)
		sim->log_fd = -1;
	return sim;
}

int uncore_sim_create(const char *model, const char *path, struct uncore_sim **out)
{
	uncore_error_clear();
	const struct sim_model *m = sim_model_by_name(model);
	if (!m) {
		char names[256] = "";
		for (size_t i = 0; i < sim_model_count(); i++) {
			size_t used = strlen(names);
			snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
				 sim_model_at(i)->info.name);
		}
		return uncore_fail(UNCORE_EINVAL, "unknown simulator model \"%s\"; models: %s",
				   model ? model : "(null)", names);
	}
	if (path && strlen(path) >= sizeof(((struct uncore_sim *)0)->path))
		return uncore_fail(UNCORE_EINVAL, "instance path too long: %s", path);
	struct uncore_sim *sim = new_handle();
	if (!sim)
		return uncore_fail(UNCORE_ENOMEM, "out of memory for a simulator handle");
	size_t len = sizeof(struct sim_shared);
	int fd = -1;
	if (path) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0) {
			int err = errno;
			free(sim);
			return uncore_fail(
			    err == EEXIST ? UNCORE_EBUSY : uncore_error_from_errno(err),
			    "cannot create simulator instance %s: %s%s", path, strerror(err),
			    err == EEXIST ? " (destroy it first, or open it)" : "");
		}
		if (ftruncate(fd, (off_t)len) != 0) {
			int err = errno;
			close(fd);
			unlink(path);
			free(sim);
			return uncore_fail(uncore_error_from_errno(err), "cannot size %s: %s", path,
					   strerror(err));
		}
		snprintf(sim->path, sizeof(sim->path), "%s", path);
	}
	int rc = map_shared(fd, len, &sim->sh);
	if (fd >= 0)
		close(fd);
	if (rc) {
		if (path)
			unlink(path);
		free(sim);
		return rc;
	}
	sim->map_len = len;
	sim->model = m;
	struct sim_shared *sh = sim->sh;
	memset(sh, 0, len);
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&sh->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	sh->model_index = (uint32_t)(m - sim_model_at(0));
	snprintf(sh->model, sizeof(sh->model), "%s", m->info.name);
	sim_reset_registers(sh, m);
	sh->size = (uint32_t)len;
	sh->version = SIM_VERSION;
	/* The magic goes last: a concurrent uncore_sim_open() accepts the
	 * file only once it is fully initialised. */
	__atomic_store_n(&sh->magic, SIM_MAGIC, __ATOMIC_RELEASE);
	sim_regio_init(sim);
	*out = sim;
	return 0;
}

int uncore_sim_open(const char *path, struct uncore_sim **out)
{
	uncore_error_clear();
	if (!path || strlen(path) >= sizeof(((struct uncore_sim *)0)->path))
		return uncore_fail(UNCORE_EINVAL, "bad simulator instance path");
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;
		return uncore_fail(uncore_error_from_errno(err),
				   "cannot open simulator instance %s: %s (create it with "
				   "`uncore-sim create`)",
				   path, strerror(err));
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || (size_t)st.st_size != sizeof(struct sim_shared)) {
		close(fd);
		return uncore_fail(
		    UNCORE_EINVAL,
		    "%s is not a simulator instance of this version (size %lld, want %zu)", path,
		    (long long)st.st_size, sizeof(struct sim_shared));
	}
	struct uncore_sim *sim = new_handle();
	if (!sim) {
		close(fd);
		return uncore_fail(UNCORE_ENOMEM, "out of memory for a simulator handle");
	}
	int rc = map_shared(fd, sizeof(struct sim_shared), &sim->sh);
	close(fd);
	if (rc) {
		free(sim);
		return rc;
	}
	sim->map_len = sizeof(struct sim_shared);
	struct sim_shared *sh = sim->sh;
	if (__atomic_load_n(&sh->magic, __ATOMIC_ACQUIRE) != SIM_MAGIC ||
	    sh->version != SIM_VERSION || !(sim->model = sim_model_at(sh->model_index))) {
		munmap(sh, sim->map_len);
		free(sim);
		return uncore_fail(UNCORE_EINVAL, "%s is not an initialised simulator instance",
				   path);
	}
	snprintf(sim->path, sizeof(sim->path), "%s", path);
	sim_regio_init(sim);
	*out = sim;
	return 0;
}

void uncore_sim_close(struct uncore_sim *sim)
{
	if (!sim)
		return;
	if (sim->log_fd >= 0)
		close(sim->log_fd);
	if (sim->sh)
		munmap(sim->sh, sim->map_len);
	uncore_sim_close(sim->leader);
	free(sim);
}

int uncore_sim_lock_dir(struct uncore_sim *sim, char *buf, size_t len)
{
	char abs[PATH_MAX];
	if (sim->leader)
		return uncore_sim_lock_dir(sim->leader, buf, len);
	if (!sim->path[0]) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	/* Absolute, so that processes started in different directories agree. */
	if (!realpath(sim->path, abs))
		return uncore_fail(uncore_error_from_errno(errno), "cannot resolve %s: %s",
				   sim->path, strerror(errno));
	if ((size_t)snprintf(buf, len, "%s.locks", abs) >= len)
		return uncore_fail(UNCORE_ENOSPACE, "lock directory name of %s is too long", abs);
	return 0;
}

/* Best effort: the socket lock files of a machine that is going away, and
 * their directory.  A process still attached keeps its open lock file. */
static void remove_lock_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		/* socket<N>.lock, and the groups' socket<N>.<tag>.lock */
		size_t n = strlen(e->d_name);
		if (strncmp(e->d_name, "socket", 6) == 0 && n > 11 &&
		    strcmp(e->d_name + n - 5, ".lock") == 0)
			(void)unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
	(void)rmdir(dir);
}

int uncore_sim_destroy(struct uncore_sim *sim)
{
	if (!sim)
		return 0;
	char path[sizeof(sim->path)], locks[PATH_MAX + 8];
	snprintf(path, sizeof(path), "%s", sim->path);
	if (uncore_sim_lock_dir(sim, locks, sizeof(locks)) < 0)
		locks[0] = '\0';
	uncore_sim_close(sim);
	if (path[0] && unlink(path) != 0 && errno != ENOENT)
		return uncore_fail(uncore_error_from_errno(errno), "cannot remove %s: %s", path,
				   strerror(errno));
	if (locks[0])
		remove_lock_dir(locks);
	return 0;
}

static char *read_file(const char *path, size_t max)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = malloc(max + 1);
	size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
	fclose(f);
	if (!buf || n > max) {
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

int uncore_sim_scenario_names(char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (const struct uncore_sim_scenario_source *s = uncore_sim_scenario_sources; s->file;
	     s++) {
		int n = snprintf(buf + used, len - used, "%s%.*s", used ? ", " : "",
				 (int)(strlen(s->file) - 4), s->file);
		if (n < 0 || (size_t)n >= len - used)
			return UNCORE_ENOSPACE;
		used += (size_t)n;
	}
	return 0;
}

/* A spec with no '/' that is no readable file names a built-in scenario. */
static int names_builtin(const char *spec)
{
	return !strchr(spec, '/') && access(spec, R_OK) != 0;
}

int uncore_sim_scenario_exists(const char *spec)
{
	return names_builtin(spec) ? sim_scenario_builtin(spec) != NULL : access(spec, R_OK) == 0;
}

int uncore_sim_load_scenario(struct uncore_sim *sim, const char *path)
{
	uncore_error_clear();
	if (names_builtin(path)) {
		const char *builtin = sim_scenario_builtin(path);
		char names[512];
		if (builtin) {
			char origin[128];
			snprintf(origin, sizeof(origin), "%s%s", path,
				 strstr(path, ".scn") ? "" : ".scn");
			return sim_scenario_load(sim, builtin, origin, NULL, 0);
		}
		uncore_sim_scenario_names(names, sizeof(names));
		return uncore_fail(UNCORE_EINVAL,
				   "scenario '%s': no such file and no built-in scenario of that "
				   "name (built-in: %s)",
				   path, names);
	}
	char *text = read_file(path, 1u << 20);
	if (!text)
		return uncore_fail(uncore_error_from_errno(errno), "cannot read scenario %s: %s",
				   path, strerror(errno));
	char dir[512];
	snprintf(dir, sizeof(dir), "%s", path);
	int rc = sim_scenario_load(sim, text, path, dirname(dir), 1);
	free(text);
	return rc;
}

int uncore_sim_load_scenario_text(struct uncore_sim *sim, const char *text, const char *origin)
{
	uncore_error_clear();
	return sim_scenario_load(sim, text, origin ? origin : "(text)", ".", 0);
}

int uncore_sim_advance(struct uncore_sim *sim, uint64_t ns)
{
	uncore_error_clear();
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	if (ns > (SIM_TIME_NEVER / 2 - sim->sh->now_ps) / SIM_PS_PER_NS) {
		sim_unlock(sim);
		return uncore_fail(UNCORE_ERANGE, "cannot advance by %llu ns",
				   (unsigned long long)ns);
	}
	sim_advance_to(sim->sh, sim->model, sim->sh->now_ps + ns * SIM_PS_PER_NS);
	sim_unlock(sim);
	return 0;
}

int uncore_sim_clock(void *sim, uint64_t *ns)
{
	return uncore_sim_now(sim, ns);
}

int uncore_sim_now(struct uncore_sim *sim, uint64_t *ns)
{
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	if (sim->leader)
		sim_follow_sync(sim);
	/* On the wall clock a catch-up takes time of its own where a socket
	 * is not lazy (sim_clock.c): the instant returned is the one after
	 * it, so that a reader's next register access follows it closely (the
	 * event set times its reads by this clock).  A lazy socket's boxes
	 * are brought to this instant when their registers are accessed. */
	sim_sync_wall(sim->sh, sim->model);
	sim_sync_wall(sim->sh, sim->model);
	*ns = sim->sh->now_ps / SIM_PS_PER_NS;
	sim_unlock(sim);
	return 0;
}

int uncore_sim_set_access_ns(struct uncore_sim *sim, uint64_t ns)
{
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	sim->sh->access_ps = ns * SIM_PS_PER_NS;
	sim_unlock(sim);
	return 0;
}

int uncore_sim_set_log(struct uncore_sim *sim, const char *path)
{
	if (path && strlen(path) >= sizeof(sim->sh->log_path))
		return uncore_fail(UNCORE_EINVAL, "log path too long: %s", path);
	if (path) {
		/* Fail now, not silently at the first access, if it cannot be written. */
		int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
		if (fd < 0)
			return uncore_fail(uncore_error_from_errno(errno), "cannot open log %s: %s",
					   path, strerror(errno));
		close(fd);
	}
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	snprintf(sim->sh->log_path, sizeof(sim->sh->log_path), "%s", path ? path : "");
	sim->sh->log_gen++;
	sim_unlock(sim);
	return 0;
}

int uncore_sim_log_path(struct uncore_sim *sim, char *buf, size_t len)
{
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	int n = snprintf(buf, len, "%s", sim->sh->log_path);
	sim_unlock(sim);
	return n < 0 || (size_t)n >= len ? UNCORE_ENOSPACE : 0;
}

int uncore_sim_inject_fault(struct uncore_sim *sim, const struct uncore_sim_fault *fault)
{
	if (!fault || (fault->error != EIO && fault->error != EACCES && fault->error != ENODEV))
		return uncore_fail(UNCORE_EINVAL, "fault error must be EIO, EACCES or ENODEV");
	if (fault->nth == 0)
		return uncore_fail(UNCORE_EINVAL, "fault nth counts from 1");
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	struct sim_shared *sh = sim->sh;
	if (sh->n_faults >= SIM_MAX_FAULTS) {
		sim_unlock(sim);
		return uncore_fail(UNCORE_ENOSPACE, "at most %d fault rules", SIM_MAX_FAULTS);
	}
	sh->faults[sh->n_faults++] = (struct sim_fault_rule){.f = *fault};
	sh->gen++;
	sh->gen_ps = sh->now_ps;
	sim_unlock(sim);
	return 0;
}

int uncore_sim_clear_faults(struct uncore_sim *sim)
{
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	sim->sh->n_faults = 0;
	sim->sh->gen++;
	sim->sh->gen_ps = sim->sh->now_ps;
	sim_unlock(sim);
	return 0;
}

int uncore_sim_topology(struct uncore_sim *sim, struct uncore_sim_topology *out)
{
	const struct sim_model *m = sim->model;
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	struct sim_shared *sh = sim->sh;
	sim_sync_wall(sh, m);
	memset(out, 0, sizeof(*out));
	snprintf(out->model, sizeof(out->model), "%s", m->info.name);
	snprintf(out->scenario, sizeof(out->scenario), "%s", sh->scenario);
	out->sockets = m->info.sockets;
	out->cores = m->cores;
	memcpy(out->bus, m->bus, sizeof(out->bus));
	memcpy(out->root_bus, m->root_bus, sizeof(out->root_bus));
	memcpy(out->node_id, m->node_id, sizeof(out->node_id));
	for (unsigned k = 0; k < HSWEP_BOX_KINDS; k++)
		for (unsigned i = 0; i < HSWEP_MAX_INSTANCES; i++)
			if (sh->sock[0].box[k][i].present)
				out->present[k] |= 1u << i;
	if (m->flat) /* per unit of the flat description */
		memcpy(out->present, m->present, sizeof(out->present));
	out->populated_imc = m->populated_imc;
	memcpy(out->clock_hz, m->clock_hz, sizeof(out->clock_hz));
	out->clock_mode = (int)sh->clock_mode;
	out->now_ns = sh->now_ps / SIM_PS_PER_NS;
	sim_unlock(sim);
	return 0;
}

int uncore_sim_peek(struct uncore_sim *sim, const struct uncore_reg *r, uint64_t *value)
{
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	if (sim->model->flat)
		rc = r->space == UNCORE_SPACE_MSR
			 ? sim_flat_msr_read(sim->sh, sim->model, r->socket, (uint32_t)r->addr, value)
		     : r->space == UNCORE_SPACE_PCI
			 ? sim_flat_pci_read(sim->sh, sim->model, r->bdf, (uint32_t)r->addr,
					     r->width, value)
			 : sim_flat_mmio_read(sim->sh, sim->model, r->socket, r->addr, r->width,
					      value);
	else if (r->space == UNCORE_SPACE_MSR)
		rc = sim_msr_read(sim->sh, sim->model, r->socket, (uint32_t)r->addr, value);
	else if (r->space == UNCORE_SPACE_PCI)
		rc = sim_pci_read(sim->sh, sim->model, r->bdf, (uint32_t)r->addr, r->width, 1,
				  value);
	else
		rc = uncore_fail(UNCORE_ENODEV, "the simulator has no MMIO space");
	sim_unlock(sim);
	return rc;
}

int uncore_sim_global_frozen(struct uncore_sim *sim, unsigned socket, int *frozen)
{
	if (socket >= sim->model->info.sockets)
		return uncore_fail(UNCORE_ENODEV, "socket %u not present", socket);
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	*frozen = sim->sh->sock[socket].global_frozen;
	sim_unlock(sim);
	return 0;
}

int uncore_sim_describe(struct uncore_sim *sim, char *buf, size_t len)
{
	const struct sim_model *m = sim->model;
	char scenario[sizeof(sim->sh->scenario)];
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	snprintf(scenario, sizeof(scenario), "%s",
		 sim->sh->scenario[0] ? sim->sh->scenario : "none");
	sim_unlock(sim);
	int n = snprintf(buf, len, "SIMULATED uncore: model %s (%s, %u socket%s), scenario %s%s",
			 m->info.name, m->info.sku, m->info.sockets, m->info.sockets == 1 ? "" : "s",
			 scenario,
			 sim->scenario_by_default ? " (default)" : "");
	return n < 0 || (size_t)n >= len ? UNCORE_ENOSPACE : 0;
}

int uncore_sim_is_shared(const struct uncore_sim *sim)
{
	return sim && sim->path[0] != '\0';
}

int uncore_sim_follow(struct uncore_sim *leader, struct uncore_sim **out)
{
	struct uncore_sim *f;
	if (!leader || !leader->path[0]) {
		uncore_sim_close(leader);
		return uncore_fail(UNCORE_EINVAL, "only a shared simulated machine can be followed");
	}
	int rc = uncore_sim_create(leader->model->info.name, NULL, &f);
	if (rc < 0) {
		uncore_sim_close(leader);
		return rc;
	}
	rc = sim_lock(leader);
	if (rc < 0) {
		uncore_sim_close(f);
		uncore_sim_close(leader);
		return rc;
	}
	sim_sync_wall(leader->sh, leader->model);
	/* The scenario, time, faults and log of the leader; a lock and
	 * registers of its own (at their reset values: a fresh PMU). */
	pthread_mutex_t keep = f->sh->lock;
	memcpy(f->sh, leader->sh, sizeof(*f->sh));
	f->sh->lock = keep;
	sim_unlock(leader);
	f->sh->clock_mode = UNCORE_SIM_CLOCK_VIRTUAL;
	f->sh->access_ps = 0; /* its time is the leader's, nothing added */
	f->seen_gen = f->sh->gen;
	sim_reset_registers(f->sh, f->model);
	f->user = leader->user;
	f->scenario_by_default = leader->scenario_by_default;
	f->leader = leader;
	leader->regio_closes = NULL;
	f->regio_closes = uncore_sim_close;
	*out = f;
	return 0;
}
