/* The recording register access of --explain (see stat_recorder.h). */
#include "stat_recorder.h"

#include <stdlib.h>
#include <string.h>

static void record(struct stat_recorder *r, int write, unsigned batch, const struct uncore_reg *reg,
		   uint64_t value)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		struct stat_access *log = realloc(r->log, cap * sizeof(*log));
		if (!log) {
			r->failed = 1;
			return;
		}
		r->log = log;
		r->cap = cap;
	}
	r->log[r->n++] = (struct stat_access){.phase = (uint8_t)r->phase,
					      .write = (uint8_t)write,
					      .batch = (uint16_t)batch,
					      .reg = *reg,
					      .value = value};
}

static int rec_read(struct uncore_regio *io, const struct uncore_reg *reg, uint64_t *value)
{
	record(io->impl, 0, 0, reg, 0);
	io->stats.reads++;
	*value = 0;
	return 0;
}

static int rec_write(struct uncore_regio *io, const struct uncore_reg *reg, uint64_t value)
{
	record(io->impl, 1, 0, reg, value);
	io->stats.writes++;
	return 0;
}

static int rec_batch(struct uncore_regio *io, struct uncore_regio_op *ops, size_t n)
{
	struct stat_recorder *r = io->impl;
	r->batches++;
	for (size_t i = 0; i < n; i++) {
		record(r, ops[i].write, r->batches, &ops[i].reg, ops[i].write ? ops[i].value : 0);
		if (ops[i].write) {
			io->stats.writes++;
		} else {
			ops[i].value = 0;
			io->stats.reads++;
		}
		ops[i].err = 0;
	}
	return 0;
}

static void rec_destroy(struct uncore_regio *io)
{
	(void)io; /* embedded in struct stat_recorder: stat_recorder_free releases it */
}

static const struct uncore_regio_ops rec_ops = {
    .name = "explain-recorder",
    .read = rec_read,
    .write = rec_write,
    .destroy = rec_destroy,
};

static const struct uncore_regio_ops rec_batch_ops = {
    .name = "explain-recorder",
    .read = rec_read,
    .write = rec_write,
    .batch = rec_batch,
    .destroy = rec_destroy,
};

void stat_recorder_init(struct stat_recorder *r, int with_batch)
{
	memset(r, 0, sizeof(*r));
	r->io.ops = with_batch ? &rec_batch_ops : &rec_ops;
	r->io.impl = r;
}

void stat_recorder_free(struct stat_recorder *r)
{
	free(r->log);
	r->log = NULL;
	r->n = r->cap = 0;
}
