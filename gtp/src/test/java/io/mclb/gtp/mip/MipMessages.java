package io.mclb.gtp.mip;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Registration Requests for tests, laid out per RFC 5944 3.3 (as scapy's mobileip layer builds them). */
final class MipMessages {
    private MipMessages() {
    }

    static byte[] rrq(String homeAddress, String homeAgent, int lifetime, long identification, String nai) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer b = ByteBuffer.allocate(24);
            b.put((byte) 1).put((byte) 0x02).putShort((short) lifetime);
            b.put(InetAddress.getByName(homeAddress).getAddress());
            b.put(InetAddress.getByName(homeAgent).getAddress());
            b.put(InetAddress.getByName("198.51.100.7").getAddress()); // care-of address
            b.putLong(identification);
            out.writeBytes(b.array());
            if (nai != null) {
                byte[] n = nai.getBytes(StandardCharsets.US_ASCII);
                out.write(131);
                out.write(n.length);
                out.writeBytes(n);
            }
            // MN-HA authentication extension (32): SPI 256 + a 16-octet authenticator
            out.write(32);
            out.write(20);
            out.writeBytes(new byte[] {0, 0, 1, 0});
            for (int i = 0; i < 16; i++) {
                out.write(0xA0 + i);
            }
            return out.toByteArray();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
