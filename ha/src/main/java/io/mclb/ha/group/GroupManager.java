package io.mclb.ha.group;

import io.mclb.ha.vip.VirtualAddressControl;
import io.mclb.service.ServingGate;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.MeterRegistry;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Runs the configured groups and is what the rest of mclb sees of them: the {@link ServingGate} of
 * the data path, reloads, the operator's actions and the groups for views. The parts, each on the
 * {@code mclb-ha} thread:
 * <ul>
 * <li>{@link StandbyGroup}: the state machine of one group, no I/O;</li>
 * <li>{@link GroupThread}: the thread, its task queue and the ticks;</li>
 * <li>{@link HelloSockets}: the UDP sockets (unicast, multicast, {@code vip:port}) and their selector;</li>
 * <li>{@link HelloReceiver}: which received messages may reach a group (authentication, peer, replay);</li>
 * <li>{@link GroupOutbox}: a group's effects: hellos sent, the virtual address moved through
 *     {@link VirtualAddressControl}, transitions counted and told to the {@link StateListener}s.</li>
 * </ul>
 *
 * <p>Group state is confined to the {@code mclb-ha} thread; operator actions and reloads are queued to it.
 */
public final class GroupManager implements ServingGate, AutoCloseable {
    public static final int DEFAULT_PORT = 1985;

    private final RunningGroups groups = new RunningGroups();
    private final VirtualAddressControl vips;
    private final NanoClock clock;
    private final HelloSockets sockets;
    private final HelloReceiver receiver;
    private final GroupThread thread;
    /** Told of every transition, after the address has been acquired or released; copy-on-write. */
    private final List<StateListener> stateListeners = new CopyOnWriteArrayList<>();

    /**
     * Told of each group state change, on the {@code mclb-ha} thread after the virtual address was
     * acquired (to Active) or released (from Active): must not block (hand slow work to a thread of
     * its own) and must not throw.
     */
    @FunctionalInterface
    public interface StateListener {
        void stateChanged(StandbyGroup group, HsrpState from, HsrpState to);
    }

    public GroupManager(List<GroupConfig> configs, VirtualAddressControl vips, LinkState links, MeterRegistry registry,
                        NanoClock clock, int port) {
        this(configs, vips, links, InterfaceTestIo.linkOnly(links), registry, clock, port);
    }

    /** @param tests the primitives of the interface tests run when hellos stop ({@link LinuxInterfaceTestIo}) */
    public GroupManager(List<GroupConfig> configs, VirtualAddressControl vips, LinkState links, InterfaceTestIo tests,
                        MeterRegistry registry, NanoClock clock, int port) {
        this.vips = vips;
        this.clock = clock;
        HaMetrics metrics = new HaMetrics(registry);
        this.sockets = new HelloSockets(groups, port);
        this.receiver = new HelloReceiver(groups, sockets, metrics, clock);
        long bootId = clock.epochMillis();
        StandbyGroup.Outbox outbox = new GroupOutbox(groups, sockets, vips, metrics, stateListeners);
        for (GroupConfig c : configs) {
            StandbyGroup g = new StandbyGroup(c, links, tests, bootId, outbox);
            groups.add(g);
            metrics.registerState(g);
        }
        this.thread = new GroupThread(groups, sockets, receiver, clock);
    }

    /**
     * Applies a reloaded configuration to the running groups: a group with the same identity
     * ({@link GroupConfig#sameIdentity}) takes its new priority, preempt, timers, key, tracks and
     * peers on the {@code mclb-ha} thread, without leaving its state. Groups added or removed, or
     * whose interface, address, number, name or virtual address changed, need a restart: they are
     * left as they run and returned as messages.
     *
     * @return one line per change that was not applied; empty when everything was
     */
    public List<String> reconfigure(List<GroupConfig> next) {
        List<String> notApplied = new ArrayList<>();
        Map<StandbyGroup, GroupConfig> apply = new LinkedHashMap<>();
        for (GroupConfig c : next) {
            StandbyGroup g = groups.named(c.name());
            if (g == null) {
                notApplied.add("HA group " + c.name() + " is new: it starts after a restart of mclb");
            } else if (!g.config().sameIdentity(c)) {
                notApplied.add("HA group " + c.name() + ": interface, address, group number or virtual address "
                        + "changed: that takes effect after a restart of mclb");
            } else if (!g.config().equals(c)) {
                apply.put(g, c);
            }
        }
        for (String name : groups.byName().keySet()) {
            if (next.stream().noneMatch(c -> c.name().equals(name))) {
                notApplied.add("HA group " + name + " was removed: it runs until a restart of mclb");
            }
        }
        if (!apply.isEmpty()) {
            thread.submit(() -> {
                long now = clock.nanoTime();
                apply.forEach((g, c) -> {
                    groups.rekey(g, c.key());
                    g.reconfigure(c, now);
                });
                thread.retick();
            });
        }
        return notApplied;
    }

