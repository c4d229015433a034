#!/usr/bin/env bash
# A worked example of 'mclb dfp-agent' against real osmo-ggsn (issue 11), in a network namespace of
# its own so nothing touches the host: two osmo-ggsn (127.0.0.2, .3), one sidecar per GGSN reading
# its live PDP contexts from the GGSN's VTY, mclb as DFP manager (deploy/examples/dfp-ggsn-farm.cfg),
# sgsnemu as the SGSN. GGSN 1's sidecar says it holds at most 2 PDP contexts (--max 2): once
# sgsnemu has 2 contexts there, its weight is 0 and mclb sends new subscribers to GGSN 2.
#   sudo deploy/examples/dfp-osmo-ggsn/run.sh        (needs root, osmo-ggsn, sgsnemu, JDK 17)
# Everything started here is stopped by PID on exit, the namespace is deleted.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
HERE="$ROOT/deploy/examples/dfp-osmo-ggsn"
WORK="$(mktemp -d /tmp/mclb-dfp-example.XXXXXX)"
NS="mclb-dfp-ex-$$"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 2
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  # anything else still in the namespace was started by this script
  for p in $(ip netns pids "$NS" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
  ip netns del "$NS" 2>/dev/null || true
  echo "logs in $WORK"
}
trap cleanup EXIT
(cd "$ROOT" && ./mclb --version >/dev/null)   # builds the jar once, outside the namespace
ip netns add "$NS"
ip -n "$NS" link set lo up
# background programs are started with 'ip netns exec' itself (it execs in place), so $! is their PID
in_ns() { ip netns exec "$NS" "$@"; }

for n in 1 2; do
  ip="127.0.0.$((n + 1))"
  mkdir -p "$WORK/state$n"
  sed -e "s|@IP@|$ip|g" -e "s|@N@|$n|g" -e "s|@STATE@|$WORK/state$n|g" "$HERE/ggsn.cfg.in" > "$WORK/ggsn$n.cfg"
  ip netns exec "$NS" osmo-ggsn -c "$WORK/ggsn$n.cfg" > "$WORK/ggsn$n.log" 2>&1 &
  PIDS+=($!)
done
printf 'DfpS3cret\n' > "$WORK/dfp.pw"
for n in 1 2; do
  ip="127.0.0.$((n + 1))"
  max=$([ "$n" = 1 ] && echo 2 || echo 10000)
  ip netns exec "$NS" env MCLB_NO_BUILD=1 "$ROOT/mclb" dfp-agent --listen "$ip:8081" --real "$ip" \
    --current "osmo-vty:$ip:4260" --max "$max" --interval 1 --password-file "$WORK/dfp.pw" \
    > "$WORK/dfp-agent$n.log" 2>&1 &
  PIDS+=($!)
done
sed -e "s|mclb data-dir ./data/dfp-ggsn-farm|mclb data-dir $WORK/data|" "$ROOT/deploy/examples/dfp-ggsn-farm.cfg" > "$WORK/mclb.cfg"
ip netns exec "$NS" env MCLB_NO_BUILD=1 "$ROOT/mclb" run -c "$WORK/mclb.cfg" > "$WORK/mclb.log" 2>&1 &
PIDS+=($!)
show() { in_ns env MCLB_NO_BUILD=1 "$ROOT/mclb" show "$@" --admin 127.0.0.1:18087; }
for i in $(seq 1 120); do show dfp >/dev/null 2>&1 && break; sleep 1; done
for i in $(seq 1 30); do show dfp weights 2>/dev/null | grep -q 127.0.0.3 && break; sleep 1; done
echo "== mclb show dfp";         show dfp
echo "== mclb show dfp weights"; show dfp weights

echo "== sgsnemu: 2 subscribers (weighted round robin 8,8: both go to GGSN 1, which then holds its --max 2)"
mkdir -p "$WORK/sgsn"
ip netns exec "$NS" stdbuf -oL sgsnemu -l 127.0.0.10 -r 127.0.0.112 --imsi 262010000000001 --apn internet --contexts 2 \
  --timelimit 120 --statedir "$WORK/sgsn" --pidfile "$WORK/sgsn/sgsnemu.pid" > "$WORK/sgsnemu.log" 2>&1 &
PIDS+=($!)
for i in $(seq 1 30); do [ "$(grep -c 'received EUA' "$WORK/sgsnemu.log" || true)" -ge 2 ] && break; sleep 1; done
for i in $(seq 1 30); do show reals | grep -q DFP_THROTTLED && break; sleep 1; done
echo "== sgsnemu: a third subscriber, after GGSN 1's weight went to 0: it goes to GGSN 2"
mkdir -p "$WORK/sgsn2"
ip netns exec "$NS" stdbuf -oL sgsnemu -l 127.0.0.11 -r 127.0.0.112 --imsi 262010000000003 --apn internet --contexts 1 \
  --timelimit 120 --statedir "$WORK/sgsn2" --pidfile "$WORK/sgsn2/sgsnemu.pid" > "$WORK/sgsnemu2.log" 2>&1 &
PIDS+=($!)
for i in $(seq 1 30); do grep -q 'received EUA' "$WORK/sgsnemu2.log" && break; sleep 1; done
echo "== mclb show reals";       show reals
echo "== mclb show dfp weights"; show dfp weights
echo "== mclb show kal-ap";      show kal-ap
echo "== sidecar of GGSN 1";     tail -n 3 "$WORK/dfp-agent1.log"
