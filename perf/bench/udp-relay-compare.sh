#!/bin/bash
# udp-relay-compare.sh: compare mclb with two reference UDP relays on loopback, one run.
#
#   loadgen (core 0) -> VIP 127.0.0.100:9000 (relay under test, core 1)
#                    -> udpbench responders 127.0.0.11/12/13:9001 (core 0)
#
# Targets, in order (TARGETS to choose a subset):
#   relay  udpbench's minimal C relay (round robin, request-id table): the floor cost
#   nginx  nginx stream UDP proxy, 1 worker, proxy_responses 1 (NGINX_BALANCE=hash|rr)
#   mclb   the command in MCLB_CMD; skipped with a message when nothing listens on the VIP
#          within MCLB_STARTUP_S seconds
# Loads per target: closed loop (-w 256) and open loop (-r 100000), -f 64 -i 127.0.1.1 -I 64.
#
# The udpbench tool is taken from $(git rev-parse --show-toplevel)/../shared/tools/udpbench
# (or ../shared next to the main checkout when run from a linked worktree; UDPBENCH_SRC overrides) and built with make in a temporary directory.
# Every process the script starts is stopped on exit, by PID / own process group.
#
# Environment knobs [defaults]:
#   MCLB_CMD ["./mclb run -c perf/bench/udp-relay.cfg"]  MCLB_STARTUP_S [60]
#   TARGETS ["relay nginx mclb"]  NGINX_BALANCE [hash]  DUR [10]  WARM [3]
#   OPEN_RATE [100000]  WINDOW [256]  CLIENT_CPU [0]  LB_CPU [1]
#   OUT [/tmp/udp-relay-compare-<timestamp>]  (results.txt, logs, report.md)
#   LB_QUOTA [none]: percent of one core the relay under test may use (a CPU-quota cgroup, 10 ms
#   periods), the same for every target. On two cores the loadgen and responders share core 0 and
#   bound the closed loop before either relay uses its core (perf/README.md, "Issue 15"); under an
#   equal quota below that bound the relay is the bound, so the closed-loop ratio is the inverse of
#   the relays' CPU per request.
set -u
set -o pipefail

ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || { echo "run me inside the mclb repository" >&2; exit 2; }
cd "$ROOT" || exit 2

if [ -z "${UDPBENCH_SRC:-}" ]; then
  # ../shared next to the checkout; from a linked worktree, next to the main checkout
  UDPBENCH_SRC=$ROOT/../shared/tools/udpbench
  if [ ! -d "$UDPBENCH_SRC" ]; then
    main=$(cd "$(git rev-parse --git-common-dir)/.." && pwd)
    UDPBENCH_SRC=$main/../shared/tools/udpbench
  fi
fi
MCLB_CMD=${MCLB_CMD:-./mclb run -c perf/bench/udp-relay.cfg}
MCLB_STARTUP_S=${MCLB_STARTUP_S:-60}
TARGETS=${TARGETS:-relay nginx mclb}
NGINX_BALANCE=${NGINX_BALANCE:-hash}
DUR=${DUR:-10}
WARM=${WARM:-3}
OPEN_RATE=${OPEN_RATE:-100000}
WINDOW=${WINDOW:-256}
CLIENT_CPU=${CLIENT_CPU:-0}
LB_CPU=${LB_CPU:-1}
OUT=${OUT:-/tmp/udp-relay-compare-$(date +%Y%m%d-%H%M%S)}
LB_QUOTA=${LB_QUOTA:-}
VIP_IP=127.0.0.100
VIP_PORT=9000
BACKENDS="127.0.0.11:9001 127.0.0.12:9001 127.0.0.13:9001"
LGFLAGS="-f 64 -i 127.0.1.1 -I 64"
LIFETIME_S=1800   # cap for the C tools, in case this script is killed with SIGKILL
HZ=$(getconf CLK_TCK)

