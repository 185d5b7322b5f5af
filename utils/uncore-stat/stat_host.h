/* What this host offers, in words, where it has no uncore to count (issue
 * 26, "CPU detection and honesty"): which processor uncore-stat saw, why
 * there is nothing of its uncore to count here, and what can be counted.
 * An AMD processor gets no advice about Intel's driver; a virtual machine
 * whose hypervisor exposes no uncore PMU is told so, not to load a driver. */
#ifndef UNCORE_STAT_HOST_H
#define UNCORE_STAT_HOST_H

#include <stddef.h>

/* 1 and the account in buf when the host (not the simulator) has no uncore
 * that metric groups or uncore events could count: a processor that is not
 * Intel's, or an Intel processor whose kernel publishes no uncore PMU
 * (uncore_* in /sys/bus/event_source/devices) and which our library
 * cannot program directly.  0 when it has one (buf then names the
 * processor); -1 when the component cannot say (buf: why). */
int stat_host_no_uncore(char *buf, size_t len);

/* The processor as a message names it ("AMD EPYC 9654 96-Core Processor
 * (AuthenticAMD family 25 model 0x11), a virtual machine"). */
void stat_host_processor(char *buf, size_t len);

#endif
