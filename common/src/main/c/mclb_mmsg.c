/*
 * recvmmsg and sendmmsg for the UDP data path (io.netty.channel.epoll.MmsgVector): the message
 * vector, its iovecs and its sockaddrs are laid out by Java in native memory, so a call is one
 * syscall and nothing else. Netty's own recvmmsg0 adds a getsockopt(IP_RECVORIGDSTADDR) to every
 * call, clears a sockaddr_storage per slot and reads and writes each packet's Java fields through
 * JNI (perf/README.md, "Issue 15": 5 % of the relay loop's CPU).
 */
#define _GNU_SOURCE
#include <jni.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <netinet/in.h>

/* @return datagrams received, or -errno (-EAGAIN when none is waiting) */
JNIEXPORT jint JNICALL Java_io_netty_channel_epoll_MmsgVector_recvmmsg0(JNIEnv *env, jclass cls, jint fd, jlong vec,
                                                                        jint count) {
    (void) env;
    (void) cls;
    int r;
    do {
        r = recvmmsg(fd, (struct mmsghdr *) (intptr_t) vec, (unsigned int) count, MSG_DONTWAIT, NULL);
    } while (r < 0 && errno == EINTR);
    return r < 0 ? -errno : r;
}

/* @return datagrams sent from the start of the vector, or -errno for the first one */
JNIEXPORT jint JNICALL Java_io_netty_channel_epoll_MmsgVector_sendmmsg0(JNIEnv *env, jclass cls, jint fd, jlong vec,
                                                                        jint count) {
    (void) env;
    (void) cls;
    int r;
    do {
        r = sendmmsg(fd, (struct mmsghdr *) (intptr_t) vec, (unsigned int) count, MSG_DONTWAIT);
    } while (r < 0 && errno == EINTR);
    return r < 0 ? -errno : r;
}

/*
 * The ABI the Java side writes, checked once at load: sizes and offsets of struct mmsghdr,
 * struct iovec and the sockaddrs, and the constants it uses. Fills out[0..21), returns 21.
 */
JNIEXPORT jint JNICALL Java_io_netty_channel_epoll_MmsgVector_layout0(JNIEnv *env, jclass cls, jintArray out) {
    (void) cls;
    jint v[] = {
        (jint) sizeof(struct mmsghdr),
        (jint) offsetof(struct mmsghdr, msg_hdr.msg_name),
        (jint) offsetof(struct mmsghdr, msg_hdr.msg_namelen),
        (jint) offsetof(struct mmsghdr, msg_hdr.msg_iov),
        (jint) offsetof(struct mmsghdr, msg_hdr.msg_iovlen),
        (jint) offsetof(struct mmsghdr, msg_hdr.msg_control),
        (jint) offsetof(struct mmsghdr, msg_hdr.msg_controllen),
        (jint) offsetof(struct mmsghdr, msg_hdr.msg_flags),
        (jint) offsetof(struct mmsghdr, msg_len),
        (jint) sizeof(struct iovec),
        (jint) offsetof(struct iovec, iov_base),
        (jint) offsetof(struct iovec, iov_len),
        (jint) sizeof(struct sockaddr_in),
        (jint) offsetof(struct sockaddr_in, sin_port),
        (jint) offsetof(struct sockaddr_in, sin_addr),
        (jint) sizeof(struct sockaddr_in6),
        (jint) offsetof(struct sockaddr_in6, sin6_addr),
        (jint) offsetof(struct sockaddr_in6, sin6_scope_id),
        AF_INET,
        AF_INET6,
        MSG_TRUNC,
    };
    jint n = (jint) (sizeof v / sizeof v[0]);
    if ((*env)->GetArrayLength(env, out) < n) {
        return -1;
    }
    (*env)->SetIntArrayRegion(env, out, 0, n, v);
    return n;
}
