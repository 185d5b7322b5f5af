/* The scenario library: every file loads on every model, and the counts it
 * promises come out exactly - bytes per iMC channel for STREAM, the LLC
 * state mix, remote QPI packets, IO opcodes, idle C-states - in well under a
 * second of real time for a simulated second.  Also parser errors. */
#include "sim_test.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static const char *const library[] = {"hswep-clocks.scn", "hswep-shapes.scn", "idle.scn",
				      "stream.scn",       "llc.scn",          "qpi-remote.scn",
				      "pcie-io.scn"};

TEST(library_loads_on_every_model)
{
	for (size_t m = 0; m < uncore_sim_model_count(); m++)
		for (size_t i = 0; i < sizeof(library) / sizeof(library[0]); i++) {
			/* The Haswell-EP library; the flat models: test_sim_flat. */
			if (strcmp(uncore_sim_model(m)->platform, "hswep"))
				continue;
			harness_row = library[i];
			struct uncore_sim *sim = sim_new(uncore_sim_model(m)->name, NULL);
			int rc = uncore_sim_load_scenario(sim, scenario_path(library[i]));
			if (rc)
				HARNESS_FAIL_AT("%s on %s: %s", library[i],
						uncore_sim_model(m)->name, uncore_error_detail());
			uncore_sim_close(sim);
		}
	harness_row = NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#define EN     HSWEP_PMON_CTL_EN
#define CAS_RD (EN | 0x03 << 8 | 0x04)
#define CAS_WR (EN | 0x0c << 8 | 0x04)

/* iMC channel c of a socket on bus `bus` (Table 2-111). */
static struct uncore_reg mc(unsigned bus, unsigned c, unsigned off)
{
	static const unsigned dev[] = {20, 20, 21, 21, 23, 23, 24, 24};
	return pci_reg(bus, dev[c], c & 1, off);
}

TEST(stream_bytes_per_channel)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", NULL);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("stream.scn")), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	static const unsigned bus[] = {0x7f, 0xff};
	int rc;
	for (unsigned s = 0; s < 2; s++)
		for (unsigned c = 0; c < 8; c++) {
			WR(io, mc(bus[s], c, 0xd8), CAS_RD);
			WR(io, mc(bus[s], c, 0xdc), CAS_WR);
			WR(io, mc(bus[s], c, 0xe0),
			   EN | 1u << 24 | 0x01 << 8 | 0x04); /* cycles with a read */
			WR(io, mc(bus[s], c, 0xf0), HSWEP_MC_FIXED_CTL_EN);
		}
	/* HA 0: REQUESTS.READS; CBo 5: LLC misses (state I), M victims. */
	WR(io, pci_reg(0x7f, 18, 1, 0xd8), EN | 0x03 << 8 | 0x01);
	WR(io, msr_reg(0, 0xe55), (uint64_t)HSWEP_CBO_STATE_I << HSWEP_CBO_FILTER0_STATE_SHIFT);
	WR(io, msr_reg(0, 0xe51), EN | 0x03 << 8 | 0x34);
	WR(io, msr_reg(0, 0xe52), EN | 0x01 << 8 | 0x37);
	double t0 = now_s();
	CHECK_EQ_INT(uncore_sim_advance(sim, 1000000000), 0); /* one simulated second */
	double took = now_s() - t0;
	for (unsigned s = 0; s < 2; s++)
		for (unsigned c = 0; c < 8; c++) {
			uint64_t rd = rd_pci_ctr(io, mc(bus[s], c, 0xa0), &rc);
			uint64_t wr = rd_pci_ctr(io, mc(bus[s], c, 0xa8), &rc);
			CHECK_EQ_U64(rd * 64, UINT64_C(6400000000));
			CHECK_EQ_U64(wr * 64, UINT64_C(3200000000));
			/* at most one read CAS per DCLK here, so as many cycles */
			CHECK_EQ_U64(rd_pci_ctr(io, mc(bus[s], c, 0xb0), &rc), 100000000);
			CHECK_EQ_U64(rd_pci_ctr(io, mc(bus[s], c, 0xd0), &rc), 1066666667);
		}
	CHECK_EQ_U64(rd_pci_ctr(io, pci_reg(0x7f, 18, 1, 0xa0), &rc), 400000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe58)), 40000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe59)), 20000000);
	if (took >= 0.5)
		HARNESS_FAIL_AT("advancing 1 s of STREAM on 2 sockets took %.3f s", took);
	uncore_sim_close(sim);
}

