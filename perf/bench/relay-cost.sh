#!/usr/bin/env bash
# The cost of one relayed request through mclb, per path (SERVICE): CPU time of the mclb process
# (/proc/PID/stat utime+stime) and bytes allocated by its event-loop threads (JFR
# jdk.ThreadAllocationStatistics), each divided by the answers mclb sent in the same window
# (mclb_responses_total from its admin listener), at a fixed open-loop rate (RATE, default 3000/s:
# low enough that a JVM sharing a busy 2-core box keeps up). Variants (builds, transports,
# event-loop counts) run alternately, ROUNDS times, so their ratios come from one sitting.
#
#   SERVICE=plain   udpbench loadgen -> VIP 127.0.0.100:9000 (perf/bench/udp-relay.cfg)
#                   -> udpbench responders 127.0.0.11-13:9001
#   SERVICE=gtp     mclb loadgen gtp (v1 creates over IMSIS [1,000,000] IMSIs) -> VIP 127.0.0.100:2123
#                   (perf/bench/gtp-bench.cfg: gtp-inspect, IMSI sticky) -> mclb sim gtp 127.0.0.2-4.
#                   IMSIS small enough that the warm-up creates every one (e.g. 2000 at RATE 1000)
#                   measures the steady state: each create is a known subscriber re-creating its
#                   session (as after an SGSN restart), the session, sticky and transaction tables full
#   SERVICE=radius  mclb loadgen radius (Access-Requests, 100,000 subscribers) -> VIP 127.0.0.100:1812
#                   (perf/bench/radius-bench.cfg: re-signing, calling-station-id sticky)
#                   -> mclb sim radius 127.0.0.5-7
#   generator and farm on core CLIENT_CPU [0], mclb on cores LB_CPU [1]
#
# VARIANTS: space-separated NAME=LAUNCHER:LOOPS[:TRANSPORT], e.g.
#   "main=/tmp/base/mclb:1 new=./mclb:1 new2=./mclb:2 uring=./mclb:1:io_uring"
# (LAUNCHER is an mclb launcher, run with MCLB_NO_BUILD=1; TRANSPORT is written as 'mclb transport
# T', omitted when empty, so a build without that line runs as auto). The generators and
# simulators are this tree's (./mclb, built). LOAD=closed (plain only) runs a closed loop of
# WINDOW [64] requests instead. Knobs: SERVICE [plain], RATE [3000], LOAD [open], DUR [10], IMSIS,
# WARM [5], ROUNDS [3], LB_CPU, CLIENT_CPU, OUT, UDPBENCH_SRC. One RESULT line per run and a
# table of medians; RESULT lines also go to $OUT/results.txt.
set -u
set -o pipefail
ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "run me inside the mclb repository" >&2; exit 2; }
cd "$ROOT" || exit 2
UDPBENCH_SRC=${UDPBENCH_SRC:-$ROOT/../shared/tools/udpbench}
VARIANTS=${VARIANTS:-new=./mclb:1}
RATE=${RATE:-3000}
LOAD=${LOAD:-open}
WINDOW=${WINDOW:-64}
DUR=${DUR:-10}
WARM=${WARM:-5}
ROUNDS=${ROUNDS:-3}
LB_CPU=${LB_CPU:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
SERVICE=${SERVICE:-plain}
IMSIS=${IMSIS:-1000000}
OUT=${OUT:-/tmp/relay-cost-$SERVICE-$(date +%Y%m%d-%H%M%S)}
case $SERVICE in
  plain) VIP=127.0.0.100:9000; CFG_SRC=perf/bench/udp-relay.cfg; ADMIN=18081 ;;
  gtp) VIP=127.0.0.100:2123; CFG_SRC=perf/bench/gtp-bench.cfg; ADMIN=18082 ;;
  radius) VIP=127.0.0.100:1812; CFG_SRC=perf/bench/radius-bench.cfg; ADMIN=18083 ;;
  *) echo "SERVICE: plain, gtp or radius" >&2; exit 2 ;;
