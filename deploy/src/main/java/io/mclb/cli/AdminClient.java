package io.mclb.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Talks to a running mclb's admin listener. */
final class AdminClient {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final String base;

    AdminClient(String base) {
        this.base = base;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET().build());
    }

    HttpResponse<String> post(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    private HttpResponse<String> send(HttpRequest r) throws IOException, InterruptedException {
        try {
            return http.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new IOException("no mclb answers at " + base + " (is it running? see -c FILE or --admin HOST:PORT)", e);
        }
    }
}