TEST(stream_skips_the_phantom_channel)
{
	struct uncore_sim *sim = sim_new("e5-2620v3-2s", NULL);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("stream.scn")), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	int rc;
	for (unsigned c = 0; c < 4; c++) {
		WR(io, mc(0xff, c, 0xd8), CAS_RD);
		WR(io, mc(0xff, c, 0xf0), HSWEP_MC_FIXED_CTL_EN);
	}
	/* 1 ms of DDR4-1866 is 933333 whole DCLKs (933333.33); 100 M/s over
	 * them is floor(933333 * 10^8 / 933333333) = 99999 CAS. */
	uncore_sim_advance(sim, 1000000);
	for (unsigned c = 0; c < 4; c++) {
		harness_row = c == 3 ? "phantom channel 3" : "populated channel";
		uint64_t want = c == 3 ? 0 : 99999;
		CHECK_EQ_U64(rd_pci_ctr(io, mc(0xff, c, 0xa0), &rc), want);
		CHECK_EQ_U64(rd_pci_ctr(io, mc(0xff, c, 0xd0), &rc), 933333);
	}
	harness_row = NULL;
	uncore_sim_close(sim);
}

TEST(llc_state_mix)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", NULL);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("llc.scn")), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	static const struct {
		const char *row;
		uint8_t state;
		uint8_t umask;
		uint64_t per_ms;
	} cases[] = {
	    {"data reads, I", HSWEP_CBO_STATE_I, 0x03, 4000},
	    {"data reads, S", HSWEP_CBO_STATE_S, 0x03, 8000},
	    {"data reads, E", HSWEP_CBO_STATE_E, 0x03, 12000},
	    {"data reads, M", HSWEP_CBO_STATE_M, 0x03, 10000},
	    {"data reads, F", HSWEP_CBO_STATE_F, 0x03, 6000},
	    {"data reads, any state", 0x1f, 0x03, 40000},
	    {"any request, M", HSWEP_CBO_STATE_M, 0x11, 15000},
	    {"remote snoops, S", HSWEP_CBO_STATE_S, 0x09, 2000},
	    {"hits (S, E, M, F), any request", 0x1e, 0x11, 41000},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		harness_row = cases[i].row;
		unsigned cbo = (unsigned)(i % 18);
		uint32_t base = 0xe00 + 0x10 * cbo;
		WR(io, msr_reg(1, base), HSWEP_PMON_BOX_CTL_RSV_MUST1 | 0x3);
		WR(io, msr_reg(1, base + 5),
		   (uint64_t)cases[i].state << HSWEP_CBO_FILTER0_STATE_SHIFT);
		WR(io, msr_reg(1, base + 1), EN | (uint64_t)cases[i].umask << 8 | 0x34);
		WR(io, msr_reg(1, base), HSWEP_PMON_BOX_CTL_RSV_MUST1);
		uncore_sim_advance(sim, 1000000);
		CHECK_EQ_U64(RD(io, msr_reg(1, base + 8)), cases[i].per_ms);
	}
	harness_row = NULL;
	uncore_sim_close(sim);
}

