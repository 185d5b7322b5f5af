/* The measurement plan of a compiled metric set (measure.c): a step of
 * compilation (compile.c). */
#ifndef UNCORE_METRICS_MEASURE_H
#define UNCORE_METRICS_MEASURE_H

#include "metrics/mset.h"

/* Place the terms of box type `box` on counters, spread over instances or
 * time-multiplexed; describe how a metric is measured. */
int mc_plan_box(struct uncore_mset *ms, unsigned box, unsigned *failed_term);
void mc_describe_method(struct uncore_mset *ms, struct mmetric *mm);

#endif
