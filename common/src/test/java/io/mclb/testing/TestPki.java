package io.mclb.testing;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Date;

/**
 * A throw-away CA and leaf certificates (EC P-256) written as PEM files, made with Bouncy Castle:
 * for the replication stream's mutual TLS and the admin listener's TLS.
 */
public final class TestPki {
    private final KeyPair caKeys;
    private final X509CertificateHolder caCert;
    private final Path dir;
    private long serial = 1;

    public TestPki(Path dir, String name) throws Exception {
        this.dir = dir;
        caKeys = ecKeys();
        X500Name subject = new X500Name("CN=" + name);
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, BigInteger.valueOf(serial++),
                new Date(System.currentTimeMillis() - 60_000), new Date(System.currentTimeMillis() + 86_400_000L),
                subject, caKeys.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        caCert = b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate()));
        write(dir.resolve(name + "-ca.pem"), caCert);
    }

    public Path caFile() {
        return dir.resolve(caCert.getSubject().toString().substring(3) + "-ca.pem");
    }

    /** A leaf's PEM files: its certificate, its PKCS#8 key, and the CA that signed it. */
    public record Leaf(Path cert, Path key, Path ca) {
    }

    /** A leaf certificate and key signed by this CA, valid for the IP addresses {@code ipSans} (may be none). */
    public Leaf leaf(String name, String... ipSans) throws Exception {
        KeyPair keys = ecKeys();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(caCert.getSubject(),
                BigInteger.valueOf(serial++), new Date(System.currentTimeMillis() - 60_000),
                new Date(System.currentTimeMillis() + 86_400_000L), new X500Name("CN=" + name), keys.getPublic());
        if (ipSans.length > 0) {
            GeneralName[] names = new GeneralName[ipSans.length];
            for (int i = 0; i < ipSans.length; i++) {
                names[i] = new GeneralName(GeneralName.iPAddress, ipSans[i]);
            }
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
        }
        X509CertificateHolder cert = b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate()));
        Path certFile = dir.resolve(name + "-cert.pem");
        Path keyFile = dir.resolve(name + "-key.pem");
        write(certFile, cert);
        // PKCS#8 ("PRIVATE KEY"), as openssl genpkey writes it; JcaPEMWriter's SEC1 form omits the curve
        write(keyFile, new JcaPKCS8Generator(keys.getPrivate(), null).generate());
        return new Leaf(certFile, keyFile, caFile());
    }

    private static KeyPair ecKeys() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static void write(Path file, Object pem) throws Exception {
        try (Writer w = Files.newBufferedWriter(file); JcaPEMWriter p = new JcaPEMWriter(w)) {
            p.writeObject(pem);
        }
    }
}
