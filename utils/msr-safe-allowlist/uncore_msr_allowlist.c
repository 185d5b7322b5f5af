/* uncore-msr-allowlist: print the msr-safe allowlist ("0xMSR 0xWRITEMASK"
 * lines) that lets unprivileged users read and program the uncore PMON MSRs
 * of a platform, optionally merged with an existing list (msr-safe keeps
 * one list: loading ours replaces whatever was loaded before).
 *
 * msr-safe parses the buffer of each write() to /dev/cpu/msr_allowlist as
 * a complete list that replaces the loaded one, so the whole text goes out
 * in ONE write(): stdio's 4 KiB chunks would load the first chunk alone
 * and fail on the others.  Install, as root:
 *   uncore-msr-allowlist -m /dev/cpu/msr_allowlist -o /dev/cpu/msr_allowlist
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "access/allowlist_text.h"
#include "platform/msr_ranges.h"
#include "common/uncore_error.h"
#include "common/version.h"
#include "platform/cpu.h"

struct entry {
	uint32_t msr;
	uint64_t mask;
	const char *note; /* our register name, or NULL for a merged-in entry */
	const char *source;
};

static void usage(FILE *f)
{
	size_t n;
	const struct uncore_msr_table *const *t = uncore_msr_tables(&n);
	fprintf(f, "usage: uncore-msr-allowlist [-p PLATFORM] [-m FILE] [-o FILE]\n"
		   "  -p, --platform NAME  platform (default: this machine's);");
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s", t[i]->platform);
	fprintf(f, "\n"
		   "  -m, --merge FILE     keep the entries of an existing allowlist (e.g.\n"
		   "                       /dev/cpu/msr_allowlist); write masks are OR-ed\n"
		   "  -o, --output FILE    write there instead of standard output\n"
		   "The list is written with one write(), as msr-safe needs (it takes each\n"
		   "write as the complete list).  Install it as root, keeping the site's list:\n"
		   "  uncore-msr-allowlist -m /dev/cpu/msr_allowlist -o /dev/cpu/msr_allowlist\n");
}

static int by_msr(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	return x->msr < y->msr ? -1 : x->msr > y->msr;
}

/* Add an existing allowlist's entries: 0, or -1 with a message printed. */
static int merge_file(const char *path, struct entry **e, size_t *n, size_t *cap)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "uncore-msr-allowlist: cannot read %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	char line[512];
	unsigned lineno = 0;
	while (fgets(line, sizeof(line), f)) {
		uint32_t msr;
		uint64_t mask;
		lineno++;
		/* Not a word of the file in the message: the tool runs as root
		 * and -m may name any file (issue 29). */
		int rc = strlen(line) == sizeof(line) - 1 && line[sizeof(line) - 2] != '\n'
			     ? uncore_fail(UNCORE_ESYNTAX, "line longer than %zu characters",
					   sizeof(line) - 2)
			     : uncore_allowlist_line(line, &msr, &mask);
		if (rc == 0)
			continue;
		if (rc < 0) {
			fprintf(stderr, "uncore-msr-allowlist: %s:%u: %s\n", path, lineno,
				uncore_error_detail());
			fclose(f);
			return -1;
		}
		size_t i;
		for (i = 0; i < *n && (*e)[i].msr != msr; i++)
			;
		if (i < *n) {
			(*e)[i].mask |= mask;
			continue;
		}
		if (*n == *cap) {
			*cap *= 2;
			struct entry *ne = realloc(*e, *cap * sizeof(**e));
			if (!ne) {
				fclose(f);
				fprintf(stderr, "uncore-msr-allowlist: out of memory\n");
				return -1;
			}
			*e = ne;
		}
		(*e)[(*n)++] = (struct entry){.msr = (uint32_t)msr, .mask = mask};
	}
	fclose(f);
	return 0;
}

