#!/bin/bash
# gtp-compare.sh: GTP create throughput and latency, mclb against direct, in one run.
#
#   mclb loadgen gtp (core 0) -> 127.0.0.2:PORT                   (leg "direct")
#   mclb loadgen gtp (core 0) -> VIP 127.0.0.100:PORT (mclb, core 1)
#                             -> 127.0.0.2/3/4:PORT               (leg "mclb")
#   GGSN simulators: one `mclb sim gtp` process answering on 127.0.0.2-4:PORT (core 0)
#
# PORT is 2123 when it is free on 127.0.0.2-4 and 127.0.0.100, else the first free port from 21230.
# Loads per leg: closed loop (--rate 0 --window WINDOW --flows SOCKETS) over IMSIS distinct IMSIs,
# giving the maximum creates/s; then open loop at half the mclb closed-loop rate (half the direct
# rate when the mclb leg is skipped), same rate for both legs, for p50/p99 and the added latency.
# Every leg is preceded by a WARM-second warm-up run (JIT) whose figures are discarded: mclb's GTP path
# still compiles (C2 35% of its core) 30 s after start, so 3 s measured the JIT, not the path.
# Then a second warm-up of WARM2 seconds: every loadgen run starts again at the first IMSI, so the
# measured run's creates are returning subscribers (an IMSI sticky hit, a session replaced) while the
# first warm-up's were new ones; without WARM2 the JIT recompiled the returning path inside the
# measured run (C2 9 µs per create and the loop 27.8 against 1.5 and 20.4 with it, perf/README.md
# "Issue 15", "Where mclb's process CPU goes"). WARM2=0 skips it. Every measured run starts with GEN_WARM
# seconds of the same load in the same generator process, left out of its RESULT: a fresh generator
# JIT-compiles its own code over its first seconds (the RADIUS one ramped from 15-30k to 65-80k
# requests/s direct over 4-5 s), which an unwarmed window would measure in both legs.
# The mclb leg is skipped with a message when mclb exits or does not bind the VIP within
# MCLB_STARTUP_S seconds (e.g. a build without the gtp-inspect service).
# Every process the script starts runs in its own process group and is stopped on exit.
#
# Environment knobs [defaults]:
#   MCLB_CMD ["./mclb run -c <generated copy of perf/bench/gtp-bench.cfg>"]  MCLB_STARTUP_S [60]
#   LEGS ["direct mclb"]  VERSION [1]  IMSIS [1000000]  WINDOW [32]  SOCKETS [8]  DUR [10]  WARM [20]
#   CAUSE_MIX [128]  CLIENT_CPU [0]  LB_CPU [1]  PORT [auto]  OUT [/tmp/gtp-compare-<timestamp>]  WARM2 [10]  GEN_WARM [6]
#   OPEN_RATE [half the closed-loop maximum]: a fixed open-loop rate instead (e.g. 10000 for the
#   issue's low-load p50, the same for every build compared)
#   ADMIN_PORT [18082]: mclb's admin port; mclb's data dir is always $OUT/data, so two runs at once
#   (another engineer's, another build's) share neither
set -u
set -o pipefail

ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "run me inside the mclb repository" >&2; exit 2; }
cd "$ROOT" || exit 2

MCLB_STARTUP_S=${MCLB_STARTUP_S:-60}
LEGS=${LEGS:-direct mclb}
VERSION=${VERSION:-1}
IMSIS=${IMSIS:-1000000}
WINDOW=${WINDOW:-32}
SOCKETS=${SOCKETS:-8}
DUR=${DUR:-10}
WARM=${WARM:-20}
GEN_WARM=${GEN_WARM:-6}
WARM2=${WARM2:-10}
CAUSE_MIX=${CAUSE_MIX:-128}
CLIENT_CPU=${CLIENT_CPU:-0}
LB_CPU=${LB_CPU:-1}
OUT=${OUT:-/tmp/gtp-compare-$(date +%Y%m%d-%H%M%S)}
ADMIN_PORT=${ADMIN_PORT:-18082}
VIP_IP=127.0.0.100
SIMS="127.0.0.2 127.0.0.3 127.0.0.4"

mkdir -p "$OUT" || exit 2
RES="$OUT/results.txt"
: >"$RES"

# shared helpers: start, stop_group, stop_all (on exit), alive, bound, port_free, field
. "$ROOT/perf/bench/bench-lib.sh"

