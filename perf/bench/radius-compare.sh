#!/bin/bash
# radius-compare.sh: RADIUS Access-Requests/s and Accounting-Requests/s, mclb against direct, in one run.
#
#   mclb loadgen radius (core 0) -> 127.0.0.5:PORT/PORT+1, secret aaa-secret       (leg "direct")
#   mclb loadgen radius (core 0) -> VIP 127.0.0.100:PORT/PORT+1, secret nas-secret (mclb, core 1,
#                                   re-signing for the reals) -> 127.0.0.5/6/7     (leg "mclb")
#   AAA simulators: one `mclb sim radius` process answering on 127.0.0.5-7, auth PORT, acct PORT+1,
#   secret aaa-secret (core 0)
#
# PORT is 1812 when 1812 and 1813 are free on 127.0.0.5-7 and 127.0.0.100 (FreeRADIUS from an
# integration test may hold them), else the first free pair from 18120.
# Loads per leg and kind (auth, acct): closed loop (--rate 0 --window WINDOW --flows SOCKETS) over
# SUBSCRIBERS subscribers, giving the maximum requests/s; then open loop at half the mclb
# closed-loop rate of that kind (half the direct rate when the mclb leg is skipped), same rate for
# both legs, for p50/p99 and the added latency. Every closed-loop run is preceded by a WARM-second
# warm-up run (mclb's JIT) whose figures are discarded, and every measured run starts with GEN_WARM
# seconds of the same load in the same generator process, left out of its RESULT (the generator's own
# JIT: a fresh generator ramped from 15-30k to 65-80k Access-Requests/s direct over its first 4-5 s,
# so an 8 s window without it measured the generator's warm-up in both legs). Every answer is verified by the generator
# (bad_auth counts the ones that do not verify with the secret it used). For each mclb run, mclb's CPU
# per answer over the run: the process, its event loops, and each thread (perf/bench/thread-cpu.sh),
# and in a closed loop its core's (LB_CPU) busy time, which adds what the core did for it outside the
# process (ksoftirqd, kworkers, interrupts; bench-lib.sh core_busy).
# mclb keeps its sticky table in a data directory of its own, $OUT/data, emptied before mclb starts
# (the configuration's shared /tmp/mclb-radius-bench-data carried the framed-IP and Calling-Station-Id
# entries of every earlier run, over a million after a few, into the next, so later runs measured a
# fuller table), and serves its admin API on ADMIN_PORT, so two runs at once do not collide.
# mclb's metrics are scraped once half-way through each mclb warm-up: the process's first admin HTTP
# request recompiles the event loop's Netty code (perf/README.md), which must not fall in a window.
# The mclb leg is skipped with a message when mclb exits or does not bind the VIP within
# MCLB_STARTUP_S seconds. Every process the script starts runs in its own process group and is
# stopped on exit.
#
# Environment knobs [defaults]:
#   MCLB_CMD ["./mclb run -c <generated copy of perf/bench/radius-bench.cfg>"]  MCLB_STARTUP_S [60]
#   LEGS ["direct mclb"]  KINDS ["auth acct"]  SUBSCRIBERS [100000]  WINDOW [32]  SOCKETS [8]
#   DUR [10]  WARM [20]  GEN_WARM [6]  CLIENT_CPU [0]  LB_CPU [1]  PORT [auto]  OUT [/tmp/radius-compare-<timestamp>]
#   ADMIN_PORT [18083]: mclb's admin listener (127.0.0.1), where the script reads mclb_responses_total
#   FRAMED_HINT [1]: Access-Requests carry the subscriber's Framed-IP-Address as a hint, which the
#   simulator grants, so a subscriber re-authenticates with the address it has and mclb's table holds
#   one framed-IP entry per subscriber. 0: every Accept brings the simulator's next pool address
#   (the runs before 2026-12-04 06:00 UTC); with no Stop in the auth leg the table then grew by two
#   entries per Accept for the whole run, into Chronicle overflow tiers mapped and zeroed on mclb's
#   loop, so a run's cost per answer depended on how long mclb had run (perf/README.md)
#   OPEN_RATE [half the closed-loop maximum of each kind]: a fixed open-loop rate for every kind
#   instead (e.g. 10000 for the issue's low-load p50, the same for every build compared)
set -u
set -o pipefail

ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "run me inside the mclb repository" >&2; exit 2; }
cd "$ROOT" || exit 2