mkdir -p "$OUT" || exit 2
RES="$OUT/results.txt"
: >"$RES"
WORK=$(mktemp -d /tmp/udp-relay-compare-build.XXXXXX) || exit 2
BIN="$WORK/udpbench"

# start, stop_group and stop_all (process groups, each started with setsid) come from bench-lib
. "$ROOT/perf/bench/bench-lib.sh"
QUOTA_CG=""
on_exit() { stop_all; rm -rf "$WORK"; [ -n "$QUOTA_CG" ] && sleep 0.2 && rmdir "$QUOTA_CG" 2>/dev/null; }
trap on_exit EXIT

# utime+stime ticks of every process in process group $1
group_ticks() {
  local t=0 p
  for p in $(pgrep -g "$1"); do
    [ -r /proc/"$p"/stat ] && t=$((t + $(awk '{print $14+$15}' /proc/"$p"/stat)))
  done
  echo $t
}

# quota_cgroup: the cgroup of LB_QUOTA percent of a core (cgroup v1 cpu controller or v2 cpu.max), in QUOTA_CG
quota_cgroup() {
  [[ "$LB_QUOTA" =~ ^[0-9]+$ ]] && [ "$LB_QUOTA" -ge 1 ] && [ "$LB_QUOTA" -le 100 ] \
    || { echo "LB_QUOTA must be a percent of one core, 1-100 (got '$LB_QUOTA')" >&2; exit 2; }
  if [ -d /sys/fs/cgroup/cpu ] && [ ! -f /sys/fs/cgroup/cgroup.controllers ]; then
    QUOTA_CG=/sys/fs/cgroup/cpu/mclb-bench-$$
    mkdir -p "$QUOTA_CG" && echo 10000 >"$QUOTA_CG/cpu.cfs_period_us" && echo $((LB_QUOTA * 100)) >"$QUOTA_CG/cpu.cfs_quota_us"
  else
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control
    QUOTA_CG=/sys/fs/cgroup/mclb-bench-$$
    mkdir -p "$QUOTA_CG" && echo "$((LB_QUOTA * 100)) 10000" >"$QUOTA_CG/cpu.max"
  fi || { echo "cannot make a CPU-quota cgroup for LB_QUOTA (root and a cpu controller needed)" >&2; exit 2; }
}
[ -n "$LB_QUOTA" ] && quota_cgroup

# cap_group PGID: every process of the group into the quota cgroup (threads follow their process)
cap_group() {
  [ -n "$QUOTA_CG" ] || return 0
  local p
  for p in $(pgrep -g "$1"); do echo "$p" >"$QUOTA_CG/cgroup.procs" 2>/dev/null; done
}

# a child we have not reaped yet is a zombie: kill -0 would still succeed
alive() { [ -r /proc/"$1"/stat ] && [ "$(awk '{print $3}' /proc/"$1"/stat)" != Z ]; }

vip_bound() { ss -Hlun "src $VIP_IP:$VIP_PORT" 2>/dev/null | grep -q .; }

field() { echo "$1" | grep -oE "(^| )$2=[^ ]+" | head -1 | cut -d= -f2; }

# ---- build udpbench -----------------------------------------------------------------
[ -f "$UDPBENCH_SRC/loadgen.c" ] || { echo "udpbench sources not found in $UDPBENCH_SRC" >&2; exit 2; }
cp -r "$UDPBENCH_SRC" "$BIN" && make -s -C "$BIN" >"$OUT/build.log" 2>&1 \
  || { echo "udpbench build failed, see $OUT/build.log" >&2; exit 2; }

# ---- farm: three responders on core 0 --------------------------------------------
for b in $BACKENDS; do
  start "$CLIENT_CPU" "$OUT/responder-${b%%:*}.log" "$BIN/responder" -l "$b" -T $LIFETIME_S -q
done
FARM_PGIDS=("${PGIDS[@]}")
sleep 0.3

