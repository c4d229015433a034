package io.mclb.vserver;

import io.mclb.farm.RealServer;

import java.net.InetSocketAddress;

/**
 * One row of {@code show conns}: a plain UDP flow, or a request/response transaction in flight or
 * lingering for retransmissions. A copy taken on the relay's loop; never read by the data path.
 *
 * @param state  IOS-like: ESTAB (a flow, or an answered transaction), INIT (waiting for the answer)
 * @param detail what else the relay knows (ids, datagrams without an answer), for {@code detail}
 */
public record Connection(String vserver, int listenPort, InetSocketAddress client, RealServer real, String state,
                         long ageMs, long idleMs, String detail) {
}