MCLB_STARTUP_S=${MCLB_STARTUP_S:-60}
LEGS=${LEGS:-direct mclb}
KINDS=${KINDS:-auth acct}
SUBSCRIBERS=${SUBSCRIBERS:-100000}
WINDOW=${WINDOW:-32}
SOCKETS=${SOCKETS:-8}
DUR=${DUR:-10}
WARM=${WARM:-20}
GEN_WARM=${GEN_WARM:-6}
FRAMED_HINT=${FRAMED_HINT:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
LB_CPU=${LB_CPU:-1}
OUT=${OUT:-/tmp/radius-compare-$(date +%Y%m%d-%H%M%S)}
ADMIN_PORT=${ADMIN_PORT:-18083}
VIP_IP=127.0.0.100
SIMS="127.0.0.5 127.0.0.6 127.0.0.7"
AAA_SECRET=aaa-secret
NAS_SECRET=nas-secret

mkdir -p "$OUT" || exit 2
RES="$OUT/results.txt"
: >"$RES"

# shared helpers: start, stop_group, stop_all (on exit), alive, bound, field
. "$ROOT/perf/bench/bench-lib.sh"
# RADIUS needs the port and the next one (accounting) free
port_free() { local ip; for ip in $SIMS $VIP_IP; do bound "$ip" "$1" && return 1; bound "$ip" $(($1 + 1)) && return 1; done; return 0; }

if [ -z "${PORT:-}" ]; then
  PORT=1812
  if ! port_free $PORT; then
    PORT=18120
    until port_free $PORT; do PORT=$((PORT + 2)); done
  fi
fi
ACCT_PORT=$((PORT + 1))
CFG="$OUT/radius-bench.cfg"
DATA_DIR="$OUT/data"
sed -e "s|^mclb admin 127.0.0.1 18083\$|mclb admin 127.0.0.1 $ADMIN_PORT|" -e "s|^mclb data-dir .*|mclb data-dir $DATA_DIR|" \
    -e "s/\b1813\b/$ACCT_PORT/g" -e "s/\b1812\b/$PORT/g" perf/bench/radius-bench.cfg >"$CFG"
grep -q "^mclb admin 127.0.0.1 $ADMIN_PORT\$" "$CFG" && grep -q "^mclb data-dir $DATA_DIR\$" "$CFG" \
  || { echo "cannot set the admin port and data directory in $CFG" >&2; exit 2; }
MCLB_CMD=${MCLB_CMD:-./mclb run -c $CFG}

# Build once up front (./mclb builds when sources changed) so no timing includes a build.
./mclb --version >"$OUT/build.log" 2>&1 || { echo "./mclb does not run, see $OUT/build.log" >&2; exit 2; }

# ---- AAA simulators, core 0 ---------------------------------------------------------
listen=$(for ip in $SIMS; do printf '%s:%s,' "$ip" "$PORT"; done)
start "$CLIENT_CPU" "$OUT/sim.log" ./mclb sim radius -l "${listen%,}" --acct-port "$ACCT_PORT" --secret "$AAA_SECRET"
SIM_PGID=$LAST
for _ in $(seq 300); do
  all=1; for ip in $SIMS; do bound "$ip" "$PORT" && bound "$ip" "$ACCT_PORT" || all=0; done
  [ $all = 1 ] && break
  alive "$SIM_PGID" || break
  sleep 0.1
done
[ "${all:-0}" = 1 ] || { echo "simulators did not bind $SIMS ports $PORT/$ACCT_PORT, see $OUT/sim.log" >&2; exit 2; }

port_of() { [ "$1" = acct ] && echo "$ACCT_PORT" || echo "$PORT"; }
# mclb's CPU per answer: utime+stime of its process (/proc) over a run, divided by the answers it
# counted itself (mclb_responses_total on the bench configuration's admin listener)
HZ=$(getconf CLK_TCK)
ticks() { awk '{print $14+$15}' /proc/"$1"/stat 2>/dev/null || echo 0; }
answers() { curl -s --max-time 5 "http://127.0.0.1:$ADMIN_PORT/metrics" | awk '/^mclb_responses_total\{/ {s += $2} END {printf "%d", s}'; }

# run_load LEG KIND LOAD RATE|0 SECONDS: one loadgen run; appends its RESULT line to $RES
run_load() {
  local leg=$1 kind=$2 load=$3 rate=$4 secs=$5 log line tgt secret
  log="$OUT/loadgen-$leg-$kind-$load.log"
  if [ "$leg" = direct ]; then tgt=127.0.0.5:$(port_of "$kind"); secret=$AAA_SECRET
  else tgt=$VIP_IP:$(port_of "$kind"); secret=$NAS_SECRET; fi
  local lf=(--rate "$rate")
  [ "$rate" = 0 ] && lf=(--rate 0 --window "$WINDOW")
  [ "$FRAMED_HINT" = 1 ] && [ "$kind" = auth ] && lf+=(--framed-hint)
  local t0 a0 cpu="" gw=$GEN_WARM
  [ "$load" = warm ] && gw=0
  local snap="$OUT/threads-$leg-$kind-$load"
  start "$CLIENT_CPU" "$log" ./mclb loadgen radius -t "$tgt" --secret "$secret" --kind "$kind" "${lf[@]}" \
    --flows "$SOCKETS" --subscribers "$SUBSCRIBERS" --warmup "$gw" --duration "$secs"
  local lg=$LAST scrape=""
  # mclb's CPU is counted over the generator's measured window: from the end of its own warm-up
  local k0
  if [ "$leg" = mclb ]; then
    warmed "$log" "$gw"; t0=$(ticks "$LB_PGID"); k0=$(core_busy "$LB_CPU"); a0=$(answers); perf/bench/thread-cpu.sh snap "$LB_PGID" >"$snap.0"
  fi
  if [ "$leg" = mclb ] && [ "$load" = warm ]; then
    ( sleep $(( secs / 2 )); answers >/dev/null ) &
    scrape=$!
  fi
  wait "$lg"
  PGIDS=("${PGIDS[@]/$lg}")
  [ -n "$scrape" ] && wait "$scrape"
  [ "$load" = warm ] && return
  if [ "$leg" = mclb ]; then
    local a1 t1 k1
    t1=$(ticks "$LB_PGID"); k1=$(core_busy "$LB_CPU"); perf/bench/thread-cpu.sh snap "$LB_PGID" >"$snap.1"; a1=$(answers)
    cpu=$(awk -v t="$(( t1 - t0 ))" -v k="$(( k1 - k0 ))" -v a="$(( a1 - a0 ))" -v hz="$HZ" -v closed="$([ "$load" = closed ] && echo 1)" \
      'BEGIN{if (a > 0) printf " mclb_cpu_us_per_answer=%.2f%s mclb_answers=%d", t * 1e6 / hz / a,
             closed ? sprintf(" mclb_core_us_per_answer=%.2f", k * 1e6 / hz / a) : "", a}')
    # the same window per thread: the event loops (mclb-loop-*) and everything beside them
    perf/bench/thread-cpu.sh report "$snap.0" "$snap.1" "$(( a1 - a0 ))" >"$snap.txt"
    cpu="$cpu$(awk '$1 ~ /^mclb-loop/ {l += $2} END {if (l > 0) printf " mclb_loop_cpu_us_per_answer=%.2f", l}' "$snap.txt")"
  fi
  line=$(grep '^RESULT' "$log")
  if [ -z "$line" ]; then echo "loadgen produced no RESULT for $leg $kind $load (see $log)" >&2; return; fi
  echo "$line leg=$leg load=$load$cpu" | tee -a "$RES"
}

# start_mclb: sets LB_PGID; 1 = skipped (message printed)
start_mclb() {
  LB_PGID=""
  if bound $VIP_IP "$PORT" || bound $VIP_IP "$ACCT_PORT"; then
    echo "mclb leg skipped: something else is bound to $VIP_IP:$PORT/$ACCT_PORT" >&2; return 1
  fi
  rm -rf "$DATA_DIR"
  start "$LB_CPU" "$OUT/mclb.log" bash -c "exec $MCLB_CMD"
  LB_PGID=$LAST
  local t=0
  until bound $VIP_IP "$PORT" && bound $VIP_IP "$ACCT_PORT"; do
    local why=""
    alive "$LB_PGID" || why="mclb exited before binding"
    [ -z "$why" ] && [ $t -ge $((MCLB_STARTUP_S * 10)) ] && why="mclb did not bind within $MCLB_STARTUP_S s"
    if [ -n "$why" ]; then
      echo "mclb leg skipped: $why $VIP_IP:$PORT/$ACCT_PORT; log $OUT/mclb.log: $(tail -c 300 "$OUT/mclb.log" | tr '\n' ' ')" >&2
      stop_group "$LB_PGID"; PGIDS=("${PGIDS[@]/$LB_PGID}"); LB_PGID=""
      return 1
    fi
    sleep 0.1; t=$((t + 1))
  done
}

get() { local l; l=$(grep "^RESULT kind=$1 .* leg=$2 load=$3\( \|\$\)" "$RES" | tail -1); [ -n "$l" ] && field "$l" "$4"; }

echo "# $(date -Is) radius-compare: legs=[$LEGS] kinds=[$KINDS] ports=$PORT/$ACCT_PORT admin=$ADMIN_PORT data=$DATA_DIR subscribers=$SUBSCRIBERS" \
     "window=$WINDOW sockets=$SOCKETS DUR=$DUR GEN_WARM=$GEN_WARM framed_hint=$FRAMED_HINT lb_cpu=$LB_CPU client_cpu=$CLIENT_CPU load1=$(cut -d' ' -f1 /proc/loadavg) out=$OUT"

MCLB_UP=0
for leg in $LEGS; do
  case $leg in
    direct) ;;
    mclb) start_mclb && MCLB_UP=1 ;;
    *) echo "unknown leg $leg" >&2; continue ;;
  esac
  [ "$leg" = mclb ] && [ $MCLB_UP = 0 ] && continue
  for kind in $KINDS; do
    run_load "$leg" "$kind" warm 0 "$WARM"
    run_load "$leg" "$kind" closed 0 "$DUR"
  done
