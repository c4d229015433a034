#!/usr/bin/env python3
"""Where the event loops allocate: the jdk.ObjectAllocationSample events of mclb-loop-* threads in
JFR recordings (e.g. relay-cost.sh's $OUT/NAME-ROUND.jfr), summed by class and top frames, largest
first. The weights are JFR's estimate of the bytes each sample stands for.

  perf/bench/alloc-top.py [--frames N] [--top N] FILE.jfr...
"""
import argparse
import collections
import json
import subprocess
import sys


def samples(path):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "16", "--events", "jdk.ObjectAllocationSample", path],
                         check=True, capture_output=True, text=True).stdout
    for e in json.loads(out)["recording"]["events"]:
        v = e["values"]
        thread = (v.get("eventThread") or {}).get("javaName") or ""
        if thread.startswith("mclb-loop"):
            yield v


def frame(f):
    m = f["method"]
    return "%s.%s:%s" % (m["type"]["name"].rsplit(".", 1)[-1], m["name"], f.get("lineNumber"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    weight = collections.Counter()
    total = 0
    for path in a.files:
        for v in samples(path):
            frames = (v.get("stackTrace") or {}).get("frames") or []
            key = v["objectClass"]["name"].replace("/", ".") + " <- " + " <- ".join(frame(f) for f in frames[:a.frames])
            weight[key] += v["weight"]
            total += v["weight"]
    for key, w in weight.most_common(a.top):
        print("%5.1f%%  %s" % (100.0 * w / total if total else 0, key))
    print("total sampled weight: %d bytes over %d file(s)" % (total, len(a.files)))


if __name__ == "__main__":
    sys.exit(main())
