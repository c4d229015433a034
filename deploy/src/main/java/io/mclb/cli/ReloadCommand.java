package io.mclb.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code mclb reload}: the running mclb re-reads its configuration file; a bad file changes nothing. */
@Command(name = "reload", mixinStandardHelpOptions = true,
        description = "Apply the changed configuration file to the running mclb (same as SIGHUP).")
public final class ReloadCommand implements Callable<Integer> {
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    @Mixin
    AdminTarget target;

    @Override
    public Integer call() throws Exception {
        AdminClient.Reply r = target.client().post("/api/v1/reload");
        String body = r.body();
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            System.err.print(body);
            System.out.println("reload refused: not authorized");
            return 1;
        }
        boolean ok = r.statusCode() == 200;
        for (String line : strings(body, "errors")) {
            System.err.println(line);
        }
        for (String line : strings(body, "notes")) {
            System.out.println(line);
        }
        System.out.println(ok ? "reload applied" : "reload refused: the running configuration is unchanged");
        return ok ? 0 : 1;
    }

    /** The strings of one array in the server's small JSON answer. */
    static java.util.List<String> strings(String json, String key) {
        int k = json.indexOf("\"" + key + "\":[");
        if (k < 0) {
            return java.util.List.of();
        }
        int end = json.indexOf(']', k);
        // strings may contain ']' only escaped inside quotes; find the real end by scanning quotes
        int i = k + key.length() + 4;
        boolean inString = false;
        for (; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                inString = !inString;
            } else if (c == ']' && !inString) {
                end = i;
                break;
            }
        }
        Matcher m = STRING.matcher(json.substring(k + key.length() + 4, end));
        java.util.List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1).replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\"));
        }
        return out;
    }

}
