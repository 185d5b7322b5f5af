#!/usr/bin/env python3
"""Metric files of the Xeon generations counted through the kernel's PMUs
(skx .. srf) from Intel's perfmon metric files.

  gen_perfmon_metrics.py [--check] [--perfmon DIR]

Reads <GEN>/metrics/<name>_metrics.json of ../shared/reference/intel-perfmon
(Intel's perfmon repository at the commit its README names, BSD-3-Clause)
and writes metrics/<gen>.metrics in our notation (src/metrics/README.md),
one metric per Intel metric below, with Intel's formula kept verbatim
(`formula`) and what we evaluate beside it (`fix`), written mechanically:
  * each letter becomes Intel's event of that alias, prefixed with its box
    kind (UNC_M_ -> IMC:, UNC_CHA_ -> CHA:, UNC_UPI_ -> UPI:, UNC_IIO_ ->
    IIO:); a filter Intel writes after the name (SKX/CLX
    "UNC_CHA_TOR_INSERTS.IA_MISS:filter1=0x40433") becomes the unit mask of
    our generated table with that filter value (FILTERED below, checked
    against the table header);
  * an event Intel's event data marks Deprecated (SKX/CLX
    UNC_IIO_PAYLOAD_BYTES_IN.*) becomes the current event of the same
    encoding (EventCode, UMask, PortMask, FCMask), the one our tables have;
  * DURATIONTIMEINSECONDS -> (TOTAL_INTERVAL / (TSC_SPEED * 1000000)),
    SOCKET_COUNT -> SOCKETS, CHAS_PER_SOCKET and CORES_PER_SOCKET (one CHA
    a core on SKX/CLX) -> CHAS, the CHAs present per socket;
  * units: Intel's MB/sec (10^6 bytes/s) -> GB/s (/ 1000), GHz -> MHz
    (* 1000), ns unchanged;
  * COUNTING_TIME, ours (not in Intel's file): the set's counting time in
    ns, the time base of interval tools, as every platform has it.
--check compares the committed files with what would be generated.
"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
COMMIT = "6dadedf3aa483393943e044ba5ec88a4507cd040"

GENERATIONS = {
    "skx": ("SKX", "skylakex_metrics.json", "Xeon Scalable (Skylake-SP)"),
    "clx": ("CLX", "cascadelakex_metrics.json", "2nd gen Xeon Scalable (Cascade Lake)"),
    "icx": ("ICX", "icelakex_metrics.json", "3rd gen Xeon Scalable (Ice Lake-SP)"),
    "spr": ("SPR", "sapphirerapids_metrics.json", "4th gen Xeon Scalable (Sapphire Rapids)"),
    "emr": ("EMR", "emeraldrapids_metrics.json", "5th gen Xeon Scalable (Emerald Rapids)"),
    "gnr": ("GNR", "graniterapids_metrics.json", "Xeon 6 P-core (Granite Rapids)"),
    "srf": ("SRF", "sierraforest_metrics.json", "Xeon 6 E-core (Sierra Forest)"),
}

# our name, Intel's metric names (the first the file has), group
METRICS = [
    ("DRAM_READ_BW", ["memory_bandwidth_read"], "MEM"),
    ("DRAM_WRITE_BW", ["memory_bandwidth_write"], "MEM"),
    ("LLC_MISS_LATENCY", ["llc_demand_data_read_miss_latency",
                          "llc_data_read_demand_plus_prefetch_miss_latency"], "LLC"),
    ("UPI_DATA_BW", ["upi_data_transmit_bw"], "UPI"),
    ("IO_READ_BW", ["io_bandwidth_read"], "IO"),
    ("IO_WRITE_BW", ["io_bandwidth_write"], "IO"),
    ("UNCORE_FREQ", ["uncore_frequency"], "POWER"),
]

GROUPS = [
    ("MEM", "DRAM bandwidth per socket and node (Intel's memory_bandwidth metrics)"),
    ("LLC", "Last-level cache: demand data read miss latency (Intel's metric)"),
    ("UPI", "UPI links: data bandwidth transmitted (Intel's upi_data_transmit_bw)"),
    ("IO", "PCIe and IO bandwidth through the CHAs or IIO (Intel's io_bandwidth metrics)"),
    ("POWER", "Uncore (mesh) frequency (Intel's uncore_frequency)"),
]

BOX_OF_PREFIX = [("UNC_M_", "IMC"), ("UNC_CHA_", "CHA"), ("UNC_UPI_", "UPI"), ("UNC_IIO_", "IIO")]

# Intel's filtered spellings (SKX/CLX CHA FILTER1 values) -> our table's unit
# mask that carries the same filter value (libpfm4-events/events/perfmon).
FILTERED = {
    "UNC_CHA_TOR_OCCUPANCY.IA_MISS:filter1=0x40433": "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD",
    "UNC_CHA_TOR_INSERTS.IA_MISS:filter1=0x40433": "UNC_CHA_TOR_INSERTS.IA_MISS_DRD",
}

CONSTANTS = {"SOCKET_COUNT": "SOCKETS", "CHAS_PER_SOCKET": "CHAS", "CORES_PER_SOCKET": "CHAS"}
DURATION = "(TOTAL_INTERVAL / (TSC_SPEED * 1000000))"
UNITS = {"MB/sec": ("GB/s", " / 1000"), "GHz": ("MHz", " * 1000"), "ns": ("ns", "")}


def check_filtered(gen, ours, intel):
    """Our unit mask must carry Intel's filter value in the table."""
    ev, um = ours.split(".", 1)
    value = intel.split("filter1=")[1]
    path = os.path.join(ROOT, "libpfm4-events", "events", "perfmon",
                        "intel_%s_unc_cha_events.h" % gen)
    text = open(path).read()
    arr = "%s_unc_cha_%s" % (gen, ev.lower())
    m = re.search(r"%s\[\] = \{(.*?)\n\};" % re.escape(arr), text, re.S)
    row = m and re.search(r'\.uname  = "%s",(.*?)\}' % re.escape(um), m.group(1), re.S)
    if not row or ("ufilters[1] = %s" % value) not in row.group(1):
        sys.exit("%s: %s has no unit mask %s with FILTER1 %s" % (gen, path, um, value))