if [ -z "${PORT:-}" ]; then
  PORT=2123
  if ! port_free $PORT; then
    PORT=21230
    until port_free $PORT; do PORT=$((PORT + 1)); done
  fi
fi
CFG="$OUT/gtp-bench.cfg"
sed -e "s/\b2123\b/$PORT/g" -e "s|^mclb admin 127.0.0.1 18082\$|mclb admin 127.0.0.1 $ADMIN_PORT|" \
  -e "s|^mclb data-dir .*|mclb data-dir $OUT/data|" perf/bench/gtp-bench.cfg >"$CFG"
MCLB_CMD=${MCLB_CMD:-./mclb run -c $CFG}

# Build once up front (./mclb builds when sources changed) so no timing includes a build.
./mclb --help >"$OUT/build.log" 2>&1 || { echo "./mclb does not run, see $OUT/build.log" >&2; exit 2; }

# ---- GGSN simulators, core 0 ------------------------------------------------------
listen=$(for ip in $SIMS; do printf '%s:%s,' "$ip" "$PORT"; done)
start "$CLIENT_CPU" "$OUT/sim.log" ./mclb sim gtp -l "${listen%,}" --cause-mix "$CAUSE_MIX"
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
  local snap="$OUT/threads-$leg-$kind" gw=$GEN_WARM
  [ "$kind" = warm ] && gw=0
  start "$CLIENT_CPU" "$log" ./mclb loadgen gtp -t "$tgt" "${lf[@]}" --flows "$SOCKETS" --imsis "$IMSIS" \
    --version "$VERSION" --warmup "$gw" --duration "$secs"
  local lg=$LAST
  # mclb's CPU over the generator's measured window, which starts after its own warm-up
  local k0=""
  [ "$leg" = mclb ] && [ "$kind" != warm ] && { warmed "$log" "$gw"; k0=$(core_busy "$LB_CPU"); perf/bench/thread-cpu.sh snap "$LB_PGID" >"$snap.0"; }
  wait "$lg"
  PGIDS=("${PGIDS[@]/$lg}")
  [ "$kind" = warm ] && return
  line=$(grep '^RESULT' "$log")
  if [ -z "$line" ]; then echo "loadgen produced no RESULT for $leg $kind (see $log)" >&2; return; fi
  local cpu=""
  if [ "$leg" = mclb ]; then
    # mclb's CPU per answer, all threads and each (the loadgen's answers: no admin request in the window)
    local k1; k1=$(core_busy "$LB_CPU")
    perf/bench/thread-cpu.sh snap "$LB_PGID" >"$snap.1"
    perf/bench/thread-cpu.sh report "$snap.0" "$snap.1" "$(field "$line" answered)" >"$snap.txt"
    cpu=$(awk '$1 == "process" {printf " mclb_cpu_us_per_answer=%s", $2} $1 ~ /^mclb-loop/ {l += $2}
               END {if (l > 0) printf " mclb_loop_cpu_us_per_answer=%.2f", l}' "$snap.txt")
    # the core's busy time in a closed loop: the process plus ksoftirqd, kworkers, interrupts (bench-lib.sh)
    [ "$kind" = closed ] && cpu="$cpu$(awk -v k="$(( k1 - k0 ))" -v a="$(field "$line" answered)" -v hz="$(getconf CLK_TCK)" \
      'BEGIN{if (a > 0) printf " mclb_core_us_per_answer=%.2f", k * 1e6 / hz / a}')"
  fi
  echo "$line leg=$leg load=$kind$cpu" | tee -a "$RES"
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
      local hint=""
      grep -qi 'gtp' "$OUT/mclb.log" && hint=" (is the GTP service, 'service gtp-inspect', in this build? it comes with branch helper-gtpsvc)"
      echo "mclb leg skipped: $why $VIP_IP:$PORT$hint; log $OUT/mclb.log: $(tail -c 300 "$OUT/mclb.log" | tr '\n' ' ')" >&2
      stop_group "$LB_PGID"; PGIDS=("${PGIDS[@]/$LB_PGID}"); LB_PGID=""
      return 1
    fi
    sleep 0.1; t=$((t + 1))
  done
}

