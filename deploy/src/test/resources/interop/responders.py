# A plain TCP listener (accepts and closes) and a UDP echo on ADDRESS, for HealthProbesInteropIT.
import socket
import sys
import threading

address, tcp_port, udp_port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
t.bind((address, tcp_port))
t.listen(64)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.bind((address, udp_port))


def accept():
    while True:
        c, _ = t.accept()
        c.close()


threading.Thread(target=accept, daemon=True).start()
print("listening", flush=True)
while True:
    data, peer = u.recvfrom(2048)
    u.sendto(data, peer)
