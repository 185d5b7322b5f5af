/* Internal state of the uncore simulator.  struct sim_shared is the whole
 * machine: flat, pointer-free, so it can live in a shared-memory file mapped
 * by several processes, guarded by one process-shared robust mutex. */
#ifndef UNCORE_SIM_INTERNAL_H
#define UNCORE_SIM_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "access/regio.h"
#include "platform/hswep/hswep_boxes.h"
#include "platform/hswep/hswep_regs.h"
#include "platform/nhm/nhm_regs.h"
#include "platform/x7400/x7400_regs.h"
#include "sim/sim_flat.h"
#include "sim/sim_models.h"
#include "sim/uncore_sim.h"

#define SIM_MAGIC       UINT64_C(0x314d495345524e55) /* "UNRESIM1" */
#define SIM_VERSION     5u
#define SIM_MAX_SOCKETS HSWEP_MAX_PACKAGES
#define SIM_MAX_STREAMS 512
#define SIM_MAX_SHAPES  256
#define SIM_MAX_FAULTS  32
#define SIM_PATTERN_MAX 32
#define SIM_FREEZE_LOG  16 /* global freeze changes a lazy socket holds (sim_clock.c) */
#define SIM_PS_PER_NS   UINT64_C(1000)
#define SIM_PS_PER_S    UINT64_C(1000000000000)
#define SIM_TIME_NEVER  UINT64_MAX

/* Attributes a sub-event occurrence may carry (scenario keys in SCENARIOS.md). */
enum {
	SIM_ATTR_STATE = 1u << 0, /* CBo: cache state, one-hot in FILTER0.state layout */
	SIM_ATTR_OPC = 1u << 1,   /* CBo: 9-bit opcode as in FILTER1.opc */
	SIM_ATTR_NID = 1u << 2,   /* CBo: target node ID (bit of FILTER1.nid) */
	SIM_ATTR_TID = 1u << 3,   /* CBo: thread ID as in FILTER0.tid */
	SIM_ATTR_NC = 1u << 4,    /* CBo: non-coherent request */
	SIM_ATTR_ISOC = 1u << 5,  /* CBo: isochronous request */
	SIM_ATTR_ADDR = 1u << 6,  /* HA: physical address */
	SIM_ATTR_HOPC = 1u << 7,  /* HA: message class and opcode as in OPCODEMATCH.opc */
	SIM_ATTR_PKT = 1u << 8,   /* QPI: packet header fields (pkt0/pkt1) and direction */
	SIM_ATTR_FREQ = 1u << 9,  /* PCU: frequency in 100 MHz units */
};

enum { SIM_DIR_RX = 0, SIM_DIR_TX = 1 };

struct sim_attrs {
	uint16_t have; /* SIM_ATTR_* */
	uint8_t state;
	uint8_t tid;
	uint8_t nid;
	uint8_t nc;
	uint8_t isoc;
	uint8_t hopc;
	uint8_t freq;
	uint8_t dir;
	uint16_t opc;
	uint64_t addr;
	uint32_t pkt0; /* MATCH0/MASK0 layout (Table 2-173) */
	uint32_t pkt1; /* MATCH1/MASK1 layout (Table 2-172) */
};

enum { SIM_RATE_PATTERN = 0, SIM_RATE_RATIO = 1 };
enum { SIM_TARGET_EVENT = 0, SIM_TARGET_EXTRA = 1 };

/* A stream of sub-event occurrences fed to boxes of one kind: per cycle of
 * the box clock it adds pattern[(c - start) % len] (or, for a ratio, num
 * occurrences every den cycles, evenly spread) with these attributes. */
struct sim_stream {
	uint8_t kind;   /* enum hswep_box_kind */
	uint8_t target; /* SIM_TARGET_EVENT, or SIM_TARGET_EXTRA (free-running register) */
	uint8_t extra;  /* extra register index for SIM_TARGET_EXTRA */
	uint8_t ev;     /* event select */
	uint8_t ext;    /* ev_sel_ext */
	uint8_t umask;  /* umask bits this occurrence asserts (0: event without sub-events) */
	uint8_t occ;    /* PCU occupancy sub-counter (occ_sel value 1-3), 0 none */
	uint8_t rate_kind;
	uint8_t pattern_len;
	uint8_t clock;     /* enum hswep_clock the cycles are counted in */
	uint16_t line;     /* scenario line, for messages */
	uint32_t sockets;  /* socket mask */
	uint32_t insts;    /* instance mask */
	uint64_t num, den; /* SIM_RATE_RATIO, reduced */
	uint64_t pattern_sum;
	uint32_t pattern[SIM_PATTERN_MAX];
	uint64_t start_ps, stop_ps;       /* active in [start, stop) */
	uint64_t start_cycle, stop_cycle; /* the same in `clock` cycles */
	struct sim_attrs attrs;
	uint32_t match; /* flat EMON units: the occurrence's attributes (event-mask image) */
};

