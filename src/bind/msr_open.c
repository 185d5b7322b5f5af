/* Choosing the MSR device and wrapping it in the write allowlist (see
 * msr_open.h).  msr comes first: it needs no allowlist loaded by an
 * administrator and its reads are not limited to a list. */
#include "bind/msr_open.h"

#include <stdio.h>

#include "access/allowlist.h"
#include "access/msr_dev.h"
#include "platform/msr_ranges.h"
#include "platform/platform.h"
#include "access/msr_safe.h"
#include "common/uncore_error.h"

static int wrap(const struct uncore_msr_table *t, struct uncore_regio *dev,
		struct uncore_regio **out)
{
	struct uncore_allowlist *al;
	int rc = uncore_allowlist_create(&al);
	if (rc == 0)
		rc = uncore_allowlist_add_msr_table(al, t, UNCORE_ALLOWLIST_ANY_UNIT);
	if (rc == 0)
		rc = uncore_allowlist_wrap(al, dev, UNCORE_ALLOWLIST_OWN_INNER, out);
	uncore_allowlist_free(al);
	if (rc)
		uncore_regio_destroy(dev);
	return rc;
}

int uncore_msr_open(const struct uncore_msr_open_options *o, struct uncore_regio **out)
{
	if (!o || !out)
		return uncore_fail(UNCORE_EINVAL, "msr open: no options");
	const struct uncore_platform *gen = uncore_platform_by_name(o->platform);
	const struct uncore_msr_table *t = gen ? gen->msr_table : NULL;
	if (!t)
		return uncore_fail(UNCORE_ENOSUPP, "no uncore MSR table for platform \"%s\"",
				   o->platform ? o->platform : "(none)");
	struct uncore_msr_options mo = {.cpu_of_socket = o->cpu_of_socket,
					.nsockets = o->nsockets,
					.dev_root = o->dev_root,
					.allow_writes_param = o->allow_writes_param};
	struct uncore_regio *dev = NULL;
	char why_msr[600] = "";
	int rc = UNCORE_ENOSUPP;

	if (o->method != UNCORE_MSR_SAFE) {
		rc = uncore_msr_dev_open(&mo, &dev);
		if (rc == 0)
			return wrap(t, dev, out);
		if (o->method == UNCORE_MSR_DEV)
			return rc;
		snprintf(why_msr, sizeof(why_msr), "%s", uncore_error_detail());
	}
	struct uncore_msr_safe_options so = {.msr = mo};
	int rc2 = uncore_msr_safe_open(&so, &dev);
	if (rc2 == 0)
		return wrap(t, dev, out);
	if (o->method == UNCORE_MSR_SAFE)
		return rc2;
	/* Both failed: report the more actionable code (a permission problem
	 * over a missing device), with both reasons. */
	char why_safe[600];
	snprintf(why_safe, sizeof(why_safe), "%s", uncore_error_detail());
	return uncore_fail(rc == UNCORE_EPERM || rc2 != UNCORE_EPERM ? rc : rc2,
			   "no MSR access. msr: %s. msr-safe: %s", why_msr, why_safe);
}
