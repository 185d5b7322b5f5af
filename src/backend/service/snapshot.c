/* The sequence lock of uncored's snapshot (snapshot.h), without fences
 * (ThreadSanitizer does not model them; on x86 the orderings below cost
 * nothing over plain moves).  The writer makes the sequence odd, then
 * stores each value with release ordering: a reader whose acquire load
 * sees any new value also sees the odd sequence on its second look, and
 * retries.  The writer's last store (release) makes the sequence even
 * again after every value; a reader that first sees it (acquire) sees all
 * of them.  (H.-J. Boehm, "Can seqlocks get along with programming
 * language memory models?", MSPC 2012, the variant with acquire loads.) */
#include "backend/service/snapshot.h"

#include <string.h>

void uncored_snapshot_init(struct uncored_snapshot *s)
{
	memset(s, 0, uncored_snapshot_size());
	s->magic = UNCORED_SNAPSHOT_MAGIC;
	s->nvalues = UNCORED_SNAPSHOT_VALUES;
}

void uncored_snapshot_begin(struct uncored_snapshot *s)
{
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELAXED);
}

void uncored_snapshot_set(struct uncored_snapshot *s, uint32_t index, uint64_t value)
{
	if (index < s->nvalues)
		__atomic_store_n(&s->values[index], value, __ATOMIC_RELEASE);
}

void uncored_snapshot_end(struct uncored_snapshot *s, uint64_t sample_ns)
{
	__atomic_store_n(&s->sample_ns, sample_ns, __ATOMIC_RELEASE);
	__atomic_store_n(&s->samples, s->samples + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
}

uint64_t uncored_snapshot_read(const struct uncored_snapshot *s, const uint32_t *index, unsigned n,
			       uint64_t *out)
{
	uint32_t nv = __atomic_load_n(&s->nvalues, __ATOMIC_RELAXED);
	for (;;) {
		uint32_t before = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (before & 1) {
			__builtin_ia32_pause();
			continue;
		}
		for (unsigned i = 0; i < n; i++)
			out[i] = index[i] < nv ? __atomic_load_n(&s->values[index[i]], __ATOMIC_ACQUIRE)
					       : 0;
		uint64_t samples = __atomic_load_n(&s->samples, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == before)
			return samples;
	}
}

uint64_t uncored_snapshot_instant(const struct uncored_snapshot *s)
{
	for (;;) {
		uint32_t before = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (before & 1) {
			__builtin_ia32_pause();
			continue;
		}
		uint64_t ns = __atomic_load_n(&s->sample_ns, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == before)
			return ns;
	}
}