nginx_conf() { # writes $1/nginx.conf
  local d=$1 bal="" b servers=""
  [ "$NGINX_BALANCE" = hash ] && bal='hash $remote_addr consistent;'
  for b in $BACKENDS; do servers="$servers    server $b;"$'\n'; done
  mkdir -p "$d/logs"
  cat >"$d/nginx.conf" <<EOF
load_module /usr/lib/nginx/modules/ngx_stream_module.so;
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile 16384;
pid $d/nginx.pid;
error_log $d/logs/error.log error;
events { worker_connections 8192; }
stream {
  upstream bench_farm {
    $bal
$servers  }
  server {
    listen $VIP_IP:$VIP_PORT udp reuseport rcvbuf=4m sndbuf=4m;
    proxy_pass bench_farm;
    proxy_responses 1;
    proxy_timeout 2s;
  }
}
EOF
}

# start_target NAME: starts the relay under test on LB_CPU, sets LB_PGID; 1 = skipped
start_target() {
  LB_PGID=""
  if vip_bound; then echo "something else is bound to $VIP_IP:$VIP_PORT, skipping $1" >&2; return 1; fi
  case $1 in
    relay)
      local args=() b
      for b in $BACKENDS; do args+=(-b "$b"); done
      start "$LB_CPU" "$OUT/relay.log" "$BIN/relay" -l "$VIP_IP:$VIP_PORT" "${args[@]}" -T $LIFETIME_S ;;
    nginx)
      command -v nginx >/dev/null && [ -f /usr/lib/nginx/modules/ngx_stream_module.so ] \
        || { echo "nginx or libnginx-mod-stream missing (apt-get install -y nginx libnginx-mod-stream), skipping nginx" >&2; return 1; }
      nginx_conf "$WORK/nginx"
      nginx -t -q -p "$WORK/nginx/" -e "$WORK/nginx/logs/error.log" -c "$WORK/nginx/nginx.conf" >"$OUT/nginx-t.log" 2>&1 \
        || { echo "nginx config test failed, see $OUT/nginx-t.log" >&2; return 1; }
      start "$LB_CPU" "$OUT/nginx.log" nginx -p "$WORK/nginx/" -e "$WORK/nginx/logs/error.log" -c "$WORK/nginx/nginx.conf" ;;
    mclb)
      start "$LB_CPU" "$OUT/mclb.log" bash -c "exec $MCLB_CMD" ;;
    *) echo "unknown target $1" >&2; return 1 ;;
  esac
  LB_PGID=$LAST
  local t=0 max=50   # tenths of a second: 5 s for the C tools and nginx
  [ "$1" = mclb ] && max=$((MCLB_STARTUP_S * 10))
  until vip_bound; do
    local why=""
    alive "$LB_PGID" || why="exited before binding"
    [ -z "$why" ] && [ $t -ge $max ] && why="did not bind within $((max / 10)) s"
    if [ -n "$why" ]; then
      echo "$1 $why $VIP_IP:$VIP_PORT (log: $OUT/$1.log: $(tail -c 200 "$OUT/$1.log" | tr '\n' ' ')), skipping $1" >&2
      stop_group "$LB_PGID"; PGIDS=("${FARM_PGIDS[@]}"); LB_PGID=""
      return 1
    fi
    sleep 0.1; t=$((t + 1))
  done
  cap_group "$LB_PGID"
  return 0
}

