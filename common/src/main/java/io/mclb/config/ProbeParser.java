package io.mclb.config;

import io.mclb.probe.ProbeTiming;
import io.mclb.service.ProbeFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code ip slb probe NAME TYPE [ARGS]} stanza, owned by the engine whatever the type: the
 * timing sub-lines every type shares ({@code interval S}, {@code faildetect N}, {@code timeout S})
 * are read here, the rest by the type's {@link ProbeFactory}. The result is stored as a global
 * {@link ExtensionLine} of owner {@link #OWNER} whose record is a {@link ProbeConfig}; farms
 * reference it by name ({@code probe NAME}, a {@link ProbeRef}), in any order in the file.
 */
final class ProbeParser {
    static final String OWNER = "probe";

    private ProbeParser() {
    }

    static boolean isProbe(Tokenizer.Line l) {
        return l.is(0, "ip") && l.is(1, "slb") && l.is(2, "probe");
    }

    /** @return the stored stanza, or null after reporting its error */
    static ExtensionLine parse(ParseContext ctx, Tokenizer.Node n) {
        Tokenizer.Line l = n.line();
        List<String> t = l.tokens();
        try {
            String name = Args.token(t, 3, "ip slb probe", "name, expected 'ip slb probe NAME TYPE'");
            String typeWord = Args.token(t, 4, "ip slb probe " + name, "type, allowed " + allowed(ctx));
            ProbeFactory type = ctx.probeTypes.get(typeWord.toLowerCase(java.util.Locale.ROOT));
            if (type == null) {
                throw new BadLine("ip slb probe " + name + " " + typeWord + ": unknown probe type, allowed "
                        + allowed(ctx));
            }
            ProbeTiming d = type.defaults();
            int interval = d.intervalSeconds();
            int faildetect = d.faildetect();
            Integer timeout = null;
            String label = "probe " + name;
            List<ConfigLine> own = new ArrayList<>();
            List<Tokenizer.Line> ownLines = new ArrayList<>();
            List<Tokenizer.Line> lines = n.descendants();
            for (Tokenizer.Line c : lines) {
                List<String> ct = c.tokens();
                try {
                    if (c.is(0, "interval")) {
                        interval = Args.integer(ct, 1, label + " interval", 1, 65535);
                        Args.end(ct, 1, label + " interval");
                    } else if (c.is(0, "faildetect")) {
                        faildetect = Args.integer(ct, 1, label + " faildetect", 1, 255);
                        Args.end(ct, 1, label + " faildetect");
                    } else if (c.is(0, "timeout")) {
                        timeout = Args.integer(ct, 1, label + " timeout", 1, 65535);
                        Args.end(ct, 1, label + " timeout");
                    } else {
                        own.add(ctx.line(c));
                        ownLines.add(c);
                    }
                } catch (BadLine e) {
                    throw e.at(ctx.at(c));
                }
            }
            ProbeFactory.Parsed parsed = type.parse(ctx.line(l), own);
            int timeoutSeconds = Math.min(timeout == null ? d.timeoutSeconds() : timeout, interval);
            ProbeConfig p = new ProbeConfig(name, type.type(), interval, faildetect, timeoutSeconds, parsed.settings(),
                    ctx.at(l));
            List<List<String>> stored = new ArrayList<>();
            int k = 0;
            for (Tokenizer.Line c : lines) {
                boolean typesLine = k < ownLines.size() && ownLines.get(k) == c;
                if (typesLine && parsed.storedLines() != null) {
                    stored.add(parsed.storedLines().get(k));
                } else {
                    stored.add(c.tokens());
                }
                if (typesLine) {
                    k++;
                }
            }
            return new ExtensionLine(OWNER, t, stored, ctx.at(l), p);
        } catch (BadLine e) {
            // at the sub-line when the type said which one, else at the stanza
            ctx.errors.add(ConfigError.error(e.source() != null ? e.source() : ctx.at(l), e.getMessage()));
            return null;
        }
    }

    private static String allowed(ParseContext ctx) {
        return ctx.probeTypes.isEmpty() ? "none in this build" : String.join(", ", ctx.probeTypes.keySet());
    }
}
