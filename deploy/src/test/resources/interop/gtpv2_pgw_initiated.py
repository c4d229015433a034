#!/usr/bin/python3
"""GTPv2-C through mclb's 'gtp signalling vip', both ends played with scapy-built messages.

An SGW (--sgw, port 2123) creates a session through the virtual address (--vip, port 2123) at a
PGW (--pgw, port 2123) that this script also plays. Then the PGW, which only knows the virtual
address and mclb's TEID as the SGW's S5/S8 GTP-C identity, sends an Update Bearer Request and a
Delete Bearer Request (LBI 5: the PDN connection) to the virtual address; the SGW answers each.

Prints one line per step, "STEP <name> <facts>", and exits 0 when every check held, 1 on a
failed check (with "FAIL <why>"), 2 when a message did not arrive within --timeout.

Checked: the PGW sees the virtual address and a TEID other than the SGW's in the Sender F-TEID,
and the SGW's GTP-U F-TEID untouched; every answer reaches the SGW with the SGW's own TEID; the
PGW's requests reach the SGW from VIP:2123 with the SGW's own TEID, and the answers reach the PGW
from VIP:2123 with the PGW's own TEID and sequence. The scapy 2.5.0 traps of
gtpv2_create_session.py (IE lengths, P flag, header length) are avoided the same way.
"""
import argparse
import socket
import sys

from scapy.contrib.gtp_v2 import (GTPHeader, GTPV2CreateSessionRequest, GTPV2CreateSessionResponse,
                                  GTPV2DeleteBearerRequest, GTPV2DeleteBearerResponse, GTPV2UpdateBearerRequest,
                                  GTPV2UpdateBearerResponse, IE_AMBR, IE_APN, IE_BearerContext, IE_Cause,
                                  IE_EPSBearerID, IE_FTEID, IE_IMSI, IE_RAT)

SGW_TEID = 0x5001
SGW_USER_TEID = 0x5002
PGW_TEID = 0x7001
PGW_USER_TEID = 0x7002


class Timeout(Exception):
    pass


def fix_len(ie):
    ie.length = len(bytes(ie)) - 4
    return ie


def message(teid, seq, body):
    raw = bytes(GTPHeader(P=0, T=1, teid=teid, seq=seq) / body)
    n = len(raw) - 4
    return raw[:2] + bytes([n >> 8, n & 0xFF]) + raw[4:]


def fteid(instance, if_type, teid, addr):
    return fix_len(IE_FTEID(instance=instance, InterfaceType=if_type, GRE_Key=teid, ipv4=addr, ipv4_present=1))


def ies(h):
    return list(getattr(h.payload, "IE_list", []))


def find_fteid(h, instance):
    return next((ie for ie in ies(h) if isinstance(ie, IE_FTEID) and ie.instance == instance), None)


def receive(sock, timeout, want_type):
    sock.settimeout(timeout)
    while True:
        try:
            data, peer = sock.recvfrom(65535)
        except socket.timeout:
            raise Timeout("no message type %d" % want_type)
        h = GTPHeader(data)
        if h.version == 2 and h.gtp_type == want_type:
            return h, peer
        print("ignored type %d from %s" % (h.gtp_type, peer), file=sys.stderr)


