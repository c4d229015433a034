#!/usr/bin/python3
"""Send a corpus of UDP datagrams (lines "PORT HEX") from --src to --dst, paced by mclb itself.

After every --batch datagrams it polls mclb's /metrics on --admin until mclb_requests_total has
counted all of them (bounded: --wait seconds per batch), so no socket buffer on the way drops
any. Prints "SENT n READ m" and exits 0 when mclb read every datagram, 1 otherwise.
"""
import argparse
import re
import socket
import time
import urllib.request


def requests_read(admin):
    text = urllib.request.urlopen("http://%s/metrics" % admin, timeout=5).read().decode()
    return sum(float(m.group(1)) for m in re.finditer(r"^mclb_requests_total\{[^}]*\} (\S+)$", text, re.M))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--corpus", required=True)
    p.add_argument("--src", required=True)
    p.add_argument("--dst", required=True)
    p.add_argument("--admin", required=True)
    p.add_argument("--batch", type=int, default=50)
    p.add_argument("--wait", type=float, default=10.0)
    a = p.parse_args()
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((a.src, 0))
    base = requests_read(a.admin)
    sent = 0
    read = 0
    for line in open(a.corpus):
        port, hexdata = line.split()
        s.sendto(bytes.fromhex(hexdata if hexdata != "-" else ""), (a.dst, int(port)))
        sent += 1
        if sent % a.batch == 0:
            deadline = time.monotonic() + a.wait
            while (read := requests_read(a.admin) - base) < sent and time.monotonic() < deadline:
                time.sleep(0.01)
    deadline = time.monotonic() + a.wait
    while (read := requests_read(a.admin) - base) < sent and time.monotonic() < deadline:
        time.sleep(0.01)
    print("SENT %d READ %d" % (sent, read))
    return 0 if read >= sent else 1


if __name__ == "__main__":
    raise SystemExit(main())
