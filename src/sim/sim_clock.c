/* Simulated time: converting picoseconds to cycles of each clock domain and
 * advancing every counter of a socket over a span of time.  Spans end at
 * scenario boundaries (a stream starting or stopping) and at the end of the
 * cycle in which an overflow with ov_en raises the global freeze, so the
 * freeze stops every box of the socket at the same instant (HSX PMON
 * 2.1.1.1). */
#include "sim/sim_internal.h"

#include <time.h>

#include "common/uncore_error.h"

static uint64_t width_mask(unsigned width)
{
	return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

/* gfrz: the socket's global freeze over the span (a lazy box may be
 * behind a freeze change its socket has made since). */
static int counting(int gfrz, const struct sim_box *b, const struct hswep_box_desc *d,
		    unsigned k)
{
	uint64_t ctl = b->ctl[k];
	if (!(ctl & HSWEP_PMON_CTL_EN) || gfrz || b->frozen)
		return 0;
	/* QPI erratum (Table 2-170): a .rst left at 1 keeps the counter reset. */
	if ((d->errata & HSWEP_ERRATUM_CTL_RST_STICKY) && (ctl & HSWEP_PMON_CTL_RST))
		return 0;
	return 1;
}

static int fixed_counting(int gfrz, const struct sim_box *b, const struct hswep_box_desc *d)
{
	if (d->fixed_ctr == HSWEP_NO_REG || gfrz || b->frozen)
		return 0;
	/* UBox FIXED_CTL.en (Table 2-9) and iMC FIXED_CTL.en (Table 2-115) are
	 * both bit 22. */
	return !!(b->fixed_ctl & HSWEP_U_FIXED_CTL_EN);
}

/* Record an overflow: the box status bit always, the global status bit and
 * a freeze when the counter may send an overflow message (2.1.1).  A freeze
 * is raised only when the global bit was clear: "in order to see a new
 * freeze, the overflow responsible for the freeze must be cleared". */
static void overflow(struct sim_socket *sock, struct sim_box *b, const struct hswep_box_desc *d,
		     unsigned inst, unsigned status_bit, int ov_en, uint8_t gbit, int *freeze)
{
	if (status_bit != HSWEP_NO_BIT)
		b->status |= 1u << status_bit;
	if (!ov_en || gbit == HSWEP_NO_BIT)
		return;
	uint64_t bit = UINT64_C(1) << gbit;
	if (!(sock->global_status & bit))
		*freeze = 1;
	sock->global_status |= bit | d->global_status_also;
	(void)inst;
}

static uint8_t box_gbit(const struct hswep_box_desc *d, unsigned inst)
{
	return d->global_status_bit ? d->global_status_bit[inst] : HSWEP_NO_BIT;
}

static uint8_t fixed_gbit(const struct hswep_box_desc *d, unsigned inst)
{
	return d->fixed_global_status_bit != HSWEP_NO_BIT ? d->fixed_global_status_bit
							  : box_gbit(d, inst);
}

static void counter_span(struct sim_shared *sh, unsigned s, unsigned kind, unsigned inst,
			 unsigned k, uint64_t c0, uint64_t c1, int gfrz, int *freeze)
{
	struct sim_socket *sock = &sh->sock[s];
	struct sim_box *b = &sock->box[kind][inst];
	const struct hswep_box_desc *d = hswep_box(kind);
	uint64_t ctl = b->ctl[k];
	struct sim_cmp cmp = sim_cmp_of(kind, ctl);
	int on = counting(gfrz, b, d, k);
	int track_edge = cmp.thresh && cmp.edge;
	if (!on && !track_edge)
		return;
	struct sim_input in;
	sim_gather(sh, s, kind, inst, k, ctl, c0, c1, &in);
	uint8_t prev = (b->edge_prev >> k) & 1;
	if (on) {
		uint64_t delta = sim_eval(sh, &in, &cmp, c0, c1 - c0, &prev, 0, NULL);
		uint64_t mask = width_mask(d->ctr_width);
		uint64_t v = b->ctr[k] + delta;
		if (v > mask || delta > mask)
			overflow(sock, b, d, inst, k, !!(ctl & HSWEP_PMON_CTL_OV_EN),
				 box_gbit(d, inst), freeze);
		b->ctr[k] = v & mask;
	} else {
		/* The edge detector watches its input while the counter is
		 * stopped, so a restart sees the true previous cycle. */
		uint64_t sum = sim_input_at(sh, &in, c1 - 1);
		prev = cmp.invert ? sum < cmp.thresh : sum >= cmp.thresh;
	}
	b->edge_prev = (uint8_t)((b->edge_prev & ~(1u << k)) | (unsigned)prev << k);
}

static void box_span(struct sim_shared *sh, const struct sim_model *m, unsigned s, unsigned kind,
		     unsigned inst, uint64_t t0, uint64_t t1, int gfrz, int *freeze)
{
	struct sim_socket *sock = &sh->sock[s];
	struct sim_box *b = &sock->box[kind][inst];
	const struct hswep_box_desc *d = hswep_box(kind);
	uint64_t hz = m->clock_hz[d->clock];
	uint64_t c0 = sim_cycles(t0, hz), c1 = sim_cycles(t1, hz);
	if (b->present && c1 > c0) {
		for (unsigned k = 0; k < d->num_counters; k++)
			counter_span(sh, s, kind, inst, k, c0, c1, gfrz, freeze);
		if (fixed_counting(gfrz, b, d)) {
			uint64_t mask = width_mask(d->ctr_width);
			uint64_t v = b->fixed_ctr + (c1 - c0);
			if (v > mask)
				overflow(sock, b, d, inst, d->fixed_status_bit,
					 !!(b->fixed_ctl & HSWEP_U_FIXED_CTL_OV_EN),
					 fixed_gbit(d, inst), freeze);
			b->fixed_ctr = v & mask;
		}
	}
	/* Free-running registers count regardless of freeze and enables. */
	for (unsigned e = 0; e < d->num_extras; e++) {
		const struct hswep_extra_desc *x = &d->extras[e];
		int avail = d->space == UNCORE_SPACE_MSR ? b->present : b->fn_present[x->fn_role];
		if (x->kind != HSWEP_EXTRA_FREE_RUNNING || !avail)
			continue;
		uint64_t xhz = m->clock_hz[x->clock];
		uint64_t e0 = sim_cycles(t0, xhz), e1 = sim_cycles(t1, xhz);
		if (e1 <= e0)
			continue;
		struct sim_input in;
		sim_gather_extra(sh, s, kind, inst, e, e0, e1, &in);
		struct sim_cmp raw = {0};
		uint8_t prev = 0;
		uint64_t delta = sim_eval(sh, &in, &raw, e0, e1 - e0, &prev, 0, NULL);
		b->extra[e] = (b->extra[e] + delta) & width_mask(x->width);
	}
}

/* The earliest instant in (t0, t1] at which an overflow that raises the
 * global freeze completes its cycle; t1 if none does. */
static uint64_t earliest_freeze(struct sim_shared *sh, const struct sim_model *m, unsigned s,
				uint64_t t0, uint64_t t1)
{
	struct sim_socket *sock = &sh->sock[s];
	uint64_t best = t1;
	for (unsigned kind = 0; kind < HSWEP_BOX_KINDS; kind++) {
		const struct hswep_box_desc *d = hswep_box(kind);
		if (!d->global_status_bit)
			continue; /* CBo, SBo: no overflow messages */
		uint64_t hz = m->clock_hz[d->clock];
		uint64_t c0 = sim_cycles(t0, hz), c1 = sim_cycles(t1, hz);
		if (c1 <= c0)
			continue;
		uint64_t mask = width_mask(d->ctr_width);
		for (unsigned inst = 0; inst < d->max_instances; inst++) {
			struct sim_box *b = &sock->box[kind][inst];
			if (!b->present)
				continue;
			uint64_t gmask = UINT64_C(1) << box_gbit(d, inst);
			for (unsigned k = 0; k < d->num_counters; k++) {
				if (!counting(sock->global_frozen, b, d, k) ||
				    !(b->ctl[k] & HSWEP_PMON_CTL_OV_EN) ||
				    (sock->global_status & gmask))
					continue;
				struct sim_input in;
				sim_gather(sh, s, kind, inst, k, b->ctl[k], c0, c1, &in);
				struct sim_cmp cmp = sim_cmp_of(kind, b->ctl[k]);
				uint8_t prev = (b->edge_prev >> k) & 1;
				uint64_t used = 0;
				sim_eval(sh, &in, &cmp, c0, c1 - c0, &prev, mask + 1 - b->ctr[k],
					 &used);
				if (used) {
					uint64_t t = sim_cycle_end_ps(c0 + used, hz);
					if (t < best)
						best = t;
				}
			}
			uint64_t fmask = UINT64_C(1) << fixed_gbit(d, inst);
			if (fixed_counting(sock->global_frozen, b, d) &&
			    (b->fixed_ctl & HSWEP_U_FIXED_CTL_OV_EN) &&
			    !(sock->global_status & fmask)) {
				uint64_t need = mask + 1 - b->fixed_ctr;
				if (c1 - c0 >= need) {
					uint64_t t = sim_cycle_end_ps(c0 + need, hz);
					if (t < best)
						best = t;
				}
			}
		}
	}
	return best;
}

static uint64_t next_boundary(const struct sim_shared *sh, uint64_t t0)
{
	uint64_t next = SIM_TIME_NEVER;
	for (unsigned i = 0; i < sh->n_streams; i++) {
		const struct sim_stream *st = &sh->streams[i];
		if (st->start_ps > t0 && st->start_ps < next)
			next = st->start_ps;
		if (st->stop_ps > t0 && st->stop_ps < next)
			next = st->stop_ps;
	}
	return next;
}

static void socket_advance(struct sim_shared *sh, const struct sim_model *m, unsigned s,
			   uint64_t target)
{
	struct sim_socket *sock = &sh->sock[s];
	while (sock->t_ps < target) {
		uint64_t t0 = sock->t_ps;
		uint64_t t1 = next_boundary(sh, t0);
		if (t1 > target)
			t1 = target;
		if (m->flat) {
			sim_flat_span(sh, m, s, t0, t1);
			sock->t_ps = t1;
			continue;
		}
		if (!sock->global_frozen)
			t1 = earliest_freeze(sh, m, s, t0, t1);
		int freeze = 0;
		for (unsigned kind = 0; kind < HSWEP_BOX_KINDS; kind++)
			for (unsigned inst = 0; inst < hswep_box(kind)->max_instances; inst++)
				box_span(sh, m, s, kind, inst, t0, t1, sock->global_frozen,
					 &freeze);
		sock->t_ps = t1;
		if (freeze)
			sock->global_frozen = 1; /* 2.1.1.1: the UBox asserts the global freeze */
	}
}

void sim_advance_to(struct sim_shared *sh, const struct sim_model *m, uint64_t t_ps)
{
	if (t_ps <= sh->now_ps)
		return;
	for (unsigned s = 0; s < m->info.sockets; s++)
		if (!sh->sock[s].lazy)
			socket_advance(sh, m, s, t_ps);
	sh->now_ps = t_ps;
}

/* Lazy catch-up (issue 27).  On the wall clock every access used to bring
 * every box of the machine to the wall clock's instant: about a millisecond
 * of work per access, so the counters one read samples were brought to
 * instants far apart, and further apart when the reader was preempted.  A
 * box's counts depend only on its own registers, the scenario's streams
 * and the socket's global freeze, so a lazy socket's boxes are brought to
 * the machine's time one by one, when one of their registers is accessed,
 * and all together before the socket's global registers are or the
 * scenario changes.  The one cross-box effect a box's own span cannot see
 * is an overflow that raises the global freeze (ov_en, 2.1.1.1): a socket
 * where a counter may send one is never lazy (it advances as a whole, each
 * span ending at the freeze, as on the virtual clock).  A box's spans end
 * at the same scenario boundaries and count the same cycles whether taken
 * one at a time or with the whole socket, so the counts are those of the
 * eager catch-up at every access instant.  The virtual clock never uses
 * it: nothing changes there.
 *
 * The global freeze (GLOBAL_CTL frz_all / unfrz_all, 2.1.1.1) stops or
 * starts every box of the socket at the write's instant.  Bringing every
 * box on before that write (tens of microseconds: every counter's input
 * gathered) made the write itself that slow, so a reader's freeze writes to
 * two sockets were that far apart and a preemption between them likely,
 * where hardware's write costs one MSR access whatever the box count.  A
 * lazy socket therefore records the change in its freeze log (instant,
 * state; struct sim_socket) and box_catch_up counts each box's spans before
 * a change with the state before it, so the counts are those of a whole
 * socket's catch-up at the write.  The log is emptied by a whole socket's
 * catch-up: at its global status and config registers, a scenario or clock
 * change, the socket ceasing to be lazy, or at a box access while the
 * socket is frozen once the log is half full (nothing counts then, so the
 * time it takes moves no count; a reader reads between its freeze and thaw
 * writes); a write that finds it full catches up first (correct, only as
 * slow as before). */
static int may_raise_freeze(const struct sim_socket *sock)
{
	for (unsigned kind = 0; kind < HSWEP_BOX_KINDS; kind++) {
		const struct hswep_box_desc *d = hswep_box(kind);
		for (unsigned inst = 0; inst < d->max_instances; inst++) {
			const struct sim_box *b = &sock->box[kind][inst];
			if (!b->present)
				continue;
			if (b->fixed_ctl & HSWEP_U_FIXED_CTL_OV_EN)
				return 1;
			for (unsigned k = 0; k < d->num_counters; k++)
				if (b->ctl[k] & HSWEP_PMON_CTL_OV_EN)
					return 1;
		}
	}
	return 0;
}

/* Box (kind, inst) of lazy socket s from where it is to `target`, each
 * span counted with the global freeze its socket had then (the freeze log:
 * a change at instant t applies to the cycles from t on). */
static void box_catch_up(struct sim_shared *sh, const struct sim_model *m, unsigned s,
			 unsigned kind, unsigned inst, uint64_t target)
{
	struct sim_socket *sock = &sh->sock[s];
	struct sim_box *b = &sock->box[kind][inst];
	uint64_t t = b->t_ps > sock->t_ps ? b->t_ps : sock->t_ps;
	int freeze = 0; /* never raised: a lazy socket has no ov_en */
	unsigned next = 0; /* the first change the box has not reached */
	int gfrz = sock->frz_base;
	while (next < sock->n_frz && sock->frz_ps[next] <= t)
		gfrz = sock->frz_state[next++];
	while (t < target) {
		uint64_t t1 = next_boundary(sh, t);
		if (next < sock->n_frz && sock->frz_ps[next] < t1)
			t1 = sock->frz_ps[next];
		if (t1 > target)
			t1 = target;
		box_span(sh, m, s, kind, inst, t, t1, gfrz, &freeze);
		t = t1;
		while (next < sock->n_frz && sock->frz_ps[next] <= t)
			gfrz = sock->frz_state[next++];
	}
	b->t_ps = t;
}

/* The log is emptied by bringing every box on; a box access while the
 * socket is frozen is a harmless moment for that (nothing counts, so the
 * time it takes moves no count between sockets or intervals: a reader reads
 * its counters between its freeze and thaw writes). */
#define SIM_FREEZE_LOG_FLUSH (SIM_FREEZE_LOG / 2)

void sim_box_sync(struct sim_shared *sh, const struct sim_model *m, unsigned s, unsigned kind,
		  unsigned inst)
{
	struct sim_socket *sock = &sh->sock[s];
	if (!sock->lazy)
		return;
	if (sock->n_frz >= SIM_FREEZE_LOG_FLUSH && sock->global_frozen)
		sim_socket_sync(sh, m, s);
	else
		box_catch_up(sh, m, s, kind, inst, sh->now_ps);
}

void sim_socket_sync(struct sim_shared *sh, const struct sim_model *m, unsigned s)
{
	struct sim_socket *sock = &sh->sock[s];
	if (!sock->lazy || sock->t_ps >= sh->now_ps)
		return;
	for (unsigned kind = 0; kind < HSWEP_BOX_KINDS; kind++)
		for (unsigned inst = 0; inst < hswep_box(kind)->max_instances; inst++)
			box_catch_up(sh, m, s, kind, inst, sh->now_ps);
	sock->t_ps = sh->now_ps;
	sock->n_frz = 0; /* every box is past every change */
}

void sim_set_global_freeze(struct sim_shared *sh, const struct sim_model *m, unsigned s,
			   int frozen)
{
	struct sim_socket *sock = &sh->sock[s];
	frozen = !!frozen;
	if (sock->global_frozen == frozen)
		return;
	if (sock->lazy && sock->t_ps < sh->now_ps && sock->n_frz == SIM_FREEZE_LOG)
		sim_socket_sync(sh, m, s); /* full: correct, only slower */
	if (sock->lazy && sock->t_ps < sh->now_ps) {
		if (!sock->n_frz)
			sock->frz_base = sock->global_frozen;
		unsigned i = sock->n_frz;
		if (i && sock->frz_ps[i - 1] == sh->now_ps)
			i--; /* changed again at the same instant: the later state holds */
		sock->frz_ps[i] = sh->now_ps;
		sock->frz_state[i] = (uint8_t)frozen;
		sock->n_frz = (uint8_t)(i + 1);
	}
	sock->global_frozen = (uint8_t)frozen;
}

void sim_sync_all(struct sim_shared *sh, const struct sim_model *m)
{
	sim_sync_wall(sh, m);
	for (unsigned s = 0; s < m->info.sockets; s++)
		sim_socket_sync(sh, m, s);
}

void sim_lazy_update(struct sim_shared *sh, const struct sim_model *m, unsigned s)
{
	struct sim_socket *sock = &sh->sock[s];
	int lazy = sh->clock_mode == UNCORE_SIM_CLOCK_WALL && !m->flat && !may_raise_freeze(sock);
	if (sock->lazy && !lazy)
		sim_socket_sync(sh, m, s); /* from here on it advances as a whole */
	sock->lazy = (uint8_t)lazy;
}

void sim_sync_wall(struct sim_shared *sh, const struct sim_model *m)
{
	if (sh->clock_mode != UNCORE_SIM_CLOCK_WALL)
		return;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	if (now > sh->wall_base_ns)
		sim_advance_to(sh, m,
			       sh->wall_base_ps + (uint64_t)(now - sh->wall_base_ns) *
						      SIM_PS_PER_NS *
						      (sh->wall_rate ? sh->wall_rate : 1));
}

/* The clock mode and the wall clock's rate (uncore_sim.h). */
int uncore_sim_set_clock(struct uncore_sim *sim, enum uncore_sim_clock_mode mode)
{
	return uncore_sim_set_clock_rate(sim, mode, 1);
}

int uncore_sim_set_clock_rate(struct uncore_sim *sim, enum uncore_sim_clock_mode mode,
			      unsigned rate)
{
	if (mode != UNCORE_SIM_CLOCK_VIRTUAL && mode != UNCORE_SIM_CLOCK_WALL)
		return uncore_fail(UNCORE_EINVAL, "unknown clock mode %d", (int)mode);
	if (rate < 1 || rate > UNCORE_SIM_MAX_WALL_RATE)
		return uncore_fail(UNCORE_EINVAL, "wall clock rate %u: give 1 to %u", rate,
				   UNCORE_SIM_MAX_WALL_RATE);
	int rc = sim_lock(sim);
	if (rc)
		return rc;
	struct sim_shared *sh = sim->sh;
	sim_sync_all(sh, sim->model); /* every box at one instant before the mode changes */
	if (mode == UNCORE_SIM_CLOCK_WALL) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sh->wall_base_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		sh->wall_base_ps = sh->now_ps;
		sh->wall_rate = rate;
	}
	sh->clock_mode = (uint32_t)mode;
	for (unsigned s = 0; s < sim->model->info.sockets; s++)
		sim_lazy_update(sh, sim->model, s);
	sim_unlock(sim);
	return 0;
}