TEST(qpi_remote_and_pcie_io)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", NULL);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("qpi-remote.scn")), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	int rc;
	/* DRS_DataC_M_FROM_QPI style (2.9.5): CTO_COUNT with mask/match. */
	WR(io, pci_reg(0x7f, 8, 6, 0x228), 0x1c00);
	WR(io, pci_reg(0x7f, 8, 6, 0x238), 0x1fe0);
	WR(io, pci_reg(0x7f, 8, 6, 0x22c), 0x80000);
	WR(io, pci_reg(0x7f, 8, 6, 0x23c), 0xf0000);
	WR(io, pci_reg(0x7f, 8, 6, 0x210), 0x1e00); /* Tx: match class 0 only */
	WR(io, pci_reg(0x7f, 8, 2, 0xd8), EN | HSWEP_PMON_CTL_EV_SEL_EXT | 0x38);
	WR(io, pci_reg(0x7f, 8, 2, 0xdc), EN | HSWEP_PMON_CTL_EV_SEL_EXT | 0x08 << 8 | 0x02);
	WR(io, pci_reg(0xff, 18, 5, 0xd8), EN | 0x02 << 8 | 0x01); /* socket 1 HA 1 remote reads */
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(rd_pci_ctr(io, pci_reg(0x7f, 8, 2, 0xa0), &rc) * 64,
		     3200000); /* 50 M/s * 64 B */
	CHECK_EQ_U64(rd_pci_ctr(io, pci_reg(0x7f, 8, 2, 0xa8), &rc) * 8,
		     3200000); /* DRS data flits */
	CHECK_EQ_U64(rd_pci_ctr(io, pci_reg(0xff, 18, 5, 0xa0), &rc), 25000);
	uncore_sim_close(sim);

	sim = sim_new("e5-2699v3-2s", NULL);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("pcie-io.scn")), 0);
	io = uncore_sim_regio(sim);
	/* IO_WRITE_BW / IO_READ_BW of 2.3.5 at CBo 7: TOR_INSERTS.OPCODE with
	 * opcode and tid 0x3E. */
	WR(io, msr_reg(0, 0xe75), 0x3e);
	WR(io, msr_reg(0, 0xe76), (uint64_t)0x19e << HSWEP_CBO_FILTER1_OPC_SHIFT);
	WR(io, msr_reg(0, 0xe71), EN | HSWEP_PMON_CTL_TID_EN | 0x01 << 8 | 0x35);
	WR(io, pci_reg(0x00, 5, 6, 0xd8), EN | 0x01 << 8 | 0x16);  /* IRP (root bus) READS */
	WR(io, pci_reg(0x7f, 16, 1, 0xd8), EN | 0x0f << 8 | 0x09); /* R2 RING_BL_USED.ALL dirs */
	WR(io, pci_reg(0x7f, 16, 1, 0xd8), EN | 0x0f << 8 | 0x09); /* (written twice: erratum) */
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe78)) * 64, 1280000);
	CHECK_EQ_U64(rd_pci_ctr(io, pci_reg(0x00, 5, 6, 0xa0), &rc), 40000);
	CHECK_EQ_U64(rd_pci_ctr(io, pci_reg(0x7f, 16, 1, 0xa0), &rc), 60000);
	uncore_sim_close(sim);
}

TEST(idle_c_states)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", NULL);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, scenario_path("idle.scn")), 0);
	struct uncore_regio *io = uncore_sim_regio(sim);
	int rc;
	const uint64_t occ = EN | 0x80;
	WR(io, msr_reg(0, 0x711),
	   occ | (uint64_t)HSWEP_PCU_OCC_SEL_C6 << HSWEP_PCU_CTL_OCC_SEL_SHIFT);
	WR(io, msr_reg(0, 0x712),
	   occ | (uint64_t)HSWEP_PCU_OCC_SEL_C0 << HSWEP_PCU_CTL_OCC_SEL_SHIFT);
	WR(io, msr_reg(0, 0x713), EN | 0x00); /* PCU CLOCKTICKS */
	WR(io, msr_reg(0, 0x715), 0x0c);      /* band 0 = 1.2 GHz */
	WR(io, msr_reg(0, 0x714), EN | 0x0b);
	WR(io, pci_reg(0x7f, 8, 2, 0xd8), EN | 0x01 << 8 | 0x00); /* idle flits */
	uint64_t cc6 = RD(io, msr_reg(0, 0x3fd)), idle = RD(io, pci_reg(0x7f, 8, 2, 0xc8));
	uncore_sim_advance(sim, 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x717)), 17000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x718)), 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x719)), 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x71a)), 1000000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x3fd)) - cc6, 2300000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0x60d)), 1150000);
	CHECK_EQ_U64(RD(io, pci_reg(0x7f, 8, 2, 0xc8)) - idle, 1200000);
	CHECK_EQ_U64(rd_pci_ctr(io, pci_reg(0x7f, 8, 2, 0xa0), &rc), 2400000);
	uncore_sim_close(sim);
}