# run_load TARGET KIND: one loadgen run, appends its RESULT line (+ lb_cpu_pct) to $RES
run_load() {
  local tgt=$1 kind=$2 lf line t0 t1 c0 c1 cpu
  if [ "$kind" = closed ]; then lf="-w $WINDOW"; else lf="-r $OPEN_RATE"; fi
  t0=$(date +%s.%N); c0=$(group_ticks "$LB_PGID")
  # shellcheck disable=SC2086
  start "$CLIENT_CPU" "$OUT/loadgen-$tgt-$kind.log" "$BIN/loadgen" -t "$VIP_IP:$VIP_PORT" $lf $LGFLAGS -d "$DUR" -W "$WARM" -L "$tgt"
  local lg=$LAST
  wait "$lg"
  PGIDS=("${PGIDS[@]/$lg}")
  line=$(grep '^RESULT' "$OUT/loadgen-$tgt-$kind.log")
  t1=$(date +%s.%N); c1=$(group_ticks "$LB_PGID")
  cpu=$(awk -v a="$c0" -v b="$c1" -v t0="$t0" -v t1="$t1" -v hz="$HZ" 'BEGIN{printf "%.0f", 100*(b-a)/hz/(t1-t0)}')
  if [ -z "$line" ]; then echo "loadgen produced no RESULT for $tgt $kind (see $OUT/loadgen-$tgt-$kind.log)" >&2; return; fi
  echo "$line config=$tgt load=$kind lb_cpu_pct=$cpu" | tee -a "$RES"
}

echo "# $(date -Is) udp-relay-compare: targets=[$TARGETS] DUR=$DUR WARM=$WARM window=$WINDOW open_rate=$OPEN_RATE" \
     "lb_cpu=$LB_CPU lb_quota=${LB_QUOTA:-none} client_cpu=$CLIENT_CPU load1=$(cut -d' ' -f1 /proc/loadavg) out=$OUT"
for tgt in $TARGETS; do
  start_target "$tgt" || continue
  sleep 0.3
  run_load "$tgt" closed
  sleep 0.5
  run_load "$tgt" open
  stop_group "$LB_PGID"; PGIDS=("${FARM_PGIDS[@]}")
  sleep 0.5
done

# ---- report -----------------------------------------------------------------------
get() { # get TARGET LOAD KEY
  local l; l=$(grep " config=$1 load=$2 " "$RES" | tail -1)
  [ -n "$l" ] && field "$l" "$3"
}
ratio() { # ratio A B -> A/B with 2 decimals, or n/a
  if [ -n "$1" ] && [ -n "$2" ] && awk -v b="$2" 'BEGIN{exit !(b > 0)}'; then
    awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'
  else echo n/a; fi
}
{
  echo
  echo "| target | load | tx req/s | answered req/s | loss % | p50 µs | p99 µs | relay CPU % | kernel rcvbuf drops | loadgen max stall ms |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for tgt in $TARGETS; do
    for kind in closed open; do
      l=$(grep " config=$tgt load=$kind " "$RES" | tail -1)
      if [ -z "$l" ]; then echo "| $tgt | $kind | skipped | | | | | | | |"; continue; fi
      echo "| $tgt | $kind | $(field "$l" tx_rps) | $(field "$l" rps) | $(field "$l" loss_pct) | $(field "$l" p50_us) | $(field "$l" p99_us) | $(field "$l" lb_cpu_pct) | $(field "$l" udp_rcvbuf_err) | $(field "$l" lg_stall_max_ms) |"
    done
  done
  echo
  echo "| ratio | closed rps | closed p99 | open p99 | open answered rps |"
  echo "|---|---:|---:|---:|---:|"
  for ref in relay nginx; do
    echo "| mclb/$ref | $(ratio "$(get mclb closed rps)" "$(get $ref closed rps)") | $(ratio "$(get mclb closed p99_us)" "$(get $ref closed p99_us)") | $(ratio "$(get mclb open p99_us)" "$(get $ref open p99_us)") | $(ratio "$(get mclb open rps)" "$(get $ref open rps)") |"
  done
  echo "| nginx/relay | $(ratio "$(get nginx closed rps)" "$(get relay closed rps)") | $(ratio "$(get nginx closed p99_us)" "$(get relay closed p99_us)") | $(ratio "$(get nginx open p99_us)" "$(get relay open p99_us)") | $(ratio "$(get nginx open rps)" "$(get relay open rps)") |"
} | tee "$OUT/report.md"
echo
echo "results: $RES  report: $OUT/report.md"
