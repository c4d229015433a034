#!/usr/bin/env bash
# relay-per-request.sh (first written on h15relay, 2026-12-01): what one answered request costs the relay under test, against udpbench's
# C relay at the same offered load, in one sitting: CPU (utime+stime from /proc, whole process and
# the busiest thread, i.e. mclb's event loop), syscalls (perf stat on syscall tracepoints) and
# datagrams per recvmmsg / sendmmsg. Throughput on a shared VM varies run to run; these per-request
# figures hardly move with it.
#
#   loadgen (core CLIENT_CPU) -> VIP 127.0.0.100:9000 (target, core LB_CPU)
#                             -> udpbench responders 127.0.0.11-13:9001 (core CLIENT_CPU)
#
# VARIANTS: space-separated targets run in turn, ROUNDS times:
#   relay            udpbench's relay (-m BATCH_C, default 64: its own default)
#   NAME=LAUNCHER    an mclb launcher (run with MCLB_NO_BUILD=1 on perf/bench/udp-relay.cfg), e.g.
#                    "relay before=/tmp/h15relay-before/mclb after=./mclb"
# Knobs [defaults]: RATE [40000] (open loop; LOAD=closed uses WINDOW [256] instead), DUR [10],
#   WARM [8] (s of load before the measured window: the JIT), ROUNDS [3], LB_CPU [1],
#   CLIENT_CPU [0], MCLB_JAVA_OPTS (passed through), OUT [/tmp/relay-per-request-<timestamp>],
#   PROFILE [0]: 1 records the window with perf record -F 499 -g on the relay's thread (mclb's
#   event loop, found by its name mclb-loop-*; the C relay's one thread) into
#   $OUT/perf-NAME-ROUND.data, with a JIT symbol map for mclb (jcmd Compiler.perfmap; run mclb with
#   MCLB_JAVA_OPTS=-XX:+PreserveFramePointer for whole Java stacks), and a report by symbol next to it
# Needs perf (linux-perf) and root for the tracepoints. Prints one RESULT line per run and a table
# of medians ($OUT/report.md).
set -u
set -o pipefail
ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "run me inside the mclb repository" >&2; exit 2; }
cd "$ROOT" || exit 2
if [ -z "${UDPBENCH_SRC:-}" ]; then
  UDPBENCH_SRC=$ROOT/../shared/tools/udpbench
  [ -d "$UDPBENCH_SRC" ] || UDPBENCH_SRC=$(cd "$(git rev-parse --git-common-dir)/.." && pwd)/../shared/tools/udpbench
fi
VARIANTS=${VARIANTS:-relay mclb=./mclb}
RATE=${RATE:-40000}
LOAD=${LOAD:-open}
WINDOW=${WINDOW:-256}
DUR=${DUR:-10}
WARM=${WARM:-8}
ROUNDS=${ROUNDS:-3}
LB_CPU=${LB_CPU:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
BATCH_C=${BATCH_C:-64}
OUT=${OUT:-/tmp/relay-per-request-$(date +%Y%m%d-%H%M%S)}
PROFILE=${PROFILE:-0}
VIP_IP=127.0.0.100
VIP_PORT=9000
BACKENDS="127.0.0.11:9001 127.0.0.12:9001 127.0.0.13:9001"
LGFLAGS="-f 64 -i 127.0.1.1 -I 64"
HZ=$(getconf CLK_TCK)
# enter events count calls; exit events filtered on ret > 0 count calls that moved datagrams
EVENTS=(-e raw_syscalls:sys_enter -e syscalls:sys_enter_recvmmsg -e syscalls:sys_exit_recvmmsg --filter 'ret > 0'
  -e syscalls:sys_enter_sendmmsg -e syscalls:sys_exit_sendmmsg --filter 'ret > 0'
  -e syscalls:sys_enter_epoll_wait -e syscalls:sys_enter_epoll_pwait -e syscalls:sys_enter_epoll_pwait2
  -e syscalls:sys_enter_getsockopt -e syscalls:sys_enter_futex
  -e syscalls:sys_enter_timerfd_settime -e syscalls:sys_enter_write -e syscalls:sys_enter_read)

command -v perf >/dev/null || { echo "perf missing (apt-get install -y linux-perf)" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
RES="$OUT/results.txt"; : >"$RES"
WORK=$(mktemp -d /tmp/relay-per-request.XXXXXX) || exit 2
. "$ROOT/perf/bench/bench-lib.sh"
on_exit() { stop_all; rm -rf "$WORK"; }
trap on_exit EXIT

cp -r "$UDPBENCH_SRC" "$WORK/ub" && make -s -C "$WORK/ub" >"$OUT/build.log" 2>&1 || { echo "udpbench build failed" >&2; exit 2; }
for b in $BACKENDS; do start "$CLIENT_CPU" "$OUT/responder-${b%%:*}.log" "$WORK/ub/responder" -l "$b" -T 3600 -q; done
FARM=("${PGIDS[@]}")
sleep 0.3

ticks() { awk '{print $14+$15}' /proc/"$1"/stat 2>/dev/null || echo 0; }
utime() { awk '{print $14}' /proc/"$1"/stat 2>/dev/null || echo 0; }
thread_ticks() { # TID COMM TICKS per line, sorted by TID (for join)
  local t
  for t in /proc/"$1"/task/*; do
    awk -v t="${t##*/}" '{c=$0; sub(/^[^(]*\(/, "", c); sub(/\).*/, "", c); gsub(/ /, "_", c); n=split($0, f, ") "); split(f[n], g, " "); print t, c, g[12]+g[13]}' "$t/stat" 2>/dev/null
  done | sort -k1,1
}
load() { # SECONDS LABEL
  local lf="-r $RATE"
  [ "$LOAD" = closed ] && lf="-w $WINDOW"
  taskset -c "$CLIENT_CPU" "$WORK/ub/loadgen" -t $VIP_IP:$VIP_PORT $lf $LGFLAGS -d "$1" -W 0 -L "$2"
}
count() { awk -F, -v e="$2" '$3 == e {print $1; f=1} END {if (!f) print 0}' "$1"; }

