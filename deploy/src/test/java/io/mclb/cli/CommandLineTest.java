package io.mclb.cli;

import io.mclb.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import picocli.CommandLine;

/**
 * A test of mclb's command line as an operator runs it: picocli over {@link Main}, with what it
 * prints to stdout and stderr captured; the exit code and those lines are the contract.
 */
abstract class CommandLineTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @BeforeEach
    void captureConsole() {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreConsole() {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    /** Runs {@code mclb args...} after forgetting what earlier runs printed; its exit code. */
    int mclb(String... args) {
        out.reset();
        err.reset();
        return new CommandLine(new Main()).execute(args);
    }

    /** What the last run printed to stdout. */
    String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** What the last run printed to stderr. */
    String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
