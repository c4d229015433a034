package io.mclb.config;

/** {@code predictor roundrobin | leastconns | route-map NAME}; IOS default is weighted round robin. */
public enum PredictorKind {
    ROUNDROBIN("roundrobin"),
    LEASTCONNS("leastconns"),
    ROUTE_MAP("route-map");

    private final String keyword;

    PredictorKind(String keyword) {
        this.keyword = keyword;
    }

    public String keyword() {
        return keyword;
    }
}
