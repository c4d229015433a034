package io.mclb.metrics;

/**
 * Every metric name of the engine, declared once (DESIGN section 6). Micrometer adds the
 * Prometheus suffixes: counters get {@code _total}, timers {@code _seconds}. These names are a
 * contract with operators' dashboards: integration tests assert them.
 */
public final class MetricNames {
    private MetricNames() {
    }

    /** counter {vserver}: datagrams received from clients on a virtual address. */
    public static final String REQUESTS = "mclb.requests";
    /** counter {vserver}: datagrams sent back to clients from the virtual address. */
    public static final String RESPONSES = "mclb.responses";
    /** counter {vserver, reason}: datagrams dropped, by {@link io.mclb.net.DropReason}. */
    public static final String DROPS = "mclb.drops";
    /** counter {vserver, farm, real}: requests forwarded to a real. */
    public static final String REAL_REQUESTS = "mclb.real.requests";
    /** counter {vserver, reason}: flows or requests moved to another real. */
    public static final String REASSIGNMENTS = "mclb.reassignments";
    /** counter {vserver}: new flows / sessions assigned. */
    public static final String ASSIGNMENTS = "mclb.assignments";
    /** gauge {vserver}: plain UDP flows currently tracked. */
    public static final String FLOWS_ACTIVE = "mclb.flows.active";
    /** gauge {vserver}: transactions tracked (requests in flight, answered ones lingering for retransmissions). */
    public static final String TRANSACTIONS_ACTIVE = "mclb.transactions.active";
    /** counter {vserver}: requests a real never answered within the request timeout. */
    public static final String REQUEST_TIMEOUTS = "mclb.request.timeouts";
    /** counter {vserver}: client retransmissions of a request in flight (sent to the same real). */
    public static final String RETRANSMISSIONS = "mclb.retransmissions";
    /** counter {vserver}: requests forwarded that expect no answer (e.g. a WiMAX R6 Ack). */
    public static final String ONE_WAY = "mclb.one.way";
    /** Requests a real started toward a client, relayed from the virtual address (GTP GGSN-initiated). */
    public static final String REAL_INITIATED = "mclb.real.initiated";
    /** counter {vserver}: messages mclb answered itself (e.g. GTP echo). */
    public static final String LOCAL_ANSWERS = "mclb.local.answers";
    /** timer {vserver} and {farm, real} (two kinds of series): time from forwarding a request to the real's answer. */
    public static final String UPSTREAM_LATENCY = "mclb.upstream.latency";
    /** gauge {farm, real}: connections, flows or sessions assigned to a real now. */
    public static final String SESSIONS_ACTIVE = "mclb.sessions.active";
    /** gauge {farm, real}: sticky clients assigned to a real now. */
    public static final String REAL_CLIENTS = "mclb.real.clients";
    /** gauge {farm, real, state}: 1 for the real's current state, 0 for the others. */
    public static final String REAL_STATE = "mclb.real.state";
    /** gauge {farm, real, source}: weight by source (config, dfp, operational). */
    public static final String REAL_WEIGHT = "mclb.real.weight";
    /** counter {farm, real}: failures charged to a real (faildetect input). */
    public static final String REAL_FAILURES = "mclb.real.failures";
    /** counter {farm, real, to}: real state transitions. */
    public static final String REAL_TRANSITIONS = "mclb.real.transitions";
    /** gauge {table}: sticky entries per table kind. */
    public static final String STICKY_ENTRIES = "mclb.sticky.entries";
    /** Sticky entries not written because the table was full (the request was balanced without one). */
    public static final String STICKY_REFUSED_FULL = "mclb.sticky.refused.full";
    /** gauge {vserver, state}: 1 for the virtual server's current state. */
    public static final String VSERVER_STATE = "mclb.vserver.state";
    /** counter {result}: configuration reloads (ok, failed). */
    public static final String CONFIG_RELOADS = "mclb.config.reloads";
    /** counter {probe, farm, real, result}: probe checks by result (success, failure, timeout). */
    public static final String PROBE_RESULTS = "mclb.probe.results";
    /** timer {probe, farm, real}: round trip of passed probe checks. */
    public static final String PROBE_DURATION = "mclb.probe.duration";
    /** counter {farm, real, outcome}: in-band suspicions of a real with probes (confirmed, cleared). */
    public static final String INBAND_SUSPECT = "mclb.inband.suspect";
    /** counter {class}: enhanced bring-up checks started (tcp, other). */
    public static final String PROBE_BRINGUP_CHECKS = "mclb.probe.bringup.checks";
    /** gauge {class}: bring-up checks in flight now. */
    public static final String PROBE_BRINGUP_IN_FLIGHT = "mclb.probe.bringup.in.flight";
    /** gauge {class}: bring-up checks waiting for a cycle. */
    public static final String PROBE_BRINGUP_WAITING = "mclb.probe.bringup.waiting";
    /** gauge {vserver}: 1 while the virtual server is serviceable (in service, HA-active, a real up). */
    public static final String VSERVER_SERVICEABLE = "mclb.vserver.serviceable";
    /** gauge {address}: 1 while mclb has the virtual address's host route installed for the routing daemon. */
    public static final String ROUTE_ADVERTISED = "mclb.route.advertised";
    /** counter {action, result}: route health injection changes (install, withdraw; ok, failed). */
    public static final String ROUTE_CHANGES = "mclb.route.changes";
    /** gauge {agent}: a DFP agent's CISCO-SLB-MIB state number (1 not open .. 4 open, 5 failed, 6 security error). */
    public static final String DFP_AGENT_STATE = "mclb.dfp.agent.state";
    /** counter {agent}: Preference Information messages accepted from a DFP agent. */
    public static final String DFP_REPORTS = "mclb.dfp.reports";
    /** counter {agent, reason}: DFP streams refused (connection closed, weights untouched), by reason. */
    public static final String DFP_REFUSED = "mclb.dfp.refused";
    /** counter {agent}: reported hosts that match no real (ignored). */
    public static final String DFP_UNKNOWN_HOSTS = "mclb.dfp.unknown.hosts";
    /** counter {agent}: Preference Information messages mclb's own DFP agent sent (ip dfp agent NAME). */
    public static final String DFP_REPORTS_SENT = "mclb.dfp.reports.sent";
    /** gauge {agent}: managers connected to mclb's own DFP agent now. */
    public static final String DFP_MANAGERS = "mclb.dfp.managers";
    /** gauge {vserver, tag}: KAL-AP load 0..255 (255 = offline). */
    public static final String KALAP_LOAD = "mclb.kalap.load";
    /** gauge {version, transport}: 1; build information. */
    public static final String INFO = "mclb.info";
    /** gauge {version, commit, java}: 1; version as {@code mclb -V} prints it ({@link BuildInfo}). */
    public static final String BUILD_INFO = "mclb.build.info";
    /** counter {farm, real}: answers from a real matched to its request or flow. */
    public static final String REAL_RESPONSES = "mclb.real.responses";
    /** gauge: entries the sticky table was created for ({@code mclb sticky entries} of its first start). */
    public static final String STICKY_CAPACITY = "mclb.sticky.capacity";
    /** counter {reason}: admin requests and connections refused (tokens, limits, timeouts), {@link io.mclb.admin.AdminRefusals}. */
    public static final String ADMIN_REFUSALS = "mclb.admin.refusals";
    /** gauge: TCP connections to the admin listener now (idle and half-sent ones included). */
    public static final String ADMIN_CONNECTIONS = "mclb.admin.connections";
}
