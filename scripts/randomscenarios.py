#!/usr/bin/env python3
"""Random fabric scenarios, run one after another: a prober for faults.

    scripts/randomscenarios.py SEED COUNT BINARY [--out DIR] [--ooo-reads] [--mmu] [--more]

Draws COUNT scenarios from SEED (scenario i of a seed is always the same
one): a small leaf-spine, fat tree or two-plane rail fabric, sometimes
with long host cables or one degraded uplink; a congestion control;
lossless (PFC), lossy or trimming switches with one of the load-balancing
modes; the NIC's paths, MTU, recovery, stack and, at times, out-of-order
reads, timeout, retry count and reorder buffer; an incast, permutation,
all-to-all, all-reduce, background mix or a trace of writes, sends and
reads. Each is written to DIR/NNNN/s.yaml (a trace beside it), run with
`BINARY run --json DIR/NNNN/r.json` under a 20 ms limit, and reported on
a line: "ok" when every flow completed, "P" when they did but the
packets placed (data_packets_delivered) are not every packet of every
flow once, "F" with the flows done, failed
and the time reached when not, "R" with the error when the scenario is
refused (the generator does not avoid every combination the scenario
checks refuse). A summary ends the output. --ooo-reads sets
nic.ooo_reads and makes every generated workload's operation a read.
--mmu also draws each lossy scenario's switch.alpha and
switch.queue_reserve_bytes, from a generator of their own, so the rest
of scenario i is the one it is without the flag. --more draws, from a
generator of its own too, the keys the others leave at their defaults:
the switches' port mode, parallel spine links, cut-through bytes, trim
bytes (some short of the PSN), ECN off, the NICs' reorder tolerance and
HPCC base RTT, the incast's receiver and the workload's start.

A failure is a lead, not a verdict: some settings fail QPs by design
(retry_count 1, a 50 us timeout under deep queues), and some classes are
known (docs/experiments.md and the issues' notes). Re-run a scenario with
`BINARY run DIR/NNNN/s.yaml` and trace a flow with --trace.
"""
import argparse
import json
import os
import random
import subprocess