def current_names(perfmon, d):
    """Deprecated event name -> the current one of the same encoding."""
    rows = []
    for f in sorted(glob.glob(os.path.join(perfmon, d, "events", "*_uncore*.json"))):
        data = json.load(open(f))
        rows += data["Events"] if isinstance(data, dict) else data
    def key(e):
        return tuple(int(str(e.get(k) or "0"), 16) for k in ("EventCode", "UMask", "PortMask", "FCMask"))
    current = {key(e): e["EventName"] for e in rows if str(e.get("Deprecated", "0")) != "1"}
    return {e["EventName"]: current[key(e)] for e in rows
            if str(e.get("Deprecated", "0")) == "1" and key(e) in current}


RENAMED = {}


def event_ref(gen, name):
    name = RENAMED.get(name, name)
    if ":" in name:
        if name not in FILTERED:
            sys.exit("%s: no table unit mask known for Intel's %s" % (gen, name))
        check_filtered(gen, FILTERED[name], name)
        name = FILTERED[name]
    for prefix, box in BOX_OF_PREFIX:
        if name.startswith(prefix):
            return "%s:%s" % (box, name)
    sys.exit("%s: no box kind for %s" % (gen, name))


def translate(gen, m):
    subst = {}
    for e in m["Events"]:
        subst[e["Alias"]] = event_ref(gen, e["Name"])
    for c in m.get("Constants", []):
        if c["Name"] not in CONSTANTS:
            sys.exit("%s %s: constant %s" % (gen, m["MetricName"], c["Name"]))
        subst[c["Alias"]] = CONSTANTS[c["Name"]]
    def word(mo):
        w = mo.group(0)
        if w in subst:
            return subst[w]
        if w == "DURATIONTIMEINSECONDS":
            return DURATION
        if re.fullmatch(r"[0-9.]+", w):
            return w
        sys.exit("%s %s: unknown name %s" % (gen, m["MetricName"], w))
    expr = re.sub(r"[A-Za-z_][A-Za-z_0-9]*|[0-9.]+", word, m["Formula"])
    unit, conv = UNITS[m["UnitOfMeasure"]]
    return "(%s)%s" % (" ".join(expr.split()), conv), unit


