#!/usr/bin/env python3
# How much 1,000 idle or half-sent connections to the admin listener delay a Prometheus scrape
# (issue 14: at most 100 ms). Scrapes /metrics N times on fresh connections, opens HELD connections
# (every other one sends half a request and stops), scrapes N times again while they are held,
# and prints the medians and p95s, before and during. Needs a running mclb, e.g.
#   ./mclb run -c deploy/examples/udp-echo.cfg &
#   ulimit -n 20000; python3 perf/bench/admin-held-connections.py ADMIN_PORT [HELD] [N]
# The held connections must be opened and scraped within 'mclb admin timeout' (10 s by default).
import socket, sys, time, urllib.request

port = int(sys.argv[1])
held_n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
n = int(sys.argv[3]) if len(sys.argv) > 3 else 21


def scrape_ms():
    t0 = time.perf_counter()
    urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read()
    return (time.perf_counter() - t0) * 1000


def stats(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2], xs[int(len(xs) * 0.95) - 1]


before = [scrape_ms() for _ in range(n)]
held = []
for i in range(held_n):
    s = socket.create_connection(("127.0.0.1", port))
    if i % 2 == 0:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Half: ")
    held.append(s)
during = [scrape_ms() for _ in range(n)]
(b50, b95), (d50, d95) = stats(before), stats(during)
print(f"scrape before: median {b50:.1f} ms p95 {b95:.1f} ms; with {held_n} held: median {d50:.1f} ms"
      f" p95 {d95:.1f} ms; median delay {d50 - b50:+.1f} ms (ratio {d50 / b50:.2f})")