ap = argparse.ArgumentParser(description="run random fabric scenarios")
ap.add_argument("seed", type=int)
ap.add_argument("count", type=int)
ap.add_argument("binary")
ap.add_argument("--out", help="directory for the scenarios and results (default: /tmp/randomscenarios/SEED)")
ap.add_argument("--ooo-reads", action="store_true", help="out-of-order reads, and reads for every generated workload")
ap.add_argument("--mmu", action="store_true", help="draw the lossy switches' alpha and queue reserve too")
ap.add_argument("--more", action="store_true", help="draw the keys the other draws leave at their defaults")
args = ap.parse_args()
out = args.out or f"/tmp/randomscenarios/{args.seed}"
os.makedirs(out, exist_ok=True)
CCS = ["dcqcn", "dcqcn-fw", "hpcc", "timely", "swift", "eqds", "nscc"]
summary = {"ok": 0, "refused": 0, "bad": 0}
for i in range(args.count):
    r = random.Random(args.seed * 100003 + i)
    topo = {"kind": "leafspine", "leaves": r.choice([2, 3, 4]), "spines": r.choice([1, 2, 4]),
            "hosts_per_leaf": r.choice([2, 4, 8])}
    if r.random() < 0.15:
        topo = {"kind": "fattree", "k": 4}
    if r.random() < 0.2:
        topo["host_cable_mm"] = r.choice([1000, 100000])
    if topo["kind"] == "leafspine" and r.random() < 0.25:
        topo["degraded_uplink"] = f"0/{topo['hosts_per_leaf']}/{r.choice([1, 2, 3])}"
    elif topo["kind"] == "leafspine" and r.random() < 0.15:
        topo["kind"] = "rails"
        topo["rails"] = 2
    # the endpoints a workload spans: a rail fabric's run within each plane
    hosts = topo["leaves"] * topo["hosts_per_leaf"] if topo["kind"] in ("leafspine", "rails") else 16
    cc = r.choice(CCS)
    lossless = r.random() < 0.5
    sw = {"lb": r.choice(["perflow", "spray", "roundrobin", "random", "dlb"])}
    if lossless:
        sw["pfc_classes"] = [0]
    else:
        sw["trimming"] = r.random() < 0.4
        if r.random() < 0.5:
            sw["buffer_bytes"] = r.choice([500_000, 1_000_000, 2_000_000, 8_000_000])
    if args.mmu and not lossless:
        m = random.Random(f"mmu-{args.seed}-{i}")
        sw["alpha"] = m.choice([1 / 16, 1 / 4, 1, 4, 16])
        sw["queue_reserve_bytes"] = m.choice([0, 4096, 20000])
    if cc in ("dcqcn", "dcqcn-fw", "nscc") or r.random() < 0.3:
        sw["ecn"] = {"kmin_bytes": r.choice([20000, 100000]), "kmax_bytes": 400000, "pmax": 0.2}
    if cc == "hpcc":
        sw["lb"] = "perflow"
    nic = {"cc": cc, "paths": "fixed" if cc == "hpcc" else r.choice(["fixed", "spray", "pathaware"]),
           "mtu": r.choice([1024, 4096]), "recovery": r.choice(["sr", "sr", "gbn"]),
           "stack": r.choice(["roce-ipv4", "roce-ipv6", "uet"])}
    if r.random() < 0.4 or args.ooo_reads:
        nic["ooo_reads"] = True
    if r.random() < 0.2:
        nic["rto_us"] = r.choice([50, 200, 1000])
    if r.random() < 0.2:
        nic["retry_count"] = r.choice([1, 3, 7])
    if r.random() < 0.2:
        nic["reorder_packets"] = r.choice([4, 16, 64])
    kind = r.choice(["incast", "incast", "permutation", "alltoall", "ring_allreduce", "hd_allreduce", "csv", "background"])
    bytes_ = r.choice([4096, 65536, 262144, 1048576, 4194304])
    wl = {"kind": kind}
    files = {}
    if topo["kind"] == "rails" and kind == "csv":
        kind = "permutation"
        wl["kind"] = kind
    if kind == "background":
        wl["load"] = r.choice([0.3, 0.6, 0.9])
        wl["duration_us"] = 200
        wl["size_cdf"] = [{"bytes": 1000, "p": 0.5}, {"bytes": 100000, "p": 0.9}, {"bytes": 3000000, "p": 1}]
        wl["op"] = r.choice(["write", "send", "read"])
    elif kind == "csv":
        lines = ["src,dst,bytes,start_ns,op"]
        for _ in range(r.randint(4, 60)):
            s, d = r.sample(range(hosts), 2)
            lines.append(f"{s},{d},{r.choice([100, 4096, 9000, 65536, 300000, 1048576])},{r.randint(0, 50000)},{r.choice(['write', 'send', 'read'])}")
        files["t.csv"] = "\n".join(lines) + "\n"
        wl["file"] = "t.csv"
    else:
        wl["bytes"] = bytes_
        wl["op"] = "read" if args.ooo_reads else r.choice(["write", "send", "read"])
        if kind == "hd_allreduce":
            wl["ranks"] = 1 << (hosts.bit_length() - 1)
        if kind == "incast":
            wl["senders"] = min(hosts - 1, r.choice([4, 8, 15]))
    sc = {"name": f"p{args.seed}-{i}", "seed": r.randint(1, 1000), "max_time_us": 20000,
          "topology": topo, "switch": sw, "nic": nic, "workload": wl}
    more = ""
    if args.more:
        m = random.Random(f"more-{args.seed}-{i}")
        if topo["kind"] in ("leafspine", "rails") and m.random() < 0.3:
            # a degraded uplink names up to 3 failed lanes: 800G ports have 8
            topo["port_mode"] = "64x800G" if "degraded_uplink" in topo else m.choice(["64x800G", "256x200G"])
        if topo["kind"] == "leafspine" and "degraded_uplink" not in topo and m.random() < 0.2:
            topo["links_per_spine"] = 2
        if m.random() < 0.3:
            sw["cut_through_bytes"] = m.choice([0, 64])
        if sw.get("trimming") and m.random() < 0.4:
            sw["trim_bytes"] = m.choice([40, 54, 64, 74, 128])
        if m.random() < 0.15:
            sw.setdefault("ecn", {})["off"] = True
        if m.random() < 0.4:
            nic["reorder_tolerance"] = m.choice([1, 8, 64])
        if cc == "hpcc" and m.random() < 0.5:
            nic["hpcc_base_rtt_us"] = m.choice([2, 20])
        if kind == "incast" and m.random() < 0.5:
            wl["receiver"] = m.randrange(hosts)
        if kind != "csv" and m.random() < 0.3:
            wl["start_us"] = m.choice([5, 100])
        more = ",more"
    d = os.path.join(out, f"{i:04d}")
    os.makedirs(d, exist_ok=True)
    for k, v in files.items():
        open(os.path.join(d, k), "w").write(v)
    path = os.path.join(d, "s.yaml")
    if os.path.exists(os.path.join(d, "r.json")):
        os.remove(os.path.join(d, "r.json"))  # a result of an earlier run
    # YAML is a superset of JSON
    open(path, "w").write(json.dumps(sc, indent=1) + "\n")
    p = subprocess.run([args.binary, "run", "--json", os.path.join(d, "r.json"), path],
                       capture_output=True, text=True, timeout=900)
    mmu = f",alpha={sw['alpha']:g},resv={sw['queue_reserve_bytes']}" if "alpha" in sw else ""
    tag = f"{cc},{'lossless' if lossless else ('trim' if sw.get('trimming') else 'lossy')}{mmu}{more},lb={sw['lb']},paths={nic['paths']},{nic['recovery']},{nic['stack']},{kind},op={wl.get('op','mix')},ooo={nic.get('ooo_reads',False)}"
    if p.returncode != 0 and not os.path.exists(os.path.join(d, "r.json")):
        summary["refused"] += 1
        err = (p.stderr.strip().splitlines() or ["?"])[-1]
        print(f"R {i:04d} {tag} :: {err[:160]}", flush=True)
        continue
    res = json.load(open(os.path.join(d, "r.json")))
    failed = len(res.get("failed_flows") or [])
    # a run whose flows all completed placed every packet of every flow
    # once: the results' data_packets_delivered (the NICs' rx_placed)
    mtu = nic["mtu"]
    packets = sum(max(1, -(-f["bytes"] // mtu)) for f in res["per_flow"])
    if res["completed"] == res["flows"] and res["data_packets_delivered"] != packets:
        summary["bad"] += 1
        print(f"P {i:04d} {tag} placed={res['data_packets_delivered']} packets={packets}", flush=True)
    elif res["completed"] == res["flows"]:
        summary["ok"] += 1
        print(f"ok {i:04d} {tag} flows={res['flows']} t={res['sim_time_ns']/1000:.1f}us", flush=True)
    else:
        summary["bad"] += 1
        print(f"F {i:04d} {tag} done={res['completed']}/{res['flows']} failed={failed} t={res['sim_time_ns']/1000:.1f}us", flush=True)
print(summary)
