package io.mclb.ha.replication;

/**
 * Replication frame types. Closed on purpose: unlike a data-path protocol there is no third
 * party to pass unknown types through to, and applying a half-understood stream would leave the
 * standby's table inconsistent, so an unknown type is refused as malformed.
 */
enum FrameType {
    /**
     * standby -> active: {@code nonce (16)}; asks for the stream and a full snapshot. The header's
     * flags byte (0 in every other frame) says what else the standby applies:
     * {@link #HELLO_BINDINGS}. An active that predates a flag ignores it, and an active sends the
     * binding frames only to a standby that set it, so either node can be upgraded first.
     */
    HELLO(1),
    /** active -> standby: {@code key (20) | value (16)}. */
    PUT(2),
    /** active -> standby: {@code key (20)}. */
    REMOVE(3),
    /** active -> standby: {@code snapshotId (8)}; puts and removes after it beat snapshot entries. */
    SNAPSHOT_BEGIN(4),
    /** active -> standby: {@code (key (20) | value (16)) * n}. */
    SNAPSHOT_ENTRIES(5),
    /** active -> standby: {@code snapshotId (8) | entries (8)}; the standby sweeps what the snapshot did not name. */
    SNAPSHOT_END(6),
    /** active -> standby: {@code keyLength (2) | key (UTF-8) | value}; a replicated state item. */
    STATE(7),
    /** active -> standby: the running configuration as UTF-8 text (LocalDirector {@code write standby}). */
    CONFIG(8),
    /** active -> standby: empty; keeps an idle stream alive. */
    HEARTBEAT(9),
    /** active -> standby: one binding opened or refreshed ({@link BindingEntries} open entry). */
    BINDING_OPEN(10),
    /** active -> standby: one binding closed ({@link BindingEntries} close entry). */
    BINDING_CLOSE(11),
    /** active -> standby, between SNAPSHOT_BEGIN and SNAPSHOT_END: open entries * n. */
    BINDING_SNAPSHOT(12);

    /** HELLO flag: the standby applies binding frames (issue 13). */
    static final int HELLO_BINDINGS = 1;

    final int code;

    FrameType(int code) {
        this.code = code;
    }

    private static final FrameType[] BY_CODE = new FrameType[16];

    static {
        for (FrameType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    /** The type for {@code code}, or null if unknown. */
    static FrameType of(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
