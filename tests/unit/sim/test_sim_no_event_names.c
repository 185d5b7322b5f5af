/* Acceptance: the simulator's own code knows no event names.  Every word of
 * the code of src/sim (comments, which cite the manual, removed) is checked
 * against the symbol names of the manual's "Events Ordered By Code" tables,
 * and a register-level check shows counting follows the scenario alone: an
 * arbitrary made-up event code counts once a scenario feeds it. */
#include "sim_test.h"

#include <ctype.h>
#include <dirent.h>

/* The symbol names of HSX PMON 2.2.4, 2.3.4, ..., 2.11.4, as extracted from
 * the converted manual by: re.findall(r'^([A-Z][A-Z0-9_]{3,})\s*\t\s*0x[0-9a-f]{2}', text, re.M)
 * (OCR spellings such as COREO_ kept). */
static const char *const event_names[] = {
    "ACT_COUNT",
    "ADDR_OPC_MATCH",
    "BOUNCE_CONTROL",
    "BT_CYCLES_NE",
    "BT_OCCUPANCY",
    "BYPASS_IMC",
    "BYP_CMDS",
    "CACHE_TOTAL_OCCUPANCY",
    "CAS_COUNT",
    "CLOCKTICKS",
    "COHERENT_OPS",
    "CONFLICT_CYCLES",
    "CORE10_TRANSITION_CYCLES",
    "CORE11_TRANSITION_CYCLES",
    "CORE12_TRANSITION_CYCLES",
    "CORE13_TRANSITION_CYCLES",
    "CORE14_TRANSITION_CYCLES",
    "CORE15_TRANSITION_CYCLES",
    "CORE16_TRANSITION_CYCLES",
    "CORE17_TRANSITION_CYCLES",
    "CORE1_TRANSITION_CYCLES",
    "CORE2_TRANSITION_CYCLES",
    "CORE3_TRANSITION_CYCLES",
    "CORE4_TRANSITION_CYCLES",
    "CORE5_TRANSITION_CYCLES",
    "CORE6_TRANSITION_CYCLES",
    "CORE7_TRANSITION_CYCLES",
    "CORE8_TRANSITION_CYCLES",
    "CORE9_TRANSITION_CYCLES",
    "COREO_TRANSITION_CYCLES",
    "COUNTERO_OCCUPANCY",
    "CTO_COUNT",
    "C_HI_AD_CREDITS_EMPTY",
    "C_LO_AD_CREDITS_EMPTY",
    "DCLOCKTICKS",
    "DEMOTIONS_CORE0",
    "DEMOTIONS_CORE1",
    "DEMOTIONS_CORE10",
    "DEMOTIONS_CORE11",
    "DEMOTIONS_CORE12",
    "DEMOTIONS_CORE13",
    "DEMOTIONS_CORE14",
    "DEMOTIONS_CORE15",
    "DEMOTIONS_CORE16",
    "DEMOTIONS_CORE17",
    "DEMOTIONS_CORE2",
    "DEMOTIONS_CORE3",
    "DEMOTIONS_CORE4",
    "DEMOTIONS_CORE5",
    "DEMOTIONS_CORE6",
    "DEMOTIONS_CORE7",
    "DEMOTIONS_CORE8",
    "DEMOTIONS_CORE9",
    "DIRECT2CORE",
    "DIRECT2CORE_COUNT",
    "DIRECT2CORE_CYCLES_DISABLED",
    "DIRECT2CORE_TXN_OVERRIDE",
    "DIRECTORY_LAT_OPT",
    "DIRECTORY_LOOKUP",
    "DIRECTORY_UPDATE",
    "DRAM_PRE_ALL",
    "DRAM_REFRESH",
    "ECC_CORRECTABLE_ERRORS",
    "EVENT_MSG",
    "FAST_ASSERTED",
    "FREQ_BAND0_CYCLES",
    "FREQ_BAND1_CYCLES",
    "FREQ_BAND2_CYCLES",
    "FREQ_BAND3_CYCLES",
    "FREQ_MAX_OS_CYCLES",
    "FREQ_MAX_POWER_CYCLES",
    "FREQ_MIN_IO_P_CYCLES",
    "FREQ_TRANS_CYCLES",
    "HA_R2_BL_CREDITS_EMPTY",
    "HITME_HIT",
    "HITME_HIT_PV_BITS_SET",
    "HITME_LOOKUP",
    "IGR_NO_CREDIT_CYCLES",
    "IIO_CREDIT",
    "IMC_READS",
    "IMC_RETRY",
    "IMC_WRITES",
    "L1_POWER_CYCLES",
    "LLC_LOOKUP",
    "LLC_VICTIMS",
    "MAJOR_MODES",
    "MISC",
    "MISC0",
    "MISC1",
    "OSB_EDR",
    "PHOLD_CYCLES",
    "PKG_RESIDENCY_C0_CYCLES",
    "PKG_RESIDENCY_C1E_CYCLES",
    "PKG_RESIDENCY_C2E_CYCLES",
    "PKG_RESIDENCY_C3_CYCLES",
    "PKG_RESIDENCY_C6_CYCLES",
    "PKG_RESIDENCY_C7_CYCLES",
    "POWER_CHANNEL_DLLOFF",
    "POWER_CHANNEL_PPD",
    "POWER_CKE_CYCLES",
    "POWER_PCU_THROTTLING",
    "POWER_SELF_REFRESH",
    "POWER_STATE_OCCUPANCY",
    "POWER_THROTTLE_CYCLES",
    "PREEMPTION",
    "PRE_COUNT",
    "PROCHOT_EXTERNAL_CYCLES",
    "PROCHOT_INTERNAL_CYCLES",
    "QPI0_BL_CREDITS_EMPTY",
    "QPI1_AD_CREDITS_EMPTY",
    "QPI1_BL_CREDITS_EMPTY",
    "QPIO_AD_CREDITS_EMPTY",
    "QPI_RATE_STATUS",
    "RACU_REQUESTS",
    "RD_CAS_PRIO",
    "RD_CAS_RANK0",
    "RD_CAS_RANK1",
    "RD_CAS_RANK2",
    "RD_CAS_RANK4",
    "RD_CAS_RANK5",
    "RD_CAS_RANK6",
    "RD_CAS_RANK7",
    "REQUESTS",
    "RING_AD_USED",
    "RING_AK_BOUNCES",
    "RING_AK_USED",
    "RING_BL_USED",
    "RING_BOUNCES",
    "RING_IV_USED",
    "RING_SINK_STARVED",
    "RING_SRC_THRTL",
    "RPQ_CYCLES_NE",
    "RPQ_CYCLES_NO_REG_CREDITS",
    "RPQ_INSERTS",
    "SBO0_CREDITS_ACQUIRED",
    "SBO0_CREDIT_OCCUPANCY",
    "SBO1_CREDITS_ACQUIRED",
    "SBO1_CREDIT_OCCUPANCY",
    "SBO_CREDITS_ACQUIRED",
    "SBO_CREDIT_OCCUPANCY",
    "SNOOPS_RSP_AFTER_DATA",
    "SNOOP_CYCLES_NE",
    "SNOOP_OCCUPANCY",
    "SNOOP_RESP",
    "SNP_RESP_RECV_LOCAL",
    "STALL_NO_SBO_CREDIT",
    "TAD_REQUESTS_G0",
    "TAD_REQUESTS_G1",
    "TOR_INSERTS",
    "TOR_OCCUPANCY",
    "TOTAL_TRANSITION_CYCLES",
    "TRACKER_CYCLES_FULL",
    "TRACKER_CYCLES_NE",
    "TRACKER_OCCUPANCY",
    "TRACKER_PENDING_OCCUPANCY",
    "TRANSACTIONS",
    "VMSE_MXB_WR_OCCUPANCY",
    "VMSE_WR_PUSH",
    "VN0_CREDITS_REJECT",
    "VN0_CREDITS_USED",
    "VN1_CREDITS_REJECT",
    "VN1_CREDITS_USED",
    "VNA_CREDITS_ACQUIRED",
    "VNA_CREDITS_REJECT",
    "VNA_CREDIT_RETURNS",
    "VNA_CREDIT_RETURN_OCCUPANCY",
    "VR_HOT_CYCLES",
    "WMM_TO_RMM",
    "WPQ_CYCLES_FULL",
    "WPQ_CYCLES_NE",
    "WPQ_CYCLES_NO_REG_CREDITS",
    "WPQ_READ_HIT",
    "WPQ_WRITE_HIT",
    "WRONG_MM",
    "WR_CAS_RANK0",
    "WR_CAS_RANK1",
    "WR_CAS_RANK2",
    "WR_CAS_RANK3",
    "WR_CAS_RANK4",
    "WR_CAS_RANK5",
    "WR_CAS_RANK6",
    "WR_CAS_RANK7",
};

