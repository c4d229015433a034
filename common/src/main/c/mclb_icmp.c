/*
 * The one thing Java cannot do for the ping probe: open an ICMP socket. Everything else (reads,
 * writes, readiness) is done by Netty's epoll transport over the returned descriptor.
 */
#include <jni.h>
#include <errno.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/icmp6.h>
#include <unistd.h>
#include <linux/filter.h>

/* linux/icmp.h clashes with netinet headers; these two values are the kernel ABI */
#define MCLB_ICMP_FILTER 1
#define MCLB_ICMP_ECHOREPLY 0
#ifndef SOL_RAW
#define SOL_RAW 255
#endif

/*
 * Passes only echo replies carrying our identifier (iputils ping does the same): without it
 * every raw ICMP socket of the host gets every echo reply, so with one socket per event loop
 * each loop would read and discard the replies to all the others. The filter sees a raw IPv4
 * datagram from its IP header, an ICMPv6 one from its ICMPv6 header; the identifier is the
 * 16 bits at offset 4 of the echo message, in network order as BPF loads it.
 */
static int filter_ident(int fd, int ipv6, unsigned int ident) {
    struct sock_filter v4[] = {
        BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 0),          /* X = IP header length */
        BPF_STMT(BPF_LD | BPF_H | BPF_IND, 4),           /* A = echo identifier */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ident, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, 0xffffffffU),          /* ours: whole datagram */
        BPF_STMT(BPF_RET | BPF_K, 0),                    /* another prober's: dropped */
    };
    struct sock_filter v6[] = {
        BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 4),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ident, 0, 1),
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
 * Returns a non-blocking, close-on-exec ICMP (ipv6 = false) or ICMPv6 socket, a ping datagram
 * socket (raw = false, net.ipv4.ping_group_range) or a raw one (CAP_NET_RAW), or -errno.
 * A raw socket sees every ICMP message the host receives: it is filtered to echo replies with
 * the identifier {@code ident} (a datagram socket gets only its own replies from the kernel).
 */
JNIEXPORT jint JNICALL Java_io_mclb_probe_IcmpNative_open0(JNIEnv *env, jclass cls, jboolean ipv6, jboolean raw,
                                                           jint ident) {
    (void) env;
    (void) cls;
    int family = ipv6 ? AF_INET6 : AF_INET;
    int proto = ipv6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP;
    int fd = socket(family, (raw ? SOCK_RAW : SOCK_DGRAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, proto);
    if (fd < 0) {
        return -errno;
    }
    if (raw) {
        int rc;
        if (ipv6) {
            struct icmp6_filter f;
            ICMP6_FILTER_SETBLOCKALL(&f);
            ICMP6_FILTER_SETPASS(ICMP6_ECHO_REPLY, &f);
            rc = setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &f, sizeof f);
        } else {
            unsigned int blocked = ~(1U << MCLB_ICMP_ECHOREPLY);
            rc = setsockopt(fd, SOL_RAW, MCLB_ICMP_FILTER, &blocked, sizeof blocked);
        }
        if (rc == 0) {
            rc = filter_ident(fd, ipv6, (unsigned int) ident & 0xffff);
        }
        if (rc < 0) {
            int e = errno;
            close(fd);
            return -e;
        }
    }
    return fd;
}
