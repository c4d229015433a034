#!/usr/bin/python3
"""Send one GTPv2-C Create Session Request built with scapy and check the answer.

Run with /usr/bin/python3: Debian's python3-scapy is visible only to it. Prints one line
  RESULT type=<msg type> cause=<cause> seq=<seq> teid=<teid> src=<addr:port>
and exits 0 if the cause is --expect-cause, 1 on another cause, 2 on no answer (or, with
--expect-cause 0, exits 0 right after sending: a decode-only check of what scapy builds).

Four scapy 2.5.0 traps are avoided here (peers.md section 9): GTPv2 IE lengths are computed
wrongly (set explicitly, inner IEs before the grouped one), the GTPv2 header defaults to P=1
(piggyback), so P=0 is set; the GTPv2 header Length is 4 short with T=1, so it is rewritten;
GTPv1 is not used here.
"""
import argparse
import socket
import sys
import time

from scapy.contrib.gtp_v2 import (GTPHeader, GTPV2CreateSessionRequest, GTPV2EchoResponse, IE_APN,
                                  IE_BearerContext, IE_Cause, IE_EPSBearerID, IE_FTEID, IE_IMSI, IE_RAT,
                                  IE_RecoveryRestart)


def fix_len(ie):
    """scapy 2.5.0 miscomputes GTPv2 IE lengths (IMSI 10 instead of 8): set length = bytes after the 4-byte IE header."""
    ie.length = len(bytes(ie)) - 4
    return ie


def create_session_request(src, imsi, seq, sender_teid):
    bearer = fix_len(IE_BearerContext(IE_list=[fix_len(IE_EPSBearerID(EBI=5))]))
    ies = [fix_len(IE_IMSI(IMSI=imsi)),
           fix_len(IE_RAT(RAT_type=6)),                                   # EUTRAN
           fix_len(IE_FTEID(InterfaceType=10, GRE_Key=sender_teid,       # S11 MME GTP-C
                            ipv4=src, ipv4_present=1)),
           fix_len(IE_APN(APN="internet")),
           bearer]
    return fix_header_len(bytes(GTPHeader(P=0, T=1, teid=0, seq=seq) / GTPV2CreateSessionRequest(IE_list=ies)))


def fix_header_len(raw):
    """scapy 2.5.0 also writes the GTPv2 header Length 4 short when T=1 (0x38 for a 64-octet
    message instead of 60): the last IE then overruns the message and a strict peer drops it
    (mclb counts gtp_ie_overruns_message; tshark is lenient). Length = octets after the first 4."""
    n = len(raw) - 4
    return raw[:2] + bytes([n >> 8, n & 0xFF]) + raw[4:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True, help="local address (binds port 2123)")
    ap.add_argument("--dst", required=True, help="virtual address (port 2123)")
    ap.add_argument("--imsi", required=True)
    ap.add_argument("--seq", type=int, default=1)
    ap.add_argument("--expect-cause", type=int, default=16)
    ap.add_argument("--timeout", type=float, default=5.0)
    a = ap.parse_args()

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((a.src, 2123))
    dst = (a.dst, 2123)
    sender_teid = 0x1000 + a.seq
    s.sendto(create_session_request(a.src, a.imsi, a.seq, sender_teid), dst)
    if a.expect_cause == 0:
        print("RESULT sent-only")
        return 0
    deadline = time.monotonic() + a.timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            print("RESULT no-answer")
            return 2
        s.settimeout(left)
        try:
            data, peer = s.recvfrom(65535)
        except socket.timeout:
            continue
        h = GTPHeader(data)
        if h.version != 2:
            print("ignored version %d from %s" % (h.version, peer), file=sys.stderr)
            continue
        if h.gtp_type == 1:
            # a peer checks a new neighbour with an Echo Request first; answer it and keep waiting
            s.sendto(bytes(GTPHeader(P=0, T=0, seq=h.seq) /
                           GTPV2EchoResponse(IE_list=[fix_len(IE_RecoveryRestart(restart_counter=1))])), peer)
            continue
        cause = next((ie.Cause for ie in getattr(h.payload, "IE_list", []) if isinstance(ie, IE_Cause)), -1)
        print("RESULT type=%d cause=%d seq=%d teid=%d src=%s:%d" % (h.gtp_type, cause, h.seq, h.teid, peer[0], peer[1]))
        if h.gtp_type != 33 or h.seq != a.seq or h.teid != sender_teid:
            print("unexpected answer: want type 33, seq %d, teid %d" % (a.seq, sender_teid), file=sys.stderr)
            return 1
        return 0 if cause == a.expect_cause else 1


if __name__ == "__main__":
    sys.exit(main())
