package io.mclb.admin;

import java.net.InetAddress;

/**
 * One HTTP request to the admin plane, as the router sees it: no Netty types, so routing and
 * refusals are tested without a socket.
 *
 * @param method        upper-case HTTP method
 * @param path          the path without the query
 * @param rawQuery      the query after '?', or null
 * @param authorization the {@code Authorization} header, or null
 * @param accept        the {@code Accept} header, or null
 * @param local         whether it came over the local socket (DATA_DIR/admin.sock), whose file
 *                      permissions and peer credentials already say who is calling
 * @param source        the TCP peer's address, or null over the local socket
 */
public record AdminRequest(String method, String path, String rawQuery, String authorization, String accept,
                           boolean local, InetAddress source) {
}
