/* uncored's published totals: a shared-memory page the service writes and
 * every client maps read-only, guarded by a sequence lock (the writer makes
 * the sequence odd, writes, makes it even again; a reader retries when it
 * saw an odd sequence or a change), so a read is a few loads and no system
 * call, and never sees half a sample. */
#ifndef UNCORE_SERVICE_SNAPSHOT_H
#define UNCORE_SERVICE_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#define UNCORED_SNAPSHOT_MAGIC  0x32504e53u /* "SNP2": with sample_ns */
#define UNCORED_SNAPSHOT_VALUES 16384u

struct uncored_snapshot {
	uint32_t magic;
	uint32_t nvalues;
	uint32_t seq;       /* odd while a sample is being written */
	uint32_t closed;    /* set by the service when it stops: no more samples */
	uint64_t samples;   /* samples published so far */
	/* When the values were read, on the service's clock (CLOCK_MONOTONIC,
	 * or a simulated node's time): a client times its metrics by it, so
	 * that counts and time are of the same instant (issue 27: a plain read
	 * returned counts up to 100 ms old against the reader's own "now"). */
	uint64_t sample_ns;
	uint64_t values[];  /* 64-bit totals, indexed as ADD replies say */
};

static inline size_t uncored_snapshot_size(void)
{
	return sizeof(struct uncored_snapshot) + UNCORED_SNAPSHOT_VALUES * sizeof(uint64_t);
}

/* The writer's side (the service alone writes). */
void uncored_snapshot_init(struct uncored_snapshot *s);
void uncored_snapshot_begin(struct uncored_snapshot *s);
void uncored_snapshot_set(struct uncored_snapshot *s, uint32_t index, uint64_t value);
/* The sample complete, its values read at `sample_ns`. */
void uncored_snapshot_end(struct uncored_snapshot *s, uint64_t sample_ns);

/* A consistent copy of values[index[i]] into out[i], i < n (an index past
 * nvalues reads 0); the number of the sample they belong to. */
uint64_t uncored_snapshot_read(const struct uncored_snapshot *s, const uint32_t *index, unsigned n,
			       uint64_t *out);

/* The instant of the last complete sample (sample_ns; 0 before the first). */
uint64_t uncored_snapshot_instant(const struct uncored_snapshot *s);

#endif