# warm_up LEG TARGET: new subscribers for WARM s, then the same IMSIs again (returning) for WARM2 s
warm_up() {
  run_load "$1" warm "$2" 0 "$WARM"
  # the measured runs start at the first IMSI again: past the warm-up's last one they create new sessions
  local sent; sent=$(field "$(grep '^RESULT' "$OUT/loadgen-$1-warm.log")" sent)
  if [ -n "$sent" ] && [ "$sent" -lt "$IMSIS" ]; then
    echo "warning: the $1 warm-up reached $sent of $IMSIS IMSIs; runs that go further measure new subscribers (raise WARM)" >&2
  fi
  [ "$WARM2" -gt 0 ] && run_load "$1" warm "$2" 0 "$WARM2"
}

get() { local l; l=$(grep " leg=$1 load=$2\( \|\$\)" "$RES" | tail -1); [ -n "$l" ] && field "$l" "$3"; }

echo "# $(date -Is) gtp-compare: legs=[$LEGS] v$VERSION port=$PORT imsis=$IMSIS window=$WINDOW sockets=$SOCKETS" \
     "DUR=$DUR WARM=$WARM WARM2=$WARM2 GEN_WARM=$GEN_WARM lb_cpu=$LB_CPU client_cpu=$CLIENT_CPU load1=$(cut -d' ' -f1 /proc/loadavg) out=$OUT"

MCLB_UP=0
for leg in $LEGS; do
  case $leg in
    direct) warm_up direct "127.0.0.2:$PORT"; run_load direct closed "127.0.0.2:$PORT" 0 "$DUR" ;;
    mclb)
      if start_mclb; then
        MCLB_UP=1
        warm_up mclb "$VIP_IP:$PORT"
        run_load mclb closed "$VIP_IP:$PORT" 0 "$DUR"
      fi ;;
    *) echo "unknown leg $leg" >&2 ;;
  esac
done

# Half of the mclb maximum (the issue's "half that rate"), or of the direct one without mclb.
max=$(get mclb closed rps); [ -z "$max" ] && max=$(get direct closed rps)
HALF=${OPEN_RATE:-$(( ${max:-0} / 2 ))}
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
  echo "| leg | load | creates sent | answered/s | accepted | rejected | lost | p50 µs | p99 µs | max µs |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for leg in $LEGS; do
    for kind in closed open; do
      l=$(grep " leg=$leg load=$kind\( \|\$\)" "$RES" | tail -1)
      if [ -z "$l" ]; then echo "| $leg | $kind | skipped | | | | | | | |"; continue; fi
      echo "| $leg | $kind | $(field "$l" sent) | $(field "$l" rps) | $(field "$l" accepted) | $(field "$l" rejected) | $(field "$l" lost) | $(field "$l" p50_us) | $(field "$l" p99_us) | $(field "$l" max_us) |"
    done
  done
  echo
  if [ -n "${OPEN_RATE:-}" ]; then echo "open-loop rate: $HALF creates/s (OPEN_RATE)"; else
  echo "open-loop rate: $HALF creates/s (half the closed-loop maximum of $([ -n "$(get mclb closed rps)" ] && echo mclb || echo direct))"; fi
  echo "mclb/direct closed-loop creates/s: $(ratio "$(get mclb closed rps)" "$(get direct closed rps)")  (target >= 0.50)"
  echo "mclb/direct open-loop p50: $(ratio "$(get mclb open p50_us)" "$(get direct open p50_us)")  p99: $(ratio "$(get mclb open p99_us)" "$(get direct open p99_us)")"
  echo "mclb CPU µs per create, all threads / event loops: closed $(get mclb closed mclb_cpu_us_per_answer) / $(get mclb closed mclb_loop_cpu_us_per_answer)" \
       " open $(get mclb open mclb_cpu_us_per_answer) / $(get mclb open mclb_loop_cpu_us_per_answer)  (per thread: $OUT/threads-mclb-*.txt)"
  [ -f "$OUT/threads-mclb-closed.txt" ] && sed 's/^/    /' "$OUT/threads-mclb-closed.txt"
  echo "added latency at half rate, µs: p50 $(diff_us "$(get mclb open p50_us)" "$(get direct open p50_us)")  p99 $(diff_us "$(get mclb open p99_us)" "$(get direct open p99_us)")  (target p99 < 1000)"
} | tee "$OUT/report.md"
echo
echo "results: $RES  report: $OUT/report.md"
