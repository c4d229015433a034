#!/bin/bash
# thread-cpu.sh: CPU per answer of every thread of a process over a window (sourced by the
# perf/bench compare scripts, or run by hand):
#   thread-cpu.sh snap PID > FILE                  one line per thread: tid name utime+stime utime stime (ticks)
#   thread-cpu.sh report BEFORE AFTER ANSWERS      µs per answer per thread name (summed over the
#                                                  threads of that name), largest first, then the total;
#                                                  each line also splits it into user and system time
# The split tells a run whose loop is slower in its own code (the JIT's: user time alone grows) from
# one on a slower host (both grow in proportion): one build's loop cost moved 10-14 µs an answer
# between runs under the same load, and the slow run measured was the host's (perf/README.md).
# The event loops are mclb-loop-*; every other line is CPU the process spends beside them
# (JIT compiler threads, G1 refinement and GC workers, the binding ager, the sticky sweeper, ...),
# which a benchmark that pins mclb to one core takes out of the loops' core.
set -u
case ${1:-} in
  snap)
    # one cat and one awk over every thread's stat (cat, so that a thread ending meanwhile is only
    # skipped): a shell loop of tr, sed and awk per thread forked about 80 processes for mclb at the
    # start of each measured window, 86 ms of CPU for a 22-thread JVM against 7 ms now
    cat /proc/"$2"/task/*/stat 2>/dev/null | awk '{
      tid = $1
      l = index($0, "("); r = length($0); while (r > l && substr($0, r, 1) != ")") r--
      name = substr($0, l + 1, r - l - 1); gsub(/ /, "_", name)
      n = split(substr($0, r + 2), f, " ")
      print tid, name, f[12] + f[13], f[12], f[13]
    }' ;;
  report)
    awk -v hz="$(getconf CLK_TCK)" -v ans="$4" '
      FNR == NR { before[$1] = $3; bu[$1] = $4; bs[$1] = $5; next }
      $3 != "" {
        d = $3 - ($1 in before ? before[$1] : 0); by[$2] += d; total += d
        u = $4 - ($1 in bu ? bu[$1] : 0); us[$2] += u; tu += u
        y = $5 - ($1 in bs ? bs[$1] : 0); ys[$2] += y; ty += y
      }
      END {
        if (ans <= 0) { print "no answers"; exit }
        n = 0; for (k in by) if (by[k] > 0) names[++n] = k
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (by[names[j]] > by[names[i]]) { t = names[i]; names[i] = names[j]; names[j] = t }
        f = 1e6 / hz / ans
        for (i = 1; i <= n; i++) printf "%-18s %8.2f us/answer  user %.2f sys %.2f\n", names[i], by[names[i]] * f, us[names[i]] * f, ys[names[i]] * f
        printf "%-18s %8.2f us/answer (%d answers)  user %.2f sys %.2f\n", "process", total * f, ans, tu * f, ty * f
      }' "$2" "$3" ;;
  *) echo "usage: $0 snap PID | report BEFORE AFTER ANSWERS" >&2; exit 2 ;;
esac
