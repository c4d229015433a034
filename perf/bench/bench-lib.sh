# bench-lib.sh: the process and socket helpers the perf/bench scripts share (sourced, not run).
# Every process a script starts runs pinned to a CPU in its own process group and is stopped
# (TERM, then KILL after 5 s) when the script exits. port_free reads $SIMS and $VIP_IP.
PGIDS=()
stop_group() { # $1 = pgid: TERM, wait up to 5 s, then KILL
  local g=$1
  kill -TERM -- "-$g" 2>/dev/null
  for _ in $(seq 50); do kill -0 -- "-$g" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$g" 2>/dev/null
  wait "$g" 2>/dev/null
}
stop_all() { local g; for g in "${PGIDS[@]}"; do [ -n "$g" ] && stop_group "$g"; done; PGIDS=(); }
trap stop_all EXIT
trap 'exit 130' INT TERM

# start CPU LOGFILE CMD...: runs CMD pinned to CPU in its own process group, sets LAST
start() {
  local cpu=$1 log=$2; shift 2
  setsid taskset -c "$cpu" "$@" >"$log" 2>&1 &
  LAST=$!
  PGIDS+=("$LAST")
}
alive() { [ -r /proc/"$1"/stat ] && [ "$(awk '{print $3}' /proc/"$1"/stat)" != Z ]; }
bound() { ss -Hlun "src $1:$2" 2>/dev/null | grep -q .; }
port_free() { local ip; for ip in $SIMS $VIP_IP; do bound "$ip" "$1" && return 1; done; return 0; }
field() { echo "$1" | grep -oE "(^| )$2=[^ ]+" | head -1 | cut -d= -f2; }
# core_busy CPU: jiffies CPU spent busy so far (user, system, irq, softirq; not idle, iowait or steal).
# It adds to a process's own utime+stime what its core does for it elsewhere: softirq deferred to
# ksoftirqd, kworkers, hard interrupts (the softirq run inside the process's own system calls is
# charged to the process on this kernel, which has no CONFIG_IRQ_TIME_ACCOUNTING). These are tick
# samples, not exact times: under a paced load whose bursts keep step with the kernel's tick they miss
# most of the work (an open loop at 18k/s read 4 µs an answer against the process's exact 23), so the
# scripts report them for closed loops only.
core_busy() { awk -v c="cpu$1" '$1 == c {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
# warmed LOG SECONDS: waits until the generator writing LOG says its warm-up is over (at most
# SECONDS + 30 s, then says so; at once when SECONDS is 0), so a measurement starts with the generator's window
warmed() {
  [ "$2" -gt 0 ] || return 0
  local i
  for i in $(seq $(( ($2 + 30) * 20 ))); do grep -q '(warm-up over)' "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "warning: no end of the generator's warm-up in $1 after $(( $2 + 30 )) s; mclb's CPU is counted from now" >&2
  return 1
}
