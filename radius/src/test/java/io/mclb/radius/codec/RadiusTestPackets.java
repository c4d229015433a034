package io.mclb.radius.codec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.tinyradius.attribute.RadiusAttribute;
import org.tinyradius.attribute.VendorSpecificAttribute;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;

/** Packets built by TinyRadius (the independent implementation) and independent MA / salt helpers. */
final class RadiusTestPackets {
    static final String SECRET_A = "nas-secret-A";
    static final String SECRET_B = "real-secret-B-longer";

    private RadiusTestPackets() {
    }

    static byte[] encodeRequest(RadiusPacket p, String secret) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            p.encodeRequestPacket(out, secret);
            return out.toByteArray();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static byte[] encodeResponse(RadiusPacket p, String secret, RadiusPacket request) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            p.encodeResponsePacket(out, secret, request);
            return out.toByteArray();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static AccessRequest accessRequest(String user, String password, boolean messageAuthenticator) {
        AccessRequest r = new AccessRequest(user, password);
        r.setDictionary(Dictionaries.standard());
        r.setPacketIdentifier(7);
        r.addAttribute("Calling-Station-Id", "491701234567");
        if (messageAuthenticator) {
            r.addAttribute(new RadiusAttribute(80, new byte[16]));
        }
        return r;
    }

    static AccountingRequest accountingStart() {
        AccountingRequest r = new AccountingRequest("alice@apn", AccountingRequest.ACCT_STATUS_TYPE_START);
        r.setDictionary(Dictionaries.standard());
        r.setPacketIdentifier(42);
        r.addAttribute("Framed-IP-Address", "10.20.30.40");
        r.addAttribute("Acct-Session-Id", "sess-0001");
        VendorSpecificAttribute vsa = new VendorSpecificAttribute(10415);
        vsa.setDictionary(Dictionaries.standard());
        vsa.addSubAttribute("3GPP-IMSI", "262010000000001");
        vsa.addSubAttribute("3GPP-GGSN-Address", "192.0.2.7");
        r.addAttribute(vsa);
        return r;
    }

    /** Status-Server with a zeroed MA attribute, then the MA computed here with javax.crypto. */
    static byte[] statusServer(String secret) {
        RadiusPacket p = new RadiusPacket(12, 99);
        p.setDictionary(Dictionaries.standard());
        p.addAttribute(new RadiusAttribute(80, new byte[16]));
        byte[] wire = encodeRequest(p, secret);
        signMa(wire, null, secret);
        return wire;
    }

    /** Writes an RFC 2869 MA computed with javax HmacMD5; {@code field} null = packet's own authenticator. */
    static void signMa(byte[] wire, byte[] field, String secret) {
        int ma = maValueIndex(wire);
        Arrays.fill(wire, ma, ma + 16, (byte) 0);
        byte[] mac = independentMa(wire, field, secret);
        System.arraycopy(mac, 0, wire, ma, 16);
    }

    static byte[] independentMa(byte[] wireIn, byte[] field, String secret) {
        byte[] wire = wireIn.clone();
        int ma = maValueIndex(wire);
        Arrays.fill(wire, ma, ma + 16, (byte) 0);
        if (field != null) {
            System.arraycopy(field, 0, wire, 4, 16);
        }
        try {
            Mac mac = Mac.getInstance("HmacMD5");
            mac.init(new SecretKeySpec(secret.getBytes(), "HmacMD5"));
            mac.update(wire, 0, ((wire[2] & 0xff) << 8) | (wire[3] & 0xff));
            return mac.doFinal();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static byte[] maValue(byte[] wire) {
        int ma = maValueIndex(wire);
        return Arrays.copyOfRange(wire, ma, ma + 16);
    }

    static int maValueIndex(byte[] wire) {
        int len = ((wire[2] & 0xff) << 8) | (wire[3] & 0xff);
        for (int i = 20; i < len; i += wire[i + 1] & 0xff) {
            if ((wire[i] & 0xff) == 80) {
                return i + 2;
            }
        }
        throw new AssertionError("no Message-Authenticator");
    }

    static byte[] authenticator(byte[] wire) {
        return Arrays.copyOfRange(wire, 4, 20);
    }

    /** RFC 2868 3.5 salt encryption, written independently of the production code. */
    static byte[] saltEncrypt(byte[] password, byte[] salt, byte[] requestAuth, String secret) {
        int plainLen = 1 + password.length;
        byte[] plain = new byte[(plainLen + 15) / 16 * 16];
        plain[0] = (byte) password.length;
        System.arraycopy(password, 0, plain, 1, password.length);
        byte[] out = new byte[plain.length];
        byte[] prev = null;
        for (int off = 0; off < plain.length; off += 16) {
            MessageDigest md = md5();
            md.update(secret.getBytes());
            if (prev == null) {
                md.update(requestAuth);
                md.update(salt);
            } else {
                md.update(prev);
            }
            byte[] b = md.digest();
            for (int i = 0; i < 16; i++) {
                out[off + i] = (byte) (plain[off + i] ^ b[i]);
            }
            prev = Arrays.copyOfRange(out, off, off + 16);
        }
        return out;
    }

    static byte[] saltDecrypt(byte[] cipher, byte[] salt, byte[] requestAuth, String secret) {
        byte[] plain = new byte[cipher.length];
        byte[] prev = null;
        for (int off = 0; off < cipher.length; off += 16) {
            MessageDigest md = md5();
            md.update(secret.getBytes());
            if (prev == null) {
                md.update(requestAuth);
                md.update(salt);
            } else {
                md.update(prev);
            }
            byte[] b = md.digest();
            for (int i = 0; i < 16; i++) {
                plain[off + i] = (byte) (cipher[off + i] ^ b[i]);
            }
            prev = Arrays.copyOfRange(cipher, off, off + 16);
        }
        return Arrays.copyOfRange(plain, 1, 1 + (plain[0] & 0xff));
    }

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
