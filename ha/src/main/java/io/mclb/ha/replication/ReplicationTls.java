package io.mclb.ha.replication;

import io.mclb.net.PemFiles;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * Netty TLS contexts for the replication stream from PEM files ({@link PemFiles}). Both sides
 * present a certificate and require the other's to chain to the configured CA: mutual authentication. Host names are not checked; the peer address is (the
 * active accepts only REMOTE-IP) and the frames carry the HMAC as well.
 */
final class ReplicationTls {
    private static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    private ReplicationTls() {
    }

    static SslContext server(ReplicationConfig.TlsFiles f) throws IOException, GeneralSecurityException {
        return SslContextBuilder.forServer(PemFiles.key(f.key()),
                        PemFiles.certs(f.cert()).toArray(new X509Certificate[0]))
                .trustManager(PemFiles.certs(f.ca())).clientAuth(ClientAuth.REQUIRE).sslProvider(SslProvider.JDK)
                .protocols(PROTOCOLS).build();
    }

    static SslContext client(ReplicationConfig.TlsFiles f) throws IOException, GeneralSecurityException {
        return SslContextBuilder.forClient()
                .keyManager(PemFiles.key(f.key()), PemFiles.certs(f.cert()).toArray(new X509Certificate[0]))
                .trustManager(PemFiles.certs(f.ca())).sslProvider(SslProvider.JDK).protocols(PROTOCOLS)
                // Netty 4.2 verifies host names by default; peers are named by address, checked apart
                .endpointIdentificationAlgorithm(null).build();
    }
}
