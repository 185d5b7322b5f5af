/* System calls per read of the DRAM bandwidth set (UNC_M_CAS_COUNT.RD and
 * .WR on the eight iMC channels of both sockets of a Haswell-EP: 32 PCI
 * counters) through the direct backend over REAL device implementations
 * pointed at fake device files: /dev/cpu/N/msr as regular files (the
 * freeze writes), PCI configuration space as a fake sysfs tree or a fake
 * ECAM window.  The counters do not count (the files are data); what is
 * measured is the system calls the read path makes, which `strace -c`
 * counts around this program (bench/run.sh: runs with 0 and with N reads,
 * the difference divided by N).
 *
 *   bench_syscalls sysfs|ecam|libpci READS [freeze 0|1] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/composite.h"
#include "access/msr_dev.h"
#include "access/pci_cfg.h"
#include "backend/direct/direct.h"
#include "common/uncore_error.h"
#include "plan/sched.h"
#include "platform/hswep/hswep_boxes.h"

static const uint8_t BUS[2] = {0x7f, 0xff};
/* The iMC channels' PMON functions (hswep_boxes.c imc_fn: real IDs). */
static const struct {
	unsigned dev, fn;
	uint16_t did;
} IMC[] = {{20, 0, 0x2fb0}, {20, 1, 0x2fb1}, {21, 0, 0x2fb4}, {21, 1, 0x2fb5},
	   {23, 0, 0x2fd0}, {23, 1, 0x2fd1}, {24, 0, 0x2fd4}, {24, 1, 0x2fd5}};

static int mkdirs(const char *path)
{
	char p[512];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0700);
			*s = '/';
		}
	return mkdir(p, 0700) == 0 || access(p, F_OK) == 0 ? 0 : -1;
}

/* Fake devices under dir: cpu/{0,1}/msr, a sysfs tree and an ECAM file. */
static int make_fakes(const char *dir)
{
	char path[512];
	unsigned char cfg[4096];
	for (int cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path), "%s/cpu/%d", dir, cpu);
		if (mkdirs(path) < 0)
			return -1;
		snprintf(path, sizeof(path), "%s/cpu/%d/msr", dir, cpu);
		int fd = open(path, O_RDWR | O_CREAT, 0600);
		if (fd < 0 || ftruncate(fd, 0x10000) < 0)
			return -1;
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/ecam", dir);
	int ecam = open(path, O_RDWR | O_CREAT, 0600);
	if (ecam < 0 || ftruncate(ecam, (off_t)(BUS[1] - BUS[0] + 1) << 20) < 0)
		return -1;
	for (unsigned s = 0; s < 2; s++)
		for (unsigned i = 0; i < sizeof(IMC) / sizeof(IMC[0]); i++) {
			memset(cfg, 0, sizeof(cfg));
			uint32_t id = (uint32_t)IMC[i].did << 16 | 0x8086;
			memcpy(cfg, &id, 4);
			snprintf(path, sizeof(path), "%s/pci/devices/0000:%02x:%02x.%x", dir,
				 BUS[s], IMC[i].dev, IMC[i].fn);
			if (mkdirs(path) < 0)
				return -1;
			snprintf(path, sizeof(path), "%s/pci/devices/0000:%02x:%02x.%x/config", dir,
				 BUS[s], IMC[i].dev, IMC[i].fn);
			int fd = open(path, O_RDWR | O_CREAT, 0600);
			if (fd < 0 || write(fd, cfg, sizeof(cfg)) != (ssize_t)sizeof(cfg))
				return -1;
			close(fd);
			off_t at =
			    (off_t)((BUS[s] - BUS[0]) << 20 | IMC[i].dev << 15 | IMC[i].fn << 12);
			if (pwrite(ecam, cfg, sizeof(cfg), at) != (ssize_t)sizeof(cfg))
				return -1;
		}
	close(ecam);
	return 0;
}

