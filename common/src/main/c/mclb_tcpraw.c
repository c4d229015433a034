/*
 * The one thing Java cannot do for the tcp probe's half-open check: open a raw TCP socket.
 * Netty's epoll transport reads and writes it over the returned descriptor; the source port it
 * answers to is reserved by an ordinary TCP socket bound in Java.
 */
#include <jni.h>
#include <errno.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>
#include <linux/filter.h>

#ifndef IPV6_CHECKSUM
#define IPV6_CHECKSUM 7
#endif

/*
 * Passes only segments to {@code port} with SYN and ACK both set, or with RST set: the answers
 * to our SYNs. Without it every raw TCP socket gets a copy of every TCP segment the host
 * receives. The filter sees a raw IPv4 datagram from its IP header, an IPv6 one from its TCP
 * header; the destination port is the 16 bits at offset 2, the flags the byte at offset 13.
 */
static int filter_port(int fd, int ipv6, unsigned int port) {
    struct sock_filter v4[] = {
        BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 0),          /* X = IP header length */
        BPF_STMT(BPF_LD | BPF_H | BPF_IND, 2),           /* A = destination port */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, port, 0, 5),
        BPF_STMT(BPF_LD | BPF_B | BPF_IND, 13),          /* A = flags */
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x04, 2, 0), /* RST */
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x12),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x12, 0, 1),  /* SYN and ACK */
        BPF_STMT(BPF_RET | BPF_K, 0xffffffffU),
        BPF_STMT(BPF_RET | BPF_K, 0),
    };
    struct sock_filter v6[] = {
        BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 2),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, port, 0, 5),
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x04, 2, 0),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x12),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x12, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, 0xffffffffU),
        BPF_STMT(BPF_RET | BPF_K, 0),
    };
    struct sock_fprog prog;
    if (ipv6) {
        prog.len = sizeof v6 / sizeof v6[0];
        prog.filter = v6;
    } else {
        prog.len = sizeof v4 / sizeof v4[0];
        prog.filter = v4;
    }
    return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog);
}

/*
 * Returns a non-blocking, close-on-exec raw TCP socket of the family (CAP_NET_RAW) that reads
 * only SYN-ACKs and resets sent to {@code port}, or -errno. IPv4: the kernel writes the IP
 * header, the caller the TCP checksum. IPv6: the kernel computes the checksum (IPV6_CHECKSUM,
 * the TCP checksum's offset 16) over the pseudo-header with the source address it chooses.
 */
JNIEXPORT jint JNICALL Java_io_mclb_probe_TcpRawNative_open0(JNIEnv *env, jclass cls, jboolean ipv6, jint port) {
    (void) env;
    (void) cls;
    int fd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
    if (fd < 0) {
        return -errno;
    }
    int rc = 0;
    if (ipv6) {
        int offset = 16;
        rc = setsockopt(fd, IPPROTO_IPV6, IPV6_CHECKSUM, &offset, sizeof offset);
    }
    if (rc == 0) {
        rc = filter_port(fd, ipv6, (unsigned int) port & 0xffff);
    }
    if (rc < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    return fd;
}
