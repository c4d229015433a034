package io.mclb.gtp.asn;

/**
 * The records of the ASN gateway service's configuration lines ({@link AsnConfigSyntax} reads them
 * once; runtime code reads only these). gtp/README.md lists the lines with their defaults.
 */
final class AsnLines {
    private AsnLines() {
    }

    /** vserver {@code sticky asn msid [group N]}; group 0 = the virtual server's own table. */
    record StickyMsid(int group) {
    }

    /** vserver {@code idle asn request S}: how long a request waits for its answer. */
    record IdleRequest(int seconds) {
    }

    /** vserver {@code idle asn msid S}: lifetime of an MSID's sticky entry and of an idle binding. */
    record IdleMsid(int seconds) {
    }

    /** farm {@code failaction asn purge}: a gateway that fails loses its MSID entries and bindings. */
    record FailactionPurge() {
    }
}