static struct uncore_sched_event cas(const char *name, uint64_t ctl)
{
	struct uncore_sched_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.ref.box =
	    uncore_box_type_find(uncore_event_platform_get(UNCORE_PLATFORM_HSWEP), "hswep_unc_imc");
	e.ref.instance = UNCORE_ALL;
	e.ref.socket = UNCORE_ALL;
	e.ref.cpu = UNCORE_ALL;
	e.enc.ctl = ctl;
	e.enc.counters = 0xf;
	return e;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_syscalls sysfs|ecam|libpci READS [freeze 0|1]\n");
		return 2;
	}
	const char *method = argv[1];
	long reads = atol(argv[2]);
	int freeze = argc > 3 ? atoi(argv[3]) : 1;
	char dir[] = "/tmp/bench-syscalls-XXXXXX";
	if (!mkdtemp(dir) || make_fakes(dir) < 0) {
		fprintf(stderr, "bench_syscalls: cannot make the fake devices\n");
		return 1;
	}
	char msr_root[600], pci_root[600], ecam[600];
	snprintf(msr_root, sizeof(msr_root), "%s/cpu", dir);
	snprintf(pci_root, sizeof(pci_root), "%s/pci", dir);
	snprintf(ecam, sizeof(ecam), "%s/ecam", dir);

	const int cpu_of_socket[2] = {0, 1};
	struct uncore_msr_options mo = {.cpu_of_socket = cpu_of_socket,
					.nsockets = 2,
					.dev_root = msr_root,
					.allow_writes_param = "/nonexistent"};
	struct uncore_pci_options po = {.sysfs_root = pci_root,
					.ecam_path = ecam,
					.ecam_base = 0,
					.ecam_bus_start = BUS[0],
					.ecam_bus_end = BUS[1]};
	po.method = !strcmp(method, "ecam")     ? UNCORE_PCI_ECAM
		    : !strcmp(method, "libpci") ? UNCORE_PCI_LIBPCI
						: UNCORE_PCI_SYSFS;
	struct uncore_regio *msr = NULL, *pci = NULL, *io = NULL;
	struct uncore_backend *be = NULL;
	struct uncore_plan plan;
	memset(&plan, 0, sizeof(plan));
	struct uncore_machine m;
	memset(&m, 0, sizeof(m));
	m.plat = uncore_event_platform_get(UNCORE_PLATFORM_HSWEP);
	m.nsockets = 2;
	for (unsigned s = 0; s < 2; s++) {
		m.pci_bus[s] = BUS[s];
		m.socket_cpu[s] = (int)s;
		m.node_id[s] = (uint8_t)s;
		int b = uncore_machine_box_index(&m, uncore_box_type_find(m.plat, "hswep_unc_imc"));
		if (b >= 0)
			m.present[b][s] = 0xff; /* eight channels */
	}
	struct uncore_sched_event ev[2] = {cas("UNC_M_CAS_COUNT:RD", 0x0304),
					   cas("UNC_M_CAS_COUNT:WR", 0x0c04)};
	int rc = uncore_msr_dev_open(&mo, &msr);
	if (rc == 0)
		rc = uncore_pci_cfg_open(&po, &pci);
	if (rc == 0) {
		rc = uncore_composite_open(msr, pci, NULL, &io);
		if (rc == 0)
			msr = pci = NULL; /* the composite owns them */
	}
	struct uncore_direct_config cfg = {
	    .io = io, .own_io = 1, .read_freeze = freeze, .no_socket_lock = 1};
	if (rc == 0)
		rc = uncore_schedule(&m, ev, 2, &plan);
	if (rc == 0) {
		rc = uncore_direct_create_hswep(&cfg, &m, &be);
		if (rc == 0)
			io = NULL; /* the backend owns it */
	}
	if (rc == 0)
		rc = be->ops->program(be, &plan);
	if (rc == 0)
		rc = be->ops->start(be);
	uint64_t raw[64];
	for (long i = 0; rc == 0 && i < reads; i++)
		rc = be->ops->read(be, raw);
	if (rc < 0)
		fprintf(stderr, "bench_syscalls %s: %s: %s\n", method, uncore_error_name(rc),
			uncore_error_detail());
	else
		printf("%s: %u counters on 2 sockets, %ld reads, freeze %s\n", method, plan.nslots,
		       reads, freeze ? "on" : "off");
	if (be)
		be->ops->destroy(be);
	uncore_regio_destroy(io);
	uncore_regio_destroy(msr);
	uncore_regio_destroy(pci);
	uncore_plan_free(&plan);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return rc < 0;
}
