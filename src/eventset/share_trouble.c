/* What a read of the hub met (share_internal.h, hub_sync): its rare paths,
 * out of line, an interruption, a read too late for a counter's wrap, a
 * failed read.  Their own file: share.c (its teardown's read) and
 * share_view.c (the sets' reads) both call them, and neither calls the
 * other through them. */
#include "eventset/share_internal.h"

#include <stdio.h>

/* What a read that met an interruption leaves (hub_sync): every view
 * counting now lost that span, and each takes it once. */
static void hub_note_interrupted(struct uncore_share *hub)
{
	hub->interrupt_gen++;
	hub->interrupted_n++;
	snprintf(hub->interrupted_detail, sizeof(hub->interrupted_detail), "%s",
		 hub->be->interrupted_detail);
	hub->be->counting_interrupted = 0;
}

/* A reading at `t` came later than some counter can wrap in: each view
 * counting now works out which of its counters may have lost how many
 * wraps (view_note_interrupted) when it takes this. */
void hub_wraps_missed(struct uncore_share *hub, uint64_t t)
{
	hub->wrap_gap_ns = t - hub->fold_ns;
	hub->wrap_gen++;
	hub->interrupt_gen++;
}

/* After a failed read: a slot it could not read takes its previous reading
 * again, so that it folds nothing now and, at the next read, what it
 * counted since (backend.h).  64-bit totals (perf) carry no per-slot mark:
 * none is folded. */
static void hub_keep_unread(struct uncore_share *hub, uint64_t *now, const uint64_t *before)
{
	for (unsigned k = 0; k < hub->hw.nslots; k++) {
		hub->unread[k] = hub->be->value_bits || now[k] == UNCORE_RAW_UNREAD;
		if (hub->unread[k])
			now[k] = before[k];
	}
}

void hub_read_trouble(struct uncore_share *hub, int rc, uint64_t *now, const uint64_t *before)
{
	if (hub->be->counting_interrupted)
		hub_note_interrupted(hub);
	if (rc < 0)
		hub_keep_unread(hub, now, before);
}