static const char *this_platform(void)
{
	struct uncore_cpu_id id;
	const struct uncore_platform *p;
	if (uncore_cpu_identify(&id) != 0 || !(p = uncore_platform_for_cpu(&id)))
		return NULL;
	return p->name;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"platform", required_argument, NULL, 'p'},
	    {"merge", required_argument, NULL, 'm'},
	    {"output", required_argument, NULL, 'o'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	const char *platform = NULL, *merge = NULL, *output = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "p:m:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			platform = optarg;
			break;
		case 'm':
			merge = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("uncore-msr-allowlist (papi-uncore) %s\n", PAPI_UNCORE_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (!platform && !(platform = this_platform())) {
		fprintf(stderr,
			"uncore-msr-allowlist: this processor is not a platform papi-uncore "
			"knows; name one with -p (see --help)\n");
		return 1;
	}
	/* A generation's table (a cousin's is its relative's), or a table by name. */
	const struct uncore_platform *gen = uncore_platform_by_name(platform);
	const struct uncore_msr_table *t = gen ? gen->msr_table : uncore_msr_table_for(platform);
	if (!t) {
		fprintf(stderr,
			"uncore-msr-allowlist: no uncore MSR table for platform \"%s\" "
			"(see --help for those with one)\n",
			platform);
		return 1;
	}
	int rc = uncore_msr_table_check(t);
	if (rc) {
		fprintf(stderr, "uncore-msr-allowlist: %s\n", uncore_error_detail());
		return 1;
	}

	size_t n = uncore_msr_table_count(t), cap = n + 64;
	struct entry *e = malloc(cap * sizeof(*e));
	if (!e)
		return 1;
	for (size_t i = 0; i < n; i++) {
		const struct uncore_msr_range *r;
		uncore_msr_table_get(t, i, &e[i].msr, &e[i].mask, &r);
		e[i].note = r->name;
		e[i].source = r->source;
	}
	if (merge && merge_file(merge, &e, &n, &cap) != 0) {
		free(e);
		return 1;
	}
	qsort(e, n, sizeof(*e), by_msr);

	/* The whole text in memory first: it leaves in one write(). */
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	if (!out) {
		fprintf(stderr, "uncore-msr-allowlist: out of memory\n");
		free(e);
		return 1;
	}
	fprintf(out, "# msr-safe allowlist for %s\n", t->title);
	fprintf(out, "# Generated by uncore-msr-allowlist (papi-uncore)%s%s.\n",
		merge ? ", merged with " : "", merge ? merge : "");
	fprintf(out, "# Columns: MSR, write mask (bits a user may set; 0 = read-only).\n");
	fprintf(out, "# msr-safe takes each write() as the whole list: install with one write,\n"
		     "# as root: uncore-msr-allowlist -m /dev/cpu/msr_allowlist -o "
		     "/dev/cpu/msr_allowlist\n");
	for (size_t i = 0; i < n; i++) {
		if (e[i].note)
			fprintf(out, "0x%08" PRIX32 " 0x%016" PRIX64 " # %s (%s)\n", e[i].msr,
				e[i].mask, e[i].note, e[i].source);
		else
			fprintf(out, "0x%08" PRIX32 " 0x%016" PRIX64 "\n", e[i].msr, e[i].mask);
	}
	free(e);
	if (fclose(out) != 0) {
		fprintf(stderr, "uncore-msr-allowlist: out of memory\n");
		free(text);
		return 1;
	}
	/* msr-safe refuses a list of more than 128 KiB (EINVAL). */
	if (size > 128 * 1024) {
		fprintf(stderr,
			"uncore-msr-allowlist: the list is %zu bytes, more than msr-safe accepts "
			"in one write (128 KiB); nothing written\n",
			size);
		free(text);
		return 1;
	}
	int fd = output ? open(output, O_WRONLY | O_CREAT | O_TRUNC, 0644) : STDOUT_FILENO;
	if (fd < 0) {
		fprintf(stderr, "uncore-msr-allowlist: cannot write %s: %s\n", output,
			strerror(errno));
		free(text);
		return 1;
	}
	ssize_t w = write(fd, text, size);
	int err = w < 0 ? errno : 0;
	free(text);
	if (output && close(fd) != 0 && !err)
		err = errno;
	if (w != (ssize_t)size || err) {
		/* A partial write to msr-safe would have loaded part of the list. */
		fprintf(stderr, "uncore-msr-allowlist: writing %s: %s; %s\n",
			output ? output : "standard output", err ? strerror(err) : "short write",
			err == EINVAL ? "msr-safe rejected the list (see dmesg); the loaded list "
					"is unchanged unless it reported a duplicate"
				      : "check the destination");
		return 1;
	}
	return 0;
}
