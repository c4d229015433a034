package io.mclb.admin;

import io.mclb.config.AdminLine;
import io.mclb.net.PemFiles;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;

/** The TCP admin listener's TLS ({@code mclb admin tls CERT.pem KEY.pem}): server authentication only. */
final class AdminTls {
    private AdminTls() {
    }

    static SslContext server(AdminLine.Tls files) throws IOException {
        try {
            return SslContextBuilder.forServer(PemFiles.key(files.key()),
                            PemFiles.certs(files.cert()).toArray(new X509Certificate[0]))
                    .sslProvider(SslProvider.JDK).protocols(List.of("TLSv1.3", "TLSv1.2")).build();
        } catch (GeneralSecurityException e) {
            throw new IOException("mclb admin tls " + files.cert() + " " + files.key() + ": " + e.getMessage(), e);
        }
    }
}