done

# Half of the mclb maximum of each kind (the issue's "half that rate"), or of the direct one without mclb.
for kind in $KINDS; do
  max=$(get "$kind" mclb closed rps); [ -z "$max" ] && max=$(get "$kind" direct closed rps)
  half=${OPEN_RATE:-$(( ${max:-0} / 2 ))}
  eval "HALF_$kind=$half"
  [ "$half" -gt 0 ] || continue
  for leg in $LEGS; do
    case $leg in
      direct) run_load direct "$kind" open "$half" "$DUR" ;;
      mclb) [ $MCLB_UP = 1 ] && run_load mclb "$kind" open "$half" "$DUR" ;;
    esac
  done
done

ratio() { if [ -n "$1" ] && [ -n "$2" ] && awk -v b="$2" 'BEGIN{exit !(b > 0)}'; then awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; else echo n/a; fi; }
diff_us() { if [ -n "$1" ] && [ -n "$2" ]; then echo $(( $1 - $2 )); else echo n/a; fi; }
{
  echo
  echo "| kind | leg | load | sent | answered/s | accepts | acct responses | bad auth | lost | p50 µs | p99 µs | max µs | mclb CPU µs/answer |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for kind in $KINDS; do
    for leg in $LEGS; do
      for load in closed open; do
        l=$(grep "^RESULT kind=$kind .* leg=$leg load=$load\( \|\$\)" "$RES" | tail -1)
        if [ -z "$l" ]; then echo "| $kind | $leg | $load | skipped | | | | | | | | | |"; continue; fi
        echo "| $kind | $leg | $load | $(field "$l" sent) | $(field "$l" rps) | $(field "$l" accepts) | $(field "$l" acct_responses) | $(field "$l" bad_auth) | $(field "$l" lost) | $(field "$l" p50_us) | $(field "$l" p99_us) | $(field "$l" max_us) | $(field "$l" mclb_cpu_us_per_answer) |"
      done
    done
  done
  echo
  for kind in $KINDS; do
    eval "half=\${HALF_$kind:-0}"
    echo "$kind: open-loop rate $half requests/s;" \
         "mclb/direct closed-loop requests/s: $(ratio "$(get "$kind" mclb closed rps)" "$(get "$kind" direct closed rps)") (target >= 0.50);" \
         "mclb CPU µs per answer closed $(get "$kind" mclb closed mclb_cpu_us_per_answer) open $(get "$kind" mclb open mclb_cpu_us_per_answer)" \
         "(event loops: closed $(get "$kind" mclb closed mclb_loop_cpu_us_per_answer) open $(get "$kind" mclb open mclb_loop_cpu_us_per_answer); per thread $OUT/threads-mclb-$kind-*.txt;" \
         "mclb's core (bench-lib.sh core_busy): closed $(get "$kind" mclb closed mclb_core_us_per_answer));" \
         "added latency at half rate, µs: p50 $(diff_us "$(get "$kind" mclb open p50_us)" "$(get "$kind" direct open p50_us)")" \
         "p99 $(diff_us "$(get "$kind" mclb open p99_us)" "$(get "$kind" direct open p99_us)") (target p99 < 1000)"
    [ -f "$OUT/threads-mclb-$kind-closed.txt" ] && sed 's/^/    /' "$OUT/threads-mclb-$kind-closed.txt"
  done
} | tee "$OUT/report.md"
echo
echo "results: $RES  report: $OUT/report.md"