#define SIM_FILTER_ALWAYS 0x100u /* a filter enable mask bit: regardless of umask */

/* How the umask of a counter selects the occurrences of one event, and which
 * box filters apply; see SCENARIOS.md "shape".  Without a shape every umask
 * bit is an OR selector and no filter applies. */
struct sim_shape {
	uint8_t kind, ev, ext;
	uint8_t qual;    /* qualifier bits: each one set in the umask must be asserted */
	uint8_t req;     /* bits that must be set in the umask for anything to count */
	uint8_t flt;     /* bits that only enable filters */
	uint8_t ctrs;    /* counters that can count the event (mask); 0 = all */
	uint8_t mirror0; /* input is counter 0's input (CBo COUNTER0_OCCUPANCY) */
	int8_t band;     /* PCU band filter index compared with freq, or -1 */
	uint16_t f_state, f_opc, f_nid, f_addr, f_hopc, f_pkt; /* enable masks */
};

struct sim_fault_rule {
	struct uncore_sim_fault f;
	uint64_t seen;   /* matching accesses so far */
	uint64_t failed; /* failures produced */
};

struct sim_box {
	uint8_t present;                    /* the box's PMON registers exist */
	uint8_t fn_present[HSWEP_FN_ROLES]; /* PCI functions present */
	uint8_t frozen;                     /* BOX_CTL.frz */
	uint8_t edge_prev;     /* bit k: counter k's comparison result on the last cycle */
	uint8_t pending_valid; /* bit k: pending[k] holds the previous CTL write */
	uint32_t box_ctl;      /* read-back value (rst bits are actions, not state) */
	uint32_t box_ctl_written; /* the last value written (SBo one-bit rule) */
	uint32_t status;
	uint64_t ctl[HSWEP_MAX_COUNTERS];
	uint64_t ctr[HSWEP_MAX_COUNTERS];
	uint64_t pending[HSWEP_MAX_COUNTERS]; /* last value written (write-twice erratum) */
	uint64_t fixed_ctl;
	uint64_t fixed_ctr;
	uint64_t filter[HSWEP_MAX_FILTERS];
	uint64_t extra[HSWEP_MAX_EXTRAS];
	/* Wall-clock mode, a lazy socket (sim_clock.c): the time this box's
	 * counters have reached when later than its socket's t_ps. */
	uint64_t t_ps;
};

struct sim_socket {
	uint8_t global_frozen;
	uint64_t global_ctl; /* RW fields only: wk_on_pmi, pmi_core_sel */
	uint64_t global_status;
	uint64_t global_config;
	uint64_t t_ps; /* simulated time this socket's counters have reached */
	/* Wall-clock mode and no overflow can raise the freeze: each box is
	 * brought to the machine's time only when one of its registers is
	 * accessed (sim_clock.c, "Lazy catch-up"). */
	uint8_t lazy;
	/* A lazy socket's global freeze changes its boxes have not all
	 * reached (sim_clock.c, "Lazy catch-up"): from frz_ps[i] on the freeze
	 * is frz_state[i]; before frz_ps[0] it was frz_base.  Instants are
	 * ascending and later than t_ps; global_frozen is the latest state. */
	uint8_t n_frz;
	uint8_t frz_base;
	uint8_t frz_state[SIM_FREEZE_LOG];
	uint64_t frz_ps[SIM_FREEZE_LOG];
	struct sim_box box[HSWEP_BOX_KINDS][HSWEP_MAX_INSTANCES];
};

struct sim_shared {
	uint64_t magic;
	uint32_t version;
	uint32_t size;
	pthread_mutex_t lock;
	uint32_t model_index;
	char model[32];
	char scenario[128];
	uint64_t now_ps;
	uint32_t clock_mode;
	int64_t wall_base_ns; /* CLOCK_MONOTONIC when the wall clock mode began */
	uint64_t wall_base_ps;
	uint32_t wall_rate; /* simulated ns per wall ns in wall mode (0: 1) */
	uint64_t access_ps;
	uint32_t log_gen; /* bumped whenever log_path changes */
	char log_path[256];
	uint32_t recovered; /* times the lock was recovered from a dead owner */
	/* Bumped, with the time, whenever the scenario or the faults change:
	 * a follower (sim_follow.c) takes them over from that instant. */
	uint32_t gen;
	uint64_t gen_ps;
	uint32_t n_streams, n_shapes, n_faults;
	struct sim_stream streams[SIM_MAX_STREAMS];
	struct sim_shape shapes[SIM_MAX_SHAPES];
	struct sim_fault_rule faults[SIM_MAX_FAULTS];
	struct sim_socket sock[SIM_MAX_SOCKETS];
	struct sim_flat_socket flat[SIM_MAX_SOCKETS]; /* flat-PMU models only */
};

