package io.mclb.net;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * Keys and certificates from PEM files, read with Bouncy Castle's {@link PEMParser} (keys: SEC1
 * {@code EC PRIVATE KEY}, PKCS#1 {@code RSA PRIVATE KEY}, unencrypted PKCS#8) and converted with
 * the default JCA provider so the JDK SSLEngine accepts them (shared peers.md section 4). Used by
 * the replication stream's mutual TLS and the admin listener's TLS.
 */
public final class PemFiles {
    private PemFiles() {
    }

    public static PrivateKey key(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            Object o = p.readObject();
            JcaPEMKeyConverter conv = new JcaPEMKeyConverter();
            if (o instanceof PEMKeyPair kp) {
                // the private part alone: a SEC1 key may omit its optional public key (JcaPEMWriter does)
                return conv.getPrivateKey(kp.getPrivateKeyInfo());
            }
            if (o instanceof PrivateKeyInfo info) {
                return conv.getPrivateKey(info);
            }
            throw new IOException(file + ": no unencrypted private key (PEM EC/RSA/PKCS#8) found");
        }
    }

    public static List<X509Certificate> certs(Path file) throws IOException, GeneralSecurityException {
        List<X509Certificate> out = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            JcaX509CertificateConverter conv = new JcaX509CertificateConverter();
            for (Object o = p.readObject(); o != null; o = p.readObject()) {
                if (o instanceof X509CertificateHolder h) {
                    out.add(conv.getCertificate(h));
                }
            }
        }
        if (out.isEmpty()) {
            throw new IOException(file + ": no PEM certificate found");
        }
        return out;
    }
}
