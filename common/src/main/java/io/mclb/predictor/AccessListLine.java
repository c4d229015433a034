package io.mclb.predictor;

/**
 * {@code access-list N permit ip SRC WILDCARD any} (also {@code host SRC} and {@code any}): a
 * source match for route maps. IOS wildcard: 1 bits are "don't care".
 */
public record AccessListLine(int number, int source, int wildcard) {
    public boolean permits(int ip) {
        return (ip & ~wildcard) == (source & ~wildcard);
    }
}