def generate(gen, perfmon):
    d, fname, title = GENERATIONS[gen]
    RENAMED.clear()
    RENAMED.update(current_names(perfmon, d))
    data = json.load(open(os.path.join(perfmon, d, "metrics", fname)))
    intel = {m["MetricName"]: m for m in data["Metrics"]}
    out = [
        "# %s derived metrics, GENERATED by metrics/gen_perfmon_metrics.py from Intel's" % title,
        "# perfmon metric file %s/metrics/%s (Intel perfmon commit" % (d, fname),
        "# %s, BSD-3-Clause: libpfm4-events/data/intel-perfmon-LICENSE)." % COMMIT,
        "# formula: Intel's, verbatim (letters are its events' aliases); fix: what we",
        "# evaluate, written from it by the generator's rules; titles are Intel's",
        "# BriefDescription.  GB is 10^9 bytes, as in every metric file here.  Format:",
        "# src/metrics/README.md.  Do not edit: regenerate.",
        "",
        "platform %s" % gen,
        "manual Intel perfmon %s metric" % d,
        "",
        "const GB = 10^9",
        "count CHAS cha",
        "",
    ]
    groups = {g: [] for g, _ in GROUPS}
    for ours, names, group in METRICS:
        m = next((intel[n] for n in names if n in intel), None)
        if not m:
            continue
        fix, unit = translate(gen, m)
        evs = ", ".join("%s = %s%s" % (e["Alias"], e["Name"],
                                     " (deprecated, now %s)" % RENAMED[e["Name"]]
                                     if e["Name"] in RENAMED else "")
                        for e in m["Events"])
        out += [
            "metric %s" % ours,
            "\tbox none",
            "\tsection %s" % m["MetricName"],
            "\ttitle %s" % m["BriefDescription"].rstrip("."),
            "\tunits %s" % unit,
            "\tformula %s" % " ".join(m["Formula"].split()),
            "\tfix %s" % fix,
            "\tdecision Intel's letters: %s; units %s in Intel's file." % (evs, m["UnitOfMeasure"]),
            "",
        ]
        groups[group].append(ours)
        if ours == "DRAM_WRITE_BW" and "DRAM_READ_BW" in groups["MEM"]:
            out += [
                "metric DRAM_BW",
                "\tbox none",
                "\tsection memory_bandwidth_read + memory_bandwidth_write",
                "\ttitle DRAM bandwidth, reads and writes (every memory channel)",
                "\tunits GB/s",
                "\tformula DRAM_READ_BW + DRAM_WRITE_BW",
                "",
            ]
            groups["MEM"].append("DRAM_BW")
    # Ours, as every platform with metrics has it (src/metrics/README.md,
    # "What a read returns"): interval tools (uncore-stat) divide counts by
    # the time the same reads took them at, the clock every rate here uses.
    out += [
        "metric COUNTING_TIME",
        "\tbox none",
        "\tsection ours",
        "\ttitle time counted since start or reset, read with the counts (the time every rate "
        "of the event set divides by): an interval tool's time base",
        "\tunits ns (counting time)",
        "\tformula TOTAL_INTERVAL / TSC_SPEED * 1000",
        "\tdecision ours, not Intel's: TOTAL_INTERVAL (TSC ticks of the interval) in ns, so that "
        "a tool that differences counts has the time of the same reads (src/metrics/README.md, "
        "\"What a read returns\")",
        "",
    ]
    for g, t in GROUPS:
        if not groups[g]:
            continue
        out.append("group %s %s" % (g, t))
        out += ["\tmember %s_metric::%s" % (gen, n) for n in groups[g]]
        out.append("")
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    perfmon = os.path.join(ROOT, "..", "shared", "reference", "intel-perfmon")
    if "--perfmon" in args:
        perfmon = args[args.index("--perfmon") + 1]
    bad = 0
    for gen in GENERATIONS:
        text = generate(gen, perfmon)
        path = os.path.join(ROOT, "metrics", "%s.metrics" % gen)
        if check:
            old = open(path).read() if os.path.exists(path) else ""
            if old != text:
                print("differs: %s" % path)
                bad += 1
        else:
            open(path, "w").write(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
