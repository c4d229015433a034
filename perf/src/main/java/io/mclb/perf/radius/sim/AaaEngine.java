package io.mclb.perf.radius.sim;

import io.mclb.radius.codec.RadiusAttributes;
import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.codec.RadiusCrypto;
import io.mclb.radius.codec.RadiusPacket;
import io.mclb.radius.codec.RadiusSecret;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The AAA logic of {@link AaaSimulator}, independent of sockets: one request in, at most one
 * response out. Runs on the simulator's single event loop (the codec objects here are not
 * thread-safe); counters are atomics written with {@code lazySet} by that thread only and readable
 * anywhere.
 *
 * <p>Rules: a request whose Message-Authenticator (or, for Accounting-Request, Request
 * Authenticator) does not verify is dropped silently and counted, as RFC 2865 section 3 and
 * RFC 3579 section 3.2 ask; Status-Server without Message-Authenticator likewise (RFC 5997
 * section 3). Responses copy Proxy-State attributes in order (RFC 2865 section 5.33), carry a
 * Message-Authenticator when the request had one (and always to Status-Server), and are signed
 * with the codec: Message-Authenticator first, then the Response Authenticator.
 */
final class AaaEngine {
    private static final int FRAMED_IP_ATTRIBUTE_LENGTH = 6;
    private static final int MESSAGE_AUTHENTICATOR_ATTRIBUTE_LENGTH = 18;

    private final RadiusPacket request = new RadiusPacket();
    private final RadiusPacket response = new RadiusPacket();
    private final RadiusCrypto crypto = new RadiusCrypto();
    private final byte[] requestAuth = new byte[16];
    private final RadiusSecret secret;
    private final RadiusSecret answerSecret;
    private final UserPassword passwords;
    private final byte[] password;
    private final int rejectPercent;
    private final int dropPercent;
    private final boolean silent;
    private final Random random;
    private final int poolBase;
    private final int poolSize;
    private int poolNext;

    // Counters: written by the loop thread only.
    final AtomicLongArray received = new AtomicLongArray(256);
    final AtomicLongArray sent = new AtomicLongArray(256);
    final AtomicLong badAuthenticators = new AtomicLong();
    final AtomicLong badPasswords = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong unhandled = new AtomicLong();

    /**
     * @param password       the one accepted User-Password, or null to accept any
     * @param failure        {@link AaaFailure#WRONG_SECRET} signs answers with a secret nobody knows
     */
    AaaEngine(RadiusSecret secret, byte[] password, int rejectPercent, int dropPercent, AaaFailure failure, long seed,
              int poolBase, int poolSize) {
        this.secret = secret;
        this.answerSecret = failure == AaaFailure.WRONG_SECRET
                ? RadiusSecret.ofString("wrong-" + new String(secret.copyBytes(), java.nio.charset.StandardCharsets.UTF_8))
                : secret;
        this.passwords = new UserPassword(secret);
        this.password = password == null ? null : password.clone();
        this.rejectPercent = rejectPercent;
        this.dropPercent = dropPercent;
        this.silent = failure == AaaFailure.SILENT;
        this.random = new Random(seed);
        this.poolBase = poolBase;
        this.poolSize = poolSize;
    }

    /**
     * Handles one datagram; returns the response (owned by the caller) or null when nothing is
     * answered (malformed, unverifiable, dropped on purpose, silent mode, a code not served).
     *
     * @param accountingPort whether the socket is an accounting one (decides the Status-Server answer)
     */
    ByteBuf handle(ByteBuf in, boolean accountingPort, ByteBufAllocator alloc) {
        if (request.wrap(in) != null) {
            inc(malformed);
            return null;
        }
        int code = request.code();
        inc(received, code);
        request.authenticator(requestAuth);
        int answer;
        switch (code) {
            case RadiusCodes.ACCESS_REQUEST -> {
                if (request.hasMessageAuthenticator()
                        && !crypto.verifyMessageAuthenticator(request, secret, code, null)) {
                    return bad();
                }
                answer = accessAnswer();
            }
            case RadiusCodes.ACCOUNTING_REQUEST -> {
                if (!crypto.verifyAccountingRequest(request, secret)
                        || request.hasMessageAuthenticator()
                        && !crypto.verifyMessageAuthenticator(request, secret, code, null)) {
                    return bad();
                }
                answer = RadiusCodes.ACCOUNTING_RESPONSE;
            }
            case RadiusCodes.STATUS_SERVER -> {
                if (!crypto.verifyMessageAuthenticator(request, secret, code, null)) {
                    return bad();
                }
                answer = accountingPort ? RadiusCodes.ACCOUNTING_RESPONSE : RadiusCodes.ACCESS_ACCEPT;
            }
            default -> {
                inc(unhandled);
                return null;
            }
        }
        if (silent || dropPercent > 0 && random.nextInt(100) < dropPercent) {
            inc(dropped);
            return null;
        }
        return encode(answer, code, alloc);
    }

