package io.mclb.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a configuration file with an answer an operator can act on: {@code config FILE: permission
 * denied}, {@code config FILE: no such file}, {@code config FILE:LINE: not UTF-8 text}, never the
 * JDK's bare {@code Input length = 1}.
 */
public final class ConfigFiles {

    private ConfigFiles() {
    }

    /** Why a configuration file could not be read; the message names the file. */
    public static final class Unreadable extends IOException {
        Unreadable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    public static String read(Path file) throws Unreadable {
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw new Unreadable("config " + file + ": is a directory, give a file", null);
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new Unreadable("config " + file + ": no such file", e);
        } catch (AccessDeniedException e) {
            throw new Unreadable("config " + file + ": permission denied", e);
        } catch (Unreadable e) {
            throw e;
        } catch (IOException e) {
            throw new Unreadable("config " + file + ": " + e.getMessage(), e);
        }
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = utf8.decode(in, out, true);
        if (r.isError()) {
            int bad = in.position(); // the decoder stops at the first byte it cannot take
            throw new Unreadable("config " + file + ":" + lineOf(bytes, bad) + ": not UTF-8 text (byte 0x"
                    + String.format("%02x", bytes[bad] & 0xff) + "): save the file as UTF-8 or ASCII", null);
        }
        utf8.flush(out);
        return out.flip().toString();
    }

    private static int lineOf(byte[] b, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (b[i] == '\n') {
                line++;
            }
        }
        return line;
    }
}
