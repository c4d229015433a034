#!/usr/bin/env python3
# Cost of a new plain-UDP flow as the number of live flows grows: opens sockets one by one, each
# sends one datagram to the VIP and waits for the answer, and prints the mean time per new flow
# for every 2,000 flows. Needs mclb on perf/bench/udp-relay.cfg and `mclb sim udp` on its reals:
#   ./mclb sim udp -l 127.0.0.11:9001,127.0.0.12:9001,127.0.0.13:9001 &
#   ./mclb run -c perf/bench/udp-relay.cfg &
#   ulimit -n 20000; python3 perf/bench/udp-new-flows.py
import socket, time, sys
target = ("127.0.0.100", 9000)
socks = []
def batch(n):
    t0 = time.perf_counter()
    for i in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        s.settimeout(2)
        s.sendto(b"x" * 32, target)
        s.recvfrom(2048)
        socks.append(s)
    return (time.perf_counter() - t0) / n * 1e6
for step in range(8):
    us = batch(2000)
    print(f"flows {len(socks):6d}: {us:7.1f} us per new flow", flush=True)