run_variant() { # name launcher round
  local name=$1 launcher=$2 round=$3 pid cfg t0 c0 u0 l0 c1 u1 l1 line recv
  if bound $VIP_IP $VIP_PORT; then echo "$VIP_IP:$VIP_PORT busy, skipping $name" >&2; return; fi
  if [ "$launcher" = relay ]; then
    local args=() b
    for b in $BACKENDS; do args+=(-b "$b"); done
    start "$LB_CPU" "$OUT/$name-$round.log" "$WORK/ub/relay" -l $VIP_IP:$VIP_PORT "${args[@]}" -m "$BATCH_C" -T 3600
  else
    cfg="$WORK/$name.cfg"
    { sed '/^mclb data-dir/d' perf/bench/udp-relay.cfg; echo "mclb data-dir $WORK/data-$name"; } >"$cfg"
    start "$LB_CPU" "$OUT/$name-$round.log" env MCLB_NO_BUILD=1 "$launcher" run -c "$cfg"
  fi
  local grp=$LAST
  for _ in $(seq 600); do bound $VIP_IP $VIP_PORT && break; alive "$grp" || break; sleep 0.1; done
  bound $VIP_IP $VIP_PORT || { echo "$name did not bind" >&2; stop_group "$grp"; PGIDS=("${FARM[@]}"); return; }
  # the process that holds the socket (the launcher execs java; the C relay is the group leader)
  pid=$(ss -Hlunp "src $VIP_IP:$VIP_PORT" | grep -oE 'pid=[0-9]+' | head -1 | cut -d= -f2)
  load "$WARM" warm >/dev/null 2>&1
  thread_ticks "$pid" >"$WORK/threads0"
  c0=$(ticks "$pid"); u0=$(utime "$pid"); t0=$(date +%s.%N)
  perf stat -x, -o "$OUT/perf-$name-$round.csv" "${EVENTS[@]}" -p "$pid" -- sleep "$DUR" 2>/dev/null &
  local perfpid=$! recpid="" tid
  if [ "$PROFILE" = 1 ]; then
    tid=$(grep -m1 -E ' mclb-loop' "$WORK/threads0" | cut -d' ' -f1)
    [ -n "$tid" ] || tid=$pid
    perf record -q -F 499 -g -t "$tid" -o "$OUT/perf-$name-$round.data" -- sleep "$DUR" 2>/dev/null &
    recpid=$!
  fi
  line=$(load "$DUR" "$name" | grep '^RESULT')
  wait "$perfpid"
  if [ -n "$recpid" ]; then
    wait "$recpid"
    [ "$launcher" = relay ] || jcmd "$pid" Compiler.perfmap >/dev/null 2>&1
    perf report -i "$OUT/perf-$name-$round.data" --no-children --sort dso,sym --stdio 2>/dev/null | head -80 >"$OUT/profile-$name-$round.txt"
  fi
  c1=$(ticks "$pid"); u1=$(utime "$pid")
  thread_ticks "$pid" >"$WORK/threads1"
  # CPU ticks per thread over the window, busiest first (where a process's CPU goes besides its loop)
  join "$WORK/threads0" "$WORK/threads1" | awk '{print $5-$3, $2}' | sort -rn | head -8 >"$OUT/threads-$name-$round.txt"
  # the busiest thread over the window: mclb's event loop (the JIT may have been busier before it)
  l1=$(head -1 "$OUT/threads-$name-$round.txt" | cut -d' ' -f1); l0=0
  stop_group "$grp"; PGIDS=("${FARM[@]}")
  [ -n "$line" ] || { echo "no loadgen RESULT for $name" >&2; return; }
  recv=$(field "$line" recv)
  local f="$OUT/perf-$name-$round.csv"
  awk -v n="$name" -v r="$round" -v recv="$recv" -v c="$((c1 - c0))" -v u="$((u1 - u0))" -v l="$((l1 - l0))" -v hz="$HZ" \
      -v sys="$(count "$f" raw_syscalls:sys_enter)" -v rm="$(count "$f" syscalls:sys_enter_recvmmsg)" \
      -v rmok="$(count "$f" syscalls:sys_exit_recvmmsg)" -v sm="$(count "$f" syscalls:sys_enter_sendmmsg)" \
      -v smok="$(count "$f" syscalls:sys_exit_sendmmsg)" \
      -v ew="$(( $(count "$f" syscalls:sys_enter_epoll_wait) + $(count "$f" syscalls:sys_enter_epoll_pwait) + $(count "$f" syscalls:sys_enter_epoll_pwait2) ))" \
      -v gso="$(count "$f" syscalls:sys_enter_getsockopt)" \
      -v fx="$(count "$f" syscalls:sys_enter_futex)" -v tf="$(count "$f" syscalls:sys_enter_timerfd_settime)" \
      -v rw="$(( $(count "$f" syscalls:sys_enter_read) + $(count "$f" syscalls:sys_enter_write) ))" -v line="$line" 'BEGIN{
    q = recv > 0 ? recv : 1
    # a relayed request is two datagrams in (request, answer) and two out
    printf "RESULT variant=%s round=%d answered=%d cpu_us_per_req=%.3f user_us_per_req=%.3f sys_us_per_req=%.3f loop_cpu_us_per_req=%.3f syscalls_per_req=%.3f recvmmsg_per_req=%.3f empty_recvmmsg_per_req=%.3f sendmmsg_per_req=%.3f epoll_wait_per_req=%.3f getsockopt_per_req=%.3f futex_per_req=%.4f timerfd_per_req=%.4f readwrite_per_req=%.4f dgrams_per_recvmmsg=%.2f dgrams_per_sendmmsg=%.2f %s\n",
      n, r, recv, 1e6*c/hz/q, 1e6*u/hz/q, 1e6*(c-u)/hz/q, 1e6*l/hz/q, sys/q, rm/q, (rm-rmok)/q, sm/q, ew/q, gso/q, fx/q, tf/q, rw/q,
      rmok ? 2*recv/rmok : 0, smok ? 2*recv/smok : 0, line}' | tee -a "$RES"
}