static const char *src_dir(char *buf, size_t len)
{
	const char *src = getenv("SRCDIR");
	if (src && src[0]) {
		snprintf(buf, len, "%s/src/sim", src);
		return buf;
	}
	const char *me = __FILE__;
	const char *cut = strstr(me, "tests/unit/sim/");
	snprintf(buf, len, "%.*ssrc/sim", cut ? (int)(cut - me) : 0, me);
	return buf;
}

/* Blank out comments, keep code and string literals. */
static void strip_comments(char *s)
{
	for (char *p = s; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			char *end = strstr(p + 2, "*/");
			char *stop = end ? end + 2 : p + strlen(p);
			for (; p < stop; p++)
				if (*p != '\n')
					*p = ' ';
			p--;
		} else if (p[0] == '/' && p[1] == '/') {
			for (; *p && *p != '\n'; p++)
				*p = ' ';
			if (!*p)
				break;
		} else if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				break;
		}
	}
}

static int check_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		HARNESS_FAIL_AT("cannot read %s", path);
		return 0;
	}
	static char text[1 << 20];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	strip_comments(text);
	int words = 0;
	for (char *p = text; *p;) {
		if (!(isalnum((unsigned char)*p) || *p == '_')) {
			p++;
			continue;
		}
		char *w = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		char save = *p;
		*p = '\0';
		words++;
		for (size_t i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
			if (!strcmp(w, event_names[i]))
				HARNESS_FAIL_AT("%s uses the event name %s", path, w);
		*p = save;
	}
	return words;
}

