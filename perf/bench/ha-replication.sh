#!/bin/bash
# ha-replication.sh: binding replication at scale (issue 13 "Measure"), then takeover and
# follow-ups lost across alternating kill -9s of the active node.
#
#   1. io.mclb.perf.ha.BindingReplicationBenchmark SESSIONS RATE DUR WARM: an active binding table of
#      SESSIONS GTP-like sessions replicated to a standby over loopback TCP in one JVM: bulk resync
#      time, then RATE creates/s (each with a delete and a follow-up) for DUR s: lag p50/p99/max and
#      the standby replication thread's CPU.
#   2. (KILLS > 0, needs root and network namespaces) HaBindingTakeoverInteropIT with
#      -Dha.takeover.kills=KILLS: KILLS alternating kill -9s of the active under GTPv1/v2 load
#      (plain and 'gtp signalling vip' vservers): per kill the takeover time, the per-GGSN session
#      counts of the old and the new active, and the follow-ups lost.
#
# Environment knobs [defaults]:
#   SESSIONS [1000000]  RATE [5000]  DUR [20]  WARM [10]  KILLS [0]  OUT [/tmp/ha-replication-<timestamp>]
#   TAKEOVER_SESSIONS [1000] TAKEOVER_RATE [500]: per client of the kill test (two clients)
# The machine is shared: quote the load average printed with the figures.
set -u
set -o pipefail

ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "run me inside the mclb repository" >&2; exit 2; }
cd "$ROOT" || exit 2
SESSIONS=${SESSIONS:-1000000}
RATE=${RATE:-5000}
DUR=${DUR:-20}
WARM=${WARM:-10}
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
    echo "load average before the kills: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"
    mvn -B -o -pl deploy -am verify -Pinterop -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
        -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test=HaBindingTakeoverInteropIT \
        -Dha.takeover.kills="$KILLS" -Dha.takeover.sessions="${TAKEOVER_SESSIONS:-1000}" \
        -Dha.takeover.rate="${TAKEOVER_RATE:-500}" >"$OUT/interop.log" 2>&1
    grep -E "HA binding takeover(,| over)|Tests run:" "$OUT/interop.log" | tee -a "$OUT/summary.txt"
    echo "load average after the kills: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/summary.txt"
fi
echo "figures in $OUT/summary.txt"