echo "# $(date -Is) relay-per-request: variants=[$VARIANTS] load=$LOAD rate=$RATE window=$WINDOW dur=$DUR warm=$WARM rounds=$ROUNDS lb_cpu=$LB_CPU client_cpu=$CLIENT_CPU load1=$(cut -d' ' -f1 /proc/loadavg)" | tee "$OUT/header.txt"
for round in $(seq "$ROUNDS"); do
  for v in $VARIANTS; do
    case $v in
      relay) run_variant relay relay "$round" ;;
      *=*) run_variant "${v%%=*}" "${v#*=}" "$round" ;;
      *) echo "variant $v: relay or NAME=LAUNCHER" >&2 ;;
    esac
  done
done
echo "# end $(date -Is) load1=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT/header.txt"
python3 - "$RES" <<'PY' | tee "$OUT/report.md"
import sys, statistics as st, re
rows = {}
for l in open(sys.argv[1]):
    f = dict(re.findall(r'(\w+)=(\S+)', l)); rows.setdefault(f["variant"], []).append(f)
keys = ["rps", "loss_pct", "p50_us", "cpu_us_per_req", "user_us_per_req", "sys_us_per_req", "loop_cpu_us_per_req",
        "syscalls_per_req", "recvmmsg_per_req", "empty_recvmmsg_per_req", "sendmmsg_per_req", "epoll_wait_per_req",
        "dgrams_per_recvmmsg", "dgrams_per_sendmmsg"]
print("| variant | runs | " + " | ".join(keys) + " |")
print("|---|---:|" + "---:|" * len(keys))
for v, rs in rows.items():
    print(f"| {v} | {len(rs)} | " + " | ".join(f"{st.median(float(r[k]) for r in rs):g}" for k in keys) + " |")
ref = rows.get("relay")
if ref:
    c = st.median(float(r["cpu_us_per_req"]) for r in ref)
    for v, rs in rows.items():
        if v != "relay":
            print(f"\n{v}/relay CPU per answered request (medians): {st.median(float(r['cpu_us_per_req']) for r in rs) / c:.2f}")
PY
echo "results: $RES"
