package io.mclb.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 4 item 10: radclient sends Access-Requests and Accounting-Requests for many subscribers
 * through mclb's virtual addresses 127.0.0.100:1812/1813 ({@code service radius}, the issue's
 * configuration: NAS secret {@code nas-secret}, AAA secret {@code aaa-secret}, Calling-Station-Id
 * sticky shared by both virtual servers in group 2, framed-IP sticky with the Accounting-On/Off
 * purge) to three real FreeRADIUS processes on 127.0.0.5-7, all in a namespace of the test's own.
 *
 * <p>Asserted: radclient accepts every answer (it verifies each Response Authenticator with the
 * NAS secret, so mclb re-signed them all correctly); each subscriber's Access-Request is answered
 * by one server (its Reply-Message names it) and its Accounting-Start reaches the same server
 * (tshark: ip.dst of the Accounting-Request mclb forwards, matched by Calling-Station-Id);
 * subscribers spread over the three servers; after the Accounting-Starts, mclb's
 * {@code radius-framed-ip} sticky table holds every subscriber's address, and an Accounting-On
 * from the NAS purges them; after one FreeRADIUS is stopped, every subscriber's next
 * Access-Request is still accepted (radclient retransmits), those of the stopped server now by
 * another one, the others by their old server, accounting follows, and mclb shows the stopped
 * server's auth real FAILED (unanswered requests) and its accounting real PROBE_FAILED (the
 * Status-Server probe on the accounting farm), which recovers once the server is restarted; Wireshark finds no malformed RADIUS frame; mclb counted no unverifiable answer.
 */
class RadiusFreeRadiusInteropIT {
    private static final String VIP = "127.0.0.100";
    private static final int ADMIN_PORT = 18080;
    private static final String NAS_SECRET = "nas-secret";
    private static final int SUBSCRIBERS = 60;
    private static final int STOPPED = 2;
    /**
     * radclient's {@code -r} counts every send (checked: {@code -r 3} sends three times). mclb moves
     * an unanswered request on its {@code reassign}-th retransmission (IOS default 3), so the NAS
     * must send 1 + 3 times for a request stuck on a stopped server to be answered by another.
     */
    private static final int TRIES = 4;
    private static final int TIMEOUT_S = 2;
    private static final Pattern ROW = Pattern.compile("\\{[^{}]*\\}");
    /** Frames mclb sent: from the virtual address, or from an upstream socket (not a FreeRADIUS port nor radclient's). */
    private static final String FARM = "(ip.dst == 127.0.0.5 || ip.dst == 127.0.0.6 || ip.dst == 127.0.0.7)";
    private static final String FROM_MCLB = "(ip.src == " + VIP + " || (" + FARM + " && (udp.dstport == 1812 || udp.dstport == 1813)))";

    @TempDir
    Path tmp;

    /** The issue's configuration: accounting follows authentication by Calling-Station-Id. */
    @Test
    void radclientThroughMclbToThreeFreeRadiusServers() throws Exception {
        run(cfg -> cfg);
    }

    /**
     * The accounting virtual server keyed by Framed-IP-Address only (no Calling-Station-Id line
     * there): accounting follows the framed-IP entries the auth virtual server learns from each
     * Access-Accept into the shared group 2, and an Accounting-Stop removes its entry (before the
     * fix that came with this test, the Stop's own stickiness wrote it back).
     */
    @Test
    void accountingKeyedByFramedIpLearnedFromAccessAccept() throws Exception {
        run(cfg -> {
            int acct = cfg.indexOf("ip slb vserver RADIUS-ACCT");
            String edited = cfg.substring(0, acct)
                    + cfg.substring(acct).replace(" sticky radius calling-station-id group 2\n", "");
            assertThat(edited).as("config edit").isNotEqualTo(cfg);
            return edited;
        });
    }

