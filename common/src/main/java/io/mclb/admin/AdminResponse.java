package io.mclb.admin;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What the router answers: status, content type, body and any extra headers ({@code Allow},
 * {@code WWW-Authenticate}).
 */
public record AdminResponse(int status, String contentType, byte[] body, Map<String, String> headers) {

    static AdminResponse text(int status, String body) {
        return of(status, "text/plain; charset=utf-8", body);
    }

    static AdminResponse json(int status, String body) {
        return of(status, "application/json", body);
    }

    static AdminResponse of(int status, String contentType, String body) {
        return new AdminResponse(status, contentType, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    AdminResponse withHeader(String name, String value) {
        Map<String, String> h = new java.util.LinkedHashMap<>(headers);
        h.put(name, value);
        return new AdminResponse(status, contentType, body, Map.copyOf(h));
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
