package io.mclb.gtp.lb;

/**
 * What a GTP transaction carries from its request to the answer: a create's subscriber (to open its
 * session when accepted), or the session a delete ends; other requests carry nothing (null).
 */
sealed interface GtpTx permits GtpTx.Create, GtpSession {

    /** A create (or a v1 secondary create) of {@code imsiRaw} with NSAPI/EBI {@code nsapi}. */
    record Create(long imsiRaw, int nsapi) implements GtpTx {
    }
}
