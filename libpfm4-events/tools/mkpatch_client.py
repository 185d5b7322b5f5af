#!/usr/bin/env python3
"""Write patches/20-register-client-pmus.patch: registers papi-uncore's
client-uncore PMUs (Skylake client, Nehalem guide events, Xeon 7100/7400 L3)
in a pristine libpfm4 4.12.1 tree.

    mkpatch_client.py PRISTINE_LIBPFM4 [--check]

The patch adds the PMU ids at the end of pfm_pmu_t (before PFM_PMU_MAX), the
pfmlib_pmu_t declarations and pfmlib_pmus[] entries, and our glue sources to
lib/Makefile.  It is produced with diff -u from the pristine files, so it
applies with patch -p1 (scripts/apply-libpfm4-events.sh).
"""
import os
import subprocess
import sys
import tempfile

import gen_wsm
import pfmgen as g

# PMU symbol (pfmlib_pmu_t) and id, in registration order
PMUS = [
    ("intel_nhm_unc_iu_support", "PFM_PMU_INTEL_NHM_UNC_IU", "Intel Nehalem uncore, guide events (papi-uncore)"),
    ("intel_skl_unc_iu_cbo0_support", "PFM_PMU_INTEL_SKL_UNC_IU_CBO0", "Intel Skylake client C-Box 0 uncore (papi-uncore)"),
    ("intel_skl_unc_iu_cbo1_support", "PFM_PMU_INTEL_SKL_UNC_IU_CBO1", "Intel Skylake client C-Box 1 uncore (papi-uncore)"),
    ("intel_skl_unc_iu_cbo2_support", "PFM_PMU_INTEL_SKL_UNC_IU_CBO2", "Intel Skylake client C-Box 2 uncore (papi-uncore)"),
    ("intel_skl_unc_iu_cbo3_support", "PFM_PMU_INTEL_SKL_UNC_IU_CBO3", "Intel Skylake client C-Box 3 uncore (papi-uncore)"),
    ("intel_skl_unc_iu_arb_support", "PFM_PMU_INTEL_SKL_UNC_IU_ARB", "Intel Skylake client ARB uncore (papi-uncore)"),
    ("intel_skl_unc_iu_clock_support", "PFM_PMU_INTEL_SKL_UNC_IU_CLOCK", "Intel Skylake client fixed UCLK counter (papi-uncore)"),
    ("intel_skl_unc_iu_imc_support", "PFM_PMU_INTEL_SKL_UNC_IU_IMC", "Intel Skylake client IMC free-running counters (papi-uncore)"),
    ("intel_x7100_unc_iu_gbsq_support", "PFM_PMU_INTEL_X7100_UNC_IU_GBSQ", "Intel Xeon 7100 L3 GBSQ (papi-uncore)"),
    ("intel_x7100_unc_iu_gsnpq_support", "PFM_PMU_INTEL_X7100_UNC_IU_GSNPQ", "Intel Xeon 7100 L3 GSNPQ (papi-uncore)"),
    ("intel_x7100_unc_iu_fsb_support", "PFM_PMU_INTEL_X7100_UNC_IU_FSB", "Intel Xeon 7100 L3 FSB (papi-uncore)"),
    ("intel_x7400_unc_iu_gbsq_support", "PFM_PMU_INTEL_X7400_UNC_IU_GBSQ", "Intel Xeon 7400 L3 GBSQ (papi-uncore)"),
    ("intel_x7400_unc_iu_gsnpq_support", "PFM_PMU_INTEL_X7400_UNC_IU_GSNPQ", "Intel Xeon 7400 L3 GSNPQ (papi-uncore)"),
    ("intel_x7400_unc_iu_fsb_support", "PFM_PMU_INTEL_X7400_UNC_IU_FSB", "Intel Xeon 7400 L3 FSB (papi-uncore)"),
]
# Nehalem's cousins, one PMU each (gen_wsm.py NHM_COUSINS, the glue's NHM_COUSIN_PMU).
PMUS += [("intel_%s_unc_iu_support" % c["gen"], "PFM_PMU_INTEL_%s_UNC_IU" % c["gen"].upper(),
          "%s, %s (papi-uncore)" % (c["pmu_title"], c["pmu_events"])) for c in gen_wsm.NHM_COUSINS]

