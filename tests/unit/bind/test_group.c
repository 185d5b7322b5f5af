/* A process's measurement group (bind/group.h) from the launcher's
 * environment: each rule in order, the explicit one first, and the tag a
 * stable file-name part of the key. */
#include "harness.h"
#include "bind/group.h"

#include <stdio.h>
#include <string.h>

TEST(rules)
{
	static const struct {
		const char *group, *ompi_rank, *pmix, *slurm_job, *slurm_step, *pmi_rank;
		const char *key;
		int single;
	} rows[] = {
	    {"", "", "", "", "", "", "process:100", 1},
	    {"bench", "0", "370016257", "42", "0", "1", "user:bench", 0},
	    {"", "3", "370016257", "42", "0", "", "openmpi:370016257", 0},
	    {"", "", "370016257", "", "", "", "process:100", 1}, /* no rank: not an MPI process */
	    {"", "", "", "42", "7", "", "slurm:42.7", 0},
	    {"", "", "", "42", "", "", "process:100", 1}, /* a batch script: no step */
	    {"", "", "", "", "", "2", "pmi:99", 0},
	    {"", "", "", "42", "7", "2", "slurm:42.7", 0},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		static struct uncore_settings s;
		struct uncore_group g;
		memset(&s, 0, sizeof(s));
		snprintf(s.group, sizeof(s.group), "%s", rows[i].group);
		snprintf(s.ompi_rank, sizeof(s.ompi_rank), "%s", rows[i].ompi_rank);
		snprintf(s.pmix_namespace, sizeof(s.pmix_namespace), "%s", rows[i].pmix);
		snprintf(s.slurm_job, sizeof(s.slurm_job), "%s", rows[i].slurm_job);
		snprintf(s.slurm_step, sizeof(s.slurm_step), "%s", rows[i].slurm_step);
		snprintf(s.pmi_rank, sizeof(s.pmi_rank), "%s", rows[i].pmi_rank);
		harness_row = rows[i].key;
		uncore_group_identify(&s, 100, 99, &g);
		CHECK_EQ_STR(g.key, rows[i].key);
		CHECK_EQ_INT(g.single, rows[i].single);
		CHECK_EQ_INT((int)strlen(g.tag), 17);
		CHECK_EQ_INT(g.tag[0], 'g');
	}
	harness_row = NULL;
}

TEST(tags)
{
	static struct uncore_settings s;
	struct uncore_group a, b, c;
	memset(&s, 0, sizeof(s));
	snprintf(s.group, sizeof(s.group), "job-1");
	uncore_group_identify(&s, 1, 1, &a);
	uncore_group_identify(&s, 2, 7, &b); /* any process of the group */
	snprintf(s.group, sizeof(s.group), "job-2");
	uncore_group_identify(&s, 1, 1, &c);
	CHECK_EQ_STR(a.tag, b.tag);
	CHECK(strcmp(a.tag, c.tag) != 0);
}

int main(void)
{
	RUN(rules);
	RUN(tags);
	return harness_done();
}
