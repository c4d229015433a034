#!/bin/bash
# mobility-compare.sh KIND: Mobile IP registrations/s (KIND=mip) or WiMAX R6 pre-attachments/s
# (KIND=asn), mclb against direct, in one run. Called by mip-compare.sh and asn-compare.sh.
#
#   mclb loadgen KIND (core 0) -> 127.0.0.2:PORT                   (leg "direct")
#   mclb loadgen KIND (core 0) -> VIP 127.0.0.100:PORT (mclb, core 1)
#                              -> 127.0.0.2/3/4:PORT               (leg "mclb")
#   simulators: one `mclb sim KIND` process answering on 127.0.0.2-4:PORT (core 0)
#
# PORT is 434 (mip) / 2231 (asn) when free on 127.0.0.2-4 and 127.0.0.100, else the first free
# port from 24340 / 22310. Loads per leg: closed loop (--rate 0 --window WINDOW --flows SOCKETS)
# over SUBSCRIBERS distinct NAIs / MSIDs (the maximum rate), then open loop at half the mclb
# closed-loop rate for p50/p99. Every leg is preceded by a WARM-second warm-up (JIT), discarded, and
# every measured run starts with GEN_WARM seconds in the same generator process, left out of its RESULT
# (the generator's own JIT).
# Every process the script starts runs in its own process group and is stopped on exit.
#
# Environment knobs [defaults]:
#   MCLB_CMD ["./mclb run -c <generated copy of perf/bench/KIND-bench.cfg>"]  MCLB_STARTUP_S [60]
#   LEGS ["direct mclb"]  SUBSCRIBERS [1000000]  WINDOW [32]  SOCKETS [8]  DUR [10]  WARM [3]  GEN_WARM [6]
#   CODE_MIX [0] (mip)  CLIENT_CPU [0]  LB_CPU [1]  PORT [auto]  OUT [/tmp/KIND-compare-<timestamp>]
set -u
set -o pipefail

KIND=${1:-}
case $KIND in
  mip) DEFAULT_PORT=434; FALLBACK_PORT=24340; SUBS_FLAG=--nais; SIM_ARGS=(--code-mix "${CODE_MIX:-0}") ;;
  asn) DEFAULT_PORT=2231; FALLBACK_PORT=22310; SUBS_FLAG=--msids; SIM_ARGS=() ;;
  *) echo "usage: $0 mip|asn" >&2; exit 2 ;;
esac
ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "run me inside the mclb repository" >&2; exit 2; }
cd "$ROOT" || exit 2

MCLB_STARTUP_S=${MCLB_STARTUP_S:-60}
LEGS=${LEGS:-direct mclb}
SUBSCRIBERS=${SUBSCRIBERS:-1000000}
WINDOW=${WINDOW:-32}
SOCKETS=${SOCKETS:-8}
DUR=${DUR:-10}
WARM=${WARM:-3}
GEN_WARM=${GEN_WARM:-6}
CLIENT_CPU=${CLIENT_CPU:-0}
LB_CPU=${LB_CPU:-1}
OUT=${OUT:-/tmp/$KIND-compare-$(date +%Y%m%d-%H%M%S)}
VIP_IP=127.0.0.100
SIMS="127.0.0.2 127.0.0.3 127.0.0.4"

mkdir -p "$OUT" || exit 2
RES="$OUT/results.txt"
: >"$RES"

# shared helpers: start, stop_group, stop_all (on exit), alive, bound, port_free, field
. "$ROOT/perf/bench/bench-lib.sh"

if [ -z "${PORT:-}" ]; then
  PORT=$DEFAULT_PORT
  if ! port_free $PORT; then
    PORT=$FALLBACK_PORT
    until port_free $PORT; do PORT=$((PORT + 1)); done
  fi
fi
CFG="$OUT/$KIND-bench.cfg"
sed "s/\b$DEFAULT_PORT\b/$PORT/g" "perf/bench/$KIND-bench.cfg" >"$CFG"
MCLB_CMD=${MCLB_CMD:-./mclb run -c $CFG}

# Build once up front (./mclb builds when sources changed) so no timing includes a build.
./mclb --help >"$OUT/build.log" 2>&1 || { echo "./mclb does not run, see $OUT/build.log" >&2; exit 2; }

# ---- simulators, core 0 ------------------------------------------------------
listen=$(for ip in $SIMS; do printf '%s:%s,' "$ip" "$PORT"; done)
start "$CLIENT_CPU" "$OUT/sim.log" ./mclb sim "$KIND" -l "${listen%,}" "${SIM_ARGS[@]}"
SIM_PGID=$LAST
for _ in $(seq 300); do
  all=1; for ip in $SIMS; do bound "$ip" "$PORT" || all=0; done
  [ $all = 1 ] && break
  alive "$SIM_PGID" || break
  sleep 0.1
done
[ "${all:-0}" = 1 ] || { echo "simulators did not bind $SIMS port $PORT, see $OUT/sim.log" >&2; exit 2; }