    private void run(UnaryOperator<String> configEdit) throws Exception {
        List<FreeRadius.User> users = new ArrayList<>();
        for (int i = 1; i <= SUBSCRIBERS; i++) {
            users.add(new FreeRadius.User(String.format("sub%03d", i), "pw-" + i, "10.1.0." + i));
        }
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                List<FreeRadius> aaa = new ArrayList<>();
                for (int i = 1; i <= 3; i++) {
                    aaa.add(FreeRadius.start(ns, i, users));
                }
                Tshark cap = Tshark.start(ns, "tshark", "udp port 1812 or udp port 1813");
                Files.createDirectories(ns.dir().resolve("radius"));
                Path cfg = MclbProcess.writeResource(ns, "radius/mclb-radius.cfg", text -> configEdit.apply(text
                        .replace("@DATA_DIR@", ns.dir().resolve("mclb-data").toString())
                        .replace("@ADMIN_PORT@", Integer.toString(ADMIN_PORT))));
                MclbProcess mclb = MclbProcess.start(ns, cfg, ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":1812", VIP + ":1813");

                // 1. authentication: every subscriber accepted, by one named server each, spread over the three
                FreeRadiusClient.Result auth1 = auth(ns, "auth-1", users);
                Map<String, String> serverOf = servers(auth1, users);
                assertThat(new TreeSet<>(serverOf.values())).as("servers answering %s", serverOf)
                        .containsExactly("aaa1", "aaa2", "aaa3");

                // 2. Accounting-Start for each: answered, forwarded to the authenticating server
                FreeRadiusClient.Result acct1 = acctStart(ns, "acct-start-1", users, "a");
                assertThat(acct1.problems()).as("radclient problems:%n%s", acct1.output()).isEmpty();
                assertThat(acct1.exit()).as("radclient exit code").isZero();
                assertThat(acct1.answered("Accounting-Response")).as("Accounting-Responses:%n%s", acct1.output())
                        .isEqualTo(SUBSCRIBERS);
                Set<String> framed = framedIps(mclb);
                for (FreeRadius.User u : users) {
                    assertThat(framed).as("radius-framed-ip entries after Accounting-Start").contains(u.framedIp());
                }

                // 3. Accounting-On from the NAS purges every framed-IP entry learned from it
                FreeRadiusClient.Result on = FreeRadiusClient.run(ns, "acct-on", List.of(List.of(
                        "Acct-Status-Type = Accounting-On", "NAS-IP-Address = 127.0.0.1", "Acct-Session-Id = \"on-1\"")),
                        VIP + ":1813", "acct", NAS_SECRET, TRIES, TIMEOUT_S);
                assertThat(on.answered("Accounting-Response")).as("Accounting-On answered:%n%s", on.output()).isEqualTo(1);
                Set<String> left = awaitFramedIps(mclb, Set::isEmpty, Duration.ofSeconds(15));
                assertThat(left).as("radius-framed-ip entries after Accounting-On").isEmpty();

                // 4. one server stops: its subscribers move (radclient retransmits), the others stay
                FreeRadius gone = aaa.get(STOPPED - 1);
                gone.stop();
                FreeRadiusClient.Result auth2 = auth(ns, "auth-2", users);
                Map<String, String> serverOf2 = servers(auth2, users);
                for (FreeRadius.User u : users) {
                    String before = serverOf.get(u.name());
                    String after = serverOf2.get(u.name());
                    if (before.equals(FreeRadius.name(STOPPED))) {
                        assertThat(after).as("%s moved off the stopped %s", u.name(), before).isNotEqualTo(before);
                    } else {
                        assertThat(after).as("%s stays on its live server", u.name()).isEqualTo(before);
                    }
                }
                FreeRadiusClient.Result acct2 = acctStart(ns, "acct-start-2", users, "b");
                assertThat(acct2.problems()).as("radclient problems:%n%s", acct2.output()).isEmpty();
                assertThat(acct2.exit()).as("radclient exit code").isZero();
                assertThat(acct2.answered("Accounting-Response")).as("Accounting-Responses after failover:%n%s",
                        acct2.output()).isEqualTo(SUBSCRIBERS);
                Set<String> learned = awaitFramedIps(mclb, ips -> ips.size() == SUBSCRIBERS, Duration.ofSeconds(10));
                assertThat(learned).as("radius-framed-ip entries after the second Accounting-Starts").hasSize(SUBSCRIBERS);

                // 5. Accounting-Stop removes that subscriber's framed-IP entry, and only that one
                List<FreeRadius.User> stopping = users.subList(0, SUBSCRIBERS / 4);
                FreeRadiusClient.Result stops = acct(ns, "acct-stop", stopping, "Stop", "b");
                assertThat(stops.problems()).as("radclient problems:%n%s", stops.output()).isEmpty();
                assertThat(stops.exit()).as("radclient exit code").isZero();
                assertThat(stops.answered("Accounting-Response")).as("Accounting-Stops answered:%n%s", stops.output())
                        .isEqualTo(stopping.size());
                Set<String> stillThere = awaitFramedIps(mclb, ips -> ips.size() == SUBSCRIBERS - stopping.size(),
                        Duration.ofSeconds(10));
                for (FreeRadius.User u : users) {
                    if (stopping.contains(u)) {
                        assertThat(stillThere).as("entries after Accounting-Stop").doesNotContain(u.framedIp());
                    } else {
                        assertThat(stillThere).as("entries after Accounting-Stop").contains(u.framedIp());
                    }
                }

                // the auth real took the unanswered requests; the accounting real of that address got none once the
                // subscribers' entries pointed elsewhere, so only the former is charged
                String reals = awaitReals(mclb, FreeRadius.address(STOPPED) + ":1812", "FAILED", Duration.ofSeconds(30));
                // the accounting farm's Status-Server probe: the stopped server's accounting real fails, the others
                // answer it (so the probe is signed as FreeRADIUS expects and its answers verify)
                String acctReal = FreeRadius.address(STOPPED) + ":1813";
                String probed = awaitReals(mclb, acctReal, "PROBE_FAILED", Duration.ofSeconds(15));
                String allReals = mclb.get("/api/v1/reals");
                // a restarted server: one good probe answer recovers its accounting real
                gone.restart();
                String recovered = awaitReals(mclb, acctReal, "OPERATIONAL", Duration.ofSeconds(15));
                String metrics = mclb.metrics();
                cap.stop();

                // where mclb forwarded each Accounting-Start: the server that authenticated the subscriber
                assertThat(accountingServers(cap, "a-")).as("accounting before the failover")
                        .isEqualTo(byCallingStation(serverOf, users));
                assertThat(accountingServers(cap, "b-")).as("accounting after the failover")
                        .isEqualTo(byCallingStation(serverOf2, users));

                assertThat(reals).as("auth real of the stopped server").contains("\"FAILED\"");
                assertThat(probed).as("accounting real of the stopped server, probed").contains("\"PROBE_FAILED\"");
                for (int i = 1; i <= 3; i++) {
                    if (i != STOPPED) {
                        assertThat(rowsOf(allReals, FreeRadius.address(i) + ":")).as("reals of live aaa%d in %s", i, allReals)
                                .hasSize(2).allSatisfy(r -> assertThat(r).contains("\"OPERATIONAL\""));
                    }
                }
                assertThat(recovered).as("accounting real of the restarted server").contains("\"OPERATIONAL\"");
                assertThat(MclbProcess.sum(metrics, "mclb_radius_responses_total", "code=\"Access-Accept\""))
                        .as("Access-Accepts mclb sent").isEqualTo(2.0 * SUBSCRIBERS);
                assertThat(MclbProcess.sum(metrics, "mclb_radius_responses_total", "code=\"Accounting-Response\""))
                        .as("Accounting-Responses mclb sent").isEqualTo(2.0 * SUBSCRIBERS + 1 + SUBSCRIBERS / 4);
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "reason=\"radius_bad_response_authenticator\""))
                        .as("answers mclb could not verify").isZero();
                assertThat(cap.count("radius && " + FROM_MCLB)).as("RADIUS frames from mclb").isGreaterThanOrEqualTo(8 * SUBSCRIBERS);
                assertThat(cap.problems(FROM_MCLB)).as("malformed frames from mclb").isEmpty();
                assertThat(cap.problems("radius")).as("malformed RADIUS frames in the capture").isEmpty();
            });
        }
    }

    private static FreeRadiusClient.Result auth(Netns ns, String name, List<FreeRadius.User> users) throws Exception {
        List<List<String>> packets = new ArrayList<>();
        for (FreeRadius.User u : users) {
            packets.add(List.of("User-Name = \"" + u.name() + "\"", "User-Password = \"" + u.password() + "\"",
                    "Calling-Station-Id = \"" + csid(u) + "\"", "NAS-IP-Address = 127.0.0.1"));
        }
        FreeRadiusClient.Result r = FreeRadiusClient.run(ns, name, packets, VIP + ":1812", "auth", NAS_SECRET, TRIES, TIMEOUT_S);
        assertThat(r.problems()).as("%s: radclient problems:%n%s", name, r.output()).isEmpty();
        assertThat(r.exit()).as("%s: radclient exit code", name).isZero();
        assertThat(r.answered("Access-Accept")).as("%s: Access-Accepts:%n%s", name, r.output()).isEqualTo(users.size());
        return r;
    }

    private static FreeRadiusClient.Result acctStart(Netns ns, String name, List<FreeRadius.User> users, String session)
            throws Exception {
        return acct(ns, name, users, "Start", session);
    }

    /** One Accounting-Request of {@code status} per user, Acct-Session-Id {@code <session>-<user>}. */
    private static FreeRadiusClient.Result acct(Netns ns, String name, List<FreeRadius.User> users, String status,
            String session) throws Exception {
        List<List<String>> packets = new ArrayList<>();
        for (FreeRadius.User u : users) {
            packets.add(List.of("Acct-Status-Type = " + status, "User-Name = \"" + u.name() + "\"",
                    "Acct-Session-Id = \"" + session + "-" + u.name() + "\"", "Calling-Station-Id = \"" + csid(u) + "\"",
                    "Framed-IP-Address = " + u.framedIp(), "NAS-IP-Address = 127.0.0.1"));
        }
        return FreeRadiusClient.run(ns, name, packets, VIP + ":1813", "acct", NAS_SECRET, TRIES, TIMEOUT_S);
    }

    private static String csid(FreeRadius.User u) {
        return "49171" + u.name().substring(3) + "0000";
    }

    /** User name to the server named by the Reply-Message of its Access-Accept; checks the Framed-IP too. */
    private static Map<String, String> servers(FreeRadiusClient.Result r, List<FreeRadius.User> users) {
        Map<String, String> m = new TreeMap<>();
        Map<String, String> framedOf = new TreeMap<>();
        users.forEach(u -> framedOf.put(u.name(), u.framedIp()));
        for (FreeRadiusClient.Exchange e : r.exchanges()) {
            String user = e.requestAttr("User-Name");
            m.put(user, e.responseAttr("Reply-Message"));
            assertThat(e.responder()).as("answer source").startsWith(VIP + ":1812");
            assertThat(e.responseAttr("Framed-IP-Address")).as("Framed-IP-Address of %s", user).isEqualTo(framedOf.get(user));
        }
        for (FreeRadius.User u : users) {
            assertThat(m.get(u.name())).as("server of %s", u.name()).matches("aaa[123]");
        }
        return m;
    }

    /** Calling-Station-Id to the server (aaaN) an Accounting-Request of session prefix {@code session} was forwarded to. */
    private static Map<String, String> accountingServers(Tshark cap, String session) throws Exception {
        Map<String, Set<String>> seen = new TreeMap<>();
        for (Map<String, String> row : cap.rows("radius.code == 4 && udp.dstport == 1813 && " + FARM,
                "ip.dst", "radius.Calling_Station_Id", "radius.Acct_Session_Id")) {
            if (row.get("radius.Acct_Session_Id").startsWith(session)) {
                seen.computeIfAbsent(row.get("radius.Calling_Station_Id"), k -> new TreeSet<>()).add(row.get("ip.dst"));
            }
        }
        Map<String, String> m = new TreeMap<>();
        seen.forEach((csid, dsts) -> {
            assertThat(dsts).as("servers one Calling-Station-Id's accounting reached").hasSize(1);
            m.put(csid, "aaa" + (Integer.parseInt(dsts.iterator().next().substring("127.0.0.".length())) - 4));
        });
        return m;
    }

    private static Map<String, String> byCallingStation(Map<String, String> serverOfUser, List<FreeRadius.User> users) {
        Map<String, String> m = new TreeMap<>();
        for (FreeRadius.User u : users) {
            m.put(csid(u), serverOfUser.get(u.name()));
        }
        return m;
    }

    /** The identities of mclb's radius-framed-ip sticky entries ({@code /api/v1/sticky}). */
    private static Set<String> framedIps(MclbProcess mclb) throws Exception {
        Set<String> ips = new TreeSet<>();
        Matcher m = ROW.matcher(mclb.get("/api/v1/sticky?table=radius-framed-ip&limit=100000"));
        while (m.find()) {
            Matcher id = Pattern.compile("\"identity\"\\s*:\\s*\"([^\"]*)\"").matcher(m.group());
            if (id.find()) {
                ips.add(id.group(1));
            }
        }
        return ips;
    }

    private static Set<String> awaitFramedIps(MclbProcess mclb, java.util.function.Predicate<Set<String>> done, Duration timeout)
            throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        Set<String> ips = framedIps(mclb);
        while (!done.test(ips) && System.nanoTime() < end) {
            Thread.sleep(200);
            ips = framedIps(mclb);
        }
        return ips;
    }

    /** The {@code /api/v1/reals} rows of {@code label}, once they all are in {@code state} (or after {@code timeout}). */
    private static String awaitReals(MclbProcess mclb, String label, String state, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> rows = rowsOf(mclb.get("/api/v1/reals"), label);
            if ((!rows.isEmpty() && rows.stream().allMatch(r -> r.contains("\"" + state + "\"")))
                    || System.nanoTime() > end) {
                return String.join("\n", rows);
            }
            Thread.sleep(200);
        }
    }

    /** The JSON objects of a flat {@code /api/v1} table that mention {@code label}. */
    private static List<String> rowsOf(String json, String label) {
        List<String> rows = new ArrayList<>();
        Matcher m = ROW.matcher(json);
        while (m.find()) {
            if (m.group().contains("\"" + label)) {
                rows.add(m.group());
            }
        }
        return rows;
    }
}
