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

/* linux/icmp.h clashes with netinet headers; these two values are the kernel ABI */
#define MCLB_ICMP_FILTER 1
#define MCLB_ICMP_ECHOREPLY 0
#ifndef SOL_RAW
#define SOL_RAW 255
#endif

/*
 * Returns a non-blocking, close-on-exec ICMP (ipv6 = false) or ICMPv6 socket, a ping datagram
 * socket (raw = false, net.ipv4.ping_group_range) or a raw one (CAP_NET_RAW), or -errno.
 * A raw socket sees every ICMP message the host receives: it is filtered to echo replies.
 */
JNIEXPORT jint JNICALL Java_io_mclb_probe_IcmpNative_open0(JNIEnv *env, jclass cls, jboolean ipv6, jboolean raw) {
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
        if (rc < 0) {
            int e = errno;
            close(fd);
            return -e;
        }
    }
    return fd;
}