    /** Removes virtual addresses a crashed predecessor may have left, opens the sockets, starts the groups. */
    public synchronized void start() throws IOException {
        sockets.start();
        for (StandbyGroup g : groups.all()) {
            GroupConfig c = g.config();
            if (c.vip() != null) {
                vips.release(c.iface(), c.vip(), c.prefix());
            }
            sockets.openGroup(g);
        }
        long now = clock.nanoTime();
        for (StandbyGroup g : groups.all()) {
            g.start(now);
        }
        thread.start();
    }

    /** Test entry to the receive path: a datagram read from {@code ch}, which only a PROBE needs (it is answered on it). */
    void received(DatagramChannel ch, InetSocketAddress from, byte[] buf, int len) {
        receiver.received(ch, from, buf, len);
    }

    /** Serving gate for {@code inservice standby NAME}: the named group is active on this node. */
    @Override
    public boolean isActive(String standbyGroup) {
        StandbyGroup g = groups.named(standbyGroup);
        return g != null && g.state() == HsrpState.ACTIVE;
    }

    /** {@code mclb failover active}: every group (or the named one) active here now. */
    public List<String> forceActive(String name) {
        return onGroups(name, g -> g.forceActive(clock.nanoTime()));
    }

    /** {@code mclb failover reset}: forced and given-up states cleared, and Failed once its cause is gone. */
    public List<String> reset(String name) {
        return onGroups(name, g -> g.reset(clock.nanoTime()));
    }

    /** {@code no failover active} ({@code mclb failover standby}): every group (or the named one) hands over. */
    public List<String> yieldActive(String name) {
        return onGroups(name, g -> g.yieldActive(clock.nanoTime()));
    }

    /** Runs an operator action on the {@code mclb-ha} thread; the refusals of the groups that said no. */
    private List<String> onGroups(String name, java.util.function.Function<StandbyGroup, String> action) {
        return thread.call(() -> groups.all().stream().filter(g -> name == null || g.config().name().equals(name))
                .map(action).filter(java.util.Objects::nonNull).toList());
    }

    /** Adds a listener for state changes; add it before {@link #start()} to see the first transitions. */
    public void addStateListener(StateListener l) {
        stateListeners.add(l);
    }

    /** The groups by name, for views; their getters are safe to read from any thread. */
    public Map<String, StandbyGroup> groups() {
        return groups.byName();
    }

    public NanoClock clock() {
        return clock;
    }

    /** Test hook: drop every received HELLO and RESIGN (probes still pass), as a cut heartbeat path would. */
    public void dropHellos(boolean drop) {
        receiver.dropHellos(drop);
    }

    /** Stops the groups (an active one resigns and releases its address) and closes the sockets. */
    @Override
    public void close() {
        close(true);
    }

    /**
     * Stops the groups and closes the sockets; {@code handover} false: an active group sends STOP
     * instead of resigning, and its standby does not take over (seed 002).
     */
    public synchronized void close(boolean handover) {
        if (!thread.running()) {
            return;
        }
        thread.stopAfter(() -> {
            for (StandbyGroup g : groups.all()) {
                g.stop(clock.nanoTime(), handover);
            }
        });
        sockets.closeAll();
    }

    /** Test hook: stops the thread and closes the sockets without resigning, like {@code kill -9}. */
    public synchronized void crash() {
        thread.halt();
        sockets.closeAll();
    }
}
