/* The direct backend's MSR access: msr when present, msr-safe otherwise,
 * both reasons when neither works, and the platform's write allowlist in
 * front either way (a write outside it never reaches the device file). */
#include "access/allowlist.h"
#include "bind/msr_open.h"
#include "common/uncore_error.h"
#include "harness.h"
#include "support/tmpdir.h"

#include <fcntl.h>
#include <unistd.h>

static const int map[] = {0};

static uint64_t file_u64(const char *root, const char *leaf, uint64_t off)
{
	char path[512];
	uint64_t v = 0;
	snprintf(path, sizeof(path), "%s/0/%s", root, leaf);
	int fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (pread(fd, &v, 8, (off_t)off) != 8)
			v = 0;
		close(fd);
	}
	return v;
}

static struct uncore_reg msr(uint64_t addr)
{
	return (struct uncore_reg){.space = UNCORE_SPACE_MSR, .width = 8, .addr = addr};
}

TEST(msr_first_and_writes_filtered)
{
	const char *root = test_mkdtemp("msropen");
	test_put(root, "0/msr", "");
	test_put(root, "0/msr_safe", "");
	struct uncore_msr_open_options o = {
	    .platform = "hswep", .cpu_of_socket = map, .nsockets = 1, .dev_root = root};
	struct uncore_regio *io;
	CHECK_EQ_INT(uncore_msr_open(&o, &io), 0);
	CHECK_EQ_STR(io->ops->name, "allowlist");
	CHECK_EQ_STR(uncore_allowlist_inner(io)->ops->name, "msr");

	struct uncore_reg ctl = msr(0xe01), tsc = msr(0x10);
	CHECK_EQ_INT(uncore_regio_write(io, &ctl, 0x00400f37), 0);
	CHECK_EQ_U64(file_u64(root, "msr", 0xe01), 0x00400f37);
	CHECK_EQ_INT(uncore_regio_write(io, &tsc, 12345), UNCORE_EDENIED);
	CHECK_EQ_U64(file_u64(root, "msr", 0x10), 0);
	CHECK_EQ_INT(uncore_regio_write(io, &ctl, 1u << 20), UNCORE_EDENIED); /* rsv bit */
	CHECK_EQ_U64(file_u64(root, "msr", 0xe01), 0x00400f37);
	uncore_regio_destroy(io);

	o.method = UNCORE_MSR_SAFE;
	CHECK_EQ_INT(uncore_msr_open(&o, &io), 0);
	CHECK_EQ_STR(uncore_allowlist_inner(io)->ops->name, "msr-safe");
	uncore_regio_destroy(io);
	test_rmtree(root);
}

TEST(msr_safe_when_msr_is_missing)
{
	const char *root = test_mkdtemp("msropen");
	test_put(root, "0/msr_safe", "");
	struct uncore_msr_open_options o = {
	    .platform = "hswep", .cpu_of_socket = map, .nsockets = 1, .dev_root = root};
	struct uncore_regio *io;
	CHECK_EQ_INT(uncore_msr_open(&o, &io), 0);
	CHECK_EQ_STR(uncore_allowlist_inner(io)->ops->name, "msr-safe");
	uncore_regio_destroy(io);
	o.method = UNCORE_MSR_DEV;
	CHECK_EQ_INT(uncore_msr_open(&o, &io), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "modprobe msr");
	test_rmtree(root);
}

TEST(neither_gives_both_reasons)
{
	const char *root = test_mkdtemp("msropen");
	struct uncore_msr_open_options o = {
	    .platform = "hswep", .cpu_of_socket = map, .nsockets = 1, .dev_root = root};
	struct uncore_regio *io;
	CHECK_EQ_INT(uncore_msr_open(&o, &io), UNCORE_ENODEV);
	CHECK_CONTAINS(uncore_error_detail(), "msr: ");
	CHECK_CONTAINS(uncore_error_detail(), "/0/msr: no such device");
	CHECK_CONTAINS(uncore_error_detail(), "msr-safe: ");
	CHECK_CONTAINS(uncore_error_detail(), "/0/msr_safe: no such device");
	o.platform = "nosuch"; /* a platform without an MSR table */
	CHECK_EQ_INT(uncore_msr_open(&o, &io), UNCORE_ENOSUPP);
	CHECK_CONTAINS(uncore_error_detail(), "\"nosuch\"");
	test_rmtree(root);
}

int main(void)
{
	RUN(msr_first_and_writes_filtered);
	RUN(msr_safe_when_msr_is_missing);
	RUN(neither_gives_both_reasons);
	return harness_done();
}
