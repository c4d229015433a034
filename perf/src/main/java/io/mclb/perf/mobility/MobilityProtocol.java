package io.mclb.perf.mobility;

import io.netty.buffer.ByteBuf;

/**
 * What a mobility load generator sends and how an answer matches: Mobile IP registrations
 * ({@link MipLoad}) or WiMAX R6 pre-attachments ({@link AsnLoad}). The generator gives each
 * request a counter, and the protocol puts its low {@link #keyBits()} bits where the answer
 * echoes them (Mobile IP: the low Identification bits; R6: the transaction ID).
 */
public interface MobilityProtocol {
    /** Largest request in bytes. */
    int requestCapacity();

    /** Width of the counter bits an answer echoes (at most 24). */
    int keyBits();

    /** Writes the request for subscriber number {@code subscriber} from flow {@code flow} with {@code counter}. */
    void writeRequest(ByteBuf out, long subscriber, int flow, long counter);

    /** The echoed counter bits of an answer, or -1 when it is not one. */
    long answerKey(ByteBuf in);

    /** Whether a matched answer accepts (MIP code 0/1; R6 any Response). */
    boolean accepted(ByteBuf in);

    /** Short name for logs and results ("mip", "asn"). */
    String name();
}