GLUE = ["pfmlib_intel_unc_iu.c", "pfmlib_intel_skl_unc_iu.c",
        "pfmlib_intel_nhm_unc_iu.c", "pfmlib_intel_x7400_unc_iu.c"]


def insert_after(text, anchor, new, path):
    if text.count(anchor) != 1:
        raise SystemExit("mkpatch_client: anchor %r not found exactly once in %s" % (anchor, path))
    return text.replace(anchor, anchor + new)


def insert_before(text, anchor, new, path):
    if text.count(anchor) != 1:
        raise SystemExit("mkpatch_client: anchor %r not found exactly once in %s" % (anchor, path))
    return text.replace(anchor, new + anchor)


def edits():
    enum = "".join("\t%s,%s/* %s */\n" % (pid, "\t" if len(pid) >= 32 else "\t\t", d)
                   for _, pid, d in PMUS)
    externs = "".join("extern pfmlib_pmu_t %s;\n" % sym for sym, _, _ in PMUS)
    table = "".join("\t&%s,\n" % sym for sym, _, _ in PMUS)
    srcs = ("\n# papi-uncore client-uncore PMUs (libpfm4-events/lib)\n"
            "SRCS += " + " \\\n\t".join(GLUE) + "\n")
    return {
        "include/perfmon/pfmlib.h": lambda t, p: insert_before(
            t, "\t/* MUST ADD NEW PMU MODELS HERE */\n",
            "\t/* papi-uncore client-uncore PMUs */\n" + enum, p),
        "lib/pfmlib_priv.h": lambda t, p: insert_after(
            t, "extern pfmlib_pmu_t intel_wsm_unc_support;\n", externs, p),
        "lib/pfmlib_common.c": lambda t, p: insert_after(
            t, "\t&intel_wsm_unc_support,\n", table, p),
        "lib/Makefile": lambda t, p: insert_after(
            t, "\tpfmlib_intel_snbep_unc_perf_event.c\nendif\n", srcs, p),
    }


def build(pristine):
    chunks = []
    with tempfile.TemporaryDirectory() as tmp:
        for rel, fn in edits().items():
            old = g.read_text(os.path.join(pristine, rel))
            new = fn(old, rel)
            a = os.path.join(tmp, "a", rel)
            b = os.path.join(tmp, "b", rel)
            for path, text in ((a, old), (b, new)):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            diff = subprocess.run(["diff", "-u", "a/" + rel, "b/" + rel], cwd=tmp,
                                  capture_output=True, text=True)
            if diff.returncode != 1:
                raise SystemExit("mkpatch_client: diff failed for %s" % rel)
            lines = diff.stdout.splitlines(True)
            # stable headers: no temporary paths or timestamps
            lines[0] = "--- a/%s\n" % rel
            lines[1] = "+++ b/%s\n" % rel
            chunks.append("".join(lines))
    head = ("papi-uncore: register the client-uncore PMUs (Skylake client, Nehalem guide\n"
            "events, Westmere SDM events, Xeon 7100/7400 L3) in libpfm4 4.12.1.  Generated by\n"
            "libpfm4-events/tools/mkpatch_client.py; the glue is in libpfm4-events/lib.\n\n")
    return [(os.path.join(g.ROOT, "patches", "20-register-client-pmus.patch"), head + "".join(chunks))]


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    pristine = args[0] if args else "/tmp/papisrc/papi-7.0.0/src/libpfm4"
    sys.exit(g.generator_main(lambda: build(pristine)))