/* The per-process handle. */
struct uncore_sim {
	struct sim_shared *sh;
	const struct sim_model *model;
	size_t map_len;
	char path[256];
	int log_fd;
	uint32_t log_gen;
	int scenario_by_default; /* regio_from_env chose the demo's scenario */
	/* How the machine is closed with its register access (uncore_sim_close:
	 * one opened for it, sim_open.c, or a follower; NULL: not with it). */
	void (*regio_closes)(struct uncore_sim *sim);
	int user; /* enum uncore_sim_user of this process's attachment */
	/* A follower's shared machine (sim_follow.c), owned: its time is this
	 * one's.  NULL for any other machine. */
	struct uncore_sim *leader;
	uint32_t seen_gen; /* the leader's gen this follower's scenario is of */
	struct uncore_regio io;
};

/* sim_lock.c: the shared state's lock (0 or an error; a holder's death
 * recovered). */
int sim_lock(struct uncore_sim *sim);
void sim_unlock(struct uncore_sim *sim);

/* sim_machine.c */
void sim_reset_registers(struct sim_shared *sh, const struct sim_model *m);

/* sim_regio.c */
void sim_regio_init(struct uncore_sim *sim);

/* sim_follow.c: a follower brought to its leader's time (lock held). */
void sim_follow_sync(struct uncore_sim *sim);

/* The cycles of a `hz` clock completed by instant t_ps, and the instant
 * at which cycle number `cycles` ends (for every file that counts time:
 * sim_clock.c, sim_flat.c). */
static inline uint64_t sim_cycles(uint64_t t_ps, uint64_t hz)
{
	return (uint64_t)((unsigned __int128)t_ps * hz / SIM_PS_PER_S);
}

static inline uint64_t sim_cycle_end_ps(uint64_t cycles, uint64_t hz)
{
	unsigned __int128 x = (unsigned __int128)cycles * SIM_PS_PER_S;
	return (uint64_t)((x + hz - 1) / hz);
}

/* sim_clock.c */
void sim_advance_to(struct sim_shared *sh, const struct sim_model *m, uint64_t t_ps);
void sim_sync_wall(struct sim_shared *sh, const struct sim_model *m);
/* Lazy catch-up (wall-clock mode): a box brought to sh->now_ps before one
 * of its registers is accessed; a whole socket before a global register
 * is, or before anything that changes what every box counts; the socket's
 * mode decided again after every box write (lock held). */
void sim_box_sync(struct sim_shared *sh, const struct sim_model *m, unsigned s, unsigned kind,
		  unsigned inst);
void sim_socket_sync(struct sim_shared *sh, const struct sim_model *m, unsigned s);
void sim_sync_all(struct sim_shared *sh, const struct sim_model *m);
void sim_lazy_update(struct sim_shared *sh, const struct sim_model *m, unsigned s);
/* The global freeze of socket s set to `frozen` at sh->now_ps: on a lazy
 * socket recorded in its freeze log, without bringing its boxes on. */
void sim_set_global_freeze(struct sim_shared *sh, const struct sim_model *m, unsigned s,
			   int frozen);

/* sim_counter.c: a counter's input and its comparison logic. */
#define SIM_MAX_INPUTS 64
struct sim_input {
	unsigned n;
	uint16_t idx[SIM_MAX_INPUTS];
	uint8_t overflowed; /* more matching streams than SIM_MAX_INPUTS */
};
struct sim_cmp {
	uint32_t thresh; /* 0: raw count, no comparison */
	uint8_t invert;
	uint8_t edge;
};
/* Gather the streams counter k of box (kind, inst) on `socket` counts over
 * cycles [c0, c1), with control value ctl. */
void sim_gather(const struct sim_shared *sh, unsigned socket, unsigned kind, unsigned inst,
		unsigned k, uint64_t ctl, uint64_t c0, uint64_t c1, struct sim_input *in);
