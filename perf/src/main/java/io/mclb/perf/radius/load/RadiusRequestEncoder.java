package io.mclb.perf.radius.load;

import io.mclb.perf.radius.sim.UserPassword;
import io.mclb.radius.codec.RadiusAttributes;
import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.codec.RadiusCrypto;
import io.mclb.radius.codec.RadiusPacket;
import io.mclb.radius.codec.RadiusSecret;
import io.netty.buffer.ByteBuf;

/**
 * Writes signed Access-Requests and Accounting-Requests for one subscriber number. Subscriber
 * {@code i} is Calling-Station-Id = the decimal digits of {@code msisdnBase + i}, User-Name =
 * those digits + {@code "@mclb"}. Owns a codec {@link RadiusCrypto} and scratch arrays: one
 * instance per event loop, nothing allocated per request.
 */
final class RadiusRequestEncoder {
    /** Upper bound of an encoded request: header, 19-digit ids twice, password, session id, MA. */
    static final int MAX_LENGTH = 20 + (2 + 24) + (2 + UserPassword.MAX_LENGTH) + (2 + 19) + 6 + 6 + (2 + 16) + 6 + 18;
    private static final byte[] REALM = {'@', 'm', 'c', 'l', 'b'};

    private final RadiusCrypto crypto = new RadiusCrypto();
    private final RadiusPacket packet = new RadiusPacket();
    private final RadiusSecret secret;
    private final UserPassword passwords;
    private final byte[] password;
    private final int nasIp;
    private final boolean messageAuthenticator;
    private final byte[] digits = new byte[20];
    private final byte[] auth = new byte[16];

    RadiusRequestEncoder(RadiusSecret secret, byte[] password, int nasIp, boolean messageAuthenticator) {
        this.secret = secret;
        this.passwords = new UserPassword(secret);
        this.password = password.clone();
        this.nasIp = nasIp;
        this.messageAuthenticator = messageAuthenticator;
    }

    /**
     * Writes an Access-Request, with Framed-IP-Address {@code framedHint} unless it is 0; its
     * (random) Request Authenticator goes to {@code authOut[off..off+16)}.
     */
    void writeAccess(ByteBuf out, int id, long msisdn, int framedHint, byte[] authOut, int off) {
        crypto.randomAuthenticator(auth);
        int start = out.writerIndex();
        out.writeByte(RadiusCodes.ACCESS_REQUEST).writeByte(id).writeShort(0).writeBytes(auth);
        int n = digits(msisdn);
        out.writeByte(RadiusAttributes.USER_NAME).writeByte(2 + n + REALM.length).writeBytes(digits, 0, n).writeBytes(REALM);
        out.writeByte(RadiusAttributes.USER_PASSWORD).writeByte(2 + UserPassword.hiddenLength(password.length));
        passwords.hide(password, auth, out);
        out.writeByte(RadiusAttributes.CALLING_STATION_ID).writeByte(2 + n).writeBytes(digits, 0, n);
        out.writeByte(RadiusAttributes.NAS_IP_ADDRESS).writeByte(6).writeInt(nasIp);
        if (framedHint != 0) {
            out.writeByte(RadiusAttributes.FRAMED_IP_ADDRESS).writeByte(6).writeInt(framedHint);
        }
        finish(out, start, RadiusCodes.ACCESS_REQUEST);
        System.arraycopy(auth, 0, authOut, off, 16);
    }

    /**
     * Writes an Accounting-Request (RFC 2866) of {@code statusType} with Framed-IP-Address and
     * Acct-Session-Id; its computed Request Authenticator goes to {@code authOut[off..off+16)}.
     */
    void writeAccounting(ByteBuf out, int id, long msisdn, int statusType, int framedIp, long sessionId,
                         byte[] authOut, int off) {
        int start = out.writerIndex();
        out.writeByte(RadiusCodes.ACCOUNTING_REQUEST).writeByte(id).writeShort(0).writeZero(16);
        out.writeByte(RadiusAttributes.ACCT_STATUS_TYPE).writeByte(6).writeInt(statusType);
        int n = digits(msisdn);
        out.writeByte(RadiusAttributes.USER_NAME).writeByte(2 + n + REALM.length).writeBytes(digits, 0, n).writeBytes(REALM);
        out.writeByte(RadiusAttributes.CALLING_STATION_ID).writeByte(2 + n).writeBytes(digits, 0, n);
        out.writeByte(RadiusAttributes.FRAMED_IP_ADDRESS).writeByte(6).writeInt(framedIp);
        out.writeByte(RadiusAttributes.ACCT_SESSION_ID).writeByte(2 + 16);
        for (int shift = 60; shift >= 0; shift -= 4) {
            out.writeByte(Character.forDigit((int) (sessionId >>> shift) & 0xF, 16));
        }
        out.writeByte(RadiusAttributes.NAS_IP_ADDRESS).writeByte(6).writeInt(nasIp);
        finish(out, start, RadiusCodes.ACCOUNTING_REQUEST);
        System.arraycopy(auth, 0, authOut, off, 16);
    }

    /** Appends Message-Authenticator when configured, sets Length and signs (MA first, then the authenticator). */
    private void finish(ByteBuf out, int start, int code) {
        if (messageAuthenticator) {
            out.writeByte(RadiusAttributes.MESSAGE_AUTHENTICATOR).writeByte(18).writeZero(16);
        }
        out.setShort(start + 2, out.writerIndex() - start);
        int reader = out.readerIndex();
        out.readerIndex(start);
        packet.wrap(out);
        out.readerIndex(reader);
        crypto.signMessageAuthenticator(packet, secret, code, null);
        if (code == RadiusCodes.ACCOUNTING_REQUEST) {
            crypto.signAccountingRequest(packet, secret);
            packet.authenticator(auth);
        }
    }

    /** Decimal digits of {@code value} (non-negative) into {@link #digits}; returns their count. */
    private int digits(long value) {
        int n = 1;
        for (long v = value / 10; v > 0; v /= 10) {
            n++;
        }
        long v = value;
        for (int i = n - 1; i >= 0; i--) {
            digits[i] = (byte) ('0' + (v % 10));
            v /= 10;
        }
        return n;
    }
}