esac
BACKENDS="127.0.0.11:9001 127.0.0.12:9001 127.0.0.13:9001"
LGFLAGS="-f 64 -i 127.0.1.1 -I 64"
HZ=$(getconf CLK_TCK)
mkdir -p "$OUT" || exit 2
RES="$OUT/results.txt"; : >"$RES"
WORK=$(mktemp -d /tmp/relay-cost.XXXXXX) || exit 2
PGIDS=()
stop_group() {
  kill -TERM -- "-$1" 2>/dev/null
  for _ in $(seq 50); do kill -0 -- "-$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$1" 2>/dev/null; wait "$1" 2>/dev/null
}
on_exit() { local g; for g in "${PGIDS[@]}"; do [ -n "$g" ] && stop_group "$g"; done; rm -rf "$WORK"; }
trap on_exit EXIT
trap 'exit 130' INT TERM
start() { local cpu=$1 log=$2; shift 2; setsid taskset -c "$cpu" "$@" >"$log" 2>&1 & LAST=$!; PGIDS+=("$LAST"); }
vip_bound() { ss -Hlun "src $VIP" 2>/dev/null | grep -q .; }
# mclb is up once its admin listener answers: it opens after every virtual server is bound. The VIP
# alone is not enough: mclb first binds and closes a probe socket on it (a second mclb on the same
# VIP is refused), and a check that saw the probe found the VIP free again a moment later
admin_up() { curl -s -o /dev/null --max-time 1 http://127.0.0.1:$ADMIN/metrics; }
field() { echo "$1" | grep -oE "(^| )$2=[^ ]+" | head -1 | cut -d= -f2; }
ticks() { awk '{print $14+$15}' /proc/"$1"/stat; }
# answers mclb sent (its own count: on a busy box some reach the loadgen after its timeout)
answered() { curl -s --max-time 5 http://127.0.0.1:$ADMIN/metrics | awk '/^mclb_responses_total\{/ {s += $2} END {printf "%d", s}'; }

case $SERVICE in
  plain)
    cp -r "$UDPBENCH_SRC" "$WORK/ub" && make -s -C "$WORK/ub" >"$OUT/build.log" 2>&1 || { echo "udpbench build failed" >&2; exit 2; }
    for b in $BACKENDS; do start "$CLIENT_CPU" "$OUT/responder-${b%%:*}.log" "$WORK/ub/responder" -l "$b" -T 3600 -q; done ;;
  gtp) start "$CLIENT_CPU" "$OUT/sim.log" env MCLB_NO_BUILD=1 ./mclb sim gtp -l 127.0.0.2:2123,127.0.0.3:2123,127.0.0.4:2123 --cause-mix 128 ;;
  radius) start "$CLIENT_CPU" "$OUT/sim.log" env MCLB_NO_BUILD=1 ./mclb sim radius -l 127.0.0.5:1812,127.0.0.6:1812,127.0.0.7:1812 \
            --acct-port 1813 --secret aaa-secret ;;
esac
sleep 5 # the simulators' JVM start
FARM=("${PGIDS[@]}")
cat >"$WORK/alloc.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="mclb allocation" description="per-thread allocation and allocation samples only">
  <event name="jdk.ThreadAllocationStatistics"><setting name="enabled">true</setting><setting name="period">1 s</setting></event>
  <event name="jdk.ObjectAllocationSample"><setting name="enabled">true</setting><setting name="throttle">100/s</setting><setting name="stackTrace">true</setting></event>
</configuration>
JFC

loop_bytes() { # JFR file -> bytes allocated by mclb-loop-* threads between the first and last sample
  jfr print --json --events jdk.ThreadAllocationStatistics "$1" | python3 -c '
import json,sys
ev=json.load(sys.stdin)["recording"]["events"]; lo={}; hi={}
for e in ev:
    v=e["values"]; t=(v.get("thread") or {}).get("javaName") or ""
    if not t.startswith("mclb-loop"): continue
    a=v["allocated"]; lo[t]=min(lo.get(t,a),a); hi[t]=max(hi.get(t,a),a)
print(sum(hi[t]-lo[t] for t in hi))'
}

load() { # SECONDS LABEL: one generator run at RATE (or WINDOW), its RESULT line on stdout
  case $SERVICE in
    plain)
      local lf="-r $RATE"
      [ "$LOAD" = closed ] && lf="-w $WINDOW"
      "$WORK/ub/loadgen" -t $VIP $lf $LGFLAGS -d "$1" -W 0 -L "$2" ;;
    gtp) MCLB_NO_BUILD=1 taskset -c "$CLIENT_CPU" ./mclb loadgen gtp -t $VIP --rate "$RATE" --imsis "$IMSIS" --version 1 \
           --flows 8 --duration "$1" 2>/dev/null ;;
    radius) MCLB_NO_BUILD=1 taskset -c "$CLIENT_CPU" ./mclb loadgen radius -t $VIP --secret nas-secret --kind auth \
              --rate "$RATE" --flows 8 --subscribers 100000 --duration "$1" 2>/dev/null ;;
  esac
}