void sim_gather_extra(const struct sim_shared *sh, unsigned socket, unsigned kind, unsigned inst,
		      unsigned extra, uint64_t c0, uint64_t c1, struct sim_input *in);
/* The comparison settings of control value ctl of a box kind. */
struct sim_cmp sim_cmp_of(unsigned kind, uint64_t ctl);
/* Count over cycles [c0, c0+n), updating *prev (last cycle's comparison
 * result).  With need != 0, stop when the count reaches need: *used is the
 * number of cycles it took (0 if not reached within n). */
uint64_t sim_eval(const struct sim_shared *sh, const struct sim_input *in,
		  const struct sim_cmp *cmp, uint64_t c0, uint64_t n, uint8_t *prev, uint64_t need,
		  uint64_t *used);
/* The input's sum on one cycle. */
uint64_t sim_input_at(const struct sim_shared *sh, const struct sim_input *in, uint64_t c);
/* sim_rotation.c: sim_eval for a threshold over constants and several rate
 * streams, in closed form (time independent of n); 0 if it does not apply
 * (other streams, or rates without a small common step). */
int sim_eval_rotation(const struct sim_shared *sh, const struct sim_input *in,
		      const struct sim_cmp *cmp, uint64_t c0, uint64_t n, uint8_t *prev,
		      uint64_t need, uint64_t *used, uint64_t *result);

/* sim_filter.c */
const struct sim_shape *sim_shape_find(const struct sim_shared *sh, unsigned kind, unsigned ev,
				       unsigned ext);
int sim_umask_selects(const struct sim_shape *shape, uint8_t umask, const struct sim_stream *s);
int sim_filters_pass(unsigned kind, const struct sim_box *b, uint64_t ctl, uint8_t umask,
		     const struct sim_shape *shape, const struct sim_stream *s);

/* sim_regfile.c: register semantics.  `peek` allows whole 64-bit PCI reads. */
int sim_msr_read(struct sim_shared *sh, const struct sim_model *m, unsigned socket, uint32_t msr,
		 uint64_t *value);
int sim_msr_write(struct sim_shared *sh, const struct sim_model *m, unsigned socket, uint32_t msr,
		  uint64_t value);
int sim_pci_read(struct sim_shared *sh, const struct sim_model *m, uint32_t bdf, uint32_t offset,
		 unsigned width, int peek, uint64_t *value);
int sim_pci_write(struct sim_shared *sh, const struct sim_model *m, uint32_t bdf, uint32_t offset,
		  unsigned width, uint64_t value);
/* Socket of a PCI bus (an uncore bus, or a root bus when `root` is given:
 * *root is set to 1 for a root bus), or -1. */
int sim_bus_socket(const struct sim_model *m, unsigned bus);
int sim_bus_socket_kind(const struct sim_model *m, unsigned bus, int *root);

/* sim_flat.c: the flat-PMU family (models with m->flat). */
void sim_flat_reset(struct sim_shared *sh, const struct sim_model *m);
int sim_flat_msr_read(struct sim_shared *sh, const struct sim_model *m, unsigned socket,
		      uint32_t msr, uint64_t *value);
int sim_flat_msr_write(struct sim_shared *sh, const struct sim_model *m, unsigned socket,
		       uint32_t msr, uint64_t value);
int sim_flat_pci_read(struct sim_shared *sh, const struct sim_model *m, uint32_t bdf,
		      uint32_t offset, unsigned width, uint64_t *value);
int sim_flat_mmio_read(struct sim_shared *sh, const struct sim_model *m, unsigned socket,
		       uint64_t addr, unsigned width, uint64_t *value);
/* Advance socket s's counters over [t0, t1) (no stream starts or stops inside). */
void sim_flat_span(struct sim_shared *sh, const struct sim_model *m, unsigned s, uint64_t t0,
		   uint64_t t1);

/* sim_log.c */
void sim_log_access(struct uncore_sim *sim, int write, const struct uncore_reg *r, uint64_t value,
		    int result);

/* sim_fault.c: 0, or the negative code of an injected failure. */
int sim_fault_check(struct sim_shared *sh, int write, const struct uncore_reg *r);

/* sim_scenario.c: base_dir NULL resolves includes in the built-in library;
 * from_file: the text was read from a file, which then, when its first
 * statement is none, is "not a scenario file" and not quoted (issue 29). */
int sim_scenario_load(struct uncore_sim *sim, const char *text, const char *origin,
		      const char *base_dir, int from_file);
/* The text of built-in scenario `name` ("stream" or "stream.scn"), or NULL. */
const char *sim_scenario_builtin(const char *name);

#endif
