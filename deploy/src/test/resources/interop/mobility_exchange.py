#!/usr/bin/python3
"""Mobile IP registrations built with scapy (scapy.layers.mobileip) and WiMAX R6 messages, sent to
mclb's virtual address; prints one RESULT line per answer and exits 0 when every request got one.

Run with /usr/bin/python3: Debian's python3-scapy is visible only to it. scapy has Registration
Request/Reply layers but no extension classes, so the NAI (131) and MN-HA authentication (32)
extensions are appended as raw bytes; scapy has no R6 layer, so R6 is packed with struct.

  mip: for each NAI, a registration (Home Agent 0.0.0.0), a renewal and a deregistration
  asn: for each MSID, MS_PreAttachment_Req, its Ack (no answer), MS_Attachment_Req, NetExit
"""
import argparse
import socket
import struct
import sys

from scapy.layers.mobileip import MobileIP, MobileIPRRQ


def rrq(nai, home_agent, lifetime, ident):
    fixed = bytes(MobileIP(type=1) / MobileIPRRQ(flags=0x02, lifetime=lifetime, homeaddr="0.0.0.0",
                                                  haaddr=home_agent, coaddr="198.51.100.7", id=ident))
    n = nai.encode()
    return fixed + bytes([131, len(n)]) + n + bytes([32, 20]) + struct.pack("!I", 256) + bytes(range(16))


def r6(function, op, mtype, msid, tid):
    body = struct.pack("!HH6s", 25, 6, bytes.fromhex("001122334455"))
    header = struct.pack("!BBBBH", 1, 0, function, (op << 5) | mtype, 20 + len(body))
    return header + struct.pack("!HI", msid >> 32, msid & 0xFFFFFFFF) + bytes(4) + struct.pack("!HH", tid, 0) + body


def exchange(sock, dst, data, expect_answer=True):
    sock.sendto(data, dst)
    if not expect_answer:
        return None
    answer, src = sock.recvfrom(9000)
    return answer, src


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--src", required=True)
    p.add_argument("--dst", required=True)
    p.add_argument("--kind", choices=["mip", "asn"], required=True)
    p.add_argument("--count", type=int, default=4)
    a = p.parse_args()
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((a.src, 0))
    s.settimeout(5)
    ok = True
    try:
        if a.kind == "mip":
            dst = (a.dst, 434)
            for i in range(a.count):
                nai = "mn%d@interop.example" % i
                for step, life in (("register", 600), ("renew", 600), ("deregister", 0)):
                    ident = (0x5EED0000 + i) << 32 | (i * 16 + {"register": 1, "renew": 2, "deregister": 3}[step])
                    answer, src = exchange(s, dst, rrq(nai, "0.0.0.0", life, ident))
                    code = answer[1]
                    low = struct.unpack("!I", answer[16:20])[0]
                    print("RESULT kind=mip nai=%s step=%s code=%d low=%d sent_low=%d src=%s:%d"
                          % (nai, step, code, low, ident & 0xFFFFFFFF, src[0], src[1]))
                    ok = ok and answer[0] == 3 and code == 0 and low == ident & 0xFFFFFFFF
        else:
            dst = (a.dst, 2231)
            for i in range(a.count):
                msid = 0x0002AABB0000 + i
                for name, (f, op, t) in (("pre_attachment", (9, 1, 1)), ("ack", (9, 3, 3)),
                                         ("attachment", (9, 1, 4)), ("net_exit", (9, 1, 16))):
                    tid = 0x8000 | (i * 8 + t)
                    got = exchange(s, dst, r6(f, op, t, msid, tid), expect_answer=(op == 1))
                    if got is None:
                        print("RESULT kind=asn msid=%012x step=%s sent" % (msid, name))
                        continue
                    answer, src = got
                    rtid = struct.unpack("!H", answer[16:18])[0]
                    print("RESULT kind=asn msid=%012x step=%s op=%d tid=%d sent_tid=%d src=%s:%d"
                          % (msid, name, answer[3] >> 5, rtid, tid, src[0], src[1]))
                    ok = ok and answer[3] >> 5 == 2 and rtid == tid
    except socket.timeout:
        print("RESULT timeout")
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
