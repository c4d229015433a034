package io.mclb.config;

import io.mclb.net.PemFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/** Reads the {@link AdminLine} forms of {@code mclb admin WORD ...}; the files they name are checked here, at load. */
final class AdminLineParser {
    static final List<String> WORDS = List.of("token", "tls", "max-connections", "timeout");
    private static final Set<PosixFilePermission> NOT_OWNER = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private AdminLineParser() {
    }

    /** Whether {@code mclb admin t[2]} is one of these lines rather than {@code mclb admin ADDRESS PORT}. */
    static boolean isAdminLine(List<String> t) {
        return t.size() > 2 && WORDS.contains(t.get(2).toLowerCase(Locale.ROOT));
    }

    static AdminLine parse(List<String> t, UnaryOperator<Path> resolve) throws BadLine {
        String word = t.get(2).toLowerCase(Locale.ROOT);
        return switch (word) {
            case "token" -> {
                Path file = path(t, 3, "mclb admin token", "FILE", resolve);
                Args.end(t, 3, "mclb admin token " + t.get(3));
                yield new AdminLine.Token(file, secret(file, "mclb admin token " + t.get(3)));
            }
            case "tls" -> {
                Path cert = path(t, 3, "mclb admin tls", "CERT.pem KEY.pem", resolve);
                Path key = path(t, 4, "mclb admin tls " + t.get(3), "KEY.pem", resolve);
                Args.end(t, 4, "mclb admin tls " + t.get(3) + " " + t.get(4));
                String label = "mclb admin tls " + t.get(3) + " " + t.get(4);
                try {
                    PemFiles.certs(cert);
                    PemFiles.key(key);
                } catch (IOException | GeneralSecurityException e) {
                    throw new BadLine(label + ": " + e.getMessage() + "; allowed a PEM certificate (chain) and its"
                            + " unencrypted PEM private key (EC, RSA or PKCS#8)");
                }
                yield new AdminLine.Tls(cert, key);
            }
            case "max-connections" -> {
                int n = Args.integer(t, 3, "mclb admin max-connections", 16, 1_000_000);
                Args.end(t, 3, "mclb admin max-connections " + n);
                yield new AdminLine.MaxConnections(n);
            }
            default -> {
                int s = Args.integer(t, 3, "mclb admin timeout", 1, 300);
                Args.end(t, 3, "mclb admin timeout " + s);
                yield new AdminLine.Timeout(s);
            }
        };
    }

    private static Path path(List<String> t, int i, String label, String what, UnaryOperator<Path> resolve)
            throws BadLine {
        String s = Args.token(t, i, label, what);
        try {
            return resolve.apply(Path.of(s));
        } catch (InvalidPathException e) {
            throw new BadLine(label + " " + s + ": not a valid path (" + e.getReason() + ")");
        }
    }

    /**
     * The token: the file must be a regular file only its owner may read (it is a password for
     * failover and reload), and not empty.
     */
    private static byte[] secret(Path file, String label) throws BadLine {
        if (!Files.isRegularFile(file)) {
            throw new BadLine(label + ": no such file (" + file + "); allowed a file holding the token, mode 0600");
        }
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            if (perms.stream().anyMatch(NOT_OWNER::contains)) {
                throw new BadLine(label + ": readable by group or others (mode "
                        + PosixFilePermissions.toString(perms) + "); allowed only its owner: chmod 600 " + file);
            }
            String token = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (token.isEmpty()) {
                throw new BadLine(label + ": the file is empty; allowed a file holding the token");
            }
            return token.getBytes(StandardCharsets.UTF_8);
        } catch (UnsupportedOperationException e) {
            throw new BadLine(label + ": the file system has no POSIX permissions, so mclb cannot tell who may read"
                    + " the token");
        } catch (IOException e) {
            throw new BadLine(label + ": cannot read " + file + " (" + e.getMessage() + ")");
        }
    }
}
