/* Translation of one counted event of a metric's formula into an event of
 * our tables with the filter settings in scope, recorded as a term of the
 * metric (translate.c): a step of compilation (compile.c). */
#ifndef UNCORE_METRICS_TRANSLATE_H
#define UNCORE_METRICS_TRANSLATE_H

#include "metrics/mset.h"

/* Make reference n (an event of box kind `kind`, with the filter settings
 * in scope) a counted term of the metric. */
int mc_resolve_event(struct rctx *c, struct mx_node *n, const char *kind);

#endif
