/* A register-access implementation that touches nothing: it records every
 * access (phase, register, value) and reads zero.  --explain runs the real
 * direct backend over it, so what it prints is what the backend does, not a
 * second copy of its logic. */
#ifndef UNCORE_STAT_RECORDER_H
#define UNCORE_STAT_RECORDER_H

#include <stddef.h>
#include <stdint.h>

#include "access/regio.h"

enum stat_phase {
	STAT_PHASE_PROGRAM,
	STAT_PHASE_START,
	STAT_PHASE_READ,
	STAT_PHASE_STOP,
	STAT_PHASE_UNPROGRAM,
	STAT_PHASES
};

struct stat_access {
	uint8_t phase;  /* enum stat_phase */
	uint8_t write;  /* 1: write, 0: read */
	uint16_t batch; /* batch it belongs to (1-based), 0: a single access */
	struct uncore_reg reg;
	uint64_t value; /* written value */
};

struct stat_recorder {
	struct uncore_regio io;
	enum stat_phase phase;
	struct stat_access *log;
	size_t n, cap;
	unsigned batches;
	int failed; /* out of memory: the log is incomplete */
};

/* A recorder; `with_batch` gives it a batch operation (as msr-safe has). */
void stat_recorder_init(struct stat_recorder *r, int with_batch);
void stat_recorder_free(struct stat_recorder *r);

#endif
