package io.mclb.feedback.kalap;

import io.netty.buffer.ByteBuf;

/**
 * The KAL-AP UDP wire format (GSS query, SLB answer) behind an interface, so that a responder can
 * be added without touching the load computation. <b>No implementation ships</b>: the format is not
 * public (reference/dfp-kalap.md section 7; searched: public code for KAL-AP/CAPP packet layouts and
 * dissectors, Wireshark's protocol list (tshark 4.0 has no KAL-AP or CAPP dissector), issue trackers
 * and vendor pages; nothing describes the octets). Until a lawful capture or a public description
 * exists mclb fails closed (it answers no KAL-AP datagram, so a GSS marks the answer offline) and
 * serves the same load over HTTP ({@code GET /api/v1/kal-ap[/TAG]}).
 */
public interface KalApCodec {
    /** A query: by virtual address, or by tag. */
    record Query(byte[] vip, String tag, int id) {
    }

    /**
     * Decodes a query datagram.
     *
     * @return the query, or null when the datagram is not a valid query (it is dropped and counted)
     */
    Query decode(ByteBuf datagram);

    /** Encodes the answer to {@code q}: the load 0..255 (255 = offline). */
    void encode(Query q, int load, ByteBuf out);
}
