# One A query to PowerDNS on 127.0.0.53:5300 (scapy builds and parses it); prints the answers.
import socket, sys
from scapy.layers.dns import DNS, DNSQR
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(3)
s.sendto(bytes(DNS(id=7, rd=1, qd=DNSQR(qname=sys.argv[1], qtype="A"))), ("127.0.0.53", 5300))
d = DNS(s.recv(4096))
print(" ".join(str(d.an[i].rdata) for i in range(d.ancount)))
