/* The direct backend's socket ownership: program() holds the lock of every
 * socket of its plan before its first write and unprogram()/destroy() let
 * go; a socket owned by another process refuses the program with the owner
 * named and without a single register write; two backends of one process
 * share a socket by reference count. */
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "backend/direct/socket_hold.h"
#include "backend/direct/socket_lock.h"
#include "fake_regio.h"
#include "harness.h"
#include "support/lock_owner.h"
#include "support/tmpdir.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *dir;

static struct uncore_machine two_sockets(void)
{
	struct uncore_machine m;
	memset(&m, 0, sizeof(m));
	m.plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	m.nsockets = 2;
	m.pci_bus[0] = 0x7f;
	m.pci_bus[1] = 0xff;
	for (unsigned b = 0; b < m.plat->nboxes; b++)
		m.present[b][0].w[0] = m.present[b][1].w[0] = 0x1;
	return m;
}

/* UNC_M_CAS_COUNT-like event on IMC 0 of `socket` (UNCORE_ALL: both). */
static struct uncore_sched_event imc_event(int socket)
{
	struct uncore_sched_event e;
	memset(&e, 0, sizeof(e));
	e.name = "CAS";
	e.ref.box =
	    uncore_box_type_find(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), "hswep_unc_imc");
	e.ref.instance = UNCORE_ALL;
	e.ref.socket = socket;
	e.ref.cpu = UNCORE_ALL;
	e.enc.ctl = 0x0304;
	e.enc.counters = 0xf;
	return e;
}

struct fixture {
	struct uncore_machine m;
	struct uncore_regio *io;
	struct uncore_backend *be;
	struct uncore_plan plan;
};

static int setup(struct fixture *f, int socket, int no_lock)
{
	memset(f, 0, sizeof(*f));
	f->m = two_sockets();
	f->io = fake_regio_create(0);
	/* A copy that dies before the backend: the backend must keep its own. */
	char lock_dir[600];
	snprintf(lock_dir, sizeof(lock_dir), "%s", dir);
	struct uncore_direct_config cfg = {.io = f->io,
					   .own_io = 1,
					   .read_freeze = 1,
					   .lock_dir = lock_dir,
					   .no_socket_lock = no_lock};
	struct uncore_sched_event e = imc_event(socket);
	int rc = uncore_schedule(&f->m, &e, 1, &f->plan);
	if (rc == 0)
		rc = uncore_direct_create_hswep(&cfg, &f->m, &f->be);
	memset(lock_dir, 'x', sizeof(lock_dir) - 1);
	return rc;
}

static void teardown(struct fixture *f)
{
	if (f->be)
		f->be->ops->destroy(f->be);
	uncore_plan_free(&f->plan);
}

/* Can another process take `socket` right now?  1 yes, 0 no, -1 error. */
static int free_for_others(unsigned socket)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct uncore_socket_lock *l;
		_exit(uncore_socket_lock_acquire(dir, socket, &l) == 0 ? 0 : 1);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st) == 0;
}

TEST(program_holds_the_plans_sockets_until_unprogram)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 1, 0), 0);
	if (!f.be)
		return;
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 1), 1);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 0), 0); /* not in the plan */
	CHECK_EQ_INT(free_for_others(1), 0);
	CHECK_EQ_INT(free_for_others(0), 1);
	CHECK_EQ_INT(f.be->ops->unprogram(f.be), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 1), 0);
	CHECK_EQ_INT(free_for_others(1), 1);
	/* Programmed again, then destroyed without unprogram. */
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK_EQ_INT(free_for_others(1), 0);
	teardown(&f);
	CHECK_EQ_INT(free_for_others(1), 1);
}

TEST(owned_socket_refuses_program_naming_the_owner_without_writing)
{
	pid_t child = test_spawn_lock_owner(dir, 1, "other-owner");
	REQUIRE(child >= 0);
	struct fixture f;
	CHECK_EQ_INT(setup(&f, UNCORE_ALL, 0), 0);
	if (!f.be) {
		test_kill_lock_owner(child);
		return;
	}
	char owner[64];
	snprintf(owner, sizeof(owner), "PID %ld (other-owner)", (long)child);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), UNCORE_EBUSY);
	CHECK_CONTAINS(uncore_error_detail(), owner);
	CHECK_CONTAINS(uncore_error_detail(), "socket 1");
	CHECK_EQ_INT(fake_regio_count(fake_regio_of(f.io), FAKE_WRITE, -1), 0);
	/* Socket 0 was taken first and let go again with the refusal. */
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 0), 0);
	CHECK_EQ_INT(free_for_others(0), 1);

	test_kill_lock_owner(child);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK(fake_regio_count(fake_regio_of(f.io), FAKE_WRITE, -1) > 0);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 0), 1);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 1), 1);
	teardown(&f);
}

TEST(two_backends_of_one_process_share_a_socket)
{
	struct fixture a, b;
	CHECK_EQ_INT(setup(&a, 0, 0), 0);
	CHECK_EQ_INT(setup(&b, 0, 0), 0);
	if (!a.be || !b.be)
		return;
	CHECK_EQ_INT(a.be->ops->program(a.be, &a.plan), 0);
	CHECK_EQ_INT(b.be->ops->program(b.be, &b.plan), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 0), 2);
	CHECK_EQ_INT(a.be->ops->unprogram(a.be), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 0), 1);
	CHECK_EQ_INT(free_for_others(0), 0);
	teardown(&b);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 0), 0);
	CHECK_EQ_INT(free_for_others(0), 1);
	teardown(&a);
}

/* A backend whose sockets its owner holds (backend.h,
 * sockets_held_by_owner: the shared counters) takes no hold of its own,
 * and refuses a socket its owner does not hold, before any write. */
TEST(a_socket_its_owner_holds_is_taken_once)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 1, 0), 0);
	if (!f.be)
		return;
	f.be->sockets_held_by_owner = 1;
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), UNCORE_ESTATE);
	CHECK_CONTAINS(uncore_error_detail(), "socket 1");
	CHECK_EQ_INT(fake_regio_count(fake_regio_of(f.io), FAKE_WRITE, -1), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 1), 0);
	struct uncore_socket_hold *owner;
	CHECK_EQ_INT(uncore_socket_hold_acquire(dir, 1, &owner), 0);
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 1), 1); /* the owner's alone */
	CHECK(fake_regio_count(fake_regio_of(f.io), FAKE_WRITE, -1) > 0);
	CHECK_EQ_INT(f.be->ops->unprogram(f.be), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 1), 1);
	teardown(&f);
	uncore_socket_hold_release(owner);
	CHECK_EQ_INT(free_for_others(1), 1);
}

TEST(no_socket_lock_takes_nothing)
{
	struct fixture f;
	CHECK_EQ_INT(setup(&f, 0, 1), 0);
	if (!f.be)
		return;
	CHECK_EQ_INT(f.be->ops->program(f.be, &f.plan), 0);
	CHECK_EQ_INT(uncore_socket_hold_count(dir, 0), 0);
	CHECK_EQ_INT(free_for_others(0), 1);
	teardown(&f);
}

int main(void)
{
	dir = test_mkdtemp("dlock");
	if (!dir)
		return 1;
	RUN(program_holds_the_plans_sockets_until_unprogram);
	RUN(owned_socket_refuses_program_naming_the_owner_without_writing);
	RUN(two_backends_of_one_process_share_a_socket);
	RUN(a_socket_its_owner_holds_is_taken_once);
	RUN(no_socket_lock_takes_nothing);
	test_rmtree(dir);
	return harness_done();
}
