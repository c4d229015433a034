package io.mclb.gtp.asn;

/**
 * What one R6 request carries to its answer.
 *
 * @param msid          the header's MSID
 * @param preAttachment an MS_PreAttachment_Req: an answer opens the MSID's binding
 * @param endsBinding   a NetExit or Path_Dereg request: its answer ends the binding
 */
record AsnTx(long msid, boolean preAttachment, boolean endsBinding) {
}