# run_load LEG KIND TARGET RATE|0 SECONDS: one loadgen run; appends its RESULT line to $RES
run_load() {
  local leg=$1 kind=$2 tgt=$3 rate=$4 secs=$5 log line
  log="$OUT/loadgen-$leg-$kind.log"
  local lf=(--rate "$rate")
  [ "$rate" = 0 ] && lf=(--rate 0 --window "$WINDOW")
  local gw=$GEN_WARM
  [ "$kind" = warm ] && gw=0
  start "$CLIENT_CPU" "$log" ./mclb loadgen "$KIND" -t "$tgt" "${lf[@]}" --flows "$SOCKETS" "$SUBS_FLAG" "$SUBSCRIBERS" \
    --warmup "$gw" --duration "$secs"
  local lg=$LAST
  wait "$lg"
  PGIDS=("${PGIDS[@]/$lg}")
  [ "$kind" = warm ] && return
  line=$(grep '^RESULT' "$log")
  if [ -z "$line" ]; then echo "loadgen produced no RESULT for $leg $kind (see $log)" >&2; return; fi
  echo "$line leg=$leg load=$kind" | tee -a "$RES"
}

# start_mclb: sets LB_PGID; 1 = skipped (message printed)
start_mclb() {
  LB_PGID=""
  if bound $VIP_IP "$PORT"; then echo "mclb leg skipped: something else is bound to $VIP_IP:$PORT" >&2; return 1; fi
  start "$LB_CPU" "$OUT/mclb.log" bash -c "exec $MCLB_CMD"
  LB_PGID=$LAST
  local t=0
  until bound $VIP_IP "$PORT"; do
    local why=""
    alive "$LB_PGID" || why="mclb exited before binding"
    [ -z "$why" ] && [ $t -ge $((MCLB_STARTUP_S * 10)) ] && why="mclb did not bind within $MCLB_STARTUP_S s"
    if [ -n "$why" ]; then
      echo "mclb leg skipped: $why $VIP_IP:$PORT; log $OUT/mclb.log: $(tail -c 300 "$OUT/mclb.log" | tr '\n' ' ')" >&2
      stop_group "$LB_PGID"; PGIDS=("${PGIDS[@]/$LB_PGID}"); LB_PGID=""
      return 1
    fi
    sleep 0.1; t=$((t + 1))
  done
}

get() { local l; l=$(grep " leg=$1 load=$2\$" "$RES" | tail -1); [ -n "$l" ] && field "$l" "$3"; }

echo "# $(date -Is) $KIND-compare: legs=[$LEGS] port=$PORT subscribers=$SUBSCRIBERS window=$WINDOW sockets=$SOCKETS" \
     "DUR=$DUR GEN_WARM=$GEN_WARM lb_cpu=$LB_CPU client_cpu=$CLIENT_CPU load1=$(cut -d' ' -f1 /proc/loadavg) out=$OUT"

MCLB_UP=0
for leg in $LEGS; do
  case $leg in
    direct) run_load direct warm "127.0.0.2:$PORT" 0 "$WARM"; run_load direct closed "127.0.0.2:$PORT" 0 "$DUR" ;;
    mclb)
      if start_mclb; then
        MCLB_UP=1
        run_load mclb warm "$VIP_IP:$PORT" 0 "$WARM"
        run_load mclb closed "$VIP_IP:$PORT" 0 "$DUR"
      fi ;;
    *) echo "unknown leg $leg" >&2 ;;
  esac
done

# Half of the mclb maximum (the issue's "half that rate"), or of the direct one without mclb.
max=$(get mclb closed rps); [ -z "$max" ] && max=$(get direct closed rps)
HALF=$(( ${max:-0} / 2 ))
if [ "$HALF" -gt 0 ]; then
  for leg in $LEGS; do
    case $leg in
      direct) run_load direct open "127.0.0.2:$PORT" "$HALF" "$DUR" ;;
      mclb) [ $MCLB_UP = 1 ] && run_load mclb open "$VIP_IP:$PORT" "$HALF" "$DUR" ;;
    esac
  done
fi

ratio() { if [ -n "$1" ] && [ -n "$2" ] && awk -v b="$2" 'BEGIN{exit !(b > 0)}'; then awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; else echo n/a; fi; }
diff_us() { if [ -n "$1" ] && [ -n "$2" ]; then echo $(( $1 - $2 )); else echo n/a; fi; }
{
  echo
  echo "| leg | load | requests sent | answered/s | accepted | rejected | lost | p50 µs | p99 µs | max µs |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for leg in $LEGS; do
    for kind in closed open; do
      l=$(grep " leg=$leg load=$kind\$" "$RES" | tail -1)
      if [ -z "$l" ]; then echo "| $leg | $kind | skipped | | | | | | | |"; continue; fi
      echo "| $leg | $kind | $(field "$l" sent) | $(field "$l" rps) | $(field "$l" accepted) | $(field "$l" rejected) | $(field "$l" lost) | $(field "$l" p50_us) | $(field "$l" p99_us) | $(field "$l" max_us) |"
    done
  done
  echo
  echo "open-loop rate: $HALF requests/s (half the closed-loop maximum of $([ -n "$(get mclb closed rps)" ] && echo mclb || echo direct))"
  echo "mclb/direct closed-loop $KIND requests/s: $(ratio "$(get mclb closed rps)" "$(get direct closed rps)")  (target >= 0.60)"
  echo "mclb/direct open-loop p50: $(ratio "$(get mclb open p50_us)" "$(get direct open p50_us)")  p99: $(ratio "$(get mclb open p99_us)" "$(get direct open p99_us)")"
  echo "added latency at half rate, µs: p50 $(diff_us "$(get mclb open p50_us)" "$(get direct open p50_us)")  p99 $(diff_us "$(get mclb open p99_us)" "$(get direct open p99_us)")  (target p99 < 1000)"
} | tee "$OUT/report.md"
echo
echo "results: $RES  report: $OUT/report.md"
