#!/bin/bash
# ha-replication.sh: binding replication at scale (issue 13 "Measure"), then takeover and
# follow-ups lost across alternating kill -9s of the active node.
#
#   1. io.mclb.perf.ha.BindingReplicationBenchmark SESSIONS RATE DUR WARM: an active binding table of
#      SESSIONS GTP-like sessions replicated to a standby over loopback TCP in one JVM: bulk resync
#      time, then RATE creates/s (each with a delete and a follow-up) for DUR s: lag p50/p99/max and
#      the standby replication thread's CPU.
#   2. (KILLS > 0, needs root and network namespaces) HaFailoverInteropIT with
#      -Dha.failover.runs=KILLS-1: takeover times over KILLS alternating kill -9s under GTP load.
#      (The follow-ups-lost count needs HaBindingTakeoverInteropIT, commit b5c2ca6, not on the
#      branch yet: see perf/README.md.)
#
# Environment knobs [defaults]:
#   SESSIONS [1000000]  RATE [5000]  DUR [20]  WARM [3]  KILLS [0]  OUT [/tmp/ha-replication-<timestamp>]
# The machine is shared: quote the load average printed with the figures.
set -u
set -o pipefail

ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "run me inside the mclb repository" >&2; exit 2; }
cd "$ROOT" || exit 2
SESSIONS=${SESSIONS:-1000000}
RATE=${RATE:-5000}
DUR=${DUR:-20}
WARM=${WARM:-3}
KILLS=${KILLS:-0}
OUT=${OUT:-/tmp/ha-replication-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"

FLAGS=$(sed -n 's:.*<mclb.jvm.flags>\(.*\)</mclb.jvm.flags>.*:\1:p' pom.xml)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" | tee "$OUT/summary.txt"
mvn -q -B -o -Pbench -pl perf -am package -DskipTests || exit 1
# shellcheck disable=SC2086
java $FLAGS -Xmx3g -cp perf/target/benchmarks.jar io.mclb.perf.ha.BindingReplicationBenchmark \
    "$SESSIONS" "$RATE" "$DUR" "$WARM" 2>"$OUT/bench.log" | tee -a "$OUT/summary.txt"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"

if [ "$KILLS" -gt 0 ]; then
    mvn -B -o -pl deploy -am verify -Pinterop -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
        -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test=HaFailoverInteropIT \
        -Dha.failover.runs=$((KILLS - 1)) >"$OUT/interop.log" 2>&1
    grep -E "HA failover" "$OUT/interop.log" | tee -a "$OUT/summary.txt"
fi
echo "figures in $OUT/summary.txt"
