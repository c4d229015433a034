package io.mclb.cli;

import io.mclb.net.PemFiles;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

/**
 * Talks to a running mclb's admin plane: over its local socket ({@code DATA_DIR/admin.sock}, no
 * token needed: the file's permissions say who may), or over TCP ({@code --admin}), where a
 * state-changing call sends {@code Authorization: Bearer} with {@code --token-file}'s token.
 * A local socket that is missing or not ours to open falls back to TCP when a TCP address is known.
 */
final class AdminClient {
    /** An answer: the HTTP status and the body. */
    record Reply(int statusCode, String body) {
    }

    private static final Duration GET_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POST_TIMEOUT = Duration.ofSeconds(60);

    private final Path socket;
    private final String base;
    private final String token;
    private final Path caCert;

    /** {@code socket} and/or {@code base} (http[s]://HOST:PORT); {@code token} for TCP, or null. */
    AdminClient(Path socket, String base, String token, Path caCert) {
        this.socket = socket;
        this.base = base;
        this.token = token;
        this.caCert = caCert;
    }


    Reply get(String path) throws IOException, InterruptedException {
        return send("GET", path, GET_TIMEOUT);
    }

    Reply post(String path) throws IOException, InterruptedException {
        return send("POST", path, POST_TIMEOUT);
    }

    private Reply send(String method, String path, Duration timeout) throws IOException, InterruptedException {
        IOException localFailure = null;
        if (socket != null) {
            try {
                return overLocal(method, path, timeout);
            } catch (IOException e) {
                if (base == null) {
                    throw new IOException("no mclb answers on " + socket + " (" + e.getMessage()
                            + "; is it running? see -c FILE, --socket PATH or --admin HOST:PORT)", e);
                }
                localFailure = e;
            }
        }
        return overTcp(method, path, timeout, localFailure);
    }

    private Reply overTcp(String method, String path, Duration timeout, IOException localFailure)
            throws IOException, InterruptedException {
        HttpClient.Builder hb = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3));
        if (caCert != null) {
            hb.sslContext(trusting(caCert));
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout);
        if (method.equals("POST")) {
            b.POST(HttpRequest.BodyPublishers.noBody());
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
        }
        try {
            HttpResponse<String> r = hb.build().send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body());
        } catch (ConnectException e) {
            throw new IOException("no mclb answers at " + base + (localFailure == null ? ""
                    : " nor on " + socket + " (" + localFailure.getMessage() + ")")
                    + " (is it running? see -c FILE or --admin HOST:PORT)", e);
        }
    }

    /** HTTP/1.1 over the Unix socket, one request per connection ({@code Connection: close}). */
    private Reply overLocal(String method, String path, Duration timeout) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            String req = method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + (method.equals("POST") ? "Content-Length: 0\r\n" : "") + "\r\n";
            ByteBuffer out = ByteBuffer.wrap(req.getBytes(StandardCharsets.US_ASCII));
            while (out.hasRemaining()) {
                ch.write(out);
            }
            return parse(readAll(ch, timeout));
        }
    }

    private static byte[] readAll(SocketChannel ch, Duration timeout) throws IOException {
        ch.configureBlocking(false);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Selector sel = Selector.open()) {
            ch.register(sel, SelectionKey.OP_READ);
            while (true) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0) {
                    throw new IOException("no complete answer within " + timeout.toSeconds() + " s");
                }
                sel.select(leftMs);
                int n = ch.read(buf);
                if (n < 0) {
                    return got.toByteArray();
                }
                got.write(buf.array(), 0, buf.position());
                buf.clear();
            }
        }
    }

    static Reply parse(byte[] raw) throws IOException {
        String all = new String(raw, StandardCharsets.UTF_8);
        int end = all.indexOf("\r\n\r\n");
        if (!all.startsWith("HTTP/1.") || end < 0) {
            throw new IOException("not an HTTP answer: " + all.substring(0, Math.min(80, all.length())));
        }
        List<String> head = List.of(all.substring(0, end).split("\r\n"));
        String[] status = head.get(0).split(" ", 3);
        return new Reply(Integer.parseInt(status[1]), all.substring(end + 4));
    }

    private static SSLContext trusting(Path caCert) throws IOException {
        try {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (X509Certificate c : PemFiles.certs(caCert)) {
                ks.setCertificateEntry("ca" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException("--cacert " + caCert + ": " + e.getMessage(), e);
        }
    }
}