def check(ok, why):
    if not ok:
        print("FAIL " + why)
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sgw", required=True)
    ap.add_argument("--pgw", required=True)
    ap.add_argument("--vip", required=True)
    ap.add_argument("--imsi", default="262010000000901")
    ap.add_argument("--timeout", type=float, default=10.0)
    a = ap.parse_args()
    vip = (a.vip, 2123)
    sgw = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sgw.bind((a.sgw, 2123))
    pgw = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    pgw.bind((a.pgw, 2123))
    try:
        # SGW -> VIP: Create Session Request naming the SGW's S5/S8 GTP-C and GTP-U F-TEIDs
        bearer = fix_len(IE_BearerContext(IE_list=[fix_len(IE_EPSBearerID(EBI=5)),
                                                   fteid(2, 4, SGW_USER_TEID, a.sgw)]))
        sgw.sendto(message(0, 1, GTPV2CreateSessionRequest(IE_list=[
            fix_len(IE_IMSI(IMSI=a.imsi)), fix_len(IE_RAT(RAT_type=6)), fteid(0, 6, SGW_TEID, a.sgw),
            fix_len(IE_APN(APN="internet")), bearer])), vip)

        create, mclb = receive(pgw, a.timeout, 32)
        sender = find_fteid(create, 0)
        user = next((ie for b in ies(create) if isinstance(b, IE_BearerContext)
                     for ie in b.IE_list if isinstance(ie, IE_FTEID)), None)
        print("STEP pgw-create sender=%s/%d user=%s/%d" % (sender.ipv4, sender.GRE_Key, user.ipv4, user.GRE_Key))
        check(sender.ipv4 == a.vip, "the PGW was told the SGW is %s, not the virtual address" % sender.ipv4)
        check(sender.GRE_Key not in (0, SGW_TEID), "the PGW was told the SGW's own TEID")
        check(user.ipv4 == a.sgw and user.GRE_Key == SGW_USER_TEID, "the SGW's user plane was changed")
        mine = sender.GRE_Key

        pbearer = fix_len(IE_BearerContext(IE_list=[fix_len(IE_EPSBearerID(EBI=5)), fix_len(IE_Cause(Cause=16)),
                                                    fteid(2, 5, PGW_USER_TEID, a.pgw)]))
        pgw.sendto(message(mine, create.seq, GTPV2CreateSessionResponse(IE_list=[
            fix_len(IE_Cause(Cause=16)), fteid(0, 7, PGW_TEID, a.pgw), fteid(1, 7, PGW_TEID, a.pgw), pbearer])),
            mclb)
        answer, _ = receive(sgw, a.timeout, 33)
        pgw_c = find_fteid(answer, 1)
        print("STEP sgw-created teid=%d pgw=%s/%d" % (answer.teid, pgw_c.ipv4, pgw_c.GRE_Key))
        check(answer.teid == SGW_TEID, "the Create Session Response is not addressed to the SGW's own TEID")
        check(pgw_c.ipv4 == a.vip and pgw_c.GRE_Key == mine, "the SGW does not know the PGW by the VIP and mclb's TEID")

        steps = [("update", 0x100, GTPV2UpdateBearerRequest(IE_list=[
                     fix_len(IE_BearerContext(IE_list=[fix_len(IE_EPSBearerID(EBI=5))])),
                     fix_len(IE_AMBR(AMBR_Uplink=1000, AMBR_Downlink=2000))]), 97,
                  GTPV2UpdateBearerResponse(IE_list=[fix_len(IE_Cause(Cause=16)), fix_len(IE_BearerContext(
                     IE_list=[fix_len(IE_EPSBearerID(EBI=5)), fix_len(IE_Cause(Cause=16))]))])),
                 ("delete", 0x101, GTPV2DeleteBearerRequest(IE_list=[fix_len(IE_EPSBearerID(EBI=5))]), 99,
                  GTPV2DeleteBearerResponse(IE_list=[fix_len(IE_Cause(Cause=16))]))]
        for name, seq, request, rtype, response in steps:
            # PGW -> VIP with mclb's TEID: relayed to the SGW with its own
            pgw.sendto(message(mine, seq, request), vip)
            req, peer = receive(sgw, a.timeout, rtype)
            print("STEP sgw-%s from=%s:%d teid=%d" % (name, peer[0], peer[1], req.teid))
            check(peer == vip, "the %s reached the SGW from %s, not the virtual address" % (name, peer))
            check(req.teid == SGW_TEID, "the %s reached the SGW with TEID %d" % (name, req.teid))
            # the SGW answers to the TEID it knows for the PGW (mclb's), from where the request came
            sgw.sendto(message(mine, req.seq, response), peer)
            ans, peer = receive(pgw, a.timeout, rtype + 1)
            print("STEP pgw-%s-answer from=%s:%d teid=%d seq=%d" % (name, peer[0], peer[1], ans.teid, ans.seq))
            check(peer == vip, "the %s answer came from %s" % (name, peer))
            check(ans.teid == PGW_TEID and ans.seq == seq, "the %s answer carries TEID %d seq %d" % (name, ans.teid, ans.seq))
    except Timeout as e:
        print("FAIL " + str(e))
        return 2
    print("RESULT ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
