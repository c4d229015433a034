package io.mclb.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Route health injection for real: mclb and BIRD 2 in one namespace, a second BIRD as the
 * upstream router in another, eBGP over a veth pair. mclb installs the virtual address as a host
 * route in kernel table 100 while its farm's only real passes its tcp probe ({@code advertise
 * active}); BIRD learns the table and announces it, and the router's FIB has the route. When the
 * real's listener dies the route leaves the router's FIB (the time is printed, bounded by the
 * probe's interval x faildetect + timeout plus BIRD's 1 s kernel scan); when it returns, so does
 * the route; a clean stop of mclb withdraws it.
 */
class RouteInjectionBirdInteropIT {
    private static final int ADMIN_PORT = 18080;
    private static final String VIP = "10.99.99.1";

    @TempDir
    Path tmp;

    @Test
    void theVirtualAddressIsAnnouncedWhileARealIsUpAndWithdrawnWhenTheLastFails() throws Exception {
        try (Netns lb = Netns.create(tmp.resolve("lb")); Netns router = Netns.create(tmp.resolve("router"))) {
            lb.run(() -> {
                lb.linkTo(router, "veth-lb", List.of("10.98.0.1/24"), "veth-rt", List.of("10.98.0.2/24"));
                // as on a real node: the VIP is an address of the host (mclb binds it), on lo; the
                // route mclb keeps in table 100 is what BIRD announces, not the address itself
                lb.exec(Duration.ofSeconds(10), "ip", "address", "add", VIP + "/32", "dev", "lo").check("VIP on lo");
                startBird(lb, "bird-announcer.conf");
                startBird(router, "bird-router.conf");
                Path script = MclbProcess.writeResource(lb, "responders.py", t -> t);
                List<String> listener = List.of("/usr/bin/python3", script.toString(), "127.0.0.5", "7000", "7001");
                NsProcess real = lb.start("real", listener);
                lb.awaitUdpListening(real, Duration.ofSeconds(30), "127.0.0.5:7001");
                MclbProcess mclb = MclbProcess.startLauncher(lb,
                        MclbProcess.writeConfig(lb, "route-injection.cfg", ADMIN_PORT), ADMIN_PORT);

                assertThat(awaitRoute(router, true, Duration.ofSeconds(60))).as("announced to the router").isTrue();
                assertThat(routes(lb, "table", "100")).contains(VIP + " dev lo proto static");
                assertThat(MclbProcess.sum(mclb.metrics(), "mclb_route_advertised", "address=\"" + VIP + "\""))
                        .isEqualTo(1);

                long dead = System.nanoTime();
                real.stop(Duration.ofSeconds(5));
                assertThat(awaitRoute(router, false, Duration.ofSeconds(20))).as("withdrawn at the router").isTrue();
                System.out.printf("route health injection: last real's listener killed -> route gone from the "
                        + "router's FIB in %d ms (probe interval 1 s x faildetect 1 + timeout 1 s, BIRD scan 1 s)%n",
                        Duration.ofNanos(System.nanoTime() - dead).toMillis());
                assertThat(Duration.ofNanos(System.nanoTime() - dead)).isLessThanOrEqualTo(Duration.ofSeconds(6));
                assertThat(mclb.get("/api/v1/vservers")).contains("\"ALL_REALS_DOWN\"");
                assertThat(MclbProcess.sum(mclb.metrics(), "mclb_vserver_serviceable", "vserver=\"GGSN-GN\"")).isZero();

                NsProcess back = lb.start("real-again", listener);
                lb.awaitUdpListening(back, Duration.ofSeconds(30), "127.0.0.5:7001");
                assertThat(awaitRoute(router, true, Duration.ofSeconds(30))).as("announced again").isTrue();

                mclb.process().stop(Duration.ofSeconds(20));
                assertThat(routes(lb, "table", "100")).as("a clean stop withdraws").doesNotContain(VIP);
            });
        }
    }

    private static void startBird(Netns ns, String conf) throws Exception {
        Path c = MclbProcess.writeResource(ns, conf, t -> t);
        Path ctl = ns.dir().resolve("bird.ctl");
        NsProcess bird = ns.start("bird", List.of("bird", "-f", "-c", c.toString(), "-s", ctl.toString(),
                "-P", ns.dir().resolve("bird.pid").toString()));
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!ctl.toFile().exists()) {
            if (!bird.isAlive() || System.nanoTime() > end) {
                throw new IllegalStateException("bird did not start; log:\n" + bird.tail(20));
            }
            Thread.sleep(100);
        }
    }

    private static String routes(Netns ns, String... where) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("ip", "-4", "route", "show"));
        cmd.addAll(List.of(where));
        return ns.exec(Duration.ofSeconds(10), cmd.toArray(String[]::new)).output();
    }

    /** Whether the router's main table comes to have (or lose) the virtual address's route in time. */
    private static boolean awaitRoute(Netns router, boolean present, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (routes(router).contains(VIP) == present) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }
}