    private int accessAnswer() {
        if (password != null) {
            int a = request.findAttribute(RadiusAttributes.USER_PASSWORD);
            if (a < 0 || !passwords.matches(request.buffer(), RadiusPacket.valueIndex(a), request.valueLength(a),
                    requestAuth, password)) {
                inc(badPasswords);
                return RadiusCodes.ACCESS_REJECT;
            }
        }
        if (rejectPercent > 0 && random.nextInt(100) < rejectPercent) {
            return RadiusCodes.ACCESS_REJECT;
        }
        return RadiusCodes.ACCESS_ACCEPT;
    }

    private ByteBuf encode(int answer, int requestCode, ByteBufAllocator alloc) {
        ByteBuf in = request.buffer();
        boolean framed = answer == RadiusCodes.ACCESS_ACCEPT && requestCode == RadiusCodes.ACCESS_REQUEST;
        boolean ma = request.hasMessageAuthenticator() || requestCode == RadiusCodes.STATUS_SERVER;
        int length = RadiusPacket.HEADER_LENGTH + (framed ? FRAMED_IP_ATTRIBUTE_LENGTH : 0)
                + (ma ? MESSAGE_AUTHENTICATOR_ATTRIBUTE_LENGTH : 0);
        for (int a = request.findAttribute(RadiusAttributes.PROXY_STATE); a >= 0;
             a = request.nextAttribute(RadiusAttributes.PROXY_STATE, a + in.getUnsignedByte(a + 1))) {
            length += in.getUnsignedByte(a + 1);
        }
        if (length > RadiusPacket.MAX_LENGTH) {
            inc(malformed); // only a request full of Proxy-State gets here; it cannot be answered
            return null;
        }
        ByteBuf out = alloc.ioBuffer(length);
        out.writeByte(answer).writeByte(request.identifier()).writeShort(length).writeZero(16);
        if (framed) {
            out.writeByte(RadiusAttributes.FRAMED_IP_ADDRESS).writeByte(FRAMED_IP_ATTRIBUTE_LENGTH).writeInt(grantedFramedIp());
        }
        for (int a = request.findAttribute(RadiusAttributes.PROXY_STATE); a >= 0;
             a = request.nextAttribute(RadiusAttributes.PROXY_STATE, a + in.getUnsignedByte(a + 1))) {
            out.writeBytes(in, a, in.getUnsignedByte(a + 1));
        }
        if (ma) {
            out.writeByte(RadiusAttributes.MESSAGE_AUTHENTICATOR).writeByte(MESSAGE_AUTHENTICATOR_ATTRIBUTE_LENGTH)
                    .writeZero(16);
        }
        response.wrap(out);
        crypto.signMessageAuthenticator(response, answerSecret, requestCode, requestAuth);
        crypto.signResponse(response, requestAuth, answerSecret);
        inc(sent, answer);
        return out;
    }

    /** The request's Framed-IP-Address hint (RFC 2865 section 5.8) when it has a valid one, else the pool's next address. */
    private int grantedFramedIp() {
        int a = request.findAttribute(RadiusAttributes.FRAMED_IP_ADDRESS);
        if (a >= 0 && request.valueLength(a) == 4) {
            int hint = request.buffer().getInt(RadiusPacket.valueIndex(a));
            if (hint != 0 && hint != -1 && hint != 0xFFFFFFFE) { // not "the user chooses" nor "the NAS chooses"
                return hint;
            }
        }
        return nextFramedIp();
    }

    private int nextFramedIp() {
        int ip = poolBase + poolNext;
        poolNext = poolNext + 1 == poolSize ? 0 : poolNext + 1;
        return ip;
    }

    private ByteBuf bad() {
        inc(badAuthenticators);
        return null;
    }

    private static void inc(AtomicLong counter) {
        counter.lazySet(counter.get() + 1);
    }

    private static void inc(AtomicLongArray counters, int index) {
        counters.lazySet(index, counters.get(index) + 1);
    }
}