run_variant() { # name launcher loops transport round
  local name=$1 launcher=$2 loops=$3 transport=$4 round=$5 cfg="$WORK/$1.cfg" pid t0 t1 c0 c1 line recv bytes
  { sed '/^mclb data-dir/d' "$CFG_SRC"; echo "mclb data-dir $WORK/data-$name"; echo "mclb event-loops $loops"
    [ -n "$transport" ] && echo "mclb transport $transport"; } >"$cfg"
  if vip_bound; then echo "$VIP busy, skipping $name" >&2; return; fi
  start "$LB_CPU" "$OUT/mclb-$name-$round.log" env MCLB_NO_BUILD=1 "$launcher" run -c "$cfg"
  pid=$LAST
  for _ in $(seq 600); do vip_bound && admin_up && break; sleep 0.1; done
  vip_bound && admin_up || { echo "$name did not bind $VIP and open its admin listener" >&2; stop_group "$pid"; return; }
  load "$WARM" warm >/dev/null 2>&1
  # only the allocation events: starting the 'profile' settings stalls the process for seconds on a
  # busy box, and the open-loop queue it builds is what would be measured
  jcmd "$pid" JFR.start name=cost settings="$WORK/alloc.jfc" >/dev/null 2>&1
  sleep 2 # the recording's start is not measured
  a0=$(answered); c0=$(ticks "$pid"); t0=$(date +%s.%N)
  line=$(load "$DUR" "$name" | grep '^RESULT')
  c1=$(ticks "$pid"); t1=$(date +%s.%N); a1=$(answered)
  jcmd "$pid" JFR.stop name=cost filename="$OUT/$name-$round.jfr" >/dev/null 2>&1
  stop_group "$pid"; PGIDS=("${FARM[@]}")
  recv=$((a1 - a0)); bytes=$(loop_bytes "$OUT/$name-$round.jfr")
  awk -v n="$name" -v r="$round" -v l="$loops" -v tr="${transport:-auto}" -v recv="$recv" -v c="$((c1 - c0))" -v hz="$HZ" \
      -v b="$bytes" -v w0="$t0" -v w1="$t1" -v line="$line" 'BEGIN{
    printf "RESULT variant=%s round=%d loops=%d transport=%s mclb_answered=%d cpu_s=%.2f cpu_us_per_req=%.2f loop_alloc_bytes=%d alloc_bytes_per_req=%.1f wall_s=%.1f %s\n",
      n, r, l, tr, recv, c/hz, recv ? 1e6*c/hz/recv : 0, b, recv ? b/recv : 0, w1-w0, line}' | tee -a "$RES"
}

echo "# $(date -Is) relay-cost: service=$SERVICE imsis=$IMSIS variants=[$VARIANTS] load=$LOAD window=$WINDOW rate=$RATE dur=$DUR rounds=$ROUNDS lb_cpu=$LB_CPU load1=$(cut -d' ' -f1 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  for v in $VARIANTS; do
    IFS=: read -r launcher loops transport <<<"${v#*=}"
    run_variant "${v%%=*}" "$launcher" "$loops" "${transport:-}" "$round"
  done
done
python3 - "$RES" <<'PY' | tee "$OUT/report.md"
import sys,statistics as st,re
rows={}
for l in open(sys.argv[1]):
    f=dict(re.findall(r'(\w+)=(\S+)',l)); rows.setdefault(f["variant"],[]).append(f)
print("| variant | loops | transport | runs | answered req/s (median) | p50 µs (median) | CPU µs per request (median, all) | loop bytes allocated per request (median, all) |")
print("|---|---:|---|---:|---:|---:|---|---|")
for v,rs in rows.items():
    m=lambda k: st.median(float(r[k]) for r in rs)
    print(f"| {v} | {rs[0]['loops']} | {rs[0]['transport']} | {len(rs)} | {m('rps'):.0f} | {m('p50_us'):.1f} | {m('cpu_us_per_req'):.2f} ({', '.join(r['cpu_us_per_req'] for r in rs)}) | {m('alloc_bytes_per_req'):.1f} ({', '.join(r['alloc_bytes_per_req'] for r in rs)}) |")
PY
echo "results: $RES"