TEST(no_event_names_in_simulator_code)
{
	char dir[1024];
	src_dir(dir, sizeof(dir));
	DIR *d = opendir(dir);
	CHECK(d != NULL);
	int files = 0, words = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 3 ||
		    (strcmp(e->d_name + len - 2, ".c") && strcmp(e->d_name + len - 2, ".h")))
			continue;
		char path[1400];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		words += check_file(path);
		files++;
	}
	if (d)
		closedir(d);
	CHECK(files >= 10);
	CHECK(words > 5000);
	CHECK_EQ_INT((int)(sizeof(event_names) / sizeof(event_names[0])), 182);
}

TEST(any_event_code_counts_from_the_scenario)
{
	/* Event 0xa7 with umask bit 0x40 in an R3QPI link: in no table, yet it
	 * counts as soon as a scenario feeds it, with exactly the selection and
	 * threshold rules of every other event. */
	struct uncore_sim *sim =
	    sim_new("e5-2699v3-2s", "stream r3qpi[1] ev=0xa7 umask=0x40 pattern=0,2,3\n"
				    "stream r3qpi[1] ev=0xa7 umask=0x01 inc=1\n");
	struct uncore_regio *io = uncore_sim_regio(sim);
	const struct uncore_reg ctl = pci_reg(0x7f, 11, 2, 0xd8), ctl1 = pci_reg(0x7f, 11, 2, 0xdc);
	WR(io, ctl, HSWEP_PMON_CTL_EN | 0x40 << 8 | 0xa7);
	WR(io, ctl, HSWEP_PMON_CTL_EN | 0x40 << 8 | 0xa7);
	WR(io, ctl1, HSWEP_PMON_CTL_EN | UINT64_C(2) << 24 | 0x41 << 8 | 0xa7);
	WR(io, ctl1, HSWEP_PMON_CTL_EN | UINT64_C(2) << 24 | 0x41 << 8 | 0xa7);
	uncore_sim_advance(sim, 12); /* 30 UCLK: 10 periods */
	int rc;
	CHECK_EQ_U64(rd_pci_ctr(io, pci_reg(0x7f, 11, 2, 0xa0), &rc), 50);
	/* sums 1,3,4: >= 2 on two cycles of three */
	CHECK_EQ_U64(rd_pci_ctr(io, pci_reg(0x7f, 11, 2, 0xa8), &rc), 20);
	uncore_sim_close(sim);
}

int main(void)
{
	RUN(no_event_names_in_simulator_code);
	RUN(any_event_code_counts_from_the_scenario);
	return harness_done();
}