TEST(scenario_syntax_errors)
{
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", NULL);
	static const struct {
		const char *text, *detail;
	} bad[] = {
	    {"stream cbo inc=1\n", "without ev="},
	    {"stream cbx ev=1 inc=1\n", "unknown box"},
	    {"stream cbo ev=1\n", "exactly one of"},
	    {"stream cbo ev=1 inc=1 rate=5/s\n", "exactly one of"},
	    {"stream cbo[40] ev=1 inc=1\n", "out of bounds"},
	    {"stream cbo[17] ev=0x100 inc=1\n", "bad value for ev"},
	    {"stream cbo ev=1 inc=1 colour=red\n", "unknown or misplaced key \"colour\""},
	    {"stream cbo ev=1 inc=1 state=Q\n", "bad state"},
	    {"stream cbo ev=1 inc=1 socket=2\n", "no such socket"},
	    {"stream cbo ev=1 inc=1 start=5ms stop=1ms\n", "after start"},
	    {"stream imc[populated] ev=1 pattern=\n", "empty value"},
	    {"stream cbo[populated] ev=1 inc=1\n", "imc only"},
	    {"free pcu.NOPE inc=1\n", "not a free-running register"},
	    {"free qpi.QPI_RATE_STATUS inc=1\n", "not a free-running register"},
	    {"shape cbo ev=0x34 state=12345\n", "filter enable mask"},
	    {"include /nonexistent.scn\n", "cannot open include"},
	    {"frobnicate\n", "unknown statement"},
	    {"\n\nstream cbo ev=1 ratio=1/0\n", "test:3:"},
	    {"stream cbo ev=1 rate=18446744073709551616/s\n", "at most 18446744073709551615/s"},
	    {"stream cbo ev=1 rate=1e30/s\n", "bad rate"},
	    {"frob\x1b[31m\n", "unknown statement \"frob\\x1b[31m\""},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		harness_row = bad[i].text;
		CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, bad[i].text, "test"),
			     UNCORE_ESYNTAX);
		CHECK_CONTAINS(uncore_error_detail(), bad[i].detail);
	}
	harness_row = NULL;
	/* More streams into one counter than it can sum. */
	char big[8192] = "";
	for (int i = 0; i < 65; i++) {
		size_t used = strlen(big);
		snprintf(big + used, sizeof(big) - used,
			 "stream cbo[3] ev=0x11 umask=0x01 inc=%d\n", i);
	}
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, big, "big"), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "more than 64 streams");
	/* A failed load leaves the previous scenario in place. */
	CHECK_EQ_INT(
	    uncore_sim_load_scenario_text(sim, "name keep\nstream cbo[0] ev=0 inc=1\n", "ok"), 0);
	CHECK_EQ_INT(uncore_sim_load_scenario_text(sim, "stream cbo ev=0\n", "bad"),
		     UNCORE_ESYNTAX);
	struct uncore_sim_topology t;
	uncore_sim_topology(sim, &t);
	CHECK_EQ_STR(t.scenario, "keep");
	char desc[200];
	CHECK_EQ_INT(uncore_sim_describe(sim, desc, sizeof(desc)), 0);
	CHECK_CONTAINS(desc, "SIMULATED");
	CHECK_CONTAINS(desc, "scenario keep");
	uncore_sim_close(sim);
}

/* A file that is not a scenario is said to be one and not quoted, loaded or
 * included (a privileged tool may read a user's scenario): issue 29. */
TEST(files_that_are_no_scenario_are_not_quoted)
{
	char dir[] = "/tmp/papi-scn-XXXXXX", secret[300], top[300];
	REQUIRE(mkdtemp(dir) != NULL);
	snprintf(secret, sizeof(secret), "%s/shadow", dir);
	snprintf(top, sizeof(top), "%s/top.scn", dir);
	FILE *f = fopen(secret, "w");
	REQUIRE(f != NULL);
	fputs("root:$6$secrethash:19000:0:99999:7:::\n", f);
	fclose(f);
	f = fopen(top, "w");
	REQUIRE(f != NULL);
	fprintf(f, "name top\ninclude %s\n", secret);
	fclose(f);
	struct uncore_sim *sim = sim_new("e5-2699v3-2s", NULL);
	char want[400];
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, secret), UNCORE_ESYNTAX);
	snprintf(want, sizeof(want), "not a scenario file: %s", secret);
	CHECK_EQ_STR(uncore_error_detail(), want);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, top), UNCORE_ESYNTAX);
	CHECK_EQ_STR(uncore_error_detail(), want);
	CHECK(strstr(uncore_error_detail(), "secrethash") == NULL);
	/* A scenario's own mistakes are still shown as before. */
	f = fopen(top, "w");
	REQUIRE(f != NULL);
	fputs("name top\nfrobnicate\n", f);
	fclose(f);
	CHECK_EQ_INT(uncore_sim_load_scenario(sim, top), UNCORE_ESYNTAX);
	CHECK_CONTAINS(uncore_error_detail(), "top.scn:2: unknown statement \"frobnicate\"");
	uncore_sim_close(sim);
	unlink(secret);
	unlink(top);
	rmdir(dir);
}

TEST(windows_and_wall_clock)
{
	struct uncore_sim *sim =
	    sim_new("e5-2699v3-2s", "stream cbo[0] ev=0x00 inc=1 start=100ns stop=300ns\n"
				    "stream cbo[0] ev=0x01 rate=1G/s start=1us\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	WR(io, msr_reg(0, 0xe01), EN | 0x00);
	WR(io, msr_reg(0, 0xe02), EN | 0x01);
	uncore_sim_advance(sim, 2000);
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe08)), 500);  /* 200 ns of UCLK */
	CHECK_EQ_U64(RD(io, msr_reg(0, 0xe09)), 1000); /* 1 us at 1 G/s */
	/* Wall clock: time moves by itself. */
	CHECK_EQ_INT(uncore_sim_set_clock(sim, UNCORE_SIM_CLOCK_WALL), 0);
	uint64_t t0, t1;
	uncore_sim_now(sim, &t0);
	struct timespec ts = {0, 20000000};
	nanosleep(&ts, NULL);
	uint64_t v = RD(io, msr_reg(0, 0xe09));
	uncore_sim_now(sim, &t1);
	CHECK(t1 - t0 >= 20000000);
	CHECK(v >= 1000 + 20000000);
	CHECK_EQ_INT(uncore_sim_set_clock(sim, UNCORE_SIM_CLOCK_VIRTUAL), 0);
	uncore_sim_now(sim, &t0);
	nanosleep(&ts, NULL);
	uncore_sim_now(sim, &t1);
	CHECK_EQ_U64(t1, t0);
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(library_loads_on_every_model);
	RUN(stream_bytes_per_channel);
	RUN(stream_skips_the_phantom_channel);
	RUN(llc_state_mix);
	RUN(qpi_remote_and_pcie_io);
	RUN(idle_c_states);
	RUN(scenario_syntax_errors);
	RUN(files_that_are_no_scenario_are_not_quoted);
	RUN(windows_and_wall_clock);
	return harness_done();
}
